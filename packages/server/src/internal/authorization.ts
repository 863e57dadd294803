/**
 * Bearer-token authentication and the per-token rate limit, as an HttpApi security middleware. A token is
 * compared by its SHA-256 digest with `crypto.timingSafeEqual` against every configured digest, so neither the
 * comparison time nor an early exit reveals how much of a token matched or how long the real tokens are.
 * A refused request gets 401 with `WWW-Authenticate: Bearer`; an exhausted quota gets 429 with `Retry-After`.
 * The rate limit uses `@effect/experimental`'s `RateLimiter`, so it is per process with the in-memory store and
 * shared by every replica with a Redis store.
 *
 * @internal Used by the server only, not part of the public API: it may change in any release.
 *
 * @since 0.1.0
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { timingSafeEqual } from "node:crypto"
import * as ErrorStatus from "../ErrorStatus.js"
import * as ServerConfig from "../ServerConfig.js"

/**
 * Who is calling: a stable, non-secret id of the token (the first 12 hex digits of its SHA-256 digest), or
 * `anonymous:ADDRESS` when the server runs without authentication. Rate limits and logs use it; it cannot be
 * turned back into the token.
 *
 * @since 0.1.0
 * @category services
 */
export class Caller extends Context.Tag("@websearch/server/Caller")<Caller, Caller.Service>() {}

/**
 * @since 0.1.0
 * @category services
 */
export declare namespace Caller {
  /**
   * The caller of one request.
   *
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    readonly id: string
    /**
     * The token's workspace: whose provider instances its calls may name and, for an admin, manage.
     *
     * @since 0.2.0
     */
    readonly workspace: ProviderInstance.WorkspaceId
    /**
     * Whether the token may manage its workspace's provider instances.
     *
     * @since 0.2.0
     */
    readonly admin: boolean
  }
}

/**
 * The security middleware every `/v1` endpoint declares.
 *
 * @since 0.1.0
 * @category services
 */
export class Authorization extends HttpApiMiddleware.Tag<Authorization>()("@websearch/server/Authorization", {
  failure: Schema.Union(ErrorStatus.Unauthorized, ErrorStatus.RateLimited, ErrorStatus.UpstreamFailed),
  provides: Caller,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/**
 * Whether a token's digest equals one of the accepted digests. Every digest is compared, in constant time each,
 * so the answer takes the same time whichever (if any) matches.
 *
 * @since 0.1.0
 * @category utils
 */
export const matches = (candidate: Uint8Array, accepted: ReadonlyArray<Uint8Array>): boolean =>
  matchIndex(candidate, accepted) >= 0

/**
 * The index of the accepted digest a token's digest equals, or -1. Like `matches`, every digest is compared.
 *
 * @since 0.2.0
 * @category utils
 */
export const matchIndex = (candidate: Uint8Array, accepted: ReadonlyArray<Uint8Array>): number => {
  let found = -1
  for (let index = 0; index < accepted.length; index++) {
    // Digests all have the same length, so timingSafeEqual never throws here.
    if (timingSafeEqual(candidate, accepted[index]!)) found = index
  }
  return found
}

const challenge = HttpApp.appendPreResponseHandler((_request, response) =>
  Effect.succeed(HttpServerResponse.setHeader(response, "www-authenticate", 'Bearer realm="websearch"'))
)

/**
 * Sets `Retry-After` (whole seconds, rounded up) on the response of the current request.
 *
 * @since 0.1.0
 * @category utils
 */
export const retryAfterHeader = (seconds: number): Effect.Effect<void> =>
  HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(Math.max(1, Math.ceil(seconds)))))
  )

const unauthorized = (message: string) =>
  Effect.zipRight(challenge, Effect.fail(new ErrorStatus.Unauthorized({ message })))

const limitCaller = (
  limiter: RateLimiter.RateLimiter,
  limit: { readonly limit: number; readonly window: Duration.Duration },
  caller: string
): Effect.Effect<void, WebSearchError.RequestFailed> =>
  limiter.consume({ key: `websearch:server:caller:${caller}`, limit: limit.limit, window: limit.window }).pipe(
    Effect.asVoid,
    Effect.catchTag("RateLimiterError", (error) => {
      if (error.reason === "Exceeded") {
        const seconds = Math.max(1, Math.ceil(Duration.toSeconds(error.retryAfter)))
        return Effect.zipRight(
          retryAfterHeader(seconds),
          Effect.fail(
            WebSearchError.requestFailed(
              "rate_limited",
              `this API token made more than ${limit.limit} requests in ${Duration.format(limit.window)}; retry after ${seconds} s`,
              { retryAfter: seconds }
            )
          )
        )
      }
      // The quota store is unreachable: refuse (retryable) rather than serve without limits.
      return Effect.fail(
        WebSearchError.requestFailed("network", "the rate-limit store is unreachable; retry shortly", {
          retryable: true
        })
      )
    })
  )

/**
 * Builds the middleware from the server settings and a `RateLimiter`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<
  Context.Tag.Service<Authorization>,
  never,
  ServerConfig.ServerConfig | RateLimiter.RateLimiter
> = Effect.gen(function* () {
  const config = yield* ServerConfig.ServerConfig
  const limiter = yield* RateLimiter.RateLimiter
  const limit = (caller: string) =>
    Option.match(config.rateLimit, { onNone: () => Effect.void, onSome: (l) => limitCaller(limiter, l, caller) })
  return {
    bearer: Effect.fn("websearch.server.authorize", { captureStackTrace: false })(function* (token) {
      if (config.insecureNoAuth && config.tokenDigests.length === 0) {
        const request = yield* HttpServerRequest.HttpServerRequest
        const id = `anonymous:${Option.getOrElse(request.remoteAddress, () => "unknown")}`
        yield* limit(id)
        // Without tokens nobody is an admin: managing instances always takes a token.
        return { id, workspace: ProviderInstance.defaultWorkspace, admin: false }
      }
      const request = yield* HttpServerRequest.HttpServerRequest
      const header = request.headers.authorization
      if (header === undefined || header.trim() === "") {
        return yield* unauthorized("missing bearer token: send Authorization: Bearer <token>")
      }
      if (!/^bearer /i.test(header)) {
        return yield* unauthorized("the Authorization header must use the Bearer scheme")
      }
      // The platform slices the scheme off case-sensitively; take the token from the header ourselves.
      const value = header.slice("bearer ".length).trim()
      const digest = ServerConfig.digest(value.length === 0 ? Redacted.value(token) : value)
      const index = value.length === 0 ? -1 : matchIndex(digest, config.tokenDigests)
      if (index < 0) return yield* unauthorized("unknown bearer token")
      const id = `token:${Buffer.from(digest.buffer, digest.byteOffset, 6).toString("hex")}`
      yield* limit(id)
      const scope = config.tokenScopes[index]!
      return { id, workspace: scope.workspace, admin: scope.admin }
    })
  }
})

/**
 * The middleware, given `ServerConfig` and a `RateLimiter` (in memory or on Redis).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Authorization, never, ServerConfig.ServerConfig | RateLimiter.RateLimiter> =
  Layer.effect(Authorization, make)
