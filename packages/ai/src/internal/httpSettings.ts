/**
 * The settings of the MCP HTTP endpoint as a caller gives them, and their validation into the transport's
 * `Security`: tokens (each with the workspace its calls belong to), allowed hosts and origins, the body cap, the
 * per-caller rate and concurrency limits, and the bounds of sessions (per caller, in all, idle time, pages kept).
 * `WebSearchMcp` re-exports the types and the constructor.
 */
import { WorkspaceId } from "@websearch/core/ProviderInstance"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as HttpAdmission from "./httpAdmission.js"
import type * as HttpTransport from "./httpTransport.js"
import * as Sessions from "./mcpSessions.js"
import * as SessionPages from "./sessionPages.js"

/** A token with the workspace its calls belong to. */
export interface TokenGrant {
  readonly token: Redacted.Redacted<string> | string
  /** Default `default`. */
  readonly workspace?: string | undefined
}

/** The bounds of the endpoint's sessions. */
export interface HttpSessions {
  /** Sessions one caller (a token) may hold at once (default 16); a new one ends the caller's least recently used. */
  readonly maxPerToken?: number | undefined
  /** Sessions the server holds in all (default 4096); past it `initialize` is refused with 503 and Retry-After. */
  readonly maxSessions?: number | undefined
  /** How long a session may go unused before it ends (default 30 minutes). */
  readonly idleTimeout?: Duration.DurationInput | undefined
  /** Bytes of page parts and read URLs one session keeps to serve again, two a character (default 2 MiB). */
  readonly maxSessionBytes?: number | undefined
  /** Bytes of page parts and read URLs every session together keeps (default 64 MiB). */
  readonly maxBytes?: number | undefined
}

/** The endpoint's settings. */
export interface HttpSecurity {
  /**
   * Bearer tokens the endpoint accepts; when given, every request needs one (16 characters at least). A token
   * given as a `TokenGrant` belongs to its workspace: what the calls of its sessions remember (the result cache,
   * the page store) is that workspace's own. A plain token belongs to the `default` workspace.
   */
  readonly tokens?: ReadonlyArray<Redacted.Redacted<string> | string | TokenGrant> | undefined
  /** Host names the Host header may carry besides localhost, 127.0.0.1 and [::1]; `"*"` allows any. */
  readonly allowedHosts?: ReadonlyArray<string> | undefined
  /** Origins (`https://app.example`) a browser page may call from besides loopback pages. */
  readonly allowedOrigins?: ReadonlyArray<string> | undefined
  /** The largest request body, in bytes (default 1 MiB, at most 16 MiB); a larger one is refused with 413. */
  readonly maxBodyBytes?: number | undefined
  /**
   * Requests each caller (a token, or an address without tokens) may make per `window` (default 600 a minute);
   * past it a request is refused with 429 and Retry-After. `false` or a limit of 0 turns the limit off.
   */
  readonly rateLimit?: { readonly limit: number; readonly window: Duration.DurationInput } | false | undefined
  /** Requests of one caller in progress at once (default 8); one more is refused with 429 and Retry-After. */
  readonly maxConcurrentRequests?: number | undefined
  /** The bounds of sessions. */
  readonly sessions?: HttpSessions | undefined
}

/** The default body cap: 1 MiB, far above any real MCP request. */
export const defaultMaxBodyBytes = 1024 * 1024

/** The default limits of each caller. */
export const defaultLimits = {
  rateLimit: { limit: 600, window: Duration.minutes(1) },
  maxConcurrentRequests: 8
} as const

const invalid = (message: string) =>
  WebSearchError.unavailable("invalid_config", `invalid MCP HTTP settings: ${message}`)

const isWorkspace = Schema.is(WorkspaceId)

const wholeNumber = (name: string, value: number, min: number, max: number) =>
  Number.isSafeInteger(value) && value >= min && value <= max
    ? Effect.succeed(value)
    : Effect.fail(invalid(`${name} must be an integer from ${min} to ${max}`))

const duration = (name: string, value: Duration.DurationInput, min: Duration.Duration) => {
  const decoded = Duration.decodeUnknown(value)
  return Option.isSome(decoded) && Duration.greaterThanOrEqualTo(decoded.value, min)
    ? Effect.succeed(decoded.value)
    : Effect.fail(invalid(`${name} must be a duration of at least ${Duration.format(min)}`))
}

const sessionBounds = Effect.fnUntraced(function* (options: HttpSessions = {}) {
  const maxPerCaller = yield* wholeNumber(
    "sessions.maxPerToken",
    options.maxPerToken ?? Sessions.defaults.maxSessionsPerToken,
    1,
    10_000
  )
  const maxSessions = yield* wholeNumber(
    "sessions.maxSessions",
    options.maxSessions ?? Sessions.defaults.maxSessions,
    1,
    1_000_000
  )
  const idle = yield* duration(
    "sessions.idleTimeout",
    options.idleTimeout ?? Sessions.defaults.idleTimeout,
    Duration.seconds(1)
  )
  const maxBytes = yield* wholeNumber(
    "sessions.maxBytes",
    options.maxBytes ?? SessionPages.defaultMaxBytes,
    0,
    Number.MAX_SAFE_INTEGER
  )
  const maxSessionBytes = yield* wholeNumber(
    "sessions.maxSessionBytes",
    options.maxSessionBytes ?? Math.min(SessionPages.defaultMaxSessionBytes, maxBytes),
    0,
    maxBytes
  )
  return {
    maxPerCaller,
    maxSessions,
    idleMillis: Duration.toMillis(idle),
    pages: { maxSessionBytes, maxBytes, maxSessionEntries: SessionPages.defaultMaxSessionEntries }
  }
})

/** Validates the settings, naming the one at fault. */
export const make: (options?: HttpSecurity) => Effect.Effect<HttpTransport.Security, WebSearchError.Unavailable> =
  Effect.fnUntraced(function* (options: HttpSecurity = {}) {
    const grants = (options.tokens ?? []).map((entry) => {
      const grant = typeof entry === "object" && !Redacted.isRedacted(entry) ? entry : { token: entry }
      const token = Redacted.isRedacted(grant.token) ? Redacted.value(grant.token) : grant.token
      return { token: token.trim(), workspace: grant.workspace ?? "default" }
    })
    if (grants.some(({ token }) => token.length < 16 || /[\s,]/.test(token))) {
      return yield* Effect.fail(invalid("every token needs 16 characters or more, without white space or commas"))
    }
    if (grants.some(({ workspace }) => !isWorkspace(workspace))) {
      return yield* Effect.fail(
        invalid("a token's workspace must be 1-64 characters of a-z, 0-9, '-' and '_', starting with a letter or digit")
      )
    }
    // One token, one workspace: the same token in two would make its workspace depend on the order.
    const workspaces = new Map<string, string>()
    for (const { token, workspace } of grants) {
      if ((workspaces.get(token) ?? workspace) !== workspace) {
        return yield* Effect.fail(invalid("the same token is given twice with different workspaces"))
      }
      workspaces.set(token, workspace)
    }
    const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes
    if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1024 || maxBodyBytes > 16 * 1024 * 1024) {
      return yield* Effect.fail(invalid(`maxBodyBytes must be an integer from 1024 to 16777216`))
    }
    const limit = options.rateLimit ?? defaultLimits.rateLimit
    const rateLimit =
      limit === false
        ? Option.none()
        : yield* Effect.gen(function* () {
            const count = yield* wholeNumber("rateLimit.limit", limit.limit, 0, 1_000_000_000)
            const window = yield* duration("rateLimit.window", limit.window, Duration.seconds(1))
            return count === 0 ? Option.none() : Option.some({ limit: count, window })
          })
    const maxConcurrentRequests = yield* wholeNumber(
      "maxConcurrentRequests",
      options.maxConcurrentRequests ?? defaultLimits.maxConcurrentRequests,
      1,
      100_000
    )
    return {
      // Registering the route must not wait (the router is assembled as layers build), so digests come later.
      authenticate: grants.length > 0,
      tokenDigests: yield* Effect.cached(Effect.forEach(grants, ({ token }) => HttpAdmission.digest(token))),
      tokenWorkspaces: grants.map(({ workspace }) => workspace),
      allowedHosts: (options.allowedHosts ?? []).map((h) => h.trim().toLowerCase()),
      allowedOrigins: (options.allowedOrigins ?? []).flatMap((o) =>
        URL.canParse(o.trim()) ? [new URL(o.trim()).origin.toLowerCase()] : []
      ),
      maxBodyBytes,
      rateLimit,
      maxConcurrentRequests,
      sessions: yield* sessionBounds(options.sessions)
    }
  })
