/**
 * What every HTTP provider driver shares: one call to the provider's API with a capped body read, and the mapping
 * of what can go wrong to the four websearch errors. A driver builds its request and its response schema; this
 * module sends it, reads at most `maxBodyBytes`, maps the status (401/403 → `Unavailable/credentials_rejected`
 * naming the key by position, 429 → `RequestFailed/http_429` with `retryAfter`, plan limits →
 * `RequestFailed/rate_limited` not retryable, 5xx → `RequestFailed/http_5xx`), parses JSON and decodes it, and
 * keeps the provider's own message (truncated, secrets removed).
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import type * as Capability from "@websearch/core/Capability"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as ProviderClient from "./providerClient.js"
import * as Redaction from "@websearch/core/Redaction"
import * as RetryAfter from "@websearch/core/RetryAfter"

/**
 * Who is being called, for what: the context every error of the call carries.
 */
export interface Call {
  readonly providerId: string
  readonly providerName: string
  readonly capability: Capability.Capability
  /** The caller's keyword or URL. */
  readonly input: string
  readonly ctx: ProviderDriver.DriverContext
}

/**
 * A call's context from the driver's arguments.
 */
export const call = (
  preset: { readonly id: string; readonly name: string },
  capability: Capability.Capability,
  input: string,
  ctx: ProviderDriver.DriverContext
): Call => ({ providerId: preset.id, providerName: preset.name, capability, input, ctx })

/**
 * The most bytes read from a successful answer, and from an error answer.
 */
export const limits = { maxBodyBytes: 16 * 1024 * 1024, maxErrorBodyBytes: 64 * 1024, maxMessageChars: 300 }

const errorContext = (c: Call, extra?: { readonly retryAfter?: number | undefined; readonly retryable?: boolean }) => ({
  providerId: c.providerId,
  capability: c.capability,
  input: c.input,
  ...extra
})

/** The secrets of a call (its key, its basic-auth password) in every form a provider may echo them. */
const secretsOf = (c: Call): ReadonlyArray<string> => [
  ...Option.match(c.ctx.apiKey, { onNone: () => [], onSome: (key) => Redaction.forms(Redacted.value(key)) }),
  ...Option.match(c.ctx.provider.basicAuth, {
    onNone: () => [],
    onSome: (auth) => Redaction.forms(Redacted.value(auth.password), auth.username)
  })
]

/**
 * Makes provider-written text safe to show: secrets removed (as sent, URL-encoded, in any case, base64),
 * white space folded, cut to 300 characters.
 */
export const providerText = (c: Call, text: string): string => {
  const clean = Redaction.scrub(text, secretsOf(c)).replace(/\s+/gu, " ").trim()
  return clean.length > limits.maxMessageChars ? `${clean.slice(0, limits.maxMessageChars - 3)}...` : clean
}

/** "key #2 of 3" — never the key itself. */
export const keyName = (c: Call): string =>
  Option.match(c.ctx.apiKeyIndex, {
    onNone: () => "the API key",
    onSome: (index) =>
      c.ctx.provider.apiKeys.length > 1 ? `API key #${index + 1} of ${c.ctx.provider.apiKeys.length}` : "the API key"
  })

/** Where the user sets the provider's keys. */
export const keySettings = (c: Call): string =>
  `providers.${c.providerId}.apiKeys or ${c.providerId.toUpperCase().replace(/-/g, "_")}_API_KEY`

/**
 * Seconds from a `Retry-After` header (seconds or an HTTP date), if present and sane.
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

/** Parses JSON without throwing. */
export const parseJson = (text: string): Either.Either<unknown, string> => {
  try {
    return Either.right(JSON.parse(text))
  } catch (error) {
    return Either.left(error instanceof Error ? error.message : String(error))
  }
}

/**
 * A transport failure (no answer at all) as `RequestFailed`: `dns_failed`, `tls_failed` (not retryable when the
 * certificate was refused) or `network`.
 */
export const transportFailure = (c: Call, error: HttpClientError.HttpClientError): WebSearchError.RequestFailed => {
  const cause = error.cause as { code?: unknown; cause?: { code?: unknown } } | undefined
  const code = String(cause?.code ?? cause?.cause?.code ?? "")
  const reason =
    code === "ENOTFOUND" || code === "EAI_AGAIN"
      ? "dns_failed"
      : code.startsWith("ERR_TLS") || code.startsWith("CERT_") || code.includes("SSL") || code.includes("CERT")
        ? "tls_failed"
        : "network"
  const what =
    code !== "" ? code : error._tag === "ResponseError" ? `the answer could not be read: ${error.reason}` : error.reason
  // A certificate verdict does not change by retrying in a moment, unlike a handshake cut short (as the local
  // transport judges it).
  const verdict = reason === "tls_failed" && /CERT|HOSTNAME_MISMATCH|LEAF_SIGNATURE/.test(code)
  return WebSearchError.requestFailed(
    reason,
    `could not reach ${c.providerName} (${what})`,
    errorContext(c, verdict ? { retryable: false } : undefined)
  )
}

/**
 * A provider's answer, read whole (up to the cap).
 */
export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
}

// The socket's error code (UND_ERR_SOCKET, ECONNRESET) says what happened to a body read: the HttpClient's reason
// for any failed read is "Decode", which reads like a parse error.
const socketFault = (error: HttpClientError.ResponseError): string => {
  const code = (error.cause as { code?: unknown } | undefined)?.code
  return typeof code === "string" ? code : error.reason
}

const readCapped = (
  c: Call,
  response: HttpClientResponse.HttpClientResponse,
  cap: number,
  failOver: boolean
): Effect.Effect<string, WebSearchError.WebSearchError> =>
  Effect.suspend(() => {
    // An answer that announces a length within the cap is read whole: undici fails a body that runs past its
    // Content-Length, so the cap still holds, and streaming it chunk by chunk costs more CPU than the rest of the
    // provider call (bench/fanout.ts). An answer of unknown or too large a length is counted as it streams in.
    const announced = Number(response.headers["content-length"])
    if (Number.isSafeInteger(announced) && announced >= 0 && announced <= cap) {
      // A read that fails before the announced length arrived is a stream cut short (a clean close and a reset
      // look the same to the client): `stream_incomplete` says so, where `network` would not.
      return Effect.mapError(response.text, (error) =>
        WebSearchError.requestFailed(
          "stream_incomplete",
          `${c.providerName}'s answer was cut off before its announced ${announced} bytes (${socketFault(error)})`,
          errorContext(c)
        )
      )
    }
    const chunks: Array<Uint8Array> = []
    let size = 0
    let over = false
    return response.stream.pipe(
      Stream.runForEachWhile((chunk) =>
        Effect.sync(() => {
          if (size + chunk.length > cap) {
            chunks.push(chunk.subarray(0, cap - size))
            size = cap
            over = true
            return false
          }
          chunks.push(chunk)
          size += chunk.length
          return true
        })
      ),
      Effect.mapError((error) =>
        WebSearchError.requestFailed(
          "network",
          `${c.providerName}'s answer was cut off after ${size} bytes (${socketFault(error)})`,
          errorContext(c)
        )
      ),
      Effect.flatMap(() => {
        if (over && failOver) {
          return Effect.fail(
            WebSearchError.requestFailed(
              "too_large",
              `${c.providerName}'s answer exceeded ${cap} bytes; it was not read further`,
              errorContext(c)
            )
          )
        }
        const all = new Uint8Array(size)
        let offset = 0
        for (const chunk of chunks) {
          all.set(chunk, offset)
          offset += chunk.length
        }
        return Effect.succeed(new TextDecoder().decode(all))
      })
    )
  })

/** How `send` reads an answer that is not a success. */
export interface SendOptions {
  /** Reads a non-2xx answer; return undefined for the default reading. */
  readonly refuse?: ((answer: Answer, json: unknown) => Refusal | undefined) | undefined
  /** An answer that is not a refusal of any kind (a configuration problem): its error, as it is. */
  readonly reject?: ((answer: Answer, json: unknown) => WebSearchError.WebSearchError | undefined) | undefined
  /** What the user can do, by kind of refusal, for a refusal that carries no hint of its own. */
  readonly hints?: Partial<Record<Refusal["kind"], string>> | undefined
  readonly maxBodyBytes?: number | undefined
}

/**
 * Sends one request and reads the answer. A non-2xx status fails with the error `reject` gives for it, else with
 * the refusal `refuse` reads from it (by default `refusalOf` with `messageOf` on the JSON body); a 2xx answer is
 * returned for the driver to decode.
 */
export const send = (
  client: HttpClient.HttpClient,
  c: Call,
  request: HttpClientRequest.HttpClientRequest,
  options?: SendOptions
): Effect.Effect<Answer, WebSearchError.WebSearchError> =>
  Effect.gen(function* () {
    const response = yield* client.execute(request).pipe(Effect.mapError((error) => transportFailure(c, error)))
    const ok = response.status >= 200 && response.status < 300
    const text = yield* readCapped(
      c,
      response,
      ok ? (options?.maxBodyBytes ?? limits.maxBodyBytes) : limits.maxErrorBodyBytes,
      ok
    )
    const answer: Answer = { status: response.status, headers: response.headers, text }
    if (ok) return answer
    const json = Either.getOrUndefined(parseJson(text))
    const rejected = options?.reject?.(answer, json)
    if (rejected !== undefined) return yield* Effect.fail(rejected)
    const read =
      options?.refuse?.(answer, json) ?? refusalOf(response.status, response.headers, answerMessage(answer, json))
    const hint = read.hint ?? options?.hints?.[read.kind]
    return yield* Effect.fail(failure(c, hint === undefined ? read : { ...read, hint }))
  }).pipe(
    Effect.withSpan(`websearch.provider.${c.capability}`, {
      captureStackTrace: false,
      attributes: { "websearch.provider": c.providerId, "websearch.capability": c.capability }
    })
  )

/**
 * POSTs `body` as JSON to the capability's endpoint plus `path` with the call's API key — a Bearer token, or the
 * header `keyHeader` names — and reads the answer as `send` does: the request most providers take.
 */
export const postJson = (
  client: HttpClient.HttpClient,
  c: Call,
  path: string,
  body: unknown,
  options?: SendOptions & { readonly keyHeader?: string | undefined }
): Effect.Effect<Answer, WebSearchError.WebSearchError> =>
  Effect.gen(function* () {
    const base = yield* endpoint(c)
    const key = yield* requireKey(c)
    const keyHeader = options?.keyHeader
    return yield* send(
      client,
      c,
      HttpClientRequest.post(`${base}${path}`).pipe(
        keyHeader === undefined
          ? HttpClientRequest.bearerToken(key)
          : HttpClientRequest.setHeader(keyHeader, Redacted.value(key)),
        HttpClientRequest.acceptJson,
        HttpClientRequest.bodyUnsafeJson(body)
      ),
      options
    )
  })

/**
 * Decodes a 2xx answer: JSON first (`ResponseInvalid/decode_failed` naming the content type when it is not),
 * then the schema (`decode_failed` with the first problem).
 */
export const decode = <A, I>(
  c: Call,
  schema: Schema.Schema<A, I>,
  answer: Answer
): Effect.Effect<A, WebSearchError.ResponseInvalid> => {
  const json = parseJson(answer.text)
  if (Either.isLeft(json)) {
    const type = answer.headers["content-type"] ?? "no content type"
    return Effect.fail(
      WebSearchError.responseInvalid(
        "decode_failed",
        `${c.providerName} answered with a body that is not JSON (${providerText(c, type)}, ${answer.text.length} characters)`,
        errorContext(c)
      )
    )
  }
  return decodeValue(c, schema, json.right)
}

/**
 * Decodes a 2xx answer that may still carry a refusal in its body: the JSON is parsed once, `inBody` reads a
 * refusal from it (failing the call), and otherwise the schema decodes it, as `decode` does.
 */
export const decodeUnlessRefused = <A, I>(
  c: Call,
  schema: Schema.Schema<A, I>,
  answer: Answer,
  inBody: (json: unknown) => Refusal | undefined
): Effect.Effect<A, WebSearchError.WebSearchError> =>
  Effect.flatMap(decode(c, Schema.Unknown, answer), (json) => {
    const refusal = inBody(json)
    return refusal === undefined ? decodeValue(c, schema, json) : Effect.fail(failure(c, refusal))
  })

/**
 * Decodes an already-parsed value with a schema; `ResponseInvalid/decode_failed` names the first problem.
 */
export const decodeValue = <A, I>(
  c: Call,
  schema: Schema.Schema<A, I>,
  value: unknown
): Effect.Effect<A, WebSearchError.ResponseInvalid> =>
  Either.match(Schema.decodeUnknownEither(schema)(value), {
    onLeft: (error) =>
      Effect.fail(
        WebSearchError.responseInvalid(
          "decode_failed",
          `${c.providerName} answered with an unexpected shape: ${providerText(c, ParseResult.TreeFormatter.formatErrorSync(error))}`,
          errorContext(c)
        )
      ),
    onRight: Effect.succeed
  })

/**
 * A `RequestFailed` with the call's context (`retryAfter`, and `retryable` when the reason's default is wrong).
 */
export const requestFailed = (
  c: Call,
  reason: WebSearchError.RequestFailedReason,
  message: string,
  extra?: { readonly retryAfter?: number | undefined; readonly retryable?: boolean }
): WebSearchError.RequestFailed => WebSearchError.requestFailed(reason, message, errorContext(c, extra))

/**
 * A `ResponseInvalid/decode_failed` for an answer the driver could not use.
 */
export const invalid = (c: Call, message: string): WebSearchError.ResponseInvalid =>
  WebSearchError.responseInvalid("decode_failed", `${c.providerName} ${message}`, errorContext(c))

/**
 * `Unavailable/missing_credentials` or `invalid_config` for a setting the driver needs.
 */
export const missing = (
  c: Call,
  reason: "missing_credentials" | "invalid_config",
  message: string
): WebSearchError.Unavailable => WebSearchError.unavailable(reason, message, errorContext(c))

/**
 * The endpoint of the capability without trailing slashes, or `invalid_config` naming the setting.
 */
export const endpoint = (c: Call): Effect.Effect<string, WebSearchError.Unavailable> =>
  Option.match(c.ctx.apiHost, {
    onNone: () =>
      Effect.fail(
        missing(
          c,
          "invalid_config",
          `${c.providerName} has no endpoint for ${c.capability}: set providers.${c.providerId}.capabilities.${c.capability}.apiHost`
        )
      ),
    onSome: (host) => Effect.succeed(host.replace(/\/+$/, ""))
  })

/**
 * The call's API key, or `Unavailable/missing_credentials` naming where to set it.
 */
export const requireKey = (c: Call): Effect.Effect<Redacted.Redacted<string>, WebSearchError.Unavailable> =>
  Option.match(c.ctx.apiKey, {
    onNone: () =>
      Effect.fail(missing(c, "missing_credentials", `${c.providerName} needs an API key: set ${keySettings(c)}`)),
    onSome: Effect.succeed
  })

/**
 * Clamps a requested result count to the provider's range.
 */
export const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value))

/**
 * The HttpClient a provider Layer captures (see `providerClient`): spanned only when a tracer records, with every
 * credential redacted from its span.
 */
export const client = ProviderClient.client

/**
 * The results a driver keeps, logging (not hiding) how many items had no usable URL.
 */
export const keep = (
  c: Call,
  mapped: { readonly results: ReadonlyArray<ProviderDriver.DriverResult>; readonly dropped: number }
): Effect.Effect<ReadonlyArray<ProviderDriver.DriverResult>> =>
  mapped.dropped === 0
    ? Effect.succeed(mapped.results)
    : Effect.as(
        Effect.logDebug(`websearch ${c.providerId} dropped ${mapped.dropped} result(s) without an http(s) URL`).pipe(
          Effect.annotateLogs({ providerId: c.providerId, input: c.input })
        ),
        mapped.results
      )

/**
 * A lenient number: providers send some numbers as strings ("1.67").
 */
export const NumberLike = Schema.Union(Schema.Number, Schema.NumberFromString)

/**
 * `ResponseInvalid/empty_content`: the provider answered, with no text for the page.
 */
export const empty = (c: Call): WebSearchError.ResponseInvalid =>
  WebSearchError.responseInvalid(
    "empty_content",
    `${c.providerName} returned no content for "${c.input}"`,
    errorContext(c)
  )
