/**
 * Per-provider rate limits: the pipeline asks the quota before every driver call, so a provider's published
 * budget (`providers.<id>.rateLimit` in the settings) is not exceeded, and a provider that answered with
 * `Retry-After` is left alone until then by every later call, not only the retried one. With a shared store
 * (Redis, see `@websearch/node`) the budget and the hold-off hold across replicas.
 *
 * The budget is a token bucket (`limit` calls at once, refilled at `limit` per `window`): after a burst, calls
 * are spaced `window / limit` apart rather than stalled until a whole window has passed, which suits providers
 * that meter per second as well as per minute. Over any span of time d at most `limit + ⌊d × limit / window⌋`
 * calls go out (a full bucket restarts its refill clock when drawn from, so no token comes back early); a
 * provider that counts strictly per window may still answer 429 at a window's edge, and its Retry-After is then
 * honoured.
 *
 * A call over budget waits when the wait is at most the provider's `maxWait` (2 seconds by default), and
 * otherwise fails with `RequestFailed/rate_limited` carrying `retryAfter` (seconds). The wait happens inside
 * the per-input timeout. Without a quota in context, the budgets live in memory with the application's provider
 * registry; a provider with neither a configured nor a published budget is unlimited, and Retry-After is always
 * honoured.
 *
 * A store that fails or does not answer within its timeout lets the call through (logged): a quota outage
 * must not take search down, and the provider's own 429 still protects it.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Composition from "./Composition.js"
import { defaults, type RateLimit } from "./Settings.js"
import * as WebSearchError from "./WebSearchError.js"
import * as Deadline from "./internal/deadline.js"
import * as MemoryQuota from "./internal/memoryQuota.js"

/**
 * A store failed or timed out. It never reaches a caller: the quota lets the call through and logs it.
 *
 * @since 0.1.0
 * @category errors
 */
export class StoreError extends Schema.TaggedError<StoreError>("@websearch/core/ProviderQuota/StoreError")(
  "ProviderQuotaStoreError",
  {
    message: Schema.String,
    cause: Schema.optional(Schema.Defect)
  }
) {}

/**
 * Where budgets and hold-offs live.
 *
 * @since 0.1.0
 * @category models
 */
export interface Store {
  /**
   * Takes one call from the token bucket under `key` (`limit` tokens, refilled at `limit` per `window`): none
   * when it is granted, or how long until a token is back. A refused call takes nothing.
   */
  readonly consume: (options: {
    readonly key: string
    readonly limit: number
    readonly window: Duration.Duration
  }) => Effect.Effect<Option.Option<Duration.Duration>, StoreError>
  /** When the hold-off under `key` ends (epoch milliseconds), if one is set. */
  readonly holdOffUntil: (key: string) => Effect.Effect<Option.Option<number>, StoreError>
  /** Sets the hold-off under `key` to end at `until` (epoch milliseconds); it expires on its own then. */
  readonly setHoldOff: (key: string, until: number) => Effect.Effect<void, StoreError>
  /** The operations complete at once (in memory): no timeout is armed around them. */
  readonly synchronous?: boolean | undefined
}

/**
 * What the pipeline tells the quota about a call.
 */
interface Request {
  readonly providerId: string
  /**
   * The key the budget and hold-off are kept under, when not `providerId`: a call instance's workspace, id and
   * revision, so two workspaces' instances of one id never share a budget or a Retry-After.
   *
   * @since 0.2.0
   */
  readonly key?: string | undefined
  /** The provider's budget; none means unlimited. */
  readonly rateLimit: Option.Option<RateLimit>
  /**
   * Whether a `retryAfter` on a failure speaks for the whole provider (default true). A local fetcher's
   * Retry-After comes from one site, so it must not hold off the fetches of every other site.
   */
  readonly retryAfterHoldsProvider?: boolean | undefined
}

/**
 * A part of `WebSearch.layer(...)` that meters providers with this quota (`ProviderQuotaStore` in
 * `@websearch/node` builds one on Redis, shared by replicas). Without one, each application's registry keeps its
 * providers' budgets and hold-offs in memory.
 *
 * @since 0.2.0
 * @category layers
 */
export const layerService = (quota: ProviderQuota.Service): Layer.Layer<never, never, Composition.Composition> =>
  Composition.service("providerQuota", quota)

/**
 * A part that builds the quota with a scoped effect (a store that opens a connection).
 *
 * @since 0.2.0
 * @category layers
 */
export const layerScoped = <E, R>(
  build: Effect.Effect<ProviderQuota.Service, E, R>
): Layer.Layer<never, E, Composition.Composition | Exclude<R, Scope.Scope>> =>
  Composition.serviceScoped("providerQuota", build)

// This module's entry in the composition's typed record of optional services (see `Composition.Services`).
declare module "./Composition.js" {
  interface Services {
    /** The providers' budgets and hold-offs: `ProviderQuota.layerService` / `layerScoped`. */
    readonly providerQuota: ProviderQuota.Service
  }
}

/**
 * A quota that grants every call and ignores Retry-After: for tests that move time by hand, or an application
 * that meters its providers elsewhere.
 *
 * @since 0.1.0
 * @category constructors
 */
export const unlimited: ProviderQuota.Service = { acquire: () => Effect.void, holdOff: () => Effect.void }

/**
 * @since 0.1.0
 * @category models
 */
export declare namespace ProviderQuota {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** Waits for room in the provider's budget, or fails `RequestFailed/rate_limited` with `retryAfter`. */
    readonly acquire: (request: Request) => Effect.Effect<void, WebSearchError.RequestFailed>
    /**
     * Holds every call to the provider off for `retryAfter` (it asked so: Retry-After). Never fails. Takes the
     * request's `key` when it has one (a call instance's), else its provider id.
     */
    readonly holdOff: (providerId: string, retryAfter: Duration.Duration) => Effect.Effect<void>
  }
}

/**
 * A store in this process's memory: token buckets and hold-offs in two maps, holding only what is in use (a
 * full bucket and an expired hold-off are dropped). Each provider registry keeps its budgets in one;
 * `layerMemory` provides a quota of its own to a part of a program.
 *
 * @since 0.1.0
 * @category constructors
 */
export const memoryStore = (): Store => MemoryQuota.make()

/**
 * A part with a quota of its own, in memory, with options (a store timeout) the registry's own does not take.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (options?: Options): Layer.Layer<never, never, Composition.Composition> =>
  Layer.suspend(() => layer(memoryStore(), options))

/**
 * Options of `make`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The longest a store operation may take before the call is let through. Default 1 second. */
  readonly timeout?: Duration.DurationInput | undefined
  /** How long a call may wait for a provider without a configured budget (on a hold-off). Default 2 seconds. */
  readonly maxWait?: Duration.DurationInput | undefined
}

const keyOf = (request: Request) => request.key ?? request.providerId
const budgetKey = (providerId: string) => `budget:${providerId}`
const holdOffKey = (providerId: string) => `holdoff:${providerId}`

// Each round waits for the store's answer; a store that keeps answering "wait 0" must not spin forever.
const maxRounds = 100

const seconds = (millis: number) => Math.max(1, Math.ceil(millis / 1000))

/**
 * Builds a quota over a store.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (store: Store, options?: Options): Effect.Effect<ProviderQuota.Service> =>
  Effect.sync(() => makeService(store, options))

const makeService = (store: Store, options?: Options): ProviderQuota.Service => {
  const timeout = Duration.decode(options?.timeout ?? "1 second")
  const defaultMaxWait = Duration.toMillis(options?.maxWait ?? defaults.rateLimitMaxWait)
  // A timeout around a store that answers at once could never fire, and arming one costs more than the work.
  const timed =
    store.synchronous === true
      ? <A>(effect: Effect.Effect<A, StoreError>) => effect
      : <A>(effect: Effect.Effect<A, StoreError>) =>
          Deadline.timeoutFail(
            effect,
            timeout,
            () => new StoreError({ message: `no answer within ${Duration.format(timeout)}` })
          )
  const guard = <A>(operation: string, effect: Effect.Effect<A, StoreError>, fallback: A): Effect.Effect<A> =>
    timed(effect).pipe(
      Effect.catchAll((error) =>
        Effect.as(Effect.logWarning(`websearch provider quota ${operation} failed: ${error.message}`), fallback)
      )
    )

  const refuse = (request: Request, waitMillis: number, why: string) =>
    WebSearchError.requestFailed("rate_limited", `${request.providerId} ${why}; try again in ${seconds(waitMillis)}s`, {
      providerId: request.providerId,
      retryAfter: seconds(waitMillis)
    })

  const acquire: (request: Request) => Effect.Effect<void, WebSearchError.RequestFailed> = Effect.fnUntraced(
    function* (request) {
      const maxWait = Option.match(request.rateLimit, {
        onNone: () => defaultMaxWait,
        onSome: (rate) => Duration.toMillis(rate.maxWait)
      })
      let waited = 0
      for (let round = 0; round < maxRounds; round++) {
        const now = yield* Clock.currentTimeMillis
        const until = yield* guard("read", store.holdOffUntil(holdOffKey(keyOf(request))), Option.none())
        let wait: number
        let why: string
        if (Option.isSome(until) && until.value > now) {
          wait = until.value - now
          why = "asked to be left alone (Retry-After)"
        } else if (Option.isSome(request.rateLimit)) {
          const rate = request.rateLimit.value
          const refused = yield* guard(
            "consume",
            store.consume({ key: budgetKey(keyOf(request)), limit: rate.limit, window: rate.window }),
            Option.none()
          )
          if (Option.isNone(refused)) return
          wait = Math.max(1, Duration.toMillis(refused.value))
          why = `is over its rate limit (${rate.limit} calls per ${Duration.format(rate.window)})`
        } else {
          return
        }
        if (waited + wait > maxWait) return yield* Effect.fail(refuse(request, wait, why))
        yield* Effect.annotateCurrentSpan("websearch.quota.waited_ms", waited + wait)
        yield* Effect.sleep(Duration.millis(wait))
        waited += wait
      }
      return yield* Effect.fail(refuse(request, 1000, "is over its rate limit"))
    }
  )

  const holdOff: (providerId: string, retryAfter: Duration.Duration) => Effect.Effect<void> = Effect.fnUntraced(
    function* (providerId, retryAfter) {
      const until = (yield* Clock.currentTimeMillis) + Duration.toMillis(retryAfter)
      const current = yield* guard("read", store.holdOffUntil(holdOffKey(providerId)), Option.none())
      // Never shorten a hold-off another call (or replica) set: the provider's latest word may be the longer one.
      if (Option.isSome(current) && current.value >= until) return
      yield* Effect.logInfo(`websearch holds ${providerId} off for ${Duration.format(retryAfter)} (Retry-After)`)
      yield* guard("hold-off", store.setHoldOff(holdOffKey(providerId), until), undefined)
    }
  )

  return { acquire, holdOff }
}

/**
 * A part of `WebSearch.layer(...)` that meters providers over a store.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (store: Store, options?: Options): Layer.Layer<never, never, Composition.Composition> =>
  Composition.serviceScoped("providerQuota", make(store, options))

/**
 * Runs one driver call under the quota: takes budget first, and turns a failure carrying `retryAfter` into a
 * provider-wide hold-off.
 *
 * @since 0.1.0
 * @category combinators
 */
export const limit = <A>(
  quota: ProviderQuota.Service,
  request: Request,
  call: Effect.Effect<A, WebSearchError.WebSearchError>
): Effect.Effect<A, WebSearchError.WebSearchError> =>
  Effect.zipRight(
    quota.acquire(request),
    Effect.tapError(call, (error) =>
      request.retryAfterHoldsProvider !== false && error.retryAfter !== undefined && error.retryAfter > 0
        ? quota.holdOff(keyOf(request), Duration.seconds(error.retryAfter))
        : Effect.void
    )
  )
