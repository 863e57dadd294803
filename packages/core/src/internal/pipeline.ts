/**
 * The one private pipeline behind every capability: resolve the provider, check it can serve the capability,
 * fan out one call per input with bounded concurrency, each through the stages in `stages/` (URL gate,
 * private-host guard, blacklist, then timeout and defects around the cache, the quota, the result check and the
 * driver call), fail fast on abort, report partial failures, merge in input order, blacklist, post-process.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Blacklist from "../Blacklist.js"
import type { ListCapability } from "../Capability.js"
import * as PostProcessing from "../PostProcessing.js"
import * as Progress from "../Progress.js"
import type { DriverResult, ProviderDriver } from "../ProviderDriver.js"
import type * as ProviderId from "../ProviderId.js"
import * as UrlPolicy from "../UrlPolicy.js"
import * as WebSearchError from "../WebSearchError.js"
import type { NormalizedRequest, ResearchRequest } from "../WebSearchRequest.js"
import * as WebSearchResponse from "../WebSearchResponse.js"
import { allFailed, logFailure } from "./listOutcome.js"
import { driverContext, type Env, withServices } from "./pipelineEnv.js"
import { resolve } from "./resolveProvider.js"
import { blacklistGate } from "./stages/blacklistGate.js"
import { cache } from "./stages/cache.js"
import { callGuard } from "./stages/callGuard.js"
import { driverCall } from "./stages/driverCall.js"
import type { InputCall, ListCall } from "./stages/inputCall.js"
import { privateHostGuard } from "./stages/privateHostGuard.js"
import { quota } from "./stages/quota.js"
import { resultCheck } from "./stages/resultCheck.js"
import { urlGate } from "./stages/urlGate.js"

export { checkPlacement, type Env } from "./pipelineEnv.js"
export { resolve } from "./resolveProvider.js"
export type { ListCall } from "./stages/inputCall.js"

type ListRequest = NormalizedRequest & { readonly capability: ListCapability }

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
 * spanned. Partial failures never fall back: the inputs that succeeded are answered.
 */
export const runList = (
  env: Env,
  request: ListRequest,
  method: (driver: ProviderDriver) => ListCall | undefined
): Effect.Effect<WebSearchResponse.WebSearchResponse, WebSearchError.WebSearchError> => {
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

const runOnProvider = (
  env: Env,
  request: ListRequest,
  providerId: ProviderId.ProviderId | undefined,
  method: (driver: ProviderDriver) => ListCall | undefined
): Effect.Effect<WebSearchResponse.WebSearchResponse, WebSearchError.WebSearchError> =>
  Effect.gen(function* () {
    const { capability, inputs } = request
    const resolved = yield* resolve(env, providerId, capability, method)
    yield* Effect.annotateCurrentSpan({ "websearch.provider": resolved.providerId })
    const { filter } = env.settings
    const urlPolicy = UrlPolicy.fromSettings(env.settings)

    // One input through the stages, in order; a refusal or failure is the input's outcome, an abort the request's.
    const callOne = (
      input: string
    ): Effect.Effect<
      Either.Either<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError>,
      WebSearchError.Aborted
    > => {
      const call = { env, resolved, capability, input }
      const checked = urlGate(call, urlPolicy)
      const refused = Either.isLeft(checked)
        ? checked.left
        : (privateHostGuard(call, checked.right) ?? blacklistGate(call))
      if (refused !== undefined) return Effect.succeed(Either.left(refused))
      return env.registry
        .resolve(resolved.providerId, capability, {
          maxResults: request.maxResults,
          searchOptions: request.searchOptions
        })
        .pipe(
          Effect.flatMap((config) => {
            const ctx = driverContext(env, config)
            const driver = driverCall(call, () => resolved.call(input, ctx))
            return callGuard(
              call,
              ctx.timeout,
              cache(call, ctx, quota(call, resultCheck(call, ctx.maxResults, driver)))
            )
          }),
          Effect.map(Either.right),
          Effect.catchAll((error) =>
            error._tag === "Aborted" ? Effect.fail(error) : Effect.succeed(Either.left(error))
          )
        )
    }

    const progress = yield* Progress.Progress
    let finished = 0
    const report = (
      input: string,
      outcome: Either.Either<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError>
    ) =>
      progress.inputFinished({
        capability,
        providerId: resolved.providerId,
        input,
        finished: ++finished,
        total: inputs.length,
        outcome: Either.isRight(outcome)
          ? { _tag: "Succeeded", results: outcome.right.length }
          : { _tag: "Failed", error: outcome.left }
      })

    const one = (input: string) => Effect.tap(callOne(input), (outcome) => report(input, outcome))
    // The fan-out fails fast: an Aborted from one input interrupts every other in-flight call. A single input has
    // no siblings to interrupt, so it runs in this fiber: forking one would only add cost.
    const outcomes =
      inputs.length === 1
        ? [yield* one(inputs[0])]
        : yield* Effect.forEach(inputs, one, { concurrency: env.settings.concurrency }).pipe(
            // The cause also holds the siblings' interruptions; the request failed with the input's error alone,
            // unless a defect is in it too, which is never dropped.
            Effect.catchAllCause((cause) =>
              Cause.isDie(cause)
                ? Effect.failCause(cause)
                : Either.match(Cause.failureOrCause(cause), { onLeft: Effect.fail, onRight: Effect.failCause })
            )
          )

    const failures: Array<readonly [string, WebSearchError.WebSearchError]> = []
    const merged: Array<WebSearchResponse.WebSearchResult> = []
    for (const [index, outcome] of outcomes.entries()) {
      const input = inputs[index]
      if (Either.isLeft(outcome)) failures.push([input, outcome.left])
      else for (const result of outcome.right) merged.push({ ...result, sourceInput: input })
    }
    if (failures.length > 0) yield* Effect.forEach(failures, ([, error]) => logFailure(error), { discard: true })
    if (failures.length === inputs.length) return yield* Effect.fail(allFailed(failures))

    const { dropped, kept } = Blacklist.filterResults(merged, filter)
    if (dropped.length > 0) {
      yield* Effect.logDebug(`websearch dropped ${dropped.length} result(s) by blacklist, allowlist or bad URL`)
    }
    const query = WebSearchResponse.joinQuery(inputs)
    const results = yield* withServices(
      env,
      PostProcessing.run(kept, {
        query,
        budget: env.settings.budget,
        compression: env.settings.compression
      })
    )
    yield* Effect.annotateCurrentSpan({
      "websearch.results": results.length,
      "websearch.failures": failures.length
    })
    return {
      query,
      providerId: resolved.providerId,
      capability,
      inputs,
      results,
      failures: failures.map(([input, error]) => WebSearchError.toInputFailure(input, error))
    }
  }).pipe(
    Effect.withSpan("websearch.attempt", {
      captureStackTrace: false,
      attributes: { "websearch.provider.requested": providerId ?? "default" }
    })
  )

const decodeResearch = Schema.decodeUnknown(WebSearchResponse.ResearchResponse)

/** The `research` pipeline: one call, no fanout. */
export const runResearch = (
  env: Env,
  request: ResearchRequest
): Effect.Effect<WebSearchResponse.ResearchResponse, WebSearchError.WebSearchError> =>
  Effect.gen(function* () {
    const resolved = yield* resolve(env, request.providerId, "research", (driver) => driver.research)
    const ctx = driverContext(env, yield* env.registry.resolve(resolved.providerId, "research"))
    const call: InputCall = { env, resolved, capability: "research", input: request.query }
    const output = yield* callGuard(
      call,
      ctx.timeout,
      withServices(
        env,
        driverCall(call, () => resolved.call(request, ctx))
      )
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
  }).pipe(Effect.withSpan("websearch.research", { attributes: { "websearch.capability": "research" } }))
