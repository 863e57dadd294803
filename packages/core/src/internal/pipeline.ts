/**
 * The one private pipeline behind every capability: resolve the provider, check it can serve the capability and
 * apply the request's search options, fan out one call per input with bounded concurrency, each through the
 * stages in `stages/` (URL gate, private-host guard, blacklist, then timeout and defects around the cache, the
 * quota, the result check and the driver call), enforce the domain options, fail fast on abort, report partial
 * failures, merge in input order, blacklist, post-process (`listRun`). A fused search runs that on each of its
 * providers and fuses the rankings (`fusedRun`).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as OutboundProxy from "../OutboundProxy.js"
import type { ProviderDriver } from "../ProviderDriver.js"
import type * as ProviderId from "../ProviderId.js"
import * as OptionsSet from "./searchOptionsSet.js"
import * as WebSearchError from "../WebSearchError.js"
import type { ResearchRequest } from "../WebSearchRequest.js"
import * as WebSearchResponse from "../WebSearchResponse.js"
import { runFused } from "./fusedRun.js"
import { collect, finish, type ListRequest, prepare } from "./listRun.js"
import { allFailed, logFailure } from "./listOutcome.js"
import { driverContext, type Env } from "./pipelineEnv.js"
import { resolve } from "./resolution/check.js"
import * as ServicePlacement from "./servicePlacement.js"
import { callGuard } from "./stages/callGuard.js"
import { driverCall } from "./stages/driverCall.js"
import type { InputCall, ListCall } from "./stages/inputCall.js"
import { appliedOptions } from "./stages/optionGate.js"

export type { Env } from "./pipelineEnv.js"
export { resolve } from "./resolution/check.js"
export type { ListCall } from "./stages/inputCall.js"

/**
 * Refuses a token counter, chunk ranker or usage sink provided to the call (or beside `WebSearch.layer`) instead
 * of composed: the pipeline passes the composed ones on and would ignore it.
 */
export const checkPlacement = (env: Env): Effect.Effect<void, WebSearchError.Unavailable> =>
  ServicePlacement.check("call", env.registry.services)

// Input problems and refusals would fail the same way on any provider, and an abort must stop everything. A URL
// the policy refuses is not handed to another provider either: that would send a private address elsewhere.
const fallsBack = (error: WebSearchError.WebSearchError): boolean =>
  error._tag !== "Aborted" &&
  !(
    error._tag === "RequestFailed" &&
    (error.reason === "invalid_input" || error.reason === "blacklisted" || error.reason === "ssrf_rejected")
  )

/**
 * The `searchKeywords` / `fetchUrls` pipeline; `method` picks the driver's method for the capability. When the
 * request names no provider and the settings configure a fallback chain for the capability, a request that
 * fails as a whole on the default provider is tried on each fallback in turn; every attempt is logged and
 * spanned. Partial failures never fall back: the inputs that succeeded are answered. A request with
 * `providerIds`, or naming no provider when the settings make a fused search the default (`fusion`), is fused
 * instead (`fusedRun`), without fallbacks: the fused providers already stand in for one another.
 */
export const runList = (
  env: Env,
  request: ListRequest,
  method: (driver: ProviderDriver) => ListCall | undefined
): Effect.Effect<WebSearchResponse.WebSearchResponse, WebSearchError.WebSearchError> => {
  const fused =
    request.providerIds ??
    (request.providerId === undefined && request.capability === "searchKeywords"
      ? env.settings.fusion.searchKeywords
      : [])
  if (fused.length > 0) {
    return runFused(env, request, fused, method).pipe(
      Effect.withSpan(`websearch.${request.capability}`, {
        captureStackTrace: false,
        attributes: {
          "websearch.capability": request.capability,
          "websearch.inputs": request.inputs.length,
          "websearch.providers": fused.join(",")
        }
      })
    )
  }
  const chain = request.providerId === undefined ? env.registry.fallbacks[request.capability] : []
  const attempt = (
    providerId: ProviderId.ProviderId | undefined,
    rest: ReadonlyArray<ProviderId.ProviderId>,
    tried: ReadonlyArray<string>
  ): Effect.Effect<WebSearchResponse.WebSearchResponse, WebSearchError.WebSearchError> =>
    runOnProvider(env, request, providerId, method).pipe(
      Effect.catchIf(
        (error) => rest.length > 0 && fallsBack(error),
        (error) => {
          const failed = `${error.providerId ?? providerId ?? "default"} (${error._tag}/${error.reason})`
          return Effect.logWarning(`websearch ${request.capability} falls back from ${failed} to ${rest[0]}`).pipe(
            Effect.annotateLogs({ capability: request.capability, from: error.providerId, to: rest[0] }),
            Effect.zipRight(attempt(rest[0], rest.slice(1), [...tried, failed]))
          )
        }
      ),
      Effect.mapError((error) =>
        tried.length === 0
          ? error
          : WebSearchError.annotate(error, { message: `${error.message} (after ${tried.join(", then ")} failed)` })
      )
    )
  return attempt(request.providerId, chain, []).pipe(
    Effect.withSpan(`websearch.${request.capability}`, {
      captureStackTrace: false,
      attributes: { "websearch.capability": request.capability, "websearch.inputs": request.inputs.length }
    })
  )
}

const runOnProvider: (
  env: Env,
  request: ListRequest,
  providerId: ProviderId.ProviderId | undefined,
  method: (driver: ProviderDriver) => ListCall | undefined
) => Effect.Effect<WebSearchResponse.WebSearchResponse, WebSearchError.WebSearchError> = Effect.fnUntraced(
  function* (env, request, providerId, method) {
    const { inputs } = request
    const resolved = yield* prepare(env, request, providerId, method)
    yield* Effect.annotateCurrentSpan({ "websearch.provider": resolved.providerId })
    const outcomes = yield* collect(env, request, resolved)

    const failures: Array<readonly [string, WebSearchError.WebSearchError]> = []
    const merged: Array<WebSearchResponse.WebSearchResult> = []
    for (const [index, outcome] of outcomes.entries()) {
      if (Either.isLeft(outcome)) failures.push([inputs[index], outcome.left])
      else merged.push(...outcome.right)
    }
    if (failures.length > 0) yield* Effect.forEach(failures, ([, error]) => logFailure(error), { discard: true })
    if (failures.length === inputs.length) return yield* Effect.fail(allFailed(failures))
    const applied = OptionsSet.setOptions(request.searchOptions).length > 0
    return yield* finish(
      env,
      request,
      merged,
      failures.map(([input, error]) => WebSearchError.toInputFailure(input, error)),
      {
        providerId: resolved.providerId,
        ...(applied ? { appliedOptions: [appliedOptions(resolved, request.searchOptions)] } : {})
      }
    )
  },
  (effect, _env, _request, providerId) =>
    Effect.withSpan(effect, "websearch.attempt", {
      captureStackTrace: false,
      attributes: { "websearch.provider.requested": providerId ?? "default" }
    })
)

const decodeResearch = Schema.decodeUnknown(WebSearchResponse.ResearchResponse)

/** The `research` pipeline: one call, no fanout. */
export const runResearch: (
  env: Env,
  request: ResearchRequest
) => Effect.Effect<WebSearchResponse.ResearchResponse, WebSearchError.WebSearchError> = Effect.fnUntraced(
  function* (env, request) {
    const resolved = yield* resolve(env, request.providerId, "research", (driver) => driver.research)
    const ctx = driverContext(env, yield* env.registry.configure(resolved))
    const call: InputCall = { env, resolved, capability: "research", input: request.query }
    const output = yield* callGuard(
      call,
      ctx.timeout,
      driverCall(call, () => OutboundProxy.withProvider(ctx.provider)(resolved.call(request, ctx)))
    )
    return yield* decodeResearch({ ...output, providerId: resolved.providerId, query: request.query }).pipe(
      Effect.mapError((error) =>
        WebSearchError.responseInvalid(
          "decode_failed",
          `${resolved.provider.name} returned a research answer outside the contract: ${error.message}`,
          { providerId: resolved.providerId, capability: "research", input: request.query }
        )
      )
    )
  },
  Effect.withSpan("websearch.research", {
    captureStackTrace: false,
    attributes: { "websearch.capability": "research" }
  })
)
