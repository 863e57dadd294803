/**
 * The `baidu` provider (Baidu Qianfan AI Search, plain web search): `searchKeywords` on
 * `POST {apiHost}/v2/ai_search/web_search` (apiHost `https://qianfan.baidubce.com`), with the key as a Bearer token.
 *
 * The request is one user message holding the query, `search_source: "baidu_search_v2"` and one resource filter,
 * web pages with `top_k` clamped to Baidu's 1–50. The answer's `references` mix web pages, videos and images; only
 * web pages are kept (a reference without a type is read as one), and a page's content falls back to its `snippet`
 * when `content` is empty.
 *
 * Query length: Baidu documents a limit of 72 characters counting each Chinese character as two, and says it
 * searches only the first 72 of a longer query. The driver measures in those units (ASCII one, anything else two,
 * as GBK bytes do) and shortens a longer query itself, at a character boundary and, inside an ASCII word, at the
 * last space, so that what is searched is a clean prefix rather than Baidu's cut through a character or a word.
 * Refusing instead would fail every natural-language query of more than 36 Chinese characters that Baidu serves.
 * The response's `query` and each result's `sourceInput` stay the caller's full input; the cut is logged at debug.
 *
 * Errors come as HTTP 200 `{code (non-zero), message, request_id}`, or with an HTTP error status. An HTTP-shaped
 * code reads like that status (401/403 credentials, 429 rate limit, 402 plan limit, 5xx server); any other code
 * (Baidu's own six-digit ones, whose list is not published for this API) is a refusal with Baidu's message, not
 * retried. The preset's published budget is Qianfan's default of 1 query per second.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Effect from "effect/Effect"
import * as Code from "./internal/businessCode.js"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import type { Reference } from "./internal/baiduWire.js"
import { References, SearchAnswer, fitQuery, maxQueryUnits, queryUnits, searchBody } from "./internal/baiduWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "baidu"

/**
 * The `baidu` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "baidu",
  name: "Baidu Qianfan",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://qianfan.baidubce.com" }],
  // Qianfan's default component budget is 1 QPS.
  publishedRateLimit: { limit: 1, windowMillis: 1_000, maxWaitMillis: 15_000 }
})

/**
 * The search options Baidu honours natively: the domains to search (`search_filter.match.site`). Its
 * `search_recency_filter` has no day (`week`, `month`, `semiyear`, `year`), so `timeRange` is not declared.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = ["includeDomains"]

const isWeb = (reference: typeof Reference.Type): boolean =>
  reference.type === undefined || reference.type === null || reference.type.trim().toLowerCase() === "web"

const present = (text: string | null | undefined): text is string =>
  text !== undefined && text !== null && text.trim() !== ""

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.gen(function* () {
      const keyword = c.input
      const query = fitQuery(keyword)
      if (query !== keyword.trim()) {
        yield* Effect.logDebug(
          `websearch baidu searched the first ${queryUnits(query)} of ${queryUnits(keyword.trim())} query units (Baidu's limit is ${maxQueryUnits})`
        ).pipe(Effect.annotateLogs({ providerId: c.providerId, input: keyword }))
      }
      const { body } = yield* ProviderHttp.postJson(client, c, {
        path: "/v2/ai_search/web_search",
        body: searchBody(query, ctx.maxResults, ctx.searchOptions),
        schema: SearchAnswer,
        // Baidu refuses inside HTTP 200 bodies with a non-zero code.
        inBody: (json, answer) => {
          const code = Code.codeOf((json as { code?: unknown } | null)?.code)
          return code !== undefined && code !== 0 ? Code.refusal(code, answer.headers, Http.messageOf(json)) : undefined
        }
      })
      const references = yield* Http.decodeValue(c, References, body.references)
      return Fields.results(references.filter(isWeb), (r) => ({
        title: r.title,
        content: present(r.content) ? r.content : r.snippet,
        url: r.url,
        publishedAt: r.date,
        siteName: r.website
      }))
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
 * Registers the `baidu` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
