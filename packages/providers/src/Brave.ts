/**
 * The `brave` provider: `searchKeywords` on `GET {apiHost}/res/v1/web/search?q=&count=` (apiHost
 * `https://api.search.brave.com`), with the key in `X-Subscription-Token`.
 *
 * `count` is the caller's `maxResults` clamped to Brave's 1–20. Results come from `web.results` (news, videos and
 * the other verticals are not web results and are ignored); Brave marks query terms in `description` with
 * `<strong>`, so title and snippet are turned into plain text. When a result has no description, its
 * `extra_snippets` stand in for it.
 *
 * Errors carry `{"type":"ErrorResponse","error":{"status","code","detail","meta"}}`:
 * 401/403, and a 422 whose code names the subscription token (what a missing or malformed key gets) →
 * `Unavailable/credentials_rejected`; 429 `RATE_LIMITED` → `RequestFailed/http_429` with `retryAfter` from
 * `Retry-After` or, since Brave sends none, from the first window of `X-RateLimit-Reset` ("1, 1419704": seconds
 * until the per-second window resets, then the monthly one); a `QUOTA_LIMITED` code, or `meta.quota_current`
 * at a positive `meta.quota_limit`, → `RequestFailed/rate_limited` (the month's quota, not retryable); 5xx →
 * `http_5xx`. Brave's `detail` is kept as the message. The same envelope in a 200 body is read the same way.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Effect from "effect/Effect"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import type { WebResult } from "./internal/braveWire.js"
import { SearchAnswer, refusal, resetSeconds, searchParams } from "./internal/braveWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "brave"

/**
 * The `brave` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "brave",
  name: "Brave Search",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://api.search.brave.com" }],
  // The Free plan's 1 request per second (X-RateLimit-Policy: 1;w=1); paid plans set their own rateLimit.
  publishedRateLimit: { limit: 1, windowMillis: 1_000, maxWaitMillis: 15_000 }
})

/**
 * The search options Brave honours natively: `freshness` (`pd`, `pw`, `pm`, `py`), `search_lang`, `country` and
 * `safesearch` (`off`, `moderate`, `strict`, Brave's own words).
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = [
  "timeRange",
  "language",
  "country",
  "safeSearch"
]

const refuse = (answer: Http.Answer, json: unknown): Http.Refusal | undefined => {
  const read = refusal(answer.status, answer.headers, json)
  // Without an envelope a 429 still has the reset header.
  if (read === undefined && answer.status === 429) {
    return {
      kind: "rate_limited",
      status: 429,
      message: Http.messageOf(json),
      retryAfter: Http.retryAfterSeconds(answer.headers) ?? resetSeconds(answer.headers)
    }
  }
  return read
}

const content = (item: typeof WebResult.Type): string => {
  const description = Fields.plainText(item.description ?? "")
  return description !== "" ? description : Fields.plainText((item.extra_snippets ?? []).join(" … "))
}

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.map(
      ProviderHttp.getJson(client, c, {
        path: "/res/v1/web/search",
        urlParams: searchParams(c.input, ctx.maxResults, ctx.searchOptions),
        key: ProviderHttp.header("x-subscription-token"),
        schema: SearchAnswer,
        refuse,
        inBody: (json, answer) => refusal(answer.status, answer.headers, json)
      }),
      ({ body }) =>
        Fields.results(body.web?.results ?? [], (r) => ({
          title: Fields.plainText(r.title ?? ""),
          content: content(r),
          url: r.url,
          // `page_age` is a timestamp; `age` is relative ("2 days ago") and never read as a date.
          publishedAt: r.page_age,
          siteName: r.profile?.name,
          language: r.language
        }))
    )
  )

/**
 * Builds the driver with the `HttpClient` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = ProviderHttp.make(preset, (client) => ({ searchOptions, searchKeywords: searchKeywords(client) }))

/**
 * Registers the `brave` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
