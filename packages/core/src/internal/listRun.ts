/**
 * One list request's run on one resolved provider, in the parts the single-provider pipeline and the fused one
 * share: resolving and checking the provider (the search options included) before anything is sent, fanning out
 * one call per input through the stages with bounded concurrency (an abort fails fast, any other failure is the
 * input's outcome), the domain options enforced on each input's results, and the finish every response gets
 * (blacklist, post-processing).
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Blacklist from "./blacklist.js"
import * as OutboundProxy from "../OutboundProxy.js"
import type { ListCapability } from "../Capability.js"
import * as Paging from "./paging.js"
import * as PostProcessing from "./postProcessing.js"
import * as Progress from "../Progress.js"
import type { DriverResult, ProviderDriver } from "../ProviderDriver.js"
import type * as ProviderId from "../ProviderId.js"
import * as UrlPolicy from "../UrlPolicy.js"
import type * as WebSearchError from "../WebSearchError.js"
import type { NormalizedRequest } from "../WebSearchRequest.js"
import * as WebSearchResponse from "../WebSearchResponse.js"
import { driverContext, type Env } from "./pipelineEnv.js"
import { resolve, type Resolved } from "./resolution/check.js"
import * as SearchDomains from "./searchDomains.js"
import { blacklistGate } from "./stages/blacklistGate.js"
import { cache } from "./stages/cache.js"
import { callGuard } from "./stages/callGuard.js"
import { driverCall } from "./stages/driverCall.js"
import type { ListCall } from "./stages/inputCall.js"
import { optionGate } from "./stages/optionGate.js"
import { pageStore } from "./stages/pageStore.js"
import { privateHostGuard } from "./stages/privateHostGuard.js"
import { quota } from "./stages/quota.js"
import { resultCheck } from "./stages/resultCheck.js"
import { urlGate } from "./stages/urlGate.js"

/** A request of a list capability. */
export type ListRequest = NormalizedRequest & { readonly capability: ListCapability }

/** One input's outcome: its results (each with `sourceInput`), or its failure. */
export type Outcome = Either.Either<ReadonlyArray<WebSearchResponse.WebSearchResult>, WebSearchError.WebSearchError>

/**
 * Resolves and checks the provider, then refuses the search options it cannot apply: all before any input is
 * sent anywhere.
 */
export const prepare = (
  env: Env,
  request: ListRequest,
  providerId: ProviderId.ProviderId | undefined,
  method: (driver: ProviderDriver) => ListCall | undefined
): Effect.Effect<Resolved<ListCall>, WebSearchError.WebSearchError> =>
  Effect.flatMap(resolve(env, providerId, request.capability, method), (resolved) => {
    const refused = optionGate(resolved, request.capability, request.searchOptions)
    return refused === undefined ? Effect.succeed(resolved) : Effect.fail(refused)
  })

/**
 * Runs every input on the resolved provider through the stages, `settings.concurrency` at a time, and gives the
 * outcomes in input order. An `Aborted` from one input interrupts every other call and fails the run.
 */
export const collect: (
  env: Env,
  request: ListRequest,
  resolved: Resolved<ListCall>
) => Effect.Effect<ReadonlyArray<Outcome>, WebSearchError.Aborted> = Effect.fnUntraced(
  function* (env, request, resolved) {
    const { capability, inputs, searchOptions } = request
    const urlPolicy = UrlPolicy.fromSettings(env.settings)
    const filtersDomains = SearchDomains.isActive(searchOptions)
    // Fetched pages are served in pages (the whole page up to the hard cap when the request names no window).
    const window = capability === "fetchUrls" ? (request.paging ?? Paging.defaultWindow) : undefined

    // The domain options hold on every result, also where the provider took them natively: providers match
    // loosely. What they drop is logged, as the blacklist's drops are.
    const withDomains = (input: string, results: ReadonlyArray<DriverResult>): Effect.Effect<Outcome> => {
      // `Object.assign`, not `{ ...result, sourceInput }`: on Node 20 a key added after a spread costs about a
      // microsecond (the clone's map does not take the transition), and this runs for every result.
      const tagged = results.map((result) => Object.assign({}, result, { sourceInput: input }))
      if (!filtersDomains) return Effect.succeed(Either.right(tagged))
      const kept = tagged.filter((result) => SearchDomains.allows(searchOptions, result.url))
      return kept.length === tagged.length
        ? Effect.succeed(Either.right(kept))
        : Effect.as(
            Effect.logDebug(
              `websearch dropped ${tagged.length - kept.length} result(s) of ${resolved.providerId} for "${input}" outside includeDomains/excludeDomains`
            ),
            Either.right(kept)
          )
    }

    // One input through the stages, in order; a refusal or failure is the input's outcome, an abort the request's.
    const callOne = (input: string): Effect.Effect<Outcome, WebSearchError.Aborted> => {
      const call = { env, resolved, capability, input }
      const checked = urlGate(call, urlPolicy)
      const refused = Either.isLeft(checked)
        ? checked.left
        : (privateHostGuard(call, checked.right) ?? blacklistGate(call))
      if (refused !== undefined) return Effect.succeed(Either.left(refused))
      // The provider was resolved and checked once for the request: each input only takes the next key.
      return env.registry.configure(resolved, { maxResults: request.maxResults, searchOptions }).pipe(
        Effect.flatMap((config) => {
          const ctx = driverContext(env, config)
          const driver = driverCall(call, () => OutboundProxy.withProvider(ctx.provider)(resolved.call(input, ctx)))
          const checked = quota(call, resultCheck(call, ctx.maxResults, driver))
          return window === undefined
            ? callGuard(call, ctx.timeout, cache(call, ctx, checked))
            : callGuard(call, ctx.timeout, pageStore(call, ctx, window, cache(call, ctx, checked))).pipe(
                Effect.map((results) => results.map((result) => Paging.apply(result, window)))
              )
        }),
        Effect.matchEffect({
          onFailure: (error) => (error._tag === "Aborted" ? Effect.fail(error) : Effect.succeed(Either.left(error))),
          onSuccess: (results) => withDomains(input, results)
        })
      )
    }

    const progress = yield* Progress.Progress
    // The default reporter ignores every event: then there is nothing to build them for.
    const reporting = progress !== Progress.silent
    let finished = 0
    const report = (input: string, outcome: Outcome) =>
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

    const one = (input: string) =>
      reporting ? Effect.tap(callOne(input), (outcome) => report(input, outcome)) : callOne(input)
    // The fan-out fails fast: an Aborted from one input interrupts every other in-flight call. A single input has
    // no siblings to interrupt, so it runs in this fiber: forking one would only add cost.
    return inputs.length === 1
      ? [yield* one(inputs[0])]
      : yield* Effect.forEach(inputs, one, { concurrency: env.settings.concurrency }).pipe(failedAlone)
  }
)

/**
 * A fan-out's failure as the request's: the cause also holds the siblings' interruptions, so the request fails
 * with the failing call's error alone, unless a defect is in it too, which is never dropped.
 */
export const failedAlone = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> =>
  Effect.catchAllCause(effect, (cause) =>
    Cause.isDie(cause)
      ? Effect.failCause(cause)
      : Either.match(Cause.failureOrCause(cause), { onLeft: Effect.fail, onRight: Effect.failCause })
  )

/** What names the answer besides its results: the provider (or the fused ones) and how options were applied. */
export type Identity = Pick<WebSearchResponse.WebSearchResponse, "providerId" | "providerIds" | "appliedOptions">

/** The response: the results blacklisted and post-processed, with the partial failures. */
export const finish: (
  env: Env,
  request: ListRequest,
  merged: ReadonlyArray<WebSearchResponse.WebSearchResult>,
  failures: ReadonlyArray<WebSearchError.InputFailure>,
  identity: Identity
) => Effect.Effect<WebSearchResponse.WebSearchResponse> = Effect.fnUntraced(
  function* (env, request, merged, failures, identity) {
    const { capability, inputs } = request
    const { dropped, kept } = Blacklist.filterResults(merged, env.settings.filter)
    if (dropped.length > 0) {
      yield* Effect.logDebug(`websearch dropped ${dropped.length} result(s) by blacklist, allowlist or bad URL`)
    }
    const query = WebSearchResponse.joinQuery(inputs)
    const results = yield* PostProcessing.run(kept, {
      query,
      budget: env.settings.budget,
      compression: env.settings.compression,
      continuable: capability === "fetchUrls",
      tokenCounter: env.registry.services.tokenCounter,
      chunkRanker: env.registry.services.chunkRanker
    })
    yield* Effect.annotateCurrentSpan({
      "websearch.results": results.length,
      "websearch.failures": failures.length
    })
    return {
      query,
      providerId: identity.providerId,
      ...(identity.providerIds === undefined ? {} : { providerIds: identity.providerIds }),
      capability,
      inputs,
      results,
      failures,
      ...(identity.appliedOptions === undefined ? {} : { appliedOptions: identity.appliedOptions })
    }
  }
)
