// The wire format of the `Kagi` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
import * as AnswerFields from "./answerFields.js"

/**
 * The query parameters of `GET /api/v0/search` for one keyword.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchParams = (keyword: string, maxResults: number) => ({
  q: keyword,
  limit: String(Math.max(1, Math.trunc(maxResults)))
})

/**
 * One item of `data`: a search result when `t` is 0 (`t` may come as a string).
 *
 * @since 0.1.0
 * @category schemas
 */
export const DataItem = Schema.Struct({
  t: AnswerFields.OptionalNumber,
  url: AnswerFields.OptionalText,
  title: AnswerFields.OptionalText,
  snippet: AnswerFields.OptionalText,
  published: AnswerFields.OptionalText
})

/**
 * One entry of Kagi's `error` list.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ErrorEntry = Schema.Struct({
  code: AnswerFields.OptionalNumber,
  msg: AnswerFields.OptionalText
})

/**
 * The answer of `GET /api/v0/search`: `data` is null when `error` is set.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  meta: Schema.optional(Schema.NullOr(Schema.Struct({ api_balance: AnswerFields.OptionalNumber }))),
  data: Schema.optionalWith(Schema.NullOr(Schema.Array(DataItem)), { default: () => [] }),
  error: Schema.optional(Schema.NullOr(Schema.Array(ErrorEntry)))
})

export const ErrorEnvelope = Schema.Struct({ error: Schema.Array(ErrorEntry) })

/**
 * How Kagi refused, from its error list (at any status); undefined when the body has none.
 *
 * @since 0.1.0
 * @category encoding
 */
export const refusal = (
  status: number,
  headers: Readonly<Record<string, string>>,
  json: unknown
): Http.Refusal | undefined => {
  const decoded = Schema.decodeUnknownOption(ErrorEnvelope)(json)
  if (Option.isNone(decoded) || decoded.value.error.length === 0) return undefined
  const errors = decoded.value.error
  const message =
    errors
      .map((e) => e.msg ?? "")
      .filter((m) => m !== "")
      .join("; ") || undefined
  const codes = errors.flatMap((e) => (e.code === undefined || e.code === null ? [] : [e.code]))
  const code = codes[0]
  if (code === undefined) return undefined
  // Kagi's own code is shown as "code N", not as an HTTP status.
  if (codes.includes(2)) return { kind: "credentials", status: "2", message }
  if (codes.includes(100) || codes.includes(101)) {
    return { kind: "quota", status: codes.includes(101) ? "101" : "100", message }
  }
  if (status === 429) return { kind: "rate_limited", status, message, retryAfter: Http.retryAfterSeconds(headers) }
  if (code === 0) return { kind: "server", status: "0", message, retryAfter: Http.retryAfterSeconds(headers) }
  return { kind: "status", status: String(code), message }
}
