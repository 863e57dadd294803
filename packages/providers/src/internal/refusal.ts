/**
 * How a provider refused a call, in the provider's terms, and the websearch error each refusal becomes: 401/403 →
 * `Unavailable/credentials_rejected` naming the key by position, 429 → `RequestFailed/http_429` with
 * `retryAfter`, plan limits → `RequestFailed/rate_limited` not retryable, 5xx → `RequestFailed/http_5xx`; the
 * provider's own message is kept (truncated, secrets removed).
 */
import * as RetryAfter from "@websearch/core/internal/retryAfter"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Option from "effect/Option"
import type { Answer } from "./cappedRead.js"
import { type Call, errorContext, keyName, keySettings, providerText } from "./providerCall.js"

/**
 * Seconds from a `Retry-After` header (seconds or an HTTP date, read against the wall clock), capped at a day.
 */
export const retryAfterSeconds = (headers: Readonly<Record<string, string>>): number | undefined =>
  RetryAfter.fromHeaders(headers, Date.now())

/**
 * How a provider's answer failed, in the provider's terms; `failure` turns it into the websearch error.
 *
 * - `credentials`: the key was refused or is missing.
 * - `rate_limited`: slow down; retrying later helps (`retryAfter` when the provider said).
 * - `quota`: the plan or balance is exhausted; retrying soon does not help.
 * - `server`: the provider failed.
 * - `status`: any other refusal (bad request, not found, ...).
 */
export interface Refusal {
  readonly kind: "credentials" | "rate_limited" | "quota" | "server" | "status"
  /** The HTTP status, or the provider's in-body code, shown in the message. */
  readonly status: number | string
  /** The provider's own message, if it gave one (raw: it is cleaned here). */
  readonly message?: string | undefined
  readonly retryAfter?: number | undefined
  /** What the user can do, appended to the message. */
  readonly hint?: string | undefined
}

/**
 * The websearch error for a refusal.
 */
export const failure = (c: Call, refusal: Refusal): WebSearchError.WebSearchError => {
  const said =
    refusal.message === undefined || refusal.message.trim() === "" ? "" : `: ${providerText(c, refusal.message)}`
  const code = typeof refusal.status === "number" ? `HTTP ${refusal.status}` : `code ${refusal.status}`
  const hint = refusal.hint === undefined ? "" : `; ${refusal.hint}`
  const retryAfter = refusal.retryAfter
  // Without a key (none configured, or a provider that takes none) there is no key to blame: the refusal is
  // worded around this client, and the hint says what would help.
  const keyless = Option.isNone(c.ctx.apiKey) || c.ctx.provider.credentials === "none"
  switch (refusal.kind) {
    case "credentials":
      return WebSearchError.unavailable(
        "credentials_rejected",
        keyless
          ? `${c.providerName} refused the call (${code})${said}${hint}`
          : `${c.providerName} rejected ${keyName(c)} (${code})${said}${hint === "" ? `; check ${keySettings(c)}` : hint}`,
        errorContext(c)
      )
    case "rate_limited":
      return WebSearchError.requestFailed(
        typeof refusal.status === "number" && refusal.status === 429 ? "http_429" : "rate_limited",
        `${c.providerName} is rate limiting ${keyless ? "this client" : keyName(c)} (${code})${said}${hint}`,
        errorContext(c, { retryAfter })
      )
    case "quota":
      return WebSearchError.requestFailed(
        "rate_limited",
        `${c.providerName} refused the call: the plan's usage limit or balance is exhausted (${code})${said}${hint}`,
        errorContext(c, { retryAfter, retryable: retryAfter !== undefined })
      )
    case "server":
      return WebSearchError.requestFailed(
        "http_5xx",
        `${c.providerName} failed (${code})${said}${hint}`,
        errorContext(c, { retryAfter })
      )
    case "status": {
      const status = typeof refusal.status === "number" ? refusal.status : undefined
      return WebSearchError.requestFailed(
        status === 404 ? "http_404" : status === 403 ? "http_403" : "http_status",
        `${c.providerName} refused the call (${code})${said}${hint}`,
        errorContext(c)
      )
    }
  }
}

/**
 * The default reading of a non-2xx status: 401/403 credentials, 429 rate limit (Retry-After honoured), 402 a
 * plan limit, 5xx a server failure, anything else a refusal. Drivers override it for their own codes.
 */
export const refusalOf = (status: number, headers: Readonly<Record<string, string>>, message?: string): Refusal => {
  const retryAfter = retryAfterSeconds(headers)
  if (status === 401 || status === 403) return { kind: "credentials", status, message }
  if (status === 429) return { kind: "rate_limited", status, message, retryAfter }
  if (status === 402) return { kind: "quota", status, message, retryAfter }
  if (status >= 500) return { kind: "server", status, message, retryAfter }
  return { kind: "status", status, message }
}

/**
 * The provider's message out of a JSON error body, trying the usual places: `message`, `error` (a string or an
 * object with `message`/`error`), `detail` (a string, an object with `error`, or FastAPI's validation list),
 * `msg`, `error_msg`, `readableMessage`.
 */
export const messageOf = (body: unknown): string | undefined => {
  if (typeof body === "string") return body.trim() === "" ? undefined : body
  if (typeof body !== "object" || body === null) return undefined
  const record = body as Record<string, unknown>
  for (const key of ["readableMessage", "message", "error_msg", "msg"]) {
    const value = record[key]
    if (typeof value === "string" && value.trim() !== "") return value
  }
  for (const key of ["error", "detail"]) {
    const value = record[key]
    if (typeof value === "string" && value.trim() !== "") return value
    if (Array.isArray(value)) {
      const parts = value.map((v) => messageOf(v) ?? "").filter((v) => v !== "")
      if (parts.length > 0) return parts.join("; ")
    }
    if (typeof value === "object" && value !== null) {
      const inner = messageOf(value)
      if (inner !== undefined) return inner
    }
  }
  return undefined
}

/** Whether an answer is an HTML page (a proxy's or a server's error page, not the API's own message). */
export const isHtml = (answer: Answer): boolean =>
  (answer.headers["content-type"] ?? "").toLowerCase().includes("html") || answer.text.trimStart().startsWith("<")

/**
 * The provider's message in an answer: `messageOf` on its JSON, else its text unless that is empty or an HTML page.
 */
export const answerMessage = (answer: Answer, json: unknown): string | undefined =>
  messageOf(json) ?? (isHtml(answer) || answer.text.trim() === "" ? undefined : answer.text)
