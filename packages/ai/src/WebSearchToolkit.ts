/**
 * The `@effect/ai` toolkit of websearch: `web_search` (searchKeywords), `web_fetch` (fetchUrls),
 * `web_research` (research), `web_map` (mapSite) and `web_crawl` (crawlSite), whose descriptions let a model pick the intent. Handlers return model-ready
 * results (see `ToolOutput`); a failed call returns one of the four websearch errors to the model (failure mode
 * `return`), its message ending with the next step, so a failed page never ends the model's turn.
 *
 * A session (one `layer` instance) numbers every source it shows (`w1`, `w2`, …) and `web_fetch` accepts those
 * ids in place of URLs. When a `LanguageModel` is in context, `web_fetch` items with a `prompt` are answered by it.
 *
 * ```ts
 * const response = yield* LanguageModel.generateText({ prompt, toolkit: WebSearchToolkit.toolkit })
 * // provide WebSearchToolkit.layer(), the websearch Live layer and a LanguageModel
 * ```
 *
 * @since 0.1.0
 */
import * as LanguageModel from "@effect/ai/LanguageModel"
import * as Tool from "@effect/ai/Tool"
import * as Toolkit from "@effect/ai/Toolkit"
import { CrawlSite } from "@websearch/core/CrawlSite"
import { FetchUrls } from "@websearch/core/FetchUrls"
import { MapSite } from "@websearch/core/MapSite"
import * as Paging from "@websearch/core/internal/paging"
import { Research } from "@websearch/core/Research"
import { SearchKeywords } from "@websearch/core/SearchKeywords"
import * as SearchOptions from "@websearch/core/SearchOptions"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as WebSearchRequest from "@websearch/core/WebSearchRequest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as ModelSchema from "./internal/modelSchema.js"
import * as SessionPages from "./internal/sessionPages.js"
import * as WebFetch from "./internal/webFetch.js"
import type * as PageAnalysis from "./internal/pageAnalysis.js"
import * as ResultIds from "./internal/resultIds.js"
import * as ToolOutput from "./ToolOutput.js"
import * as Failures from "./internal/failures.js"
import * as ToolOutputs from "./internal/toolOutputs.js"
import * as SiteTools from "./internal/siteTools.js"
import * as ToolParts from "./internal/toolParts.js"

const { providerId, readOnlyWeb } = ToolParts

/**
 * `web_search`: keyword search, optionally steered (freshness, sites, language, country, safe search, topic) or
 * fused over several providers. The parameters are flat, each described for a model; an option the provider
 * cannot apply comes back as `invalid_input` naming the provider and the option.
 *
 * @since 0.1.0
 * @category constants
 */
export const WebSearchTool = ModelSchema.tool(
  Tool.make("web_search", {
    description:
      "Search the web for pages about a topic, recent events or facts you are unsure of. Give one or a few short " +
      `keyword queries (1-${WebSearchRequest.maxInputs}; each is searched separately). Returns numbered sources ` +
      "with an id (w1, w2, ...), title, URL and a " +
      "snippet. Use web_fetch with an id to read a page in full. Do not use this tool to read a URL you already have. " +
      "Optional filters narrow the search (recency, sites, language, country, safe search, news); set only those the " +
      "request needs. If the provider cannot apply a filter the call fails saying so: drop that filter and call again.",
    parameters: {
      providerId,
      providerIds: Schema.optional(
        WebSearchRequest.FusionProviderIds.annotations(
          ModelSchema.describe(
            "Only when the user asks to combine providers: 2-5 provider ids searched at once, results merged and " +
              "ranked by agreement. Leave providerId out when you set this."
          )
        )
      ),
      keywords: WebSearchRequest.SearchKeywordsRequest.fields.keywords.annotations(
        ModelSchema.describe('1-20 keyword queries, e.g. ["effect-ts layer memoization"]')
      ),
      maxResults: Schema.optional(
        WebSearchRequest.MaxResults.annotations(ModelSchema.describe("Results per query, 1-50 (default from settings)"))
      ),
      timeRange: Schema.optional(
        SearchOptions.TimeRange.annotations(
          ModelSchema.describe(
            "Only pages from the last day, week, month or year: for news and anything time-sensitive"
          )
        )
      ),
      includeDomains: Schema.optional(
        SearchOptions.DomainList("includeDomains").annotations(
          ModelSchema.describe(
            'Only results from these sites and their subdomains: bare domains such as ["docs.python.org"], at most 20'
          )
        )
      ),
      excludeDomains: Schema.optional(
        SearchOptions.DomainList("excludeDomains").annotations(
          ModelSchema.describe(
            'No results from these sites or their subdomains: bare domains such as ["pinterest.com"], at most 20'
          )
        )
      ),
      language: Schema.optional(
        SearchOptions.Language.annotations(
          ModelSchema.describe("Results in this language: a two-letter ISO 639-1 code such as en, de or ja")
        )
      ),
      country: Schema.optional(
        SearchOptions.Country.annotations(
          ModelSchema.describe("Results for this country: a two-letter ISO 3166-1 code such as US, DE or JP")
        )
      ),
      safeSearch: Schema.optional(
        SearchOptions.SafeSearch.annotations(
          ModelSchema.describe("Adult-content filter: off, moderate or strict; leave out for the provider's default")
        )
      ),
      topic: Schema.optional(
        SearchOptions.Topic.annotations(ModelSchema.describe("news for news coverage; general (the default) otherwise"))
      )
    },
    success: ToolOutput.SearchOutput,
    failure: WebSearchError.WebSearchError,
    failureMode: "return"
  })
)
  .annotate(Tool.Title, "Web search")
  .annotateContext(readOnlyWeb)

/**
 * The characters of each page `web_fetch` returns per call unless the toolkit's `maxLength` says otherwise.
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultMaxLength: number = WebFetch.defaultMaxLength

const itemFields = {
  url: Schema.String.pipe(Schema.maxLength(WebSearchRequest.maxUrlLength)).annotations(
    ModelSchema.describe(
      `An http(s) URL (at most ${WebSearchRequest.maxUrlLength} characters), or the id of a source from an earlier result in this conversation (w1, w2, ...)`
    )
  ),
  startIndex: Schema.optional(
    Paging.StartIndex.annotations(
      ModelSchema.describe(
        `Character offset to read the page from, 0-${Paging.maxStartIndex} (default 0). A long page is returned in parts: a part that continues ends with a line giving the startIndex that reads on`
      )
    )
  )
}

/** The longest `prompt` of a `web_fetch` item, in characters. */
const maxPromptLength = 2000

/**
 * One `web_fetch` item: a URL or a result id, where to start reading, and optionally a question for the page.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FetchItemInput = Schema.Struct({
  ...itemFields,
  prompt: Schema.optional(
    Schema.String.pipe(Schema.maxLength(maxPromptLength)).annotations(
      ModelSchema.describe(
        `Optional question to answer from this page, at most ${maxPromptLength} characters: you get the answer instead of the page text`
      )
    )
  )
})

const items = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.Array(item)
    .pipe(
      Schema.minItems(1, { message: () => "at least one item is required" }),
      Schema.maxItems(WebSearchRequest.maxInputs, { message: () => `at most ${WebSearchRequest.maxInputs} items` })
    )
    .annotations(ModelSchema.describe(`The pages to read, 1-${WebSearchRequest.maxInputs} items`))

const fetchDescription = (analysis: boolean) =>
  "Read the content of specific web pages: URLs the user gave, or sources from web_search by id (w1, w2, ...). " +
  `It never searches. Give 1-${WebSearchRequest.maxInputs} items.` +
  (analysis ? " Each item may carry a prompt (a question about that page)." : "") +
  " Long pages come in parts: a part that continues ends with one line giving the item's id and the startIndex " +
  "that reads on. Returns, per item, the page text fenced as untrusted data" +
  (analysis ? " (or the answer to its prompt)" : "") +
  ", or why it failed and what to do next."

/**
 * `web_fetch`: read pages.
 *
 * @since 0.1.0
 * @category constants
 */
export const WebFetchTool = ModelSchema.tool(
  Tool.make("web_fetch", {
    description: fetchDescription(true),
    parameters: { providerId, items: items(FetchItemInput) },
    success: ToolOutput.FetchOutput,
    failure: WebSearchError.WebSearchError,
    failureMode: "return"
  })
)
  .annotate(Tool.Title, "Web fetch")
  .annotateContext(readOnlyWeb)

/**
 * `web_fetch` as it is shown where no language model analyses pages: its items take no `prompt`. Its handler is
 * `web_fetch`'s own.
 *
 * @since 0.2.0
 * @category constants
 */
export const WebFetchToolWithoutPrompt = ModelSchema.tool(
  Tool.make("web_fetch", {
    description: fetchDescription(false),
    parameters: { providerId, items: items(Schema.Struct(itemFields)) },
    success: ToolOutput.FetchOutput,
    failure: WebSearchError.WebSearchError,
    failureMode: "return"
  })
)
  .annotate(Tool.Title, "Web fetch")
  .annotateContext(readOnlyWeb)

/**
 * `web_research`: a hosted research provider writes a cited report.
 *
 * @since 0.1.0
 * @category constants
 */
export const WebResearchTool = ModelSchema.tool(
  Tool.make("web_research", {
    description:
      "Hand a research brief to a hosted research provider that searches many pages and writes a cited report. " +
      "Slow and costly: use it only for broad questions that need synthesis across many sources; for a quick fact " +
      "use web_search.",
    parameters: {
      providerId,
      // The encoded side is what a model sees in the JSON schema: a plain string with the limits the brief has.
      query: Schema.String.pipe(
        Schema.minLength(1, { message: () => "query must not be empty" }),
        Schema.maxLength(WebSearchRequest.maxResearchQueryLength, {
          message: () => `query must be at most ${WebSearchRequest.maxResearchQueryLength} characters`
        })
      ).annotations(
        ModelSchema.describe(
          `The research brief, 1-${WebSearchRequest.maxResearchQueryLength} characters: the question and what the report should cover`
        )
      ),
      allowedDomains: Schema.optional(
        Schema.Array(
          Schema.String.annotations(
            ModelSchema.describe("A bare host name, e.g. example.com (no scheme, path or port)")
          )
        )
          .pipe(
            Schema.maxItems(WebSearchRequest.maxAllowedDomains, {
              message: () => `at most ${WebSearchRequest.maxAllowedDomains} allowedDomains`
            })
          )
          .annotations(
            ModelSchema.describe(
              `Optional: restrict research to these domains (example.com), 0-${WebSearchRequest.maxAllowedDomains} of them`
            )
          )
      )
    },
    success: ToolOutput.ResearchOutput,
    failure: WebSearchError.WebSearchError,
    failureMode: "return"
  })
)
  .annotate(Tool.Title, "Web research")
  .annotateContext(readOnlyWeb)

/**
 * `web_map`: a site's URLs, with ids `web_fetch` reads (50 by default, at most 500).
 *
 * @since 0.2.0
 * @category constants
 */
export const WebMapTool = SiteTools.WebMapTool

/**
 * `web_crawl`: a site's pages read breadth-first (10 by default, at most 50), returned as ids, titles, lengths and
 * excerpts; `web_fetch` reads each page by its id, in parts, without fetching it again.
 *
 * @since 0.2.0
 * @category constants
 */
export const WebCrawlTool = SiteTools.WebCrawlTool

/**
 * The tools: `web_search`, `web_fetch`, `web_research`, `web_map` and `web_crawl`.
 *
 * @since 0.1.0
 * @category constants
 */
export const toolkit = Toolkit.make(WebSearchTool, WebFetchTool, WebResearchTool, WebMapTool, WebCrawlTool)

/**
 * The tools of the toolkit by name.
 *
 * @since 0.1.0
 * @category models
 */
export type Tools = Toolkit.Tools<typeof toolkit>

/**
 * How pages are analysed when a `web_fetch` item has a prompt: the longest page text sent to the model and the
 * system instruction of the analysis.
 *
 * @since 0.2.0
 * @category models
 */
export type AnalysisOptions = PageAnalysis.Options

/**
 * Options of a toolkit session.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Most result ids the session remembers (default 10 000). */
  readonly maxIds?: number | undefined
  /** How pages are analysed when an item has a prompt and a `LanguageModel` is in context. */
  readonly analysis?: AnalysisOptions | undefined
  /** Pages analysed at once (default 4). */
  readonly analysisConcurrency?: number | undefined
  /**
   * Characters of each page one `web_fetch` call returns ({@link defaultMaxLength} unless given; 2–200000); a
   * longer page ends with a line giving the `startIndex` that reads on.
   */
  readonly maxLength?: number | undefined
}

/**
 * Builds the handlers of one session from the capability services in context; a `LanguageModel` in context is
 * used for page analysis.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options?: Options) =>
  Effect.gen(function* () {
    const search = yield* SearchKeywords
    const fetch = yield* FetchUrls
    const research = yield* Research
    const model = yield* Effect.serviceOption(LanguageModel.LanguageModel)
    const ids = yield* ResultIds.make({ maxIds: options?.maxIds })
    // An MCP session hands its own view of the server's bounded store; a toolkit on its own keeps one of its own.
    const pages = Option.getOrElse(yield* Effect.serviceOption(SessionPages.SessionPages), () =>
      SessionPages.make({
        maxSessionBytes: SessionPages.defaultMaxSessionBytes,
        maxBytes: SessionPages.defaultMaxSessionBytes,
        maxSessionEntries: SessionPages.defaultMaxSessionEntries
      }).open("toolkit", "toolkit")
    )
    const fetchPages = WebFetch.make({ fetch, ids, pages, model, options })
    // Optional, so an application composing only the first three capabilities keeps its toolkit as it was.
    const site = SiteTools.make({
      map: yield* Effect.serviceOption(MapSite),
      crawl: yield* Effect.serviceOption(CrawlSite),
      ids,
      keepParts: fetchPages.keepParts
    })

    return toolkit.of({
      web_search: (params) =>
        search.searchKeywords(params).pipe(
          Effect.flatMap((response) =>
            Effect.map(ids.assign(response.results.map((r) => r.url)), (assigned) =>
              ToolOutputs.searchOutput(response, assigned, fetchPages.wasRead)
            )
          ),
          Effect.mapError((error) => Failures.withNextStep("web_search", error)),
          Effect.withSpan("websearch.ai.web_search", { captureStackTrace: false })
        ),
      web_fetch: (params) =>
        fetchPages.webFetch(params).pipe(
          Effect.mapError((error) => Failures.withNextStep("web_fetch", error)),
          Effect.withSpan("websearch.ai.web_fetch", { captureStackTrace: false })
        ),
      web_research: (params) =>
        research
          .research({
            query: params.query,
            allowedDomains: params.allowedDomains ?? [],
            ...(params.providerId === undefined ? {} : { providerId: params.providerId })
          })
          .pipe(
            Effect.flatMap((response) =>
              Effect.map(ids.assign(response.sources.map((s) => s.url)), (assigned) =>
                ToolOutputs.researchOutput(response, assigned)
              )
            ),
            Effect.mapError((error) => Failures.withNextStep("web_research", error)),
            Effect.withSpan("websearch.ai.web_research", { captureStackTrace: false })
          ),
      web_map: (params) =>
        site.webMap(params).pipe(
          Effect.mapError((error) => Failures.withNextStep("web_map", error)),
          Effect.withSpan("websearch.ai.web_map", { captureStackTrace: false })
        ),
      web_crawl: (params) =>
        site.webCrawl(params).pipe(
          Effect.mapError((error) => Failures.withNextStep("web_crawl", error)),
          Effect.withSpan("websearch.ai.web_crawl", { captureStackTrace: false })
        )
    })
  })

/**
 * The handlers of one toolkit session as a Layer: build it once per conversation (or per MCP server) so result
 * ids stay stable within it.
 *
 * @example
 * ```ts
 * import * as LanguageModel from "@effect/ai/LanguageModel"
 * import * as WebSearchToolkit from "@websearch/ai/WebSearchToolkit"
 * import * as Effect from "effect/Effect"
 *
 * // The model picks web_search, web_fetch or web_research; their results come back to it as fenced sources.
 * export const answer = (prompt: string) =>
 *   LanguageModel.generateText({ prompt, toolkit: WebSearchToolkit.toolkit }).pipe(
 *     Effect.map((response) => response.text),
 *     // One toolkit session: the result ids it hands the model (w1, w2, …) hold for the whole conversation.
 *     Effect.provide(WebSearchToolkit.layer())
 *   )
 * // `answer` needs a LanguageModel (an @effect/ai provider) and the capability services (`WebSearch.layer`).
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options?: Options) => toolkit.toLayer(make(options))
