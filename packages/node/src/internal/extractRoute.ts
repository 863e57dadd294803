/**
 * Where the local fetcher extracts each body (`Fetch.WorkerOptions`): text, markdown and JSON up to the threshold on
 * the calling thread (linear and cheap); with `inlineMillis`, the other kinds but PDF up to the same size on the
 * calling thread too, within that time (`boundedExtract`); everything else on the worker pool, which starts on first
 * use and stops when the scope closes. With workers off, everything on the calling thread.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as ContentKind from "@websearch/extract/internal/contentKind"
import type * as Extract from "@websearch/extract/Extract"
import * as ExtractPlain from "@websearch/extract/internal/extractPlain"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as BoundedExtract from "./boundedExtract.js"
import * as ExtractPool from "./extractPool.js"

/** The fetcher's worker options, as `Fetch.WorkerOptions` documents them; `false` for no workers. */
export type Options =
  | false
  | {
      readonly size?: number | undefined
      readonly threshold: number
      readonly inlineMillis?: number | undefined
      readonly entry?: { readonly url: URL; readonly execArgv?: ReadonlyArray<string> | undefined } | undefined
    }

/** Extracts one fetched body where `options` say. */
export type Route = (
  body: Uint8Array,
  contentType: string | undefined,
  url: string
) => Effect.Effect<Extract.Document, ExtractPool.Failure>

export const make: (options: Options) => Effect.Effect<Route, never, Scope.Scope> = Effect.fnUntraced(function* (
  options: Options
) {
  if (options === false) return (body, contentType, url) => ExtractPool.inline(job(body, contentType, url))
  const pool = yield* ExtractPool.make({
    size: options.size ?? ExtractPool.defaultSize(),
    entry:
      options.entry === undefined
        ? ExtractPool.defaultEntry()
        : { url: options.entry.url, execArgv: options.entry.execArgv ?? [] }
  })
  const { inlineMillis, threshold } = options
  return (body, contentType, url) =>
    Effect.flatMap(Effect.serviceOption(HttpServerRequest.HttpServerRequest), (request) => {
      // Jobs of one HTTP request take turns with other requests' jobs, not behind their backlog.
      const one = job(body, contentType, url, Option.getOrUndefined(request))
      if (body.length <= threshold && ExtractPlain.isPlain(ContentKind.classify(contentType, body, url))) {
        return ExtractPool.inline(one)
      }
      if (inlineMillis === undefined) return pool.extract(one)
      return BoundedExtract.extract(one, { maxBytes: threshold, maxMillis: inlineMillis }, pool.extract)
    })
})

const job = (body: Uint8Array, contentType: string | undefined, url: string, group?: unknown): ExtractPool.Job => ({
  body,
  contentType,
  url,
  maxChars: undefined,
  group
})
