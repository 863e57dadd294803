/**
 * Sending a call that carries no API key (DuckDuckGo, SearXNG, Keenable's public endpoint). The shared `send`
 * words a refusal around the key ("rate limiting the API key"), which would mislead when there is none: here
 * the refusal is read the same way (the driver's `refuse`, else the default reading) but a credentials or rate
 * refusal is worded around this client, with the driver's hint saying what would help.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Http from "./providerHttp.js"

const context = (c: Http.Call, retryAfter?: number | undefined) => ({
  providerId: c.providerId,
  capability: c.capability,
  input: c.input,
  retryAfter
})

/**
 * The websearch error for a refusal of a keyless call.
 */
export const failure = (c: Http.Call, refusal: Http.Refusal): WebSearchError.WebSearchError => {
  const said =
    refusal.message === undefined || refusal.message.trim() === "" ? "" : `: ${Http.providerText(c, refusal.message)}`
  const code = typeof refusal.status === "number" ? `HTTP ${refusal.status}` : `code ${refusal.status}`
  const hint = refusal.hint === undefined ? "" : `; ${refusal.hint}`
  switch (refusal.kind) {
    case "credentials":
      return WebSearchError.unavailable(
        "credentials_rejected",
        `${c.providerName} refused the call (${code})${said}${hint}`,
        context(c)
      )
    case "rate_limited":
      return WebSearchError.requestFailed(
        refusal.status === 429 ? "http_429" : "rate_limited",
        `${c.providerName} is rate limiting this client (${code})${said}${hint}`,
        context(c, refusal.retryAfter)
      )
    default:
      return Http.failure(c, refusal)
  }
}

/**
 * `Http.send` for a call without a key: same reading of the answer, keyless wording of the refusal.
 */
export const send = (
  client: HttpClient.HttpClient,
  c: Http.Call,
  request: HttpClientRequest.HttpClientRequest,
  options?: {
    readonly refuse?: ((answer: Http.Answer, json: unknown) => Http.Refusal | undefined) | undefined
    /** An answer that is not a refusal of any kind (a configuration problem): its error, as it is. */
    readonly reject?: ((answer: Http.Answer, json: unknown) => WebSearchError.WebSearchError | undefined) | undefined
    readonly maxBodyBytes?: number | undefined
  }
): Effect.Effect<Http.Answer, WebSearchError.WebSearchError> =>
  Effect.suspend(() => {
    // `send` reads the refusal through this callback and then words it; the refusal is kept to word it here.
    let refused: Http.Refusal | undefined
    let rejected: WebSearchError.WebSearchError | undefined
    const refuse = (answer: Http.Answer, json: unknown): Http.Refusal => {
      rejected = options?.reject?.(answer, json)
      refused =
        options?.refuse?.(answer, json) ??
        Http.refusalOf(
          answer.status,
          answer.headers,
          Http.messageOf(json) ??
            (answer.text.trimStart().startsWith("<") || answer.text.trim() === "" ? undefined : answer.text)
        )
      return refused
    }
    return Http.send(client, c, request, { refuse, maxBodyBytes: options?.maxBodyBytes }).pipe(
      Effect.mapError((error) => rejected ?? (refused === undefined ? error : failure(c, refused)))
    )
  })
