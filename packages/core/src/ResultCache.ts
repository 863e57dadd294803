/**
 * The result cache hook: the pipeline asks it for each input (each driver call) before calling the provider, so
 * a repeated search or fetch is answered without spending a provider call. The default caches nothing; a cache
 * is made from a `Store` (in memory, Redis: see `@websearch/node`) with `make` and provided in the context of
 * the calls, like `Progress`.
 *
 * What is kept, and for how long (the TTLs come from the settings' `cache` key):
 * - successes, for `cache.searchKeywords` (10 minutes) or `cache.fetchUrls` (1 hour); `0` turns caching off for
 *   that capability entirely (no look-ups, no negative entries);
 * - a few failures, for `cache.failures` (30 seconds): only answers the provider gave about the input itself,
 *   which would come back the same on an immediate retry: `ResponseInvalid` (empty, undecodable, unsupported
 *   content) and non-retryable `RequestFailed` for `http_404`, `http_status`, `too_large`, `redirect_rejected`,
 *   `blocked` (a wall in front of the page);
 * - never: an interruption or `Aborted`, a timeout, a defect, anything retryable (network, 5xx, 429: the provider
 *   quota honours Retry-After provider-wide, which a per-input entry could not do correctly), anything that
 *   depends on our own settings rather than the provider (`invalid_input`, `blacklisted`, `ssrf_rejected`) and
 *   anything that may depend on the API key used (`Unavailable`, `http_403`), since the key is not in the cache
 *   key.
 *
 * `research` is never cached: it is paid per call, slow and non-deterministic, and a cached report would be
 * a stale answer to a question that was asked again on purpose.
 *
 * A store that fails or does not answer within its timeout is a miss (logged), never a failed request.
 *
 * Entries are scoped to the workspace the call was made for (`ProviderInstance.CallInstances`, which the server sets
 * from each request's token), for built-in providers as for a workspace's instances: one workspace is never
 * answered from another's entry, and a hit never tells it what another workspace read. Calls outside a workspace
 * (a library or command-line call) share the unscoped entries. A key also carries a digest of the provider's
 * configuration beyond its id, endpoint and engines (its own options, basic-auth user, model, proxy), so a store
 * that outlives one configuration (the command line's files, Redis) never answers another from it.
 *
 * @since 0.1.0
 */
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as Schema from "effect/Schema"
import type { ListCapability } from "./Capability.js"
import type { DriverResult } from "./ProviderDriver.js"
import * as Composition from "./Composition.js"
import * as CacheKey from "./internal/cacheKey.js"
import * as CacheTracking from "./internal/cacheTracking.js"
import * as LeasedCall from "./internal/leasedCall.js"
import * as WebSearchError from "./WebSearchError.js"
import { WebSearchResult } from "./WebSearchResponse.js"

/**
 * A store failed or timed out. It never reaches a caller: the cache treats it as a miss and logs it.
 *
 * @since 0.1.0
 * @category errors
 */
export class StoreError extends Schema.TaggedError<StoreError>("@websearch/core/ResultCache/StoreError")(
  "ResultCacheStoreError",
  {
    message: Schema.String,
    cause: Schema.optional(Schema.Defect)
  }
) {}

/**
 * Where entries live: a key-value store with per-entry expiry. Values are plain JSON-compatible data.
 *
 * @since 0.1.0
 * @category models
 */
export interface Store {
  readonly get: (key: string) => Effect.Effect<Option.Option<unknown>, StoreError>
  readonly set: (key: string, value: unknown, timeToLive: Duration.Duration) => Effect.Effect<void, StoreError>
  /**
   * Short leases of a store shared by processes, so concurrent misses for one key make one provider call across
   * them: `acquire` takes a key's lease unless another holder has it (`None`); it renews (false once lost) and
   * releases.
   *
   * @since 0.2.0
   */
  readonly lease?: LeasedCall.Leases<StoreError> | undefined
}

/**
 * Everything that decides the answer of one driver call, and so its cache key. The API key is deliberately
 * not part of it: any key of a provider gets the same answer, and a key must never be written to a store.
 *
 * @since 0.1.0
 * @category models
 */
export type Request = CacheKey.Request

/**
 * How long entries live: successes, and the failures that are cached at all. Zero keeps nothing.
 */
interface Policy {
  readonly success: Duration.Duration
  readonly failure: Duration.Duration
}

/**
 * Normalises an input the way its cache key sees it: keywords are NFC-normalised, trimmed and have whitespace
 * runs collapsed; URLs are parsed (scheme and host lower-cased, default port and fragment dropped, path
 * percent-encoded) since the fragment never reaches the server.
 *
 * @since 0.1.0
 * @category utils
 */
export const normalizeInput: (capability: ListCapability, input: string) => string = CacheKey.normalizeInput

/**
 * The cache key of a driver call. Injective over its parts (they are JSON-encoded as one array), so calls that
 * differ in provider, capability, endpoint, engines, count, normalised input, search options, workspace or
 * configuration variant never share an entry.
 *
 * @since 0.1.0
 * @category utils
 */
export const key: (request: Request) => string = CacheKey.key

const cachedFailures: ReadonlySet<string> = new Set([
  "http_404",
  "http_status",
  "too_large",
  "redirect_rejected",
  "blocked"
])

/**
 * Whether a failure is kept (for the short failure TTL): see the module documentation for the reasoning.
 */
const isCacheableFailure = (error: WebSearchError.WebSearchError): boolean =>
  error._tag === "ResponseInvalid" ||
  (error._tag === "RequestFailed" && !error.retryable && cachedFailures.has(error.reason))

type CallExit = Exit.Exit<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError>

// Only a plain typed failure counts; an interruption or defect anywhere in the cause is never cached.
const typedFailure = (exit: CallExit): Option.Option<WebSearchError.WebSearchError> =>
  Exit.isSuccess(exit) || Cause.isInterrupted(exit.cause) || Option.isSome(Cause.dieOption(exit.cause))
    ? Option.none()
    : Cause.failureOption(exit.cause)

/**
 * How long the outcome of a driver call is kept; zero means it is not stored.
 *
 * @since 0.1.0
 * @category utils
 */
export const timeToLive = (exit: CallExit, policy: Policy): Duration.Duration => {
  if (Exit.isSuccess(exit)) return policy.success
  return Option.match(typedFailure(exit), {
    onNone: () => Duration.zero,
    onSome: (error) => (isCacheableFailure(error) ? policy.failure : Duration.zero)
  })
}

const DriverResultSchema = WebSearchResult.pipe(Schema.omit("sourceInput"))

/**
 * A stored entry, as JSON-compatible data.
 */
const Entry = Schema.Union(
  Schema.TaggedStruct("Success", { results: Schema.Array(DriverResultSchema) }),
  Schema.TaggedStruct("Failure", { error: WebSearchError.WebSearchError })
)

/**
 * @since 0.1.0
 * @category models
 */
export type Entry = typeof Entry.Type

const encodeEntry = Schema.encode(Entry)
const decodeEntry = Schema.decodeUnknown(Entry)

/**
 * The hits and misses seen by `track`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Stats {
  readonly hits: number
  readonly misses: number
}

/**
 * Runs an effect and counts the cache look-ups made on its behalf (every input of every provider attempt).
 * Works across the fibers the pipeline forks.
 *
 * @since 0.1.0
 * @category combinators
 */
export const track = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<[A, Stats], E, R> =>
  CacheTracking.track(self)

/**
 * Sums up tracked look-ups for a response header such as `X-Websearch-Cache`: `hit` when every look-up hit,
 * `miss` when none did, `partial` otherwise, and none when nothing was looked up (no cache, or `research`).
 *
 * @since 0.1.0
 * @category combinators
 */
export const status = (stats: Stats): Option.Option<"hit" | "miss" | "partial"> =>
  stats.hits + stats.misses === 0
    ? Option.none()
    : Option.some(stats.misses === 0 ? "hit" : stats.hits === 0 ? "miss" : "partial")

/**
 * A part of `WebSearch.layer(...)` that caches driver calls with this cache (`ResultCacheStore` in
 * `@websearch/node` builds one in memory or on Redis). Without one nothing is cached.
 *
 * @since 0.2.0
 * @category layers
 */
export const layerService = (cache: ResultCache.Service): Layer.Layer<never, never, Composition.Composition> =>
  Composition.service("resultCache", cache)

/**
 * A part that builds the cache with a scoped effect (a store that opens a connection).
 *
 * @since 0.2.0
 * @category layers
 */
export const layerScoped = <E, R>(
  build: Effect.Effect<ResultCache.Service, E, R>
): Layer.Layer<never, E, Composition.Composition | Exclude<R, Scope.Scope>> =>
  Composition.serviceScoped("resultCache", build)

// This module's entry in the composition's typed record of optional services (see `Composition.Services`).
declare module "./Composition.js" {
  interface Services {
    /** The cache of driver calls: `ResultCache.layerService` / `layerScoped`. */
    readonly resultCache: ResultCache.Service
  }
}

/**
 * @since 0.1.0
 * @category models
 */
export declare namespace ResultCache {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /**
     * Answers one driver call from the cache, or runs `call` and keeps its outcome as `policy` allows.
     * Records the outcome on the current span (`websearch.cache`: `hit` | `miss` | `shared`, the last for a call that
     * waited for an identical call in flight) and in `track` (a shared call counts as a hit).
     */
    readonly serve: (
      request: Request,
      policy: Policy,
      call: Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError>
    ) => Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError>
  }
}

/**
 * Options of `make`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The longest a store operation may take before it counts as a miss (or a skipped write). Default 1 second. */
  readonly timeout?: Duration.DurationInput | undefined
  /** With leases: how long one lives unrenewed (a dead holder's lapses) and the longest wait (3 s, 10 s). */
  readonly lease?: { readonly timeToLive?: Duration.DurationInput; readonly maxWait?: Duration.DurationInput }
}

/**
 * Builds a cache over a store.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (store: Store, options?: Options): Effect.Effect<ResultCache.Service> =>
  Effect.sync(() => makeService(store, options))

const makeService = (store: Store, options?: Options): ResultCache.Service => {
  const timeout = Duration.decode(options?.timeout ?? "1 second")
  const guard = <A>(operation: string, effect: Effect.Effect<A, StoreError>) =>
    effect.pipe(
      Effect.timeoutFail({
        duration: timeout,
        onTimeout: () => new StoreError({ message: `no answer within ${Duration.format(timeout)}` })
      }),
      Effect.tapError((error) =>
        // The key carries the input only; the store's own error may be verbose, so only its message is logged.
        Effect.logWarning(`websearch result cache ${operation} failed: ${error.message}`)
      ),
      Effect.option,
      Effect.withSpan(`websearch.cache.${operation}`, { captureStackTrace: false })
    )
  const lookup = (cacheKey: string): Effect.Effect<Option.Option<Entry>> =>
    guard("get", store.get(cacheKey)).pipe(
      Effect.map(Option.flatten),
      Effect.flatMap(
        Option.match({
          onNone: () => Effect.succeedNone,
          // An entry written by another version (or corrupted) is a miss, and is overwritten after the call.
          onSome: (value) => Effect.option(decodeEntry(value))
        })
      )
    )
  const keep = (cacheKey: string, exit: CallExit, policy: Policy): Effect.Effect<void> => {
    const ttl = timeToLive(exit, policy)
    const entry: Option.Option<Entry> = Exit.isSuccess(exit)
      ? Option.some({ _tag: "Success", results: exit.value })
      : Option.map(typedFailure(exit), (error) => ({ _tag: "Failure", error }))
    if (Duration.isZero(ttl) || Option.isNone(entry)) return Effect.void
    return encodeEntry(entry.value).pipe(
      Effect.mapError((error) => new StoreError({ message: `cannot encode the entry: ${error.message}` })),
      Effect.flatMap((value) => store.set(cacheKey, value, ttl)),
      (effect) => guard("set", effect),
      Effect.asVoid
    )
  }
  const timing = LeasedCall.timing(options?.lease)
  const answerWith = (entry: Entry, outcome: "hit" | "shared") =>
    Effect.zipRight(
      Effect.zipRight(CacheTracking.count("hit"), Effect.annotateCurrentSpan("websearch.cache", outcome)),
      entry._tag === "Success" ? Effect.succeed(entry.results) : Effect.fail(entry.error)
    )
  // Calls in flight in this process, by key: concurrent misses for one key make one provider call, and the others
  // wait for its outcome instead of spending quota on the same answer.
  const inFlight = new Map<string, Deferred.Deferred<CallExit>>()
  const serve = (
    request: Request,
    policy: Policy,
    call: Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError>
  ): Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError> =>
    Effect.suspend(() => {
      const cacheKey = key(request)
      return Effect.flatMap(lookup(cacheKey), (cached) => {
        if (Option.isSome(cached)) return answerWith(cached.value, "hit")
        const shared = inFlight.get(cacheKey)
        if (shared !== undefined) {
          return CacheTracking.count("hit").pipe(
            Effect.zipRight(Effect.annotateCurrentSpan("websearch.cache", "shared")),
            Effect.zipRight(Deferred.await(shared)),
            // The call's own caller gave up: its outcome says nothing about the input, so ask again.
            Effect.flatMap((exit) => (Exit.isInterrupted(exit) ? serve(request, policy, call) : exit))
          )
        }
        return Effect.flatMap(Deferred.make<CallExit>(), (deferred) => {
          inFlight.set(cacheKey, deferred)
          const own = CacheTracking.count("miss").pipe(
            Effect.zipRight(Effect.annotateCurrentSpan("websearch.cache", "miss")),
            Effect.zipRight(call),
            Effect.onExit((exit) => Deferred.succeed(deferred, exit)),
            // An interrupted call never gets here, so it is never stored; a slow write stays interruptible.
            Effect.exit,
            Effect.tap((exit) => keep(cacheKey, exit, policy)),
            Effect.flatten
          )
          // Across processes: one holds the store's lease and calls, the others wait for its entry (a hit).
          const shared = (entry: Entry) => answerWith(entry, "shared")
          const leases = store.lease
          const lookupKey = lookup(cacheKey)
          const answer = leases
            ? LeasedCall.run({ key: cacheKey, leases, timing, guard, lookup: lookupKey, call: own, shared })
            : own
          return answer.pipe(
            // The answer another process wrote, or an interruption before the call began, reaches the callers
            // waiting here too.
            Effect.onExit((exit) => Deferred.succeed(deferred, exit)),
            Effect.ensuring(
              Effect.sync(() => {
                if (inFlight.get(cacheKey) === deferred) inFlight.delete(cacheKey)
              })
            )
          )
        })
      })
    })
  return {
    serve: (request, policy, call) => (Duration.isZero(policy.success) ? call : serve(request, policy, call))
  }
}

/**
 * A part of `WebSearch.layer(...)` that caches over a store.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (store: Store, options?: Options): Layer.Layer<never, never, Composition.Composition> =>
  Composition.serviceScoped("resultCache", make(store, options))
