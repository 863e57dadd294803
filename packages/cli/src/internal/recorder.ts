/**
 * What a search or fetch has already received, input by input, so that Ctrl-C can print it before the command
 * exits: a result cache hook that passes every call through (to the persistent cache when there is one) and keeps
 * each successful call's results. They are the driver's results as the quota stage passed them, before the
 * request's own post-processing (content budget, compression), since the request never finished; the blacklist and
 * allowlist are applied here.
 */
import type { ListCapability } from "@websearch/core/Capability"
import type * as ResultCache from "@websearch/core/ResultCache"
import type { WebSearchResponse, WebSearchResult } from "@websearch/core/WebSearchResponse"
import * as Effect from "effect/Effect"

/** The hook, and what it kept so far. */
export interface Recorder {
  /** The hook in front of `inner` (the persistent cache), or of the calls themselves. */
  readonly serviceOver: (inner: ResultCache.ResultCache.Service | undefined) => ResultCache.ResultCache.Service
  /** A response of what was received so far, or undefined when nothing was. */
  /** Keeps only the results whose URL passes `allowed` (the settings' blacklist and allowlist). */
  readonly keep: (allowed: (url: string) => boolean) => void
  readonly partial: (capability: ListCapability, inputs: ReadonlyArray<string>) => WebSearchResponse | undefined
}

/** A recorder that has received nothing yet. */
export const make = (): Recorder => {
  const received: Array<WebSearchResult> = []
  let providerId = ""
  let allowed: (url: string) => boolean = () => true
  return {
    keep: (filter) => {
      allowed = filter
    },
    serviceOver: (inner) => ({
      serve: (request, policy, call) =>
        (inner === undefined ? call : inner.serve(request, policy, call)).pipe(
          Effect.tap((results) =>
            Effect.sync(() => {
              providerId = request.providerId
              for (const result of results) received.push({ ...result, sourceInput: request.input })
            })
          )
        )
    }),
    partial: (capability, inputs) => {
      const results = received.filter((result) => allowed(result.url))
      if (results.length === 0) return undefined
      return {
        query: inputs.join(" | "),
        providerId,
        capability,
        inputs: [...new Set(results.map((result) => result.sourceInput))],
        results,
        failures: []
      }
    }
  }
}
