/**
 * The MCP streamable HTTP transport (JSON responses, no SSE) as an `@effect/rpc` server protocol, with the
 * transport's security rules applied before a byte of the body is read: the Host header must name an allowed host
 * (DNS rebinding), a present Origin must be loopback or configured, a bearer token is required when tokens are
 * configured (compared by SHA-256 digest in constant time), each caller (token, or address without tokens) is held
 * to its request rate and its requests in progress (429 with Retry-After), the body must be `application/json` (so
 * a browser cannot send it without a CORS preflight, which this endpoint never grants) and at most `maxBodyBytes`,
 * counted as it streams, chunked bodies included. Sessions belong to the caller that opened them (see
 * `mcpSessions`). Every refusal is a JSON-RPC error with a fixed message: nothing from the request is echoed.
 */
import * as McpSchema from "@effect/ai/McpSchema"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as RpcMessage from "@effect/rpc/RpcMessage"
import * as RpcServer from "@effect/rpc/RpcServer"
import { defaultWorkspace } from "@websearch/core/ProviderInstance"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Mailbox from "effect/Mailbox"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as CallerLimits from "./callerLimits.js"
import * as JsonRpcCodec from "./jsonRpcCodec.js"
import * as Sessions from "./mcpSessions.js"

/** The validated security settings of the endpoint. */
export interface Security {
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
  readonly maxBodyBytes: number
  /** Requests each caller may make per window; none: no limit. */
  readonly rateLimit: Option.Option<{ readonly limit: number; readonly window: Duration.Duration }>
  /** Requests of one caller in progress at once. */
  readonly maxConcurrentRequests: number
  readonly sessions: Sessions.Bounds
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

const hostAllowed = (host: string | undefined, security: Security): boolean => {
  if (host === undefined || host.length === 0 || host.length > 300) return false
  if (security.allowedHosts.includes("*")) return true
  const name = hostName(host)
  return loopbackHosts.has(name) || security.allowedHosts.includes(name)
}

const originAllowed = (origin: string | undefined, security: Security): boolean => {
  // Clients that are not browsers send no Origin; a browser always does on a cross-site POST.
  if (origin === undefined) return true
  if (origin.length > 300 || !URL.canParse(origin)) return false
  const url = new URL(origin)
  if ((url.protocol === "http:" || url.protocol === "https:") && loopbackHosts.has(url.hostname)) return true
  return security.allowedOrigins.includes(url.origin.toLowerCase())
}

const refuse = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson({ jsonrpc: "2.0", id: null, error: { code, message } }, { status, headers })

class TooLarge {
  readonly _tag = "TooLarge"
}

class Broken {
  readonly _tag = "Broken"
}

// Past the cap the rest of a body is read and dropped in the background, up to this many bytes more, so the 413
// (sent at once) reaches a client that is still sending; a body longer than that has its connection closed.
const drainLimit = 16 * 1024 * 1024

const concat = (chunks: ReadonlyArray<Uint8Array>, size: number): Uint8Array => {
  const body = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.length
  }
  return body
}

// The body, at most `max` bytes: a declared length over the cap fails before reading; otherwise bytes are counted
// as they stream and the read fails the moment the count passes the cap, whatever the transfer encoding.
const readBody = (
  request: HttpServerRequest.HttpServerRequest,
  max: number
): Effect.Effect<Uint8Array, TooLarge | Broken> => {
  const declared = request.headers["content-length"]
  if (declared !== undefined && Number(declared) > max) return Effect.fail(new TooLarge())
  return Effect.gen(function* () {
    const result = yield* Deferred.make<Uint8Array, TooLarge | Broken>()
    const chunks: Array<Uint8Array> = []
    let size = 0
    let over = false
    yield* request.stream.pipe(
      Stream.runForEachWhile((chunk) =>
        Effect.sync(() => {
          size += chunk.length
          if (size <= max) {
            chunks.push(chunk)
            return true
          }
          if (!over) {
            over = true
            chunks.length = 0
            Deferred.unsafeDone(result, Exit.fail(new TooLarge()))
          }
          return size <= max + drainLimit
        })
      ),
      Effect.exit,
      Effect.flatMap((exit) =>
        over
          ? Effect.void
          : Deferred.done(result, Exit.isSuccess(exit) ? Exit.succeed(concat(chunks, size)) : Exit.fail(new Broken()))
      ),
      Effect.forkDaemon
    )
    return yield* Deferred.await(result)
  })
}

const isJson = (contentType: string | undefined): boolean =>
  contentType !== undefined && contentType.split(";")[0].trim().toLowerCase() === "application/json"

/** The protocol, and the HTTP app serving it, for `security`. */
export const make = (security: Security) =>
  Effect.gen(function* () {
    const disconnects = yield* Mailbox.make<number>()
    let writeRequest!: (clientId: number, message: RpcMessage.FromClientEncoded) => Effect.Effect<void>
    let nextClientId = 0
    const sessions = Sessions.makeRegistry(security.sessions)
    const limits = yield* CallerLimits.make(security)
    const clients = new Map<
      number,
      { readonly codec: JsonRpcCodec.Codec; readonly mailbox: Mailbox.Mailbox<JsonRpcCodec.Outgoing> }
    >()
    // Idle sessions end even when no request comes to notice them.
    yield* Clock.currentTimeMillis.pipe(
      Effect.map(sessions.sweep),
      Effect.repeat(Schedule.spaced(Duration.millis(Math.min(security.sessions.idleMillis, 60_000)))),
      Effect.forkScoped
    )

    const tooMany = (limited: CallerLimits.Limited) =>
      refuse(429, -32000, limited.message, { "retry-after": String(limited.retryAfter) })

    // The caller of a request that passes the checks, or the refusal.
    const guard = (
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
        const limited = yield* limits.count(caller.id)
        return Option.isSome(limited) ? Either.left(tooMany(limited.value)) : Either.right(caller)
      })

    const handle = (request: HttpServerRequest.HttpServerRequest, caller: Sessions.Caller) =>
      Effect.gen(function* () {
        if (!isJson(request.headers["content-type"])) {
          return refuse(415, -32000, "Unsupported Media Type: send the JSON-RPC message as application/json")
        }
        const body = yield* Effect.either(readBody(request, security.maxBodyBytes))
        if (body._tag === "Left" && body.left._tag === "Broken") {
          return refuse(400, -32000, "Bad Request: the body could not be read")
        }
        if (body._tag === "Left") {
          return refuse(413, -32000, `Payload Too Large: the limit is ${security.maxBodyBytes} bytes`, {
            connection: "close"
          })
        }
        let text: string
        try {
          text = new TextDecoder("utf-8", { fatal: true }).decode(body.right)
        } catch {
          return HttpServerResponse.unsafeJson(JsonRpcCodec.parseError(), { status: 400 })
        }

        // A client that initialised with a session id sends it on every request; one this caller does not have
        // (it ended, the server restarted, or it is another caller's) is 404, which tells the client to initialise
        // again.
        const sent = request.headers[Sessions.header]
        if (sent !== undefined && !sessions.owns(sent, caller, yield* Clock.currentTimeMillis)) {
          return refuse(404, -32001, "Not Found: no such MCP session; initialize again")
        }
        const codec = JsonRpcCodec.make()
        const decoded = codec.decodeText(text)
        if (decoded.replies.length > 0) {
          // A message that is not JSON-RPC is a bad HTTP request; an unknown method or bad params is an answer.
          const reply = decoded.replies[0]
          const code = "error" in reply ? reply.error.code : 0
          return HttpServerResponse.unsafeJson(reply, {
            status: code === McpSchema.PARSE_ERROR_CODE || code === McpSchema.INVALID_REQUEST_ERROR_CODE ? 400 : 200
          })
        }
        if (decoded.messages.length === 0) return HttpServerResponse.empty({ status: 202 })

        const initialize = decoded.messages.some((m) => m._tag === "Request" && m.tag === "initialize")
        const session = sent ?? (initialize ? sessions.open(caller, yield* Clock.currentTimeMillis) : undefined)
        if (initialize && session === undefined) {
          return refuse(
            503,
            -32000,
            "Service Unavailable: the server holds as many MCP sessions as it may; retry later",
            { "retry-after": "60" }
          )
        }
        const id = nextClientId++
        const withSession = (response: HttpServerResponse.HttpServerResponse) =>
          initialize && session !== undefined
            ? HttpServerResponse.setHeader(response, Sessions.header, session)
            : response
        const mailbox = yield* Mailbox.make<JsonRpcCodec.Outgoing>()
        clients.set(id, { codec, mailbox })
        sessions.bind(id, caller, session, yield* Clock.currentTimeMillis)
        const requestIds = decoded.messages.flatMap((m) => (m._tag === "Request" && m.id !== "" ? [m.id] : []))
        yield* Scope.addFinalizer(
          yield* Effect.scope,
          Effect.flatMap(Clock.currentTimeMillis, (now) => {
            clients.delete(id)
            sessions.unbind(id, now)
            disconnects.unsafeOffer(id)
            // The client went away (or the answer is sent): interrupt whatever is still running for it.
            return codec.pending() === 0
              ? Effect.void
              : Effect.forEach(requestIds, (requestId) => writeRequest(id, { _tag: "Interrupt", requestId }), {
                  discard: true
                })
          })
        )
        for (const message of decoded.messages) yield* writeRequest(id, message)
        yield* writeRequest(id, { _tag: "Eof" })
        if (requestIds.length === 0) return HttpServerResponse.empty({ status: 202 })
        // One request per POST: its answer is the response; server notifications meanwhile have no stream to go on.
        while (true) {
          const [items, done] = yield* mailbox.takeAll
          for (const item of items) {
            if ("result" in item || "error" in item) return withSession(HttpServerResponse.unsafeJson(item))
          }
          if (done) return HttpServerResponse.empty({ status: 202 })
        }
      })

    const post = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const guarded = yield* guard(request)
      if (Either.isLeft(guarded)) return guarded.left
      return yield* limits.admit(guarded.right.id, handle(request, guarded.right), tooMany)
    }).pipe(Effect.interruptible)

    const methodNotAllowed = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const guarded = yield* guard(request)
      if (Either.isLeft(guarded)) return guarded.left
      // No server-initiated stream (GET); DELETE ends a session of the caller's own, and is refused without one.
      const session = request.headers[Sessions.header]
      if (request.method === "DELETE" && session !== undefined) {
        return sessions.close(session, guarded.right)
          ? HttpServerResponse.empty({ status: 204 })
          : refuse(404, -32001, "Not Found: no such MCP session")
      }
      return refuse(405, -32000, "Method Not Allowed", { allow: "POST, DELETE" })
    })

    const protocol = yield* RpcServer.Protocol.make((writeRequest_) => {
      writeRequest = writeRequest_
      return Effect.succeed({
        disconnects,
        send: (clientId, response) => {
          const client = clients.get(clientId)
          if (client === undefined) return Effect.void
          const encoded = client.codec.encode(response)
          return encoded === undefined ? Effect.void : client.mailbox.offer(encoded)
        },
        end: (clientId) => {
          const client = clients.get(clientId)
          return client === undefined ? Effect.void : client.mailbox.end
        },
        clientIds: Effect.sync(() => new Set(clients.keys())),
        initialMessage: Effect.succeedNone,
        supportsAck: false,
        supportsTransferables: false,
        supportsSpanPropagation: false
      })
    })

    return {
      protocol,
      post,
      methodNotAllowed,
      sessions: { clientOf: sessions.clientOf, onClose: sessions.onClose }
    } as const
  })

/** Registers the endpoint at `path` of the default router and returns its protocol. */
export const register = (path: HttpRouter.PathInput, security: Security) =>
  Effect.gen(function* () {
    const router = yield* HttpRouter.Default
    const { methodNotAllowed, post, protocol, sessions } = yield* make(security)
    yield* router.post(path, post)
    yield* router.get(path, methodNotAllowed)
    yield* router.del(path, methodNotAllowed)
    return { protocol, sessions }
  })
