/**
 * The one private pipeline behind every capability: resolve the provider, check it can serve the capability,
 * fan out one driver call per input with bounded concurrency and a per-input timeout, fail fast on abort,
 * report partial failures, merge in input order, blacklist, post-process.
 */
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Blacklist from "../Blacklist.js"
import type { Capability, ListCapability } from "../Capability.js"
import { toEnvName as capabilityEnvName } from "../Capability.js"
import * as Compression from "../Compression.js"
import * as ContentBudget from "../ContentBudget.js"
import * as PostProcessing from "../PostProcessing.js"
import * as Progress from "../Progress.js"
import type { DriverContext, DriverResult, ProviderDriver } from "../ProviderDriver.js"
import * as ProviderId from "../ProviderId.js"
import * as ProviderQuota from "../ProviderQuota.js"
import type { ProviderConfig, ResolvedProvider } from "../ProviderConfig.js"
import * as ProviderRegistry from "../ProviderRegistry.js"
import * as ResultCache from "../ResultCache.js"
import type * as Settings from "../Settings.js"
import * as UrlPolicy from "../UrlPolicy.js"
import * as UsageSink from "../UsageSink.js"
import * as WebSearchError from "../WebSearchError.js"
import type { NormalizedRequest, ResearchRequest } from "../WebSearchRequest.js"
import * as WebSearchResponse from "../WebSearchResponse.js"
import * as Deadline from "./deadline.js"

/** What the pipeline reads: captured by the capability services when their Layer is built. */
export interface Env {
  readonly settings: Settings.Service
  readonly registry: ProviderRegistry.Service
  /** The application's own `fetchUrls`, handed to drivers (a search provider that reads the pages it finds). */
  readonly fetchUrls: DriverContext["fetchUrls"]
}

/** A driver context for a call: the resolved configuration, the provider's options and the late-bound fetcher. */
const driverContext = (env: Env, config: ProviderConfig): DriverContext => ({
  ...config,
  options: config.provider.options,
  fetchUrls: env.fetchUrls
})

/**
 * The optional services are read once, from the composition; one provided to a call instead (or beside
 * `WebSearch.layer`, which puts it in every call's context) would be ignored, so it fails loudly, saying where
 * it belongs.
 */
export const checkPlacement = (env: Env): Effect.Effect<void, WebSearchError.Unavailable> =>
  Effect.flatMap(Effect.context<never>(), (context) => {
    const { services } = env.registry
    const misplaced = [
      [ContentBudget.TokenCounter.key, services.tokenCounter, "a TokenCounter", "ContentBudget.layerTokenCounter"],
      [Compression.ChunkRanker.key, services.chunkRanker, "a ChunkRanker", "Compression.layerChunkRanker"],
      [UsageSink.UsageSink.key, services.usageSink, "a UsageSink", "UsageSink.layer"]
    ].find(
      ([key, captured]) => context.unsafeMap.has(key as string) && context.unsafeMap.get(key as string) !== captured
    )
    return misplaced === undefined
      ? Effect.void
      : Effect.fail(
          WebSearchError.unavailable(
            "invalid_config",
            `${misplaced[2]} was provided to this call or beside WebSearch.layer, where websearch ignores it: compose it as a part, WebSearch.layer(..., ${misplaced[3]}(...))`
          )
        )
  })

/** Runs post-processing and driver calls with the composed token counter, ranker and usage sink. */
const withServices = <A, E, R>(env: Env, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  effect.pipe(
    Effect.provideService(ContentBudget.TokenCounter, env.registry.services.tokenCounter),
    Effect.provideService(Compression.ChunkRanker, env.registry.services.chunkRanker),
    Effect.provideService(UsageSink.UsageSink, env.registry.services.usageSink)
  )

interface Resolved<Call> {
  readonly providerId: ProviderId.ProviderId
  readonly provider: ResolvedProvider
  /** The driver's method for the capability, picked by the capability service. */
  readonly call: Call
  readonly secrets: ReadonlyArray<string>
}

/** Resolves and checks the provider for a capability, before any input is sent anywhere. */
export const resolve = <Call>(
  env: Env,
  requested: ProviderId.ProviderId | undefined,
  capability: Capability,
  method: (driver: ProviderDriver) => Call | undefined
): Effect.Effect<Resolved<Call>, WebSearchError.Unavailable> =>
  Effect.suspend(() => {
    const providerId = requested ?? env.registry.defaults[capability]
    if (providerId === null) {
      return Effect.fail(
        WebSearchError.unavailable(
          "no_default_provider",
          `no provider was given and there is no default for ${capability}: pass providerId, or set defaults.${capability} in the settings (WEBSEARCH_DEFAULT_${capabilityEnvName(capability)}_PROVIDER)`,
          { capability }
        )
      )
    }
    const ctx = { providerId, capability }
    const found = env.registry.lookup(providerId, capability)
    if (Either.isLeft(found)) return Effect.fail(found.left)
    const { driver, entry, provider } = found.right
    const call = method(driver)
    if (call === undefined) {
      return Effect.fail(
        WebSearchError.unavailable(
          "unsupported_capability",
          `the registered ${provider.name} driver does not implement ${capability}`,
          ctx
        )
      )
    }
    if (provider.credentials === "required" && provider.apiKeys.length === 0) {
      return Effect.fail(
        WebSearchError.unavailable(
          "missing_credentials",
          `${provider.name} (${providerId}) needs an API key: set ${ProviderId.toEnvName(providerId)}_API_KEY or providers.${providerId}.apiKeys`,
          ctx
        )
      )
    }
    if (entry.apiHost === undefined && provider.type !== "local") {
      return Effect.fail(
        WebSearchError.unavailable(
          "invalid_config",
          `${provider.name} (${providerId}) has no endpoint for ${capability}: set providers.${providerId}.capabilities.${capability}.apiHost or ${ProviderId.toEnvName(providerId)}_${provider.capabilities.length === 1 ? "" : `${capabilityEnvName(capability)}_`}API_HOST`,
          ctx
        )
      )
    }
    const secrets = ProviderRegistry.secretsOf(provider)
    return Effect.succeed({ providerId, provider, call, secrets })
  })

const errorClasses = [
  WebSearchError.Unavailable,
  WebSearchError.RequestFailed,
  WebSearchError.ResponseInvalid,
  WebSearchError.Aborted
]
const decodeError = Schema.decodeUnknownEither(WebSearchError.WebSearchError)

// A defect may be anything, including a value whose conversion to text throws.
const describeDefect = (defect: unknown): string => {
  try {
    return String(defect instanceof Error ? defect.message : defect)
  } catch {
    return "a value that cannot be shown"
  }
}

/**
 * Calls a driver method. A driver written in plain JavaScript (a provider module) may throw instead of returning
 * an effect, or fail with something that is not one of the four errors: the throw becomes a defect that `guarded`
 * reports, an error of another copy of this package is rebuilt from its fields, and anything else is the driver's
 * bug, reported as `ResponseInvalid/parse_failed` before the quota, cache or scrubbing could trip over it.
 */
const callDriver = <A>(
  resolved: Resolved<unknown>,
  input: string,
  call: () => Effect.Effect<A, WebSearchError.WebSearchError>
): Effect.Effect<A, WebSearchError.WebSearchError> =>
  Effect.mapError(Effect.suspend(call), (error: unknown): WebSearchError.WebSearchError => {
    if (errorClasses.some((errorClass) => error instanceof errorClass)) return error as WebSearchError.WebSearchError
    try {
      const decoded = decodeError(error)
      if (Either.isRight(decoded)) return decoded.right
    } catch {
      // Reading the value threw: it is not an error of ours either.
    }
    return WebSearchError.responseInvalid(
      "parse_failed",
      `the ${resolved.provider.name} driver failed on "${input}" with a value that is not a websearch error`
    )
  })

const isDriverResult = (u: unknown): u is DriverResult =>
  typeof u === "object" &&
  u !== null &&
  typeof (u as DriverResult).title === "string" &&
  typeof (u as DriverResult).content === "string" &&
  typeof (u as DriverResult).url === "string"

/**
 * Runs one driver call under the capability's timeout, turning defects into typed errors and attaching the
 * provider, capability and input to whatever fails. Secrets are scrubbed from messages.
 */
const guarded = <A>(
  resolved: Resolved<unknown>,
  capability: Capability,
  input: string,
  timeout: Duration.Duration,
  call: Effect.Effect<A, WebSearchError.WebSearchError>
): Effect.Effect<A, WebSearchError.WebSearchError> =>
  Deadline.timeoutFail(call, timeout, () =>
    WebSearchError.requestFailed(
      "timeout",
      `${resolved.provider.name} did not answer ${capability} for "${input}" within ${Duration.format(timeout)}`
    )
  ).pipe(
    Effect.catchAllDefect((defect) => {
      // The defect itself (message and stack) may quote a key, so only the scrubbed message is logged.
      const error = WebSearchError.scrub(
        WebSearchError.responseInvalid(
          "parse_failed",
          `the ${resolved.provider.name} driver failed unexpectedly on "${input}": ${describeDefect(defect)}`
        ),
        resolved.secrets
      )
      return Effect.logError(`websearch driver defect: ${error.message}`).pipe(Effect.zipRight(Effect.fail(error)))
    }),
    Effect.mapError((error) =>
      WebSearchError.scrub(
        WebSearchError.annotate(error, {
          providerId: resolved.providerId,
          capability,
          input,
          // A driver's empty message would leave the caller with nothing but the reason.
          ...(error.message.trim() === ""
            ? {
                message: `${resolved.provider.name} failed ${capability} for "${input}": ${error._tag}/${error.reason}`
              }
            : {})
        }),
        resolved.secrets
      )
    ),
    // A stack trace per span costs more than the rest of the pipeline's own work; the span name locates it.
    Effect.withSpan(`websearch.provider.${capability}`, {
      captureStackTrace: false,
      attributes: { "websearch.provider": resolved.providerId, "websearch.capability": capability }
    })
  )

const logFailure = (error: WebSearchError.WebSearchError) =>
  Effect.logWarning(`websearch input failed: ${error.message}`).pipe(
    Effect.annotateLogs({
      providerId: error.providerId,
      capability: error.capability,
      input: error.input,
      tag: error._tag,
      reason: error.reason,
      retryable: error.retryable
    })
  )

const allFailed = (
  failures: ReadonlyArray<readonly [string, WebSearchError.WebSearchError]>
): WebSearchError.WebSearchError => {
  const [, first] = failures[0]
  const summary = failures.map(([input, e]) => `"${input}": ${e._tag}/${e.reason} (${e.message})`).join("; ")
  return WebSearchError.annotate(first, {
    message: `all ${failures.length} input${failures.length === 1 ? "" : "s"} failed: ${summary}`,
    failures: failures.map(([input, error]) => WebSearchError.toInputFailure(input, error))
  })
}

/** One input of a list capability, as the capability service adapts its driver method. */
export type ListCall = (
  input: string,
  ctx: DriverContext
) => Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError>

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
    const filter = env.settings.filter
    const urlPolicy = UrlPolicy.fromSettings(env.settings)
    const cache = Option.getOrUndefined(env.registry.services.resultCache)
    const quota = env.registry.quota

    const callOne = (
      input: string
    ): Effect.Effect<
      Either.Either<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError>,
      WebSearchError.Aborted
    > => {
      // Refused before any provider sees the URL (and before a cached answer is served for it).
      const checked = capability === "fetchUrls" ? UrlPolicy.checkUrl(urlPolicy, input) : undefined
      if (checked !== undefined && Either.isLeft(checked)) {
        return Effect.succeed(
          Either.left(WebSearchError.annotate(checked.left, { providerId: resolved.providerId, capability, input }))
        )
      }
      // The allowlist lets our own transport reach private hosts; a remote provider must never be told of them.
      if (checked !== undefined && checked.right.allowlisted && resolved.provider.type !== "local") {
        return Effect.succeed(
          Either.left(
            WebSearchError.requestFailed(
              "ssrf_rejected",
              `${checked.right.url.protocol}//${checked.right.url.host} is allowlisted as a private host: only a local provider fetches it, it is never sent to ${resolved.provider.name}`,
              { providerId: resolved.providerId, capability, input }
            )
          )
        )
      }
      if (capability === "fetchUrls" && !Blacklist.isAllowed(filter, input)) {
        const listed = filter.blacklist.test(input)
        return Effect.succeed(
          Either.left(
            WebSearchError.requestFailed(
              "blacklisted",
              listed
                ? `"${input}" is on the blacklist; it was not fetched`
                : `"${input}" is not on the allowlist; it was not fetched`,
              { providerId: resolved.providerId, capability, input }
            )
          )
        )
      }
      const call = env.registry.resolve(resolved.providerId, capability, { maxResults: request.maxResults }).pipe(
        Effect.flatMap((config) => {
          const ctx = driverContext(env, config)
          // A provider that ignores the requested count must not exceed it; what a JavaScript driver returns is
          // checked, since post-processing reads every field.
          const metered = ProviderQuota.limit(
            quota,
            {
              providerId: resolved.providerId,
              rateLimit: resolved.provider.rateLimit,
              // A local fetcher's Retry-After is one site's, not the provider's.
              retryAfterHoldsProvider: resolved.provider.type !== "local"
            },
            Effect.flatMap(
              callDriver(resolved, input, () => resolved.call(input, ctx)),
              (results): Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError> => {
                const kept = Array.isArray(results) ? results.slice(0, ctx.maxResults) : undefined
                return kept !== undefined && kept.every(isDriverResult)
                  ? Effect.succeed(kept)
                  : Effect.fail(
                      WebSearchError.responseInvalid(
                        "decode_failed",
                        `the ${resolved.provider.name} driver returned results outside the contract (title, content and url strings) for "${input}"`
                      )
                    )
              }
            )
          ).pipe(Effect.mapError((error) => WebSearchError.scrub(error, resolved.secrets)))
          return guarded(
            resolved,
            capability,
            input,
            ctx.timeout,
            // A cache hit spends no quota; what is stored is scrubbed, since a store may outlive this process.
            cache === undefined
              ? metered
              : cache.serve(
                  {
                    providerId: resolved.providerId,
                    capability,
                    input,
                    maxResults: ctx.maxResults,
                    apiHost: ctx.apiHost,
                    engines: resolved.provider.engines
                  },
                  ResultCache.policyFor(env.settings.cache, capability),
                  metered
                )
          )
        })
      )
      return call.pipe(
        Effect.map(Either.right),
        Effect.catchAll((error) => (error._tag === "Aborted" ? Effect.fail(error) : Effect.succeed(Either.left(error))))
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
            // The cause also holds the siblings' interruptions; the request failed with the input's error alone.
            Effect.catchAllCause((cause) =>
              Either.match(Cause.failureOrCause(cause), { onLeft: Effect.fail, onRight: Effect.failCause })
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
    const output = yield* guarded(
      resolved,
      "research",
      request.query,
      ctx.timeout,
      withServices(
        env,
        callDriver(resolved, request.query, () => resolved.call(request, ctx))
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
