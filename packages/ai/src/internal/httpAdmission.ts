/**
 * Who may call the MCP HTTP endpoint, decided before a byte of the body is read: the Host header must name an
 * allowed host (DNS rebinding), a present Origin must be loopback or configured, a bearer token is required when
 * tokens are configured (compared by SHA-256 digest in constant time, every accepted digest compared in full), and
 * the caller (token, or address without tokens) is counted against its request rate. Every refusal is a JSON-RPC
 * error with a fixed message.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { defaultWorkspace } from "@websearch/core/ProviderInstance"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as CallerLimits from "./callerLimits.js"
import type * as Sessions from "./mcpSessions.js"

/** The settings admission reads: the hosts, origins and tokens the endpoint accepts. */
export interface Gate {
  /** Whether bearer tokens are required. */
  readonly authenticate: boolean
  /** SHA-256 digests of the accepted bearer tokens, computed once when first needed. */
  readonly tokenDigests: Effect.Effect<ReadonlyArray<Uint8Array>>
  /** The workspace of each token, at its digest's index: the calls of its sessions are that workspace's. */
  readonly tokenWorkspaces: ReadonlyArray<string>
  /** Lower-case host names the Host header may carry besides the loopback names; `*` allows any. */
  readonly allowedHosts: ReadonlyArray<string>
  /** Lower-case origins (`scheme://host[:port]`) a browser page may call from besides loopback ones. */
  readonly allowedOrigins: ReadonlyArray<string>
}

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]", "::1"])

/** The SHA-256 digest of a token. */
export const digest = (token: string): Effect.Effect<Uint8Array> =>
  Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))).pipe(
    Effect.map((buffer) => new Uint8Array(buffer))
  )

// Every accepted digest is compared in full, so the time taken does not say which (if any) matched, or where.
const matchIndex = (candidate: Uint8Array, accepted: ReadonlyArray<Uint8Array>): number => {
  let found = -1
  for (const [index, d] of accepted.entries()) {
    let diff = d.length ^ candidate.length
    for (let i = 0; i < d.length; i++) diff |= d[i] ^ (candidate[i] ?? 0)
    found = diff === 0 ? index : found
  }
  return found
}

// A token's caller id: the first 8 bytes of its digest, which cannot be turned back into the token.
const callerId = (digest: Uint8Array): string =>
  `token:${Array.from(digest.subarray(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("")}`

// The host name of a Host header (`name`, `name:port`, `[v6]`, `[v6]:port`), lower case.
const hostName = (host: string): string => {
  const lower = host.trim().toLowerCase()
  if (lower.startsWith("[")) {
    const end = lower.indexOf("]")
    return end === -1 ? lower : lower.slice(0, end + 1)
  }
  const colon = lower.indexOf(":")
  return colon === -1 ? lower : lower.slice(0, colon)
}

const hostAllowed = (host: string | undefined, security: Gate): boolean => {
  if (host === undefined || host.length === 0 || host.length > 300) return false
  if (security.allowedHosts.includes("*")) return true
  const name = hostName(host)
  return loopbackHosts.has(name) || security.allowedHosts.includes(name)
}

const originAllowed = (origin: string | undefined, security: Gate): boolean => {
  // Clients that are not browsers send no Origin; a browser always does on a cross-site POST.
  if (origin === undefined) return true
  if (origin.length > 300 || !URL.canParse(origin)) return false
  const url = new URL(origin)
  if ((url.protocol === "http:" || url.protocol === "https:") && loopbackHosts.has(url.hostname)) return true
  return security.allowedOrigins.includes(url.origin.toLowerCase())
}

/** A refusal: a JSON-RPC error with a fixed message (nothing from the request is echoed). */
export const refuse = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson({ jsonrpc: "2.0", id: null, error: { code, message } }, { status, headers })

/** The refusal of a caller over its limits, with when to retry. */
export const tooMany = (limited: CallerLimits.Limited) =>
  refuse(429, -32000, limited.message, { "retry-after": String(limited.retryAfter) })

/** The caller of a request that passes the checks, or the refusal; `count` counts the request against its rate. */
export const admit = (
  security: Gate,
  count: (caller: string) => Effect.Effect<Option.Option<CallerLimits.Limited>>,
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<Either.Either<Sessions.Caller, HttpServerResponse.HttpServerResponse>> =>
  Effect.gen(function* () {
    if (!hostAllowed(request.headers.host, security)) {
      return Either.left(refuse(403, -32000, "Forbidden: the Host header names a host this server does not serve"))
    }
    if (!originAllowed(request.headers.origin, security)) {
      return Either.left(refuse(403, -32000, "Forbidden: requests from this Origin are not allowed"))
    }
    let caller: Sessions.Caller = {
      id: `anonymous:${Option.getOrElse(request.remoteAddress, () => "unknown")}`,
      workspace: defaultWorkspace
    }
    if (security.authenticate) {
      const header = request.headers.authorization ?? ""
      const token = /^bearer /i.test(header) ? header.slice("bearer ".length).trim() : ""
      const accepted = yield* security.tokenDigests
      const candidate = token.length > 0 && token.length <= 4096 ? yield* digest(token) : undefined
      const index = candidate === undefined ? -1 : matchIndex(candidate, accepted)
      if (candidate === undefined || index < 0) {
        return Either.left(
          refuse(401, -32001, "Unauthorized: send Authorization: Bearer <token>", {
            "www-authenticate": 'Bearer realm="websearch-mcp"'
          })
        )
      }
      caller = { id: callerId(candidate), workspace: security.tokenWorkspaces[index] ?? defaultWorkspace }
    }
    const limited = yield* count(caller.id)
    return Option.isSome(limited) ? Either.left(tooMany(limited.value)) : Either.right(caller)
  })
