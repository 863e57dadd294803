/**
 * The `exa-mcp` provider: `searchKeywords` through Exa's hosted MCP server, one stateless JSON-RPC 2.0
 * `tools/call` of `web_search_exa` per keyword over streamable HTTP, `POST {apiHost}/mcp` (apiHost
 * `https://mcp.exa.ai`). No `initialize` handshake: the hosted server is stateless, as the clients that use it
 * rely on. A key is optional (`x-api-key`); without one Exa's free tier applies (a few calls per second and a
 * daily budget per IP).
 *
 * The request sends `Accept: application/json, text/event-stream` and only the arguments the current tool schema
 * declares (`query`, `numResults` clamped to 1–100). The reply is read whole (at most `maxReplyBytes`) as plain
 * JSON or as server-sent events; every `data:` frame is parsed, frames that are not JSON or not the reply
 * (progress notifications) are skipped, and the message whose `id` matches the call is taken. Its text is
 * parsed into results in both of the formats the server has used (see `internal/exaMcpText.ts`); the
 * no-results text is zero results.
 *
 * Errors: `result.isError: true` → `RequestFailed` with the tool's text (the status inside it, "… error (429):
 * …", picks the reason); a JSON-RPC `error` → `RequestFailed` with its message; the free tier's HTTP 429 (a
 * JSON-RPC error body with `Retry-After`) → `RequestFailed/http_429` with `retryAfter`; 401/403 →
 * `Unavailable/credentials_rejected`; 5xx → `http_5xx`; an event stream that ends before any reply (cut
 * mid-event, or after notifications only) → `RequestFailed/stream_incomplete`, retryable; a reply with no
 * matching message → `ResponseInvalid/decode_failed`.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as McpText from "./internal/exaMcpText.js"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import { Reply, isReply, maxReplyBytes, messagesOf, replyFor, requestBody, toolName } from "./internal/exaMcpWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "exa-mcp"

/**
 * The `exa-mcp` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "exa-mcp",
  name: "Exa MCP",
  type: "mcp",
  credentials: "optional",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://mcp.exa.ai" }],
  // The free tier's published budget: 2 calls per second per IP (a key lifts it; set rateLimit then).
  publishedRateLimit: { limit: 2, windowMillis: 1_000, maxWaitMillis: 15_000 }
})

/** The HTTP status the tool put in its error text ("web_search_exa error (429): …", "Search error (500): …"). */
const statusInText = (text: string): number | undefined => {
  const found = /\((\d{3})\)/.exec(text)
  return found === null ? undefined : Number(found[1])
}

const refusalOfText = (status: number | string, message: string): Http.Refusal => {
  const code = typeof status === "number" ? status : statusInText(message)
  if (/rate limit/i.test(message) || code === 429) return { kind: "rate_limited", status: code ?? status, message }
  if (code === 401 || code === 403) return { kind: "credentials", status: code, message }
  if (code === 402) return { kind: "quota", status: code, message }
  if (code !== undefined && code >= 500) return { kind: "server", status: code, message }
  return { kind: "status", status: code ?? status, message }
}

const searchKeywords = (client: HttpClient.HttpClient, nextId: () => number) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.gen(function* () {
      const keyword = c.input
      const base = yield* Http.endpoint(c)
      const id = nextId()
      const request = HttpClientRequest.post(`${base}/mcp`).pipe(
        HttpClientRequest.setHeader("accept", "application/json, text/event-stream"),
        HttpClientRequest.bodyUnsafeJson(requestBody(keyword, ctx.maxResults, id))
      )
      const keyless = Option.isNone(ctx.apiKey)
      const answer = yield* Http.send(
        client,
        c,
        Option.match(ctx.apiKey, {
          onNone: () => request,
          onSome: (key) => HttpClientRequest.setHeader(request, "x-api-key", Redacted.value(key))
        }),
        {
          maxBodyBytes: maxReplyBytes,
          // Without a key the free tier's limit applies: say how to lift it.
          hints: keyless
            ? { rate_limited: `an API key lifts the free tier's limit: set ${Http.keySettings(c)}` }
            : undefined
        }
      )
      const messages = messagesOf(answer.text, maxReplyBytes)
      if (!Array.isArray(messages)) {
        return yield* Effect.fail(
          Http.requestFailed(c, "too_large", `${c.providerName}'s reply exceeded ${maxReplyBytes} characters`)
        )
      }
      const found = replyFor(messages, id)
      if (found === undefined) {
        const type = answer.headers["content-type"] ?? "no content type"
        // The server closes the event stream after the call's reply: a stream that ended without any reply was
        // cut short (a transport fault, worth retrying), not an answer of the wrong shape.
        if (type.toLowerCase().includes("text/event-stream") && !messages.some(isReply)) {
          return yield* Effect.fail(
            Http.requestFailed(
              c,
              "stream_incomplete",
              `${c.providerName}'s event stream ended after ${messages.length} message(s) without the reply to the ${toolName} call`
            )
          )
        }
        return yield* Effect.fail(
          Http.invalid(
            c,
            `answered without a reply to the ${toolName} call (${Http.providerText(c, type)}, ${messages.length} message(s))`
          )
        )
      }
      const reply = yield* Http.decodeValue(c, Reply, found)
      if (reply.error !== undefined && reply.error !== null) {
        const message = reply.error.message ?? "no message"
        return yield* Effect.fail(Http.failure(c, refusalOfText(`${reply.error.code ?? "error"}`, message)))
      }
      if (reply.result === undefined || reply.result === null) {
        return yield* Effect.fail(Http.invalid(c, `answered the ${toolName} call with neither a result nor an error`))
      }
      const texts = (reply.result.content ?? []).flatMap((item) =>
        (item.type === undefined || item.type === "text") && typeof item.text === "string" ? [item.text] : []
      )
      if (reply.result.isError === true) {
        const message = texts.join(" ").trim()
        return yield* Effect.fail(
          Http.failure(c, refusalOfText("tool_error", message === "" ? `${toolName} failed` : message))
        )
      }
      return Fields.results(McpText.parse(texts.join("\n\n---\n\n")), (r) => ({
        title: r.title,
        content: r.content,
        url: r.url,
        publishedAt: r.published,
        author: r.author
      }))
    })
  )

/**
 * The search options the hosted `web_search_exa` tool honours natively: none (its schema takes only `query` and
 * `numResults`); the domain options are applied on the results.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = []

/**
 * Builds the driver with the `HttpClient` in context. Each driver numbers its calls so a reply is matched to its
 * request.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<ProviderDriver.ProviderDriver, never, HttpClient.HttpClient> = ProviderHttp.make(
  preset,
  (client) => {
    let last = 0
    const nextId = () => {
      last = last >= Number.MAX_SAFE_INTEGER ? 1 : last + 1
      return last
    }
    return { searchOptions, searchKeywords: searchKeywords(client, nextId) }
  }
)

/**
 * Registers the `exa-mcp` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
