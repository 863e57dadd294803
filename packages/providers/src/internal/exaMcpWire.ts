// The wire format of the `ExaMcp` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
import * as Sse from "./eventStream.js"
import * as AnswerFields from "./answerFields.js"

/**
 * The most results asked for: the tool passes `numResults` on to Exa's search, whose limit is 100 (the tool's
 * schema declares no maximum).
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 100

/**
 * The most bytes of a reply read (JSON or a whole event stream): a search reply is tens of kilobytes.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxReplyBytes = 4 * 1024 * 1024

/**
 * The tool called.
 *
 * @since 0.1.0
 * @category constants
 */
export const toolName = "web_search_exa"

/**
 * The JSON-RPC request for one keyword.
 *
 * @since 0.1.0
 * @category encoding
 */
export const requestBody = (keyword: string, maxResults: number, id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: {
    name: toolName,
    arguments: { query: keyword, numResults: Http.clamp(maxResults, 1, maxResultsLimit) }
  }
})

/**
 * A tool result: text items (other item types are ignored) and the tool's error flag.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ToolResult = Schema.Struct({
  content: Schema.optionalWith(
    Schema.NullOr(
      Schema.Array(Schema.Struct({ type: Schema.optional(Schema.String), text: AnswerFields.OptionalText }))
    ),
    { default: () => [] }
  ),
  isError: Schema.optional(Schema.NullOr(Schema.Boolean))
})

/**
 * A JSON-RPC error object.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RpcError = Schema.Struct({
  code: AnswerFields.OptionalNumber,
  message: AnswerFields.OptionalText
})

/**
 * The JSON-RPC reply to the call: a `result` or an `error`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Reply = Schema.Struct({
  jsonrpc: Schema.optional(Schema.String),
  id: Schema.optional(Schema.NullOr(Schema.Union(Schema.Number, Schema.String))),
  result: Schema.optional(Schema.NullOr(ToolResult)),
  error: Schema.optional(Schema.NullOr(RpcError))
})

/**
 * The JSON messages of a reply body: the body itself when it is JSON (a batch array is spread), else the JSON
 * `data` of each server-sent event, skipping frames that are not JSON. `TooLarge` when one event exceeds the
 * cap.
 *
 * @since 0.1.0
 * @category encoding
 */
export const messagesOf = (text: string, maxEventChars: number): ReadonlyArray<unknown> | Sse.TooLarge => {
  const whole = Http.parseJson(text)
  if (Either.isRight(whole)) return Array.isArray(whole.right) ? whole.right : [whole.right]
  const decoder = Sse.make({ maxEventChars })
  // The body is complete here, so an event the server left open at the end (no blank line) is whole: close it.
  const fed = decoder.feed(new TextEncoder().encode(`${text}\n\n`))
  if (fed._tag === "TooLarge") return fed
  return fed.events.flatMap((event) => {
    const parsed = Http.parseJson(event.data)
    return Either.isRight(parsed) ? [parsed.right] : []
  })
}

export const isReply = (message: unknown): message is Record<string, unknown> =>
  typeof message === "object" &&
  message !== null &&
  !Array.isArray(message) &&
  ("result" in message || "error" in message)

/**
 * The reply to call `id` among the messages: the one with that id, else an error with a null id (a server that
 * could not read the request's id, as the free tier's rate limit does).
 *
 * @since 0.1.0
 * @category encoding
 */
export const replyFor = (messages: ReadonlyArray<unknown>, id: number): Record<string, unknown> | undefined => {
  const replies = messages.filter(isReply)
  return (
    replies.find((m) => m.id === id || m.id === String(id)) ??
    replies.find((m) => (m.id === null || m.id === undefined) && "error" in m && m.error !== null)
  )
}
