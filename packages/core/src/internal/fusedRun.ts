/**
 * A fused search: every keyword on each of 2–5 providers at once, each provider within its own budget, quota and
 * timeout (the single-provider run of `listRun`, once per provider), and each keyword's rankings fused by
 * reciprocal rank fusion (`Fusion`). A provider failing for a keyword is that pair's partial failure; the request
 * fails only when every provider failed every keyword.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Fusion from "../Fusion.js"
import type { ProviderDriver } from "../ProviderDriver.js"
import type * as ProviderId from "../ProviderId.js"
import * as OptionsSet from "./searchOptionsSet.js"
import * as WebSearchError from "../WebSearchError.js"
import * as WebSearchResponse from "../WebSearchResponse.js"
import { collect, failedAlone, finish, type ListRequest, prepare } from "./listRun.js"
import { logFailure } from "./listOutcome.js"
import type { Env } from "./pipelineEnv.js"
import type { ListCall } from "./stages/inputCall.js"
import { appliedOptions } from "./stages/optionGate.js"

interface Failed {
  readonly input: string
  readonly providerId: ProviderId.ProviderId
  readonly error: WebSearchError.WebSearchError
}

const toFailure = (failed: Failed): WebSearchError.InputFailure =>
  new WebSearchError.InputFailure({
    ...WebSearchError.toInputFailure(failed.input, failed.error),
    providerId: failed.providerId
  })

// The error of a fused search that found nothing anywhere: the first pair's, listing every pair's failure.
const allFailed = (failures: ReadonlyArray<Failed>): WebSearchError.WebSearchError => {
  const summary = failures
    .map(
      ({ error, input, providerId }) => `"${input}" on ${providerId}: ${error._tag}/${error.reason} (${error.message})`
    )
    .join("; ")
  return WebSearchError.annotate(failures[0].error, {
    message: `every provider failed every keyword: ${summary}`,
    failures: failures.map(toFailure)
  })
}

/**
 * Runs a fused search over `providerIds`. Every provider is resolved and its search options checked before any
 * call, so one that cannot serve the request fails it before anything is sent. Each keyword's fused ranking is
 * cut to the request's result count, then the keywords' rankings are joined in keyword order and finished as any
 * response (blacklist, post-processing).
 */
export const runFused: (
  env: Env,
  request: ListRequest,
  providerIds: ReadonlyArray<ProviderId.ProviderId>,
  method: (driver: ProviderDriver) => ListCall | undefined
) => Effect.Effect<WebSearchResponse.WebSearchResponse, WebSearchError.WebSearchError> = Effect.fnUntraced(
  function* (env, request, providerIds, method) {
    const resolved = yield* Effect.forEach(providerIds, (id) => prepare(env, request, id, method))
    // Each provider's run bounds its own concurrency; the providers run side by side, and an abort in one stops all.
    const runs = yield* Effect.forEach(resolved, (provider) => collect(env, request, provider), {
      concurrency: "unbounded"
    }).pipe(failedAlone)

    const maxResults = request.maxResults ?? env.settings.maxResults
    const failures: Array<Failed> = []
    const merged: Array<WebSearchResponse.WebSearchResult> = []
    for (const [index, input] of request.inputs.entries()) {
      const rankings: Array<Fusion.Ranking> = []
      for (const [at, outcomes] of runs.entries()) {
        const outcome = outcomes[index]
        const { providerId } = resolved[at]
        if (Either.isLeft(outcome)) failures.push({ input, providerId, error: outcome.left })
        else rankings.push({ providerId, results: outcome.right })
      }
      merged.push(...Fusion.reciprocalRankFusion(rankings).slice(0, maxResults))
    }
    if (failures.length > 0) yield* Effect.forEach(failures, ({ error }) => logFailure(error), { discard: true })
    if (failures.length === request.inputs.length * resolved.length) return yield* Effect.fail(allFailed(failures))
    const applied = OptionsSet.setOptions(request.searchOptions).length > 0
    return yield* finish(env, request, merged, failures.map(toFailure), {
      providerId: WebSearchResponse.fusedProviderId,
      providerIds: resolved.map((provider) => provider.providerId),
      ...(applied
        ? { appliedOptions: resolved.map((provider) => appliedOptions(provider, request.searchOptions)) }
        : {})
    })
  },
  (effect, _env, _request, providerIds) =>
    Effect.withSpan(effect, "websearch.fusion", {
      captureStackTrace: false,
      attributes: { "websearch.providers": providerIds.join(",") }
    })
)
