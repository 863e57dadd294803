/**
 * The skeleton of an HTTP provider driver, as every built-in provider of this package uses it and as a provider
 * of your own can: `getJson`/`postJson` send one request to the capability's endpoint with the call's API key,
 * read the answer with a size cap, turn a refusal into the websearch error it means (401/403 →
 * `Unavailable/credentials_rejected`, 429 → `RequestFailed/http_429` with `retryAfter`, 402 → a plan limit, 5xx →
 * `RequestFailed/http_5xx`, each keeping the provider's own message with secrets removed) and decode the body
 * with the provider's schema (`ResponseInvalid/decode_failed` when it is not JSON or has another shape).
 * `searchKeywords`/`fetchUrls` wrap a capability, and `make`/`layer` build and register the driver with the
 * provider client (credentials redacted from its spans).
 *
 * @example
 * ```ts
 * import * as Preset from "@websearch/core/Preset"
 * import * as ProviderHttp from "@websearch/providers/ProviderHttp"
 * import * as Effect from "effect/Effect"
 * import * as Schema from "effect/Schema"
 *
 * const preset = Preset.make({
 *   id: "acme",
 *   name: "Acme Search",
 *   type: "api",
 *   credentials: "required",
 *   capabilities: [{ feature: "searchKeywords", apiHost: "https://api.acme.example" }]
 * })
 *
 * const SearchAnswer = Schema.Struct({
 *   hits: Schema.Array(Schema.Struct({ title: Schema.String, url: Schema.String, text: Schema.String }))
 * })
 *
 * export const make = ProviderHttp.make(preset, (client) => ({
 *   searchKeywords: ProviderHttp.searchKeywords(preset, (call, ctx) =>
 *     ProviderHttp.getJson(client, call, {
 *       path: "/v1/search",
 *       urlParams: { q: call.input, limit: String(ctx.maxResults) },
 *       key: ProviderHttp.header("x-api-key"),
 *       schema: SearchAnswer
 *     }).pipe(
 *       Effect.map(({ body }) => ({
 *         results: body.hits.map((hit) => ({ title: hit.title, url: hit.url, content: hit.text })),
 *         dropped: 0
 *       }))
 *     )
 *   )
 * }))
 *
 * export const layer = ProviderHttp.layer(make)
 * ```
 *
 * @since 0.2.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as UrlParams from "@effect/platform/UrlParams"
import type * as Composition from "@websearch/core/Composition"
import type * as Preset from "@websearch/core/Preset"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Schema from "effect/Schema"
import type * as CappedRead from "./internal/cappedRead.js"
import * as JsonBody from "./internal/jsonBody.js"
import * as ProviderCall from "./internal/providerCall.js"
import * as ProviderClient from "./internal/providerClient.js"
import * as Refusals from "./internal/refusal.js"
import * as Send from "./internal/send.js"

/**
 * Who is being called, for what: the provider, the capability, the caller's input and the driver context. Every
 * error of the call carries it.
 *
 * @since 0.2.0
 * @category models
 */
export type Call = ProviderCall.Call

/**
 * A provider's answer, read whole (up to the cap): status, headers and text.
 *
 * @since 0.2.0
 * @category models
 */
export type Answer = CappedRead.Answer

/**
 * How a provider refused, in its own terms (`credentials`, `rate_limited`, `quota`, `server`, `status`);
 * `failure` turns it into the websearch error.
 *
 * @since 0.2.0
 * @category models
 */
export type Refusal = Refusals.Refusal

/**
 * The websearch error of a refusal, its message worded around the provider and the key (by position, never the
 * key itself), the provider's own message kept with the call's secrets removed.
 *
 * @since 0.2.0
 * @category errors
 */
export const failure: (call: Call, refusal: Refusal) => WebSearchError.WebSearchError = Refusals.failure

/**
 * The provider's message in a JSON error body, from the usual places (`message`, `error`, `error.message`,
 * `detail`, `msg`, `error_msg`, FastAPI's validation list).
 *
 * @since 0.2.0
 * @category errors
 */
export const messageOf: (body: unknown) => string | undefined = Refusals.messageOf

/**
 * Where the call's API key goes. `optional` placements send a call without a key when none is configured; the
 * others fail it first with `Unavailable/missing_credentials`, naming where to set one.
 *
 * @since 0.2.0
 * @category models
 */
export interface KeyPlacement {
  readonly optional: boolean
  readonly apply: (
    key: Redacted.Redacted<string>
  ) => (request: HttpClientRequest.HttpClientRequest) => HttpClientRequest.HttpClientRequest
}

/**
 * The key as a Bearer token (`Authorization: Bearer …`), the default.
 *
 * @since 0.2.0
 * @category constructors
 */
export const bearer: KeyPlacement = { optional: false, apply: (key) => HttpClientRequest.bearerToken(key) }

/**
 * The key in a header of its own (`x-api-key`), after an optional prefix (`header("authorization", "Bot ")`).
 *
 * @since 0.2.0
 * @category constructors
 */
export const header = (name: string, prefix: string = ""): KeyPlacement => ({
  optional: false,
  apply: (key) => HttpClientRequest.setHeader(name, `${prefix}${Redacted.value(key)}`)
})

/**
 * The key is required and placed by the request itself (a `urlParams` function that puts it in the query). Its
 * query parameter must be named like a credential (`key`, `api_key`) so the provider client redacts it from spans.
 *
 * @since 0.2.0
 * @category constructors
 */
export const inRequest: KeyPlacement = { optional: false, apply: () => (request) => request }

/**
 * The same placement, for a provider that also answers without a key (at a lower rate, say).
 *
 * @since 0.2.0
 * @category constructors
 */
export const optional = (placement: KeyPlacement): KeyPlacement => ({ ...placement, optional: true })

/**
 * One JSON request to the capability's endpoint: the path after it, where the key goes, extra headers, the
 * schema of a successful answer, and how to read refusals (`refuse` for a non-2xx answer, `inBody` for a 2xx
 * answer whose body still says the call failed; `hints` add what the user can do).
 *
 * @since 0.2.0
 * @category models
 */
export interface JsonRequest<A, I> extends Send.SendOptions {
  /** Appended to the endpoint (its trailing slashes removed). */
  readonly path: string
  readonly schema: Schema.Schema<A, I>
  /** Where the key goes; `bearer` when left out. */
  readonly key?: KeyPlacement | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** A refusal in a 2xx body, read before the schema decodes it. */
  readonly inBody?: ((json: unknown, answer: Answer) => Refusal | undefined) | undefined
}

/**
 * A decoded answer: the body as the schema decoded it, and the answer it came in (its status and headers).
 *
 * @since 0.2.0
 * @category models
 */
export interface Decoded<A> {
  readonly body: A
  readonly answer: Answer
}

const json = Effect.fnUntraced(function* <A, I>(
  client: HttpClient.HttpClient,
  c: Call,
  options: JsonRequest<A, I>,
  build: (url: string, key: Option.Option<Redacted.Redacted<string>>) => HttpClientRequest.HttpClientRequest
) {
  const base = yield* ProviderCall.endpoint(c)
  const placement = options.key ?? bearer
  const key = placement.optional ? c.ctx.apiKey : Option.some(yield* ProviderCall.requireKey(c))
  const request = build(`${base}${options.path}`, key).pipe(
    options.headers === undefined ? (r) => r : HttpClientRequest.setHeaders(options.headers),
    Option.match(key, { onNone: () => (r) => r, onSome: placement.apply }),
    HttpClientRequest.acceptJson
  )
  const answer = yield* Send.send(client, c, request, options)
  const inBody = options.inBody
  const body =
    inBody === undefined
      ? yield* JsonBody.decode(c, options.schema, answer)
      : yield* JsonBody.decodeUnlessRefused(c, options.schema, answer, (value) => inBody(value, answer))
  return { body, answer }
})

/**
 * GETs the capability's endpoint plus `path` with `urlParams` (a function of the key when the key goes in the
 * query), the key placed as `key` says, and decodes the answer with `schema`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const getJson = <A, I>(
  client: HttpClient.HttpClient,
  call: Call,
  options: JsonRequest<A, I> & {
    readonly urlParams?:
      UrlParams.Input | ((key: Option.Option<Redacted.Redacted<string>>) => UrlParams.Input) | undefined
  }
): Effect.Effect<Decoded<A>, WebSearchError.WebSearchError> =>
  json(client, call, options, (url, key) => {
    const params = typeof options.urlParams === "function" ? options.urlParams(key) : options.urlParams
    const request = HttpClientRequest.get(url)
    return params === undefined ? request : HttpClientRequest.setUrlParams(request, params)
  })

/**
 * POSTs `body` as JSON to the capability's endpoint plus `path`, the key placed as `key` says, and decodes the
 * answer with `schema`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const postJson = <A, I>(
  client: HttpClient.HttpClient,
  call: Call,
  options: JsonRequest<A, I> & { readonly body: unknown }
): Effect.Effect<Decoded<A>, WebSearchError.WebSearchError> =>
  json(client, call, options, (url) => HttpClientRequest.bodyUnsafeJson(HttpClientRequest.post(url), options.body))

/**
 * Results mapped from a provider's items, and how many items had no usable URL (logged, not hidden).
 *
 * @since 0.2.0
 * @category models
 */
export type Mapped = ProviderCall.Mapped

/**
 * A `searchKeywords` method: `run` gets the call's context (its `input` is the keyword) and returns the mapped
 * results; how many items were dropped for want of a usable URL is logged at debug level.
 *
 * @since 0.2.0
 * @category constructors
 */
export const searchKeywords =
  <Options = unknown>(
    preset: Preset.Preset,
    run: (
      call: Call,
      ctx: ProviderDriver.DriverContext<Options>
    ) => Effect.Effect<Mapped, WebSearchError.WebSearchError>
  ) =>
  (
    keyword: string,
    ctx: ProviderDriver.DriverContext<Options>
  ): Effect.Effect<ReadonlyArray<ProviderDriver.DriverResult>, WebSearchError.WebSearchError> =>
    Effect.suspend(() => {
      const c = ProviderCall.call(preset, "searchKeywords", keyword, ctx)
      return Effect.flatMap(run(c, ctx), (mapped) => ProviderCall.keep(c, mapped))
    })

/**
 * A `fetchUrls` method: `run` gets the call's context (its `input` is the URL) and returns the page.
 *
 * @since 0.2.0
 * @category constructors
 */
export const fetchUrls =
  <Options = unknown>(
    preset: Preset.Preset,
    run: (
      call: Call,
      ctx: ProviderDriver.DriverContext<Options>
    ) => Effect.Effect<ProviderDriver.DriverResult, WebSearchError.WebSearchError>
  ) =>
  (
    url: string,
    ctx: ProviderDriver.DriverContext<Options>
  ): Effect.Effect<ProviderDriver.DriverResult, WebSearchError.WebSearchError> =>
    Effect.suspend(() => run(ProviderCall.call(preset, "fetchUrls", url, ctx), ctx))

/**
 * Builds a driver with the `HttpClient` in context, captured now (so a provider may be given a client of its own)
 * and wrapped as the provider client: no trace context sent to the provider, every credential redacted from its span.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = <Options = unknown, OptionsEncoded = unknown>(
  preset: Preset.Preset,
  methods: (client: HttpClient.HttpClient) => Omit<ProviderDriver.ProviderDriver<Options, OptionsEncoded>, "preset">
): Effect.Effect<ProviderDriver.ProviderDriver<Options, OptionsEncoded>, never, HttpClient.HttpClient> =>
  Effect.map(ProviderClient.client, (client) => ({ preset, ...methods(client) }))

/**
 * Registers the driver `make` builds.
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = <Options, OptionsEncoded>(
  make: Effect.Effect<ProviderDriver.ProviderDriver<Options, OptionsEncoded>, never, HttpClient.HttpClient>
): Layer.Layer<never, never, Composition.Composition | HttpClient.HttpClient> =>
  Layer.unwrapEffect(Effect.map(make, ProviderRegistry.register))

/**
 * A lenient number for response schemas: providers send some numbers as strings ("1.67").
 *
 * @since 0.2.0
 * @category schemas
 */
export const NumberLike: Schema.Union<[typeof Schema.Number, typeof Schema.NumberFromString]> = ProviderCall.NumberLike
