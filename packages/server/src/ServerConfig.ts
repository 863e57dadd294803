/**
 * The server's own settings: the bearer tokens it accepts, the request-body cap and the per-token rate limit.
 * They come from code (`layer(options)`) or a `Config` (`layerConfig`; by default `config`, the environment); tokens
 * are `Redacted` from the moment they are read and only their SHA-256 digests are kept. With no token configured the
 * server refuses to start unless `insecureNoAuth` is set, so an open server is always a deliberate choice.
 *
 * A token belongs to one workspace and has a role: `member` (the default) may search, fetch and research with its
 * workspace's provider instances; `admin` may also manage them (`/v1/workspaces/{workspace}/providers`). A token
 * is written `TOKEN`, `TOKEN@WORKSPACE` or `TOKEN@WORKSPACE:ROLE` (`acme-token-…@acme:admin`); a plain `TOKEN` is a
 * member of the `default` workspace, as every token was before workspaces. A token therefore never contains `@`.
 *
 * Environment keys: `WEBSEARCH_API_TOKENS` (comma-separated entries as above), `WEBSEARCH_SERVER_MAX_BODY_BYTES`,
 * `WEBSEARCH_SERVER_RATE_LIMIT` (requests per window and token, `0` disables), `WEBSEARCH_SERVER_RATE_WINDOW`
 * (a duration such as `1 minute`), `WEBSEARCH_SERVER_MAX_PROVIDER_INSTANCES` (per workspace, default 100),
 * `WEBSEARCH_SERVER_MAX_CRAWL_JOBS` (crawls running at once per workspace, default 4),
 * `WEBSEARCH_SERVER_MAX_CRAWL_PAGES` (pages a workspace's crawls may hold, default 20000),
 * `WEBSEARCH_INSECURE_NO_AUTH` (`true` to serve without tokens).
 *
 * @since 0.1.0
 */
import * as ConfigText from "@websearch/core/internal/configText"
import * as ProviderInstance from "@websearch/core/ProviderInstance"
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
 * What a token may do in its workspace: `member` uses the workspace's provider instances (search, fetch,
 * research, the provider listing and checks); `admin` also creates, changes and removes them.
 *
 * @since 0.2.0
 * @category models
 */
export type Role = "admin" | "member"

/**
 * A token with its workspace and role, as code gives it (the environment writes it `TOKEN@WORKSPACE:ROLE`).
 *
 * @since 0.2.0
 * @category models
 */
export interface TokenGrant {
  readonly token: Redacted.Redacted<string> | string
  /** Default `default`. */
  readonly workspace?: string | undefined
  /** Default `member`. */
  readonly role?: Role | undefined
}

/**
 * The workspace and role of an accepted token.
 *
 * @since 0.2.0
 * @category models
 */
export interface TokenScope {
  readonly workspace: ProviderInstance.WorkspaceId
  readonly admin: boolean
}

/**
 * What a caller may set; every field is optional.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /**
   * Bearer tokens the server accepts (added to those from the environment by `layerConfig`): a plain token (a
   * member of the `default` workspace), a `TOKEN@WORKSPACE:ROLE` string, or a `TokenGrant`.
   */
  readonly tokens?: ReadonlyArray<Redacted.Redacted<string> | string | TokenGrant> | undefined
  /**
   * Serve without authentication when no token is configured (tokens, when present, are always required). Only
   * for a trusted network: anyone who can connect may spend provider quota. Rate limits then apply per address.
   */
  readonly insecureNoAuth?: boolean | undefined
  /** Largest request body accepted, in bytes; larger bodies are refused with 413 before they are read. */
  readonly maxBodyBytes?: number | undefined
  /** Requests each token may make per `window`; `false` or `0` disables the limit. */
  readonly rateLimit?: { readonly limit: number; readonly window: Duration.DurationInput } | false | undefined
  /**
   * The most provider instances a workspace may keep through the management API (default 100): a create beyond it
   * fails `RequestFailed/conflict` (409), so one workspace's admin cannot grow the store, or the instances every
   * call of the workspace loads, without bound.
   *
   * @since 0.2.0
   */
  readonly maxInstancesPerWorkspace?: number | undefined
  /**
   * Crawls a workspace may run at once (default 4); one more is refused `RequestFailed/rate_limited` (429).
   *
   * @since 0.2.0
   */
  readonly maxCrawlJobs?: number | undefined
  /**
   * Pages a workspace's crawls may hold (default 20,000): a running crawl reserves its `maxPages`, a finished one
   * holds what it read until it is deleted or expires; a crawl past it is refused `RequestFailed/conflict` (409).
   *
   * @since 0.2.0
   */
  readonly maxCrawlPages?: number | undefined
}

/**
 * Defaults: 64 KiB bodies (a full request is a few KiB at most), 600 requests per minute per token and 100 provider
 * instances per workspace.
 *
 * @since 0.1.0
 * @category constants
 */
const defaults = {
  maxBodyBytes: 64 * 1024,
  maxInstancesPerWorkspace: 100,
  maxCrawlJobs: 4,
  maxCrawlPages: 20_000,
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
    /**
     * The workspace and role of each token, at the index of its digest in `tokenDigests`.
     *
     * @since 0.2.0
     */
    readonly tokenScopes: ReadonlyArray<TokenScope>
    readonly insecureNoAuth: boolean
    readonly maxBodyBytes: number
    readonly rateLimit: Option.Option<{ readonly limit: number; readonly window: Duration.Duration }>
    /** @since 0.2.0 */
    readonly maxInstancesPerWorkspace: number
    /** @since 0.2.0 */
    readonly maxCrawlJobs: number
    /** @since 0.2.0 */
    readonly maxCrawlPages: number
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

const workspacePattern = /^[a-z0-9][a-z0-9_-]{0,63}$/

/**
 * Reads one token entry: `TOKEN`, `TOKEN@WORKSPACE`, `TOKEN@WORKSPACE:ROLE` or a `TokenGrant`. Answers the problem
 * (never quoting the token) when the scope is malformed.
 *
 * @since 0.2.0
 * @category encoding
 */
export const grantOf = (
  entry: Redacted.Redacted<string> | string | TokenGrant
): { readonly token: string; readonly scope: TokenScope } | string => {
  const scoped = (token: string, workspace: string, role: string | undefined) => {
    if (token.includes("@")) return "a token must not contain '@' (it separates the token from its workspace)"
    if (!workspacePattern.test(workspace)) {
      return "the workspace must be 1-64 characters of a-z, 0-9, '-' and '_', starting with a letter or digit"
    }
    if (role !== undefined && role !== "admin" && role !== "member") return "the role must be admin or member"
    return { token: token.trim(), scope: { workspace, admin: role === "admin" } }
  }
  if (typeof entry === "object" && !Redacted.isRedacted(entry)) {
    const token = Redacted.isRedacted(entry.token) ? Redacted.value(entry.token) : entry.token
    return scoped(token, entry.workspace ?? ProviderInstance.defaultWorkspace, entry.role)
  }
  const text = (Redacted.isRedacted(entry) ? Redacted.value(entry) : entry).trim()
  const at = text.indexOf("@")
  if (at < 0) return { token: text, scope: { workspace: ProviderInstance.defaultWorkspace, admin: false } }
  const scope = text.slice(at + 1)
  const colon = scope.indexOf(":")
  return colon < 0
    ? scoped(text.slice(0, at), scope, undefined)
    : scoped(text.slice(0, at), scope.slice(0, colon), scope.slice(colon + 1))
}

/**
 * Validates options. Fails with `Unavailable/invalid_config` naming the setting at fault; no token and no
 * `insecureNoAuth` is such a failure, so a server never starts open by accident.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<ServerConfig.Service, WebSearchError.Unavailable> =>
  Effect.suspend(() => {
    const grants: Array<{ readonly token: string; readonly scope: TokenScope }> = []
    for (const [index, entry] of (options.tokens ?? []).entries()) {
      const grant = grantOf(entry)
      if (typeof grant === "string") return Effect.fail(invalid(`API token ${index + 1}: ${grant}`))
      grants.push(grant)
    }
    const tokens = grants.map((grant) => grant.token)
    if (tokens.some((t) => t.length === 0)) return Effect.fail(invalid("an API token is empty"))
    if (tokens.some((t) => t.length < 16)) {
      return Effect.fail(invalid("an API token is shorter than 16 characters; use a long random token"))
    }
    if (tokens.some((t) => /[\s,]/.test(t))) {
      return Effect.fail(invalid("an API token contains white space or a comma"))
    }
    // One token, one scope: the same token given twice with two scopes would make its rights depend on order.
    const scopes = new Map<string, TokenScope>()
    for (const grant of grants) {
      const seen = scopes.get(grant.token)
      if (seen !== undefined && (seen.workspace !== grant.scope.workspace || seen.admin !== grant.scope.admin)) {
        return Effect.fail(invalid("the same API token is given twice with different workspaces or roles"))
      }
      scopes.set(grant.token, grant.scope)
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
    const maxInstances = options.maxInstancesPerWorkspace ?? defaults.maxInstancesPerWorkspace
    if (!Number.isSafeInteger(maxInstances) || maxInstances < 1 || maxInstances > 10_000) {
      return Effect.fail(invalid(`maxInstancesPerWorkspace must be an integer from 1 to 10000 (got ${maxInstances})`))
    }
    const maxCrawlJobs = options.maxCrawlJobs ?? defaults.maxCrawlJobs
    if (!Number.isSafeInteger(maxCrawlJobs) || maxCrawlJobs < 1 || maxCrawlJobs > 1000) {
      return Effect.fail(invalid(`maxCrawlJobs must be an integer from 1 to 1000 (got ${maxCrawlJobs})`))
    }
    const maxCrawlPages = options.maxCrawlPages ?? defaults.maxCrawlPages
    if (!Number.isSafeInteger(maxCrawlPages) || maxCrawlPages < 1 || maxCrawlPages > 10_000_000) {
      return Effect.fail(invalid(`maxCrawlPages must be an integer from 1 to 10000000 (got ${maxCrawlPages})`))
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
      tokenScopes: grants.map((grant) => grant.scope),
      insecureNoAuth,
      maxBodyBytes,
      maxInstancesPerWorkspace: maxInstances,
      maxCrawlJobs,
      maxCrawlPages,
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
 * The server settings as the environment gives them (`WEBSEARCH_API_TOKENS`, `WEBSEARCH_SERVER_MAX_BODY_BYTES`,
 * `WEBSEARCH_SERVER_RATE_LIMIT`, `WEBSEARCH_SERVER_RATE_WINDOW`, `WEBSEARCH_SERVER_MAX_PROVIDER_INSTANCES`,
 * `WEBSEARCH_SERVER_MAX_CRAWL_JOBS`, `WEBSEARCH_SERVER_MAX_CRAWL_PAGES`, `WEBSEARCH_INSECURE_NO_AUTH`), read from the current `ConfigProvider`. The default of `layerConfig`; an
 * application that keeps its settings elsewhere gives its own `Config` instead (other names, `Config.nested`, or
 * `Config.succeed(options)`).
 *
 * @since 0.2.0
 * @category constants
 */
export const config: Config.Config<Options> = Config.all({
  tokens: ConfigText.optionalSecretList("WEBSEARCH_API_TOKENS"),
  maxBodyBytes: Config.option(Config.integer("WEBSEARCH_SERVER_MAX_BODY_BYTES")),
  limit: Config.option(Config.integer("WEBSEARCH_SERVER_RATE_LIMIT")),
  window: Config.option(Config.duration("WEBSEARCH_SERVER_RATE_WINDOW")),
  maxInstances: Config.option(Config.integer("WEBSEARCH_SERVER_MAX_PROVIDER_INSTANCES")),
  maxCrawlJobs: Config.option(Config.integer("WEBSEARCH_SERVER_MAX_CRAWL_JOBS")),
  maxCrawlPages: Config.option(Config.integer("WEBSEARCH_SERVER_MAX_CRAWL_PAGES")),
  insecureNoAuth: Config.withDefault(Config.boolean("WEBSEARCH_INSECURE_NO_AUTH"), false)
}).pipe(
  Config.map(
    ({ insecureNoAuth, limit, maxBodyBytes, maxCrawlJobs, maxCrawlPages, maxInstances, tokens, window }): Options => ({
      tokens: Option.getOrElse(tokens, () => []),
      insecureNoAuth,
      maxBodyBytes: Option.getOrUndefined(maxBodyBytes),
      maxInstancesPerWorkspace: Option.getOrUndefined(maxInstances),
      maxCrawlJobs: Option.getOrUndefined(maxCrawlJobs),
      maxCrawlPages: Option.getOrUndefined(maxCrawlPages),
      rateLimit:
        Option.isNone(limit) && Option.isNone(window)
          ? undefined
          : {
              limit: Option.getOrElse(limit, () => defaults.rateLimit.limit),
              window: Option.getOrElse(window, () => defaults.rateLimit.window)
            }
    })
  )
)

/**
 * Reads the server settings from `source` (default `config`, the environment); `options` are laid over them
 * (tokens are added, other fields replace).
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromConfig = (
  options: Options = {},
  source: Config.Config<Options> = config
): Effect.Effect<Options, WebSearchError.Unavailable> =>
  Effect.map(source, (read) => ({
    tokens: [...(read.tokens ?? []), ...(options.tokens ?? [])],
    insecureNoAuth: options.insecureNoAuth ?? read.insecureNoAuth,
    maxBodyBytes: options.maxBodyBytes ?? read.maxBodyBytes,
    maxInstancesPerWorkspace: options.maxInstancesPerWorkspace ?? read.maxInstancesPerWorkspace,
    maxCrawlJobs: options.maxCrawlJobs ?? read.maxCrawlJobs,
    maxCrawlPages: options.maxCrawlPages ?? read.maxCrawlPages,
    rateLimit: options.rateLimit !== undefined ? options.rateLimit : read.rateLimit
  })).pipe(
    // A malformed variable names itself; its value is never echoed, since it may be a token.
    Effect.mapError((error) => invalid(`environment: ${ConfigText.problems(error).join("; ")}`))
  )

/**
 * Server settings from a `Config` (default `config`: the environment, through the current `ConfigProvider`),
 * validated as `make` validates options.
 *
 * @example
 * ```ts
 * import * as ServerConfig from "@websearch/server/ServerConfig"
 * import * as Config from "effect/Config"
 *
 * // The environment's settings (WEBSEARCH_API_TOKENS, ...), or the application's own names for them.
 * export const fromEnvironment = ServerConfig.layerConfig()
 * export const fromOwnNames = ServerConfig.layerConfig(
 *   Config.map(Config.redacted("SEARCH_API_TOKEN"), (token) => ({ tokens: [token] }))
 * )
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  source: Config.Config<Options> = config
): Layer.Layer<ServerConfig, WebSearchError.Unavailable> =>
  Layer.effect(ServerConfig, Effect.flatMap(fromConfig({}, source), make))
