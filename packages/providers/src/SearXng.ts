/**
 * The `searxng` provider: `searchKeywords` on a self-hosted SearXNG instance, `GET {apiHost}/search?q=&format=json
 * &pageno=1`, with `engines=a,b` when the provider's `engines` setting is set and HTTP basic auth when
 * `basicAuthUsername` / `basicAuthPassword` are (an instance behind a proxy). There is no default apiHost: the
 * pipeline refuses the call with `Unavailable/invalid_config` naming
 * `providers.searxng.capabilities.searchKeywords.apiHost` (`SEARXNG_API_HOST`) until one is set.
 *
 * SearXNG has no result-count parameter and does not promise its results in score order, so they are sorted by
 * `score` (highest first, results without one after, in the order given) and cut to `maxResults`.
 *
 * Errors: 403 with an HTML page is SearXNG refusing `format=json` → `Unavailable/invalid_config` (enable `json`
 * in `search.formats` of settings.yml; retrying cannot help); 401 → `Unavailable/credentials_rejected` naming the
 * basic-auth settings; 403 with any other body → `credentials_rejected` when basic auth is configured (a proxy
 * that authenticated the user but denies access), else `RequestFailed/http_403`; 429 (SearXNG's bot limiter) →
 * `http_429` with Retry-After; 5xx → `http_5xx`. An answer with no results because every engine SearXNG asked
 * failed (`unresponsive_engines`) is not "nothing found": it fails with `RequestFailed/rate_limited` when every
 * engine was blocked (CAPTCHA, too many requests, access denied, suspended) and `RequestFailed/http_5xx`
 * otherwise, naming the engines; when some engines failed but results came back, the engines are logged.
 *
 * With `fetchResults` (see `layerWith`), each result's page is then fetched through the `fetchUrls` capability
 * (its URL policy, blacklist, cache and quota included) and its text replaces the snippet; a page that cannot be
 * fetched keeps its snippet and never fails the search.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as Composition from "@websearch/core/Composition"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as FetchUrls from "@websearch/core/FetchUrls"
import * as Preset from "@websearch/core/Preset"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Variables from "@websearch/core/internal/resolution/variables"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import { SearchAnswer, byScore, searchParams, unresponsiveEngines } from "./internal/searXngWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "searxng"

/**
 * The `searxng` preset (core's built-in one: keyless, no default endpoint).
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "searxng",
  name: "SearXNG",
  type: "api",
  credentials: "none",
  capabilities: [{ feature: "searchKeywords" }]
})

/**
 * The search options SearXNG honours natively: `time_range` (`day`…`year`; engines without time ranges ignore
 * it, as SearXNG documents), `language`, `safesearch` (`0`, `1`, `2`) and `categories` (`general` or `news`;
 * with the `engines` setting, SearXNG asks the category's engines besides those).
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = ["timeRange", "language", "safeSearch", "topic"]

// The reasons SearXNG gives for an engine that refused it rather than failed (its suspension messages included).
const blockedReason = /captcha|too many requests|access denied|suspended/i

const basicAuthSettings = `providers.searxng.basicAuthUsername and basicAuthPassword (${Variables.field(providerId, "BASIC_AUTH_USERNAME")}, ${Variables.field(providerId, "BASIC_AUTH_PASSWORD")})`

const reject =
  (c: Http.Call) =>
  (answer: Http.Answer): WebSearchError.WebSearchError | undefined =>
    answer.status === 403 && Http.isHtml(answer)
      ? Http.missing(
          c,
          "invalid_config",
          `SearXNG refused format=json (HTTP 403): enable json in search.formats of the instance's settings.yml${
            Option.isSome(c.ctx.provider.basicAuth)
              ? ` (or, if the proxy in front of it forbids this user, check its rules and ${basicAuthSettings})`
              : ""
          }`
        )
      : undefined

const hints = {
  rate_limited:
    "SearXNG's limiter blocks this client: turn off limiter in settings.yml or pass this client's IP in limiter.toml"
}

const refuse =
  (c: Http.Call) =>
  (answer: Http.Answer, json: unknown): Http.Refusal | undefined => {
    const message = Http.answerMessage(answer, json)
    const authenticated = Option.isSome(c.ctx.provider.basicAuth)
    if (answer.status === 401) {
      return {
        kind: "credentials",
        status: 401,
        message,
        hint: authenticated
          ? `the instance rejected the basic-auth credentials: check ${basicAuthSettings}`
          : `the instance requires basic auth: set ${basicAuthSettings}`
      }
    }
    if (answer.status === 403) {
      return authenticated
        ? {
            kind: "credentials",
            status: 403,
            message,
            hint: `the proxy in front of the instance denies this user: check ${basicAuthSettings}`
          }
        : { kind: "status", status: 403, message }
    }
    return undefined
  }

/**
 * Options of the `searxng` driver.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /**
   * Fetch each result's page through the `fetchUrls` capability and use its text as the result's content
   * (default false). A page that cannot be fetched keeps SearXNG's snippet.
   */
  readonly fetchResults?: boolean | undefined
  /** The provider the pages are fetched with (default: the settings' default `fetchUrls` provider). */
  readonly fetchProviderId?: string | undefined
  /** How many pages are fetched at once: 1–20, default 5. */
  readonly fetchConcurrency?: number | undefined
}

/**
 * The provider's own options in the settings: `providers.searxng.fetchResults` (environment
 * `SEARXNG_FETCH_RESULTS`, `true` or `false`).
 *
 * @since 0.2.0
 * @category schemas
 */
export const SettingsOptions = Schema.Struct({ fetchResults: Schema.optional(Schema.Boolean) })

const optionsConfig = Config.all({
  fetchResults: Config.option(Config.boolean("SEARXNG_FETCH_RESULTS")).pipe(Config.map(Option.getOrUndefined))
})

// A concurrency that is not a whole number from 1 to 20 falls back to the nearest one (5 when it is not a number).
const fetchConcurrency = (options: Options): number =>
  Number.isFinite(options.fetchConcurrency) ? Http.clamp(Math.floor(options.fetchConcurrency as number), 1, 20) : 5

// The share of the search's timeout the page fetches may use, so the search itself never times out on them.
const fetchShareOfTimeout = 0.8

/** Replaces each result's content with its page's text where the page could be fetched. */
const withPages: (
  fetcher: Pick<FetchUrls.FetchUrls.Service, "fetchUrls">,
  options: Options,
  c: Http.Call,
  results: ReadonlyArray<ProviderDriver.DriverResult>,
  remaining: Duration.Duration
) => Effect.Effect<ReadonlyArray<ProviderDriver.DriverResult>> = Effect.fnUntraced(
  function* (fetcher, options, _c, results, remaining) {
    const pages = new Map<string, string>()
    const fetchOne = (url: string) =>
      fetcher
        .fetchUrls(
          options.fetchProviderId === undefined ? { urls: [url] } : { providerId: options.fetchProviderId, urls: [url] }
        )
        .pipe(
          Effect.flatMap((response) => {
            const page = response.results.find((r) => r.sourceInput === url) ?? response.results[0]
            const text = page === undefined ? "" : page.content.trim()
            return text === ""
              ? Effect.logDebug(`websearch searxng kept the snippet of ${url}: its page has no text`)
              : Effect.sync(() => pages.set(url, text))
          }),
          Effect.catchAll((error) =>
            // A configuration problem (no fetch provider, ...) affects every page: say it where it is seen.
            (error._tag === "Unavailable" ? Effect.logWarning : Effect.logDebug)(
              `websearch searxng kept the snippet of ${url}: ${error._tag}/${error.reason} (${error.message})`
            )
          )
        )
    const fetched = yield* Effect.forEach(results, (result) => fetchOne(result.url), {
      concurrency: fetchConcurrency(options),
      discard: true
    }).pipe(Effect.timeoutOption(remaining))
    if (Option.isNone(fetched)) {
      yield* Effect.logDebug(
        `websearch searxng stopped fetching pages after ${Duration.format(remaining)}: ${results.length - pages.size} result(s) keep their snippet`
      )
    }
    return results.map((result) => {
      const text = pages.get(result.url)
      return text === undefined ? result : { ...result, content: text }
    })
  },
  (effect, _fetcher, _options, c, results) =>
    effect.pipe(
      Effect.annotateLogs({ providerId: c.providerId, input: c.input }),
      Effect.withSpan("websearch.provider.searxng.fetchResults", {
        captureStackTrace: false,
        attributes: { "websearch.provider": c.providerId, "websearch.results": results.length }
      })
    )
)

const search = Effect.fnUntraced(function* (
  client: HttpClient.HttpClient,
  options: Options,
  keyword: string,
  ctx: ProviderDriver.DriverContext<typeof SettingsOptions.Type | undefined>
) {
  const started = yield* Clock.currentTimeMillis
  const c = Http.call(preset, "searchKeywords", keyword, ctx)
  const base = yield* Http.endpoint(c)
  const request = HttpClientRequest.get(`${base}/search`).pipe(
    HttpClientRequest.setUrlParams(searchParams(keyword, ctx.provider.engines, ctx.searchOptions)),
    HttpClientRequest.acceptJson
  )
  const answer = yield* Http.send(
    client,
    c,
    Option.match(ctx.provider.basicAuth, {
      onNone: () => request,
      onSome: (auth) => HttpClientRequest.basicAuth(request, auth.username, auth.password)
    }),
    { refuse: refuse(c), reject: reject(c), hints }
  )
  const decoded = yield* Http.decode(c, SearchAnswer, answer)
  const failedEngines = unresponsiveEngines(decoded.unresponsive_engines)
  const mapped = Fields.results(byScore(decoded.results), (r) => ({
    title: r.title,
    content: r.content,
    url: r.url,
    publishedAt: r.publishedDate
  }))
  if (mapped.results.length === 0 && failedEngines.length > 0) {
    const blocked = failedEngines.every((engine) => blockedReason.test(engine))
    return yield* Effect.fail(
      Http.requestFailed(
        c,
        blocked ? "rate_limited" : "http_5xx",
        `SearXNG found nothing because every engine it asked failed: ${Http.providerText(c, failedEngines.join(", "))}`
      )
    )
  }
  if (failedEngines.length > 0) {
    yield* Effect.logWarning(
      `websearch searxng answered without some engines: ${Http.providerText(c, failedEngines.join(", "))}`
    ).pipe(Effect.annotateLogs({ providerId: c.providerId, input: c.input }))
  }
  const kept = yield* Http.keep(c, { results: mapped.results.slice(0, ctx.maxResults), dropped: mapped.dropped })
  // The Layer's option wins; else the settings (`providers.searxng.fetchResults`, `SEARXNG_FETCH_RESULTS`).
  const fetchResults = options.fetchResults ?? ctx.options?.fetchResults ?? false
  if (!fetchResults || kept.length === 0) return kept
  const elapsed = (yield* Clock.currentTimeMillis) - started
  const remaining = Duration.toMillis(ctx.timeout) * fetchShareOfTimeout - elapsed
  if (remaining <= 0) {
    yield* Effect.logDebug("websearch searxng fetched no pages: the search used up the time for them")
    return kept
  }
  return yield* withPages(ctx, options, c, kept, Duration.millis(remaining))
})

const searchKeywords =
  (client: HttpClient.HttpClient, options: Options) =>
  (
    keyword: string,
    ctx: ProviderDriver.DriverContext<typeof SettingsOptions.Type | undefined>
  ): Effect.Effect<ReadonlyArray<ProviderDriver.DriverResult>, WebSearchError.WebSearchError> =>
    search(client, options, keyword, ctx)

/**
 * Builds the driver with the `HttpClient` in context; pages are fetched (through the application's own
 * `fetchUrls` capability) when the settings say `fetchResults`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<
  ProviderDriver.ProviderDriver<typeof SettingsOptions.Type, typeof SettingsOptions.Encoded>,
  never,
  HttpClient.HttpClient
> = Effect.suspend(() => makeWith({}))

/**
 * Builds the driver with options given in code (they win over the settings), capturing the `HttpClient`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeWith = (
  options: Options
): Effect.Effect<
  ProviderDriver.ProviderDriver<typeof SettingsOptions.Type, typeof SettingsOptions.Encoded>,
  never,
  HttpClient.HttpClient
> =>
  ProviderHttp.make(preset, (client) => ({
    options: SettingsOptions,
    optionsConfig,
    searchOptions,
    searchKeywords: searchKeywords(client, options)
  }))

/**
 * Registers the `searxng` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)

/**
 * Registers the `searxng` driver with options, e.g. `SearXng.layerWith({ fetchResults: true })` to answer with
 * each result's page text instead of its snippet (through the `fetchUrls` capability, so compose a fetch
 * provider such as `@websearch/node`'s `Fetch.layer`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWith = (
  options: Options
): Layer.Layer<never, never, Composition.Composition | HttpClient.HttpClient> => ProviderHttp.layer(makeWith(options))
