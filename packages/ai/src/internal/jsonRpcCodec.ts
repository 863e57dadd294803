/**
 * JSON-RPC 2.0 for MCP, between a client's messages and `@effect/rpc`'s server messages, one message at a time.
 *
 * `@effect/rpc`'s own JSON-RPC serialization trusts its peer: a line that is not JSON, or an id it cannot turn
 * into a BigInt (`null`, an object, a string that is not digits), throws inside the protocol's read loop and the
 * server stops answering; an unknown method is answered with a defect under a made-up id; a failure's `Cause` is
 * sent to the client as JSON. This codec stands in front of it. It validates every message before the server sees
 * it and answers what is malformed itself (-32700 for text that is not JSON, -32600 for a message that is not a
 * valid request, -32601 for an unknown method, -32602 for params its schema refuses), always with the caller's id
 * when it has a usable one. The server only ever sees ids of its own (a counter), which the codec maps back to
 * the caller's, so string ids and large numbers work too. On the way out, a failure that is not an MCP error
 * becomes -32603 "Internal error" with nothing from the `Cause`.
 */
import * as McpSchema from "@effect/ai/McpSchema"
import type * as RpcMessage from "@effect/rpc/RpcMessage"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"

/** A JSON-RPC id as MCP allows it: a string or an integer (never null). */
type Id = string | number

/** A JSON-RPC message as written to the client. */
export type Outgoing =
  | { readonly jsonrpc: "2.0"; readonly id: Id | null; readonly result: unknown }
  | {
      readonly jsonrpc: "2.0"
      readonly id: Id | null
      readonly error: { readonly code: number; readonly message: string; readonly data?: unknown }
    }
  | { readonly jsonrpc: "2.0"; readonly id?: Id; readonly method: string; readonly params?: unknown }

/** What one incoming message turned into: messages for the server, and replies the codec wrote itself. */
export interface Decoded {
  readonly messages: Array<RpcMessage.FromClientEncoded>
  readonly replies: Array<Outgoing>
}

/** The longest string id accepted; ids are opaque tokens, not payloads. */
const maxIdLength = 256

const errorReply = (id: Id | null, code: number, message: string): Outgoing => ({
  jsonrpc: "2.0",
  id,
  error: { code, message }
})

/** A parse error for text that was not JSON (or too long to read). */
export const parseError = (): Outgoing => errorReply(null, McpSchema.PARSE_ERROR_CODE, "Parse error")

/** An invalid-request error with the given id, or `null` when the message had no usable one. */
export const invalidRequest = (id: Id | null, message = "Invalid request"): Outgoing =>
  errorReply(id, McpSchema.INVALID_REQUEST_ERROR_CODE, message)

const isId = (u: unknown): u is Id =>
  (typeof u === "string" && u.length <= maxIdLength) || (typeof u === "number" && Number.isSafeInteger(u))

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key)

type Rpcs = ReadonlyMap<string, { readonly payloadSchema: Schema.Schema.Any }>

const validator = (rpcs: Rpcs) => {
  const cache = new Map<string, (u: unknown) => boolean>()
  return (method: string, params: unknown): boolean => {
    let check = cache.get(method)
    if (check === undefined) {
      const decode = Schema.decodeUnknownEither(rpcs.get(method)!.payloadSchema as Schema.Schema<unknown, unknown>)
      check = (u) => Either.isRight(decode(u))
      cache.set(method, check)
    }
    return check(params)
  }
}

const requests = McpSchema.ClientRequestRpcs.requests as unknown as Rpcs
const notifications = McpSchema.ClientNotificationRpcs.requests as unknown as Rpcs
const validRequest = validator(requests)
const validNotification = validator(notifications)

// A JSON key for an id, so that 1 and "1" stay distinct.
const keyOf = (id: Id): string => (typeof id === "number" ? `n${id}` : `s${id}`)

/** The codec of one connection (stdio) or one request (HTTP): it holds the id maps of its in-flight requests. */
export interface Codec {
  /** One JSON-RPC message, already parsed from JSON. */
  readonly decodeValue: (value: unknown) => Decoded
  /** One JSON-RPC message as text. */
  readonly decodeText: (text: string) => Decoded
  /** A server message for the client, or `undefined` when the client is not to see it. */
  readonly encode: (message: RpcMessage.FromServerEncoded) => Outgoing | undefined
  /** Whether a request is still waiting for its answer. */
  readonly pending: () => number
}

const failureError = (cause: unknown): { readonly code: number; readonly message: string; readonly data?: unknown } => {
  // Only a typed MCP error (code and message, from McpServer or a handler) is shown; anything else is internal.
  if (isRecord(cause) && cause._tag === "Fail" && isRecord(cause.error)) {
    const { code, data, message } = cause.error
    if (typeof code === "number" && Number.isInteger(code) && typeof message === "string") {
      return data === undefined ? { code, message } : { code, message, data }
    }
  }
  return { code: McpSchema.INTERNAL_ERROR_CODE, message: "Internal error" }
}

const isInterrupt = (cause: unknown): boolean => isRecord(cause) && cause._tag === "Interrupt"

/** JSON text of a message; a result that cannot be serialised becomes an internal error for its id. */
export const stringify = (message: Outgoing): string => {
  try {
    return JSON.stringify(message)
  } catch {
    const id = "id" in message && message.id !== undefined ? message.id : null
    return JSON.stringify(errorReply(id, McpSchema.INTERNAL_ERROR_CODE, "Internal error"))
  }
}

/** A new codec, with no request in flight. */
export const make = (): Codec => {
  let counter = 0
  // The server's id -> the caller's id, and the caller's id key -> the server's id.
  const callerIds = new Map<string, Id>()
  const serverIds = new Map<string, string>()
  // Ids of the requests the server sent to the client (elicitation, sampling), awaiting the client's answer.
  const outgoing = new Set<number>()

  const none: Decoded = { messages: [], replies: [] }
  const reply = (r: Outgoing): Decoded => ({ messages: [], replies: [r] })
  const message = (m: RpcMessage.FromClientEncoded): Decoded => ({ messages: [m], replies: [] })

  const decodeRequest = (id: Id, method: string, params: unknown): Decoded => {
    if (!requests.has(method)) return reply(errorReply(id, McpSchema.METHOD_NOT_FOUND_ERROR_CODE, "Method not found"))
    if (!validRequest(method, params)) {
      return reply(errorReply(id, McpSchema.INVALID_PARAMS_ERROR_CODE, `Invalid params for ${method}`))
    }
    if (serverIds.has(keyOf(id))) return reply(invalidRequest(id, "Request id already in use"))
    const serverId = String(++counter)
    callerIds.set(serverId, id)
    serverIds.set(keyOf(id), serverId)
    return message({ _tag: "Request", id: serverId, tag: method, payload: params, headers: [] })
  }

  const decodeNotification = (method: string, params: unknown): Decoded => {
    // Notifications are never answered, so one that is unknown or malformed is dropped.
    if (!notifications.has(method) || !validNotification(method, params)) return none
    if (method === "notifications/cancelled") {
      const requestId = (params as { readonly requestId?: unknown }).requestId
      const serverId = isId(requestId) ? serverIds.get(keyOf(requestId)) : undefined
      if (serverId === undefined) return none
      return message({
        _tag: "Request",
        id: "",
        tag: method,
        payload: { ...(params as object), requestId: serverId },
        headers: []
      })
    }
    return message({ _tag: "Request", id: "", tag: method, payload: params, headers: [] })
  }

  const decodeResponse = (value: Record<string, unknown>): Decoded => {
    const id = value.id
    // An answer to nothing the server asked is dropped: responses are never answered.
    if (typeof id !== "number" || !outgoing.has(id)) return none
    outgoing.delete(id)
    const exit: RpcMessage.ResponseExitEncoded["exit"] =
      hasOwn(value, "error") && value.error !== undefined && value.error !== null
        ? { _tag: "Failure", cause: { _tag: "Die", defect: value.error } }
        : { _tag: "Success", value: value.result }
    return { messages: [{ _tag: "Exit", requestId: String(id), exit } as never], replies: [] }
  }

  const decodeValue = (value: unknown): Decoded => {
    if (Array.isArray(value)) return reply(invalidRequest(null, "Batches are not supported"))
    if (!isRecord(value)) return reply(invalidRequest(null))
    const hasId = hasOwn(value, "id")
    const id = hasId && isId(value.id) ? value.id : null
    if (value.jsonrpc !== "2.0") return reply(invalidRequest(id))
    if (hasOwn(value, "method")) {
      if (typeof value.method !== "string") return reply(invalidRequest(id))
      if (!hasId) return decodeNotification(value.method, value.params)
      if (id === null) return reply(invalidRequest(null))
      return decodeRequest(id, value.method, value.params)
    }
    if (hasId && (hasOwn(value, "result") || hasOwn(value, "error"))) return decodeResponse(value)
    return reply(invalidRequest(id))
  }

  const decodeText = (text: string): Decoded => {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return reply(parseError())
    }
    return decodeValue(value)
  }

  const encode = (m: RpcMessage.FromServerEncoded): Outgoing | undefined => {
    switch (m._tag) {
      case "Exit": {
        const id = callerIds.get(m.requestId)
        if (id === undefined) return undefined
        callerIds.delete(m.requestId)
        serverIds.delete(keyOf(id))
        if (m.exit._tag === "Success") return { jsonrpc: "2.0", id, result: m.exit.value }
        // A cancelled request gets no answer (MCP cancellation).
        if (isInterrupt(m.exit.cause)) return undefined
        return { jsonrpc: "2.0", id, error: failureError(m.exit.cause) }
      }
      default: {
        // Requests and notifications the server sends the client (the server's RpcClient uses its own ids).
        const sent = m as unknown as { readonly _tag: string; readonly id?: unknown; readonly tag?: unknown }
        if (sent._tag !== "Request" || typeof sent.tag !== "string") return undefined
        const request = sent as unknown as RpcMessage.RequestEncoded
        if (request.id === undefined || request.id === "") {
          return { jsonrpc: "2.0", method: request.tag, params: request.payload }
        }
        const id = Number(request.id)
        outgoing.add(id)
        return { jsonrpc: "2.0", id, method: request.tag, params: request.payload }
      }
    }
  }

  return { decodeValue, decodeText, encode, pending: () => callerIds.size }
}
