// The wire format of the `Jina` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as RetryAfter from "@websearch/core/internal/retryAfter"
import * as Duration from "effect/Duration"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
import * as Options from "./searchOptions.js"
import * as AnswerFields from "./answerFields.js"

/**
 * Jina's most results per search (`count` is validated to 0–20 by Jina; 0 means "no page content", so websearch
 * never sends it).
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 20

/**
 * The body of a search for one keyword, with the caller's search options in Jina's parameters.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchBody = (keyword: string, maxResults: number, options: SearchOptions.SearchOptions = {}) => ({
  q: keyword,
  count: Http.clamp(Math.trunc(maxResults), 1, maxResultsLimit),
  ...Options.defined({
    site: Options.nonEmpty(options.includeDomains),
    hl: options.language,
    gl: options.country?.toLowerCase()
  })
})

/**
 * The body of a Reader call for one URL.
 *
 * @since 0.1.0
 * @category encoding
 */
export const readerBody = (url: string) => ({ url })

/**
 * The seconds Jina may spend before answering (`X-Timeout`, at most 180): three quarters of websearch's timeout
 * for the call, so Jina returns the pages it has read instead of websearch timing out on it.
 *
 * @since 0.1.0
 * @category encoding
 */
export const timeoutSeconds = (timeout: Duration.Duration): number =>
  Http.clamp(Math.floor((Duration.toMillis(timeout) * 0.75) / 1000), 1, 180)

/**
 * The headers of a search (the key is added as a Bearer token).
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchHeaders = (timeout: Duration.Duration): Readonly<Record<string, string>> => ({
  "x-retain-images": "none",
  "x-timeout": String(timeoutSeconds(timeout))
})

/**
 * The headers of a Reader call (the key, when configured, is added as a Bearer token).
 *
 * @since 0.1.0
 * @category encoding
 */
export const readerHeaders: Readonly<Record<string, string>> = {
  "x-return-format": "markdown",
  "x-retain-images": "none"
}

/**
 * One search result as Jina sends it (`content` is absent with `X-Respond-With: no-content`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchItem = Schema.Struct({
  title: AnswerFields.OptionalText,
  url: Schema.String,
  description: AnswerFields.OptionalText,
  content: AnswerFields.OptionalText,
  date: AnswerFields.OptionalText
})

/**
 * The answer of a search: `{ code, status, data: [...], meta }`. `data` is null in Jina's error envelope.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  code: AnswerFields.OptionalNumber,
  status: AnswerFields.OptionalNumber,
  data: Schema.optional(Schema.NullOr(Schema.Array(SearchItem)))
})

/**
 * The page of a Reader answer. `warning` carries the target's own failure ("Target URL returned error 404: Not
 * Found") when Jina answers 200 anyway.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ReaderPage = Schema.Struct({
  title: AnswerFields.OptionalText,
  description: AnswerFields.OptionalText,
  url: AnswerFields.OptionalText,
  content: AnswerFields.OptionalText,
  publishedTime: AnswerFields.OptionalText,
  warning: AnswerFields.OptionalText
})

/**
 * The answer of a Reader call: `{ code, status, data: { title, description, url, content, ... } }`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ReaderAnswer = Schema.Struct({
  code: AnswerFields.OptionalNumber,
  status: AnswerFields.OptionalNumber,
  data: Schema.optional(Schema.NullOr(ReaderPage))
})

/**
 * Jina's error envelope, as far as websearch reads it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ErrorEnvelope = Schema.Struct({
  code: AnswerFields.OptionalNumber,
  name: AnswerFields.OptionalText,
  status: AnswerFields.OptionalNumber,
  message: AnswerFields.OptionalText,
  readableMessage: AnswerFields.OptionalText,
  retryAfter: AnswerFields.OptionalNumber,
  retryAfterDate: AnswerFields.OptionalText
})

export const decodeEnvelope = Schema.decodeUnknownOption(ErrorEnvelope)

export const targetError = /Target URL returned error (\d{3})/i

/**
 * The refusal for a page the Reader could not read ("Target URL returned error 404"), named by the page's status.
 *
 * @since 0.1.0
 * @category errors
 */
export const targetRefusal = (message: string): Http.Refusal | undefined => {
  const found = targetError.exec(message)
  return found === null ? undefined : { kind: "status", status: Number(found[1]), message }
}

export const bodyRetryAfter = (envelope: typeof ErrorEnvelope.Type): number | undefined => {
  if (typeof envelope.retryAfter === "number" && Number.isFinite(envelope.retryAfter) && envelope.retryAfter >= 0) {
    return Math.min(RetryAfter.maxSeconds, Math.ceil(envelope.retryAfter))
  }
  return RetryAfter.parse(envelope.retryAfterDate ?? undefined, Date.now())
}

/**
 * Reads Jina's error envelope (from a non-2xx answer, or from a 200 answer whose `data` is null): the 5-digit
 * `status` and the error class name decide, the HTTP status is the fallback. Undefined when the body is not
 * Jina's envelope and the status says nothing more than the default reading.
 *
 * @since 0.1.0
 * @category errors
 */
export const refusal = (
  httpStatus: number,
  headers: Readonly<Record<string, string>>,
  json: unknown
): Http.Refusal | undefined => {
  const envelope = Option.getOrUndefined(decodeEnvelope(json))
  const name = envelope?.name ?? ""
  // An envelope without a message still names its error class, which says more than the raw body.
  const message = Http.messageOf(json) ?? (name === "" ? undefined : name)
  const detail = typeof envelope?.status === "number" ? envelope.status : undefined
  const code = typeof envelope?.code === "number" ? envelope.code : undefined
  // Jina's 5-digit status starts with the HTTP status it stands for (42903 → 429); it is the most precise signal.
  const family =
    detail !== undefined && detail >= 10_000 && detail < 100_000
      ? Math.floor(detail / 100)
      : httpStatus >= 400
        ? httpStatus
        : (code ?? httpStatus)
  const status = httpStatus >= 400 ? httpStatus : family
  const shown = detail === undefined ? status : `${detail}`
  if (name === "RateLimitTriggeredError" || family === 429) {
    const retryAfter =
      Http.retryAfterSeconds(headers) ?? (envelope === undefined ? undefined : bodyRetryAfter(envelope))
    return { kind: "rate_limited", status: httpStatus === 429 ? 429 : shown, message, retryAfter }
  }
  if (/^Insufficient(Balance|Credits)Error$/.test(name) || family === 402) {
    return { kind: "quota", status: shown, message, hint: "top up the Jina account or use another key" }
  }
  if (name.startsWith("Authentication") || family === 401) {
    return { kind: "credentials", status: shown, message }
  }
  const target = message === undefined ? undefined : targetRefusal(message)
  if (target !== undefined) return target
  if (httpStatus >= 400) return name === "" ? undefined : Http.refusalOf(httpStatus, headers, message)
  // A 2xx answer: only an envelope that says something is an error; the caller treats the rest as unusable.
  if (name === "" && message === undefined && family < 400) return undefined
  if (family >= 500) return { kind: "server", status: shown, message }
  return { kind: "status", status: shown, message }
}
