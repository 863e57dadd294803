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

/** The pool's settings (`Fetch.WorkerOptions`, resolved); `undefined` for no workers at all. */
export interface Workers {
  readonly size: number
  readonly entry: ExtractPool.Entry
  /** Plain bodies up to this many bytes are extracted on the calling thread. */
  readonly threshold: number
}

/** The extraction of a fetch provider; its workers (when any) start on first use and stop with the scope. */
export const make = (workers: Workers | undefined): Effect.Effect<Extraction, never, Scope.Scope> =>
  Effect.gen(function* () {
    const pool =
      workers === undefined ? undefined : yield* ExtractPool.make({ size: workers.size, entry: workers.entry })
    const cheap = (body: Uint8Array, contentType: string | undefined, url: string): boolean =>
      body.length <= (workers?.threshold ?? 0) && ExtractPlain.isPlain(ContentKind.classify(contentType, body, url))
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
