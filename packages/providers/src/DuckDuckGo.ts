/**
 * The `duckduckgo` provider: keyless `searchKeywords` on DuckDuckGo's HTML endpoint, `POST {apiHost}/html/`
 * (apiHost `https://html.duckduckgo.com`) with the form `q=<query>&b=&kl=wt-wt` (all regions) and a browser
 * User-Agent.
 *
 * The page is read by an internal page reader (a DOM, loaded on the first search): each organic result gives its title,
 * link (DuckDuckGo's redirect unwrapped; only http(s) targets are kept) and snippet. The page holds about ten
 * results and has no count parameter, so the list is cut to `maxResults`.
 *
 * Errors: DuckDuckGo answers a client it takes for a bot with HTTP 202 and a challenge ("anomaly") page, or
 * with 403 or a redirect; all of these → `RequestFailed/rate_limited` (retryable; `retryAfter` only when a
 * Retry-After header says). 429 → `http_429`; 5xx → `http_5xx`. A `.no-results` page → no results. A page with
 * neither a result list nor a no-results notice → `ResponseInvalid/decode_failed` (the markup has changed).
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Effect from "effect/Effect"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import { searchForm, userAgent } from "./internal/duckDuckGoWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "duckduckgo"

/**
 * The `duckduckgo` preset (core's built-in one; keyless).
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "duckduckgo",
  name: "DuckDuckGo",
  type: "api",
  credentials: "none",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://html.duckduckgo.com" }]
})

/**
 * The search options DuckDuckGo honours natively: `df` (`d`, `w`, `m`, `y`) and `kp` (`-2` off, `-1` moderate,
 * `1` strict), its documented URL parameters. Its region `kl` pairs a country with one language of its own list
 * (`ch-de`, `ch-fr`), which no ISO code alone names, so `country` and `language` are not declared.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = ["timeRange", "safeSearch"]

// DuckDuckGo refuses clients it takes for bots with 403 or a redirect to a challenge, besides its 202 page.
const refuse = (answer: Http.Answer): Http.Refusal | undefined =>
  answer.status === 403 || (answer.status >= 300 && answer.status < 400)
    ? {
        kind: "rate_limited",
        status: answer.status,
        retryAfter: Http.retryAfterSeconds(answer.headers),
        hint: "DuckDuckGo blocks clients it takes for bots; wait before retrying or use another provider"
      }
    : undefined

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.gen(function* () {
      const keyword = c.input
      const base = yield* Http.endpoint(c)
      const answer = yield* Http.send(
        client,
        c,
        HttpClientRequest.post(`${base}/html/`).pipe(
          HttpClientRequest.setHeaders({
            "user-agent": userAgent,
            accept: "text/html,application/xhtml+xml",
            "accept-language": "en-US,en;q=0.9"
          }),
          HttpClientRequest.bodyUrlParams(searchForm(keyword, ctx.searchOptions))
        ),
        { refuse }
      )
      // The page reader (and its DOM) loads on the first search, so composing the providers costs no DOM.
      const Page = yield* Effect.promise(() => import("./internal/duckDuckGoPage.js"))
      const page = Page.parse(answer.text)
      // 202 is DuckDuckGo's "not now" (its challenge page), whatever the body holds.
      if (answer.status === 202 || page._tag === "Blocked") {
        return yield* Effect.fail(
          Http.failure(c, {
            kind: "rate_limited",
            status: answer.status,
            retryAfter: Http.retryAfterSeconds(answer.headers),
            hint: `DuckDuckGo served its bot challenge${page._tag === "Blocked" ? ` (${page.marker})` : ""} instead of results; wait before retrying or use another provider`
          })
        )
      }
      if (page._tag === "NoResults") return { results: [], dropped: 0 }
      if (page._tag === "Unrecognised") {
        return yield* Effect.fail(
          Http.invalid(
            c,
            `answered with a page that has neither a result list (#links) nor a no-results notice (${answer.text.length} characters): its markup may have changed`
          )
        )
      }
      const mapped = Fields.results(page.results, (r) => ({ title: r.title, content: r.snippet, url: r.url }))
      // No count parameter exists: the page's list is cut here, after unusable links are dropped.
      return { results: mapped.results.slice(0, ctx.maxResults), dropped: mapped.dropped }
    })
  )

/**
 * Builds the driver with the `HttpClient` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = ProviderHttp.make(preset, (client) => ({ searchOptions, searchKeywords: searchKeywords(client) }))

/**
 * Registers the `duckduckgo` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
