/**
 * Business codes: several providers (Bocha, Querit, Baidu Qianfan) answer HTTP 200 and put the real outcome in a
 * `code` field of the body, often HTTP-shaped ("401", 429, 500) and sometimes sent as a string. This reads such a
 * code leniently and turns an HTTP-shaped one into a refusal whose status is the code as text, so the message
 * says "code 429" rather than claiming an HTTP status the provider never sent.
 */
import * as Http from "./providerHttp.js"

/** A code sent as a number or a numeric string; anything else (absent, null, "abc") is undefined. */
export const codeOf = (value: unknown): number | undefined => {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined
  if (typeof value === "string" && /^\s*-?\d+\s*$/.test(value)) return Number(value)
  return undefined
}

/**
 * The refusal for a business code found in a 2xx body. An HTTP-shaped code (100–599) reads like the status it
 * mimics: 401/403 credentials, 429 rate limit, 402 plan limit, 5xx server failure; any other code (Baidu's six-digit
 * ones) is a plain refusal, since guessing it is transient would retry a request that cannot succeed. `Retry-After`
 * on the 200 answer is still honoured.
 */
export const refusal = (code: number, headers: Readonly<Record<string, string>>, message?: string): Http.Refusal =>
  code >= 100 && code <= 599
    ? { ...Http.refusalOf(code, headers, message), status: String(code) }
    : { kind: "status", status: String(code), message }

/** A string field of a JSON body, when it is a non-empty string. */
export const textField = (body: unknown, key: string): string | undefined => {
  if (typeof body !== "object" || body === null) return undefined
  const value = (body as Record<string, unknown>)[key]
  return typeof value === "string" && value.trim() !== "" ? value : undefined
}
