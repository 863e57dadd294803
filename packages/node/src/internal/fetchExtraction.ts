/**
 * Where the local fetcher extracts a body: on the calling thread when it is small plain text, markdown or JSON
 * (linear and cheap), else on the extraction pool's workers (HTML, XML and PDF of any size: Readability's cost is
 * not linear in the page). Jobs of one HTTP request take turns with other requests' jobs, not behind their backlog.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as ContentKind from "@websearch/extract/ContentKind"
import type * as Extract from "@websearch/extract/Extract"
import * as ExtractPlain from "@websearch/extract/ExtractPlain"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as ExtractPool from "./extractPool.js"

/** Extracts one fetched body. */
export type Extraction = (
  body: Uint8Array,
  contentType: string | undefined,
  url: string
) => Effect.Effect<Extract.Document, ExtractPool.Failure>

/** The pool's settings, as `Fetch.WorkerOptions` gives them (`false` for no workers at all). */
export interface Workers {
  readonly size?: number | undefined
  /** Plain bodies up to this many bytes are extracted on the calling thread. */
  readonly threshold?: number | undefined
  readonly entry?: { readonly url: URL; readonly execArgv?: ReadonlyArray<string> | undefined } | undefined
}

/** The extraction of a fetch provider; its workers (when any) start on first use and stop with the scope. */
export const make = (
  workers: Workers | false | undefined,
  defaultThreshold: number
): Effect.Effect<Extraction, never, Scope.Scope> =>
  Effect.gen(function* () {
    const pool =
      workers === false
        ? undefined
        : yield* ExtractPool.make({
            size: workers?.size ?? ExtractPool.defaultSize(),
            entry:
              workers?.entry === undefined
                ? ExtractPool.defaultEntry()
                : { url: workers.entry.url, execArgv: workers.entry.execArgv ?? [] }
          })
    const threshold = workers === false ? 0 : (workers?.threshold ?? defaultThreshold)
    const cheap = (body: Uint8Array, contentType: string | undefined, url: string): boolean =>
      body.length <= threshold && ExtractPlain.isPlain(ContentKind.classify(contentType, body, url))
    return (body, contentType, url) =>
      Effect.flatMap(Effect.serviceOption(HttpServerRequest.HttpServerRequest), (request) => {
        const job: ExtractPool.Job = {
          body,
          contentType,
          url,
          maxChars: undefined,
          group: Option.getOrUndefined(request)
        }
        return pool !== undefined && !cheap(body, contentType, url) ? pool.extract(job) : ExtractPool.inline(job)
      })
  })
