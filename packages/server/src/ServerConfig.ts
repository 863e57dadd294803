/**
 * The server's own settings: the bearer tokens it accepts, the request-body cap and the per-token rate limit.
 * They come from code (`layer(options)`) or the environment (`layerConfig`); tokens are `Redacted` from the
 * moment they are read and only their SHA-256 digests are kept. With no token configured the server refuses to
 * start unless `insecureNoAuth` is set, so an open server is always a deliberate choice.
 *
 * Environment keys: `WEBSEARCH_API_TOKENS` (comma-separated), `WEBSEARCH_SERVER_MAX_BODY_BYTES`,
 * `WEBSEARCH_SERVER_RATE_LIMIT` (requests per window and token, `0` disables), `WEBSEARCH_SERVER_RATE_WINDOW`
 * (a duration such as `1 minute`), `WEBSEARCH_INSECURE_NO_AUTH` (`true` to serve without tokens).
 *
 * @since 0.1.0
 */
import * as ConfigText from "@websearch/core/ConfigText"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createHash } from "node:crypto"

/**
 * What a caller may set; every field is optional.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Bearer tokens the server accepts (added to those from the environment by `layerConfig`). */
  readonly tokens?: ReadonlyArray<Redacted.Redacted<string> | string> | undefined
  /**
   * Serve without authentication when no token is configured (tokens, when present, are always required). Only
   * for a trusted network: anyone who can connect may spend provider quota. Rate limits then apply per address.
   */
  readonly insecureNoAuth?: boolean | undefined
  /** Largest request body accepted, in bytes; larger bodies are refused with 413 before they are read. */
  readonly maxBodyBytes?: number | undefined
  /** Requests each token may make per `window`; `false` or `0` disables the limit. */
  readonly rateLimit?: { readonly limit: number; readonly window: Duration.DurationInput } | false | undefined
}

/**
 * Defaults: 64 KiB bodies (a full request is a few KiB at most) and 600 requests per minute per token.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = {
  maxBodyBytes: 64 * 1024,
  rateLimit: { limit: 600, window: Duration.minutes(1) }
} as const

/**
 * The server settings service.
 *
 * @since 0.1.0
 * @category services
 */
export class ServerConfig extends Context.Tag("@websearch/server/ServerConfig")<ServerConfig, ServerConfig.Service>() {}

/**
 * @since 0.1.0
 * @category services
 */
export declare namespace ServerConfig {
  /**
   * The validated server settings.
   *
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** SHA-256 digests of the accepted tokens; empty only when `insecureNoAuth` is set. */
    readonly tokenDigests: ReadonlyArray<Uint8Array>
    readonly insecureNoAuth: boolean
    readonly maxBodyBytes: number
    readonly rateLimit: Option.Option<{ readonly limit: number; readonly window: Duration.Duration }>
  }
}

const invalid = (message: string) => WebSearchError.unavailable("invalid_config", `invalid server settings: ${message}`)

/**
 * The SHA-256 digest of a token: what the server keeps and compares, so the comparison time does not depend on
 * the token's length and the token itself is not held in memory longer than needed.
 *
 * @since 0.1.0
 * @category utils
 */
export const digest = (token: string): Uint8Array => createHash("sha256").update(token, "utf8").digest()

/**
 * Validates options. Fails with `Unavailable/invalid_config` naming the setting at fault; no token and no
 * `insecureNoAuth` is such a failure, so a server never starts open by accident.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<ServerConfig.Service, WebSearchError.Unavailable> =>
  Effect.suspend(() => {
    const tokens = (options.tokens ?? []).map((t) => (Redacted.isRedacted(t) ? Redacted.value(t) : t).trim())
    if (tokens.some((t) => t.length === 0)) return Effect.fail(invalid("an API token is empty"))
    if (tokens.some((t) => t.length < 16)) {
      return Effect.fail(invalid("an API token is shorter than 16 characters; use a long random token"))
    }
    if (tokens.some((t) => /[\s,]/.test(t))) {
      return Effect.fail(invalid("an API token contains white space or a comma"))
    }
    const insecureNoAuth = options.insecureNoAuth === true
    if (tokens.length === 0 && !insecureNoAuth) {
      return Effect.fail(
        invalid(
          "no API token is configured, so the server would accept anyone: set WEBSEARCH_API_TOKENS " +
            "(comma-separated) or the tokens option, or start with --insecure-no-auth on a trusted network"
        )
      )
    }
    const maxBodyBytes = options.maxBodyBytes ?? defaults.maxBodyBytes
    if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1024 || maxBodyBytes > 16 * 1024 * 1024) {
      return Effect.fail(invalid(`maxBodyBytes must be an integer from 1024 to 16777216 (got ${maxBodyBytes})`))
    }
    const limit = options.rateLimit === undefined ? defaults.rateLimit : options.rateLimit
    if (limit !== false && (!Number.isSafeInteger(limit.limit) || limit.limit < 0)) {
      return Effect.fail(invalid(`rateLimit.limit must be a whole number, 0 to disable (got ${limit.limit})`))
    }
    const window = limit === false ? Option.none() : Duration.decodeUnknown(limit.window)
    if (limit !== false && (Option.isNone(window) || Duration.toMillis(window.value) < 1000)) {
      return Effect.fail(invalid("rateLimit.window must be a duration of at least one second"))
    }
    return Effect.succeed({
      tokenDigests: tokens.map(digest),
      insecureNoAuth,
      maxBodyBytes,
      rateLimit:
        limit === false || limit.limit === 0 || Option.isNone(window)
          ? Option.none()
          : Option.some({ limit: limit.limit, window: window.value })
    })
  })

/**
 * Server settings from code.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options = {}): Layer.Layer<ServerConfig, WebSearchError.Unavailable> =>
  Layer.effect(ServerConfig, make(options))

/**
 * Reads the server settings from the environment; `options` are laid over them (tokens are added, other fields
 * replace).
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromConfig = (options: Options = {}): Effect.Effect<Options, WebSearchError.Unavailable> =>
  Effect.gen(function* () {
    const tokens = yield* ConfigText.optionalSecretList("WEBSEARCH_API_TOKENS")
    const maxBodyBytes = yield* Config.option(Config.integer("WEBSEARCH_SERVER_MAX_BODY_BYTES"))
    const limit = yield* Config.option(Config.integer("WEBSEARCH_SERVER_RATE_LIMIT"))
    const window = yield* Config.option(Config.duration("WEBSEARCH_SERVER_RATE_WINDOW"))
    const insecure = yield* Config.withDefault(Config.boolean("WEBSEARCH_INSECURE_NO_AUTH"), false)
    const fromEnv = Option.getOrElse(tokens, () => [])
    const rateLimit =
      options.rateLimit !== undefined
        ? options.rateLimit
        : Option.isNone(limit) && Option.isNone(window)
          ? undefined
          : {
              limit: Option.getOrElse(limit, () => defaults.rateLimit.limit),
              window: Option.getOrElse(window, () => defaults.rateLimit.window)
            }
    return {
      tokens: [...fromEnv, ...(options.tokens ?? [])],
      insecureNoAuth: options.insecureNoAuth ?? insecure,
      maxBodyBytes: options.maxBodyBytes ?? Option.getOrUndefined(maxBodyBytes),
      rateLimit
    }
  }).pipe(
    // A malformed variable names itself; its value is never echoed, since it may be a token.
    Effect.mapError((error) => invalid(`environment: ${ConfigText.problems(error).join("; ")}`))
  )

/**
 * Server settings from the environment with `options` laid over them.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (options: Options = {}): Layer.Layer<ServerConfig, WebSearchError.Unavailable> =>
  Layer.effect(ServerConfig, Effect.flatMap(fromConfig(options), make))
