/**
 * The MCP streamable HTTP transport (JSON responses, no SSE) as an `@effect/rpc` server protocol, with the
 * transport's security rules applied before a byte of the body is read: the Host header must name an allowed host
 * (DNS rebinding), a present Origin must be loopback or configured, a bearer token is required when tokens are
 * configured (compared by SHA-256 digest in constant time), each caller (token, or address without tokens) is held
 * to its request rate and its requests in progress (429 with Retry-After), the body must be `application/json` (so
 * a browser cannot send it without a CORS preflight, which this endpoint never grants) and at most `maxBodyBytes`,
 * counted as it streams, chunked bodies included. Sessions belong to the caller that opened them (see
 * `mcpSessions`). Every refusal is a JSON-RPC error with a fixed message: nothing from the request is echoed.
 * Who may call is `httpAdmission.ts`, the capped body read `cappedBody.ts`; this module is the protocol.
 */
import * as McpSchema from "@effect/ai/McpSchema"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as RpcMessage from "@effect/rpc/RpcMessage"
import * as RpcServer from "@effect/rpc/RpcServer"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Mailbox from "effect/Mailbox"
import type * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import * as CallerLimits from "./callerLimits.js"
import * as CappedBody from "./cappedBody.js"
import * as HttpAdmission from "./httpAdmission.js"
import * as JsonRpcCodec from "./jsonRpcCodec.js"
import * as Sessions from "./mcpSessions.js"

/** The validated security settings of the endpoint. */
export interface Security extends HttpAdmission.Gate {
  readonly maxBodyBytes: number
  /** Requests each caller may make per window; none: no limit. */
  readonly rateLimit: Option.Option<{ readonly limit: number; readonly window: Duration.Duration }>
  /** Requests of one caller in progress at once. */
  readonly maxConcurrentRequests: number
  readonly sessions: Sessions.Bounds
}

/** The protocol, and the HTTP app serving it, for `security`. */
export const make = Effect.fnUntraced(function* (security: Security) {
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

  const guard = (request: HttpServerRequest.HttpServerRequest) => HttpAdmission.admit(security, limits.count, request)

  const handle = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest, caller: Sessions.Caller) {
    if (!CappedBody.isJson(request.headers["content-type"])) {
      return HttpAdmission.refuse(415, -32000, "Unsupported Media Type: send the JSON-RPC message as application/json")
    }
    const body = yield* Effect.either(CappedBody.read(request, security.maxBodyBytes))
    if (body._tag === "Left" && body.left._tag === "Broken") {
      return HttpAdmission.refuse(400, -32000, "Bad Request: the body could not be read")
    }
    if (body._tag === "Left") {
      return HttpAdmission.refuse(413, -32000, `Payload Too Large: the limit is ${security.maxBodyBytes} bytes`, {
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
      return HttpAdmission.refuse(404, -32001, "Not Found: no such MCP session; initialize again")
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
      return HttpAdmission.refuse(
        503,
        -32000,
        "Service Unavailable: the server holds as many MCP sessions as it may; retry later",
        { "retry-after": "60" }
      )
    }
    const id = nextClientId++
    const withSession = (response: HttpServerResponse.HttpServerResponse) =>
      initialize && session !== undefined ? HttpServerResponse.setHeader(response, Sessions.header, session) : response
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
    return yield* limits.admit(guarded.right.id, handle(request, guarded.right), HttpAdmission.tooMany)
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
        : HttpAdmission.refuse(404, -32001, "Not Found: no such MCP session")
    }
    return HttpAdmission.refuse(405, -32000, "Method Not Allowed", { allow: "POST, DELETE" })
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
export const register = Effect.fnUntraced(function* (path: HttpRouter.PathInput, security: Security) {
  const router = yield* HttpRouter.Default
  const { methodNotAllowed, post, protocol, sessions } = yield* make(security)
  yield* router.post(path, post)
  yield* router.get(path, methodNotAllowed)
  yield* router.del(path, methodNotAllowed)
  return { protocol, sessions }
})
