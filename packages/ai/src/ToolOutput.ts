/**
 * What the `web_search`, `web_fetch`, `web_research`, `web_map` and `web_crawl` tools return to a model: numbered sources with short
 * ids, title, URL and content; every snippet, page text and report fenced and labelled as untrusted data; every
 * failed input with its reason and a next step. Whatever a page or provider wrote that stands outside a fence
 * (titles, URLs, messages) is normalised to one line without control, bidi or fence characters, so nothing it
 * holds can start a line of its own or pass for the end of a fence. The same values are an MCP tool's structured
 * content, and `render*` gives the text form MCP clients show a model.
 *
 * @since 0.1.0
 */
import { PageType } from "@websearch/core/PageType"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Schema from "effect/Schema"
import * as Failures from "./internal/failures.js"
import * as Fence from "./internal/fence.js"

/**
 * The tool names, as a model sees them.
 *
 * @since 0.1.0
 * @category constants
 */
export const ToolName = Failures.ToolName

/**
 * @since 0.1.0
 * @category models
 */
export type ToolName = Failures.ToolName

/**
 * One failed input: the error's tag, reason and retryability, and what the model should do about it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Failure = Failures.Failure

/**
 * @since 0.1.0
 * @category models
 */
export type Failure = Failures.Failure

/**
 * One search result, with its session id: `title` and `url` on one line, `content` the snippet fenced as
 * untrusted data.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchSource = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  url: Schema.String,
  content: Schema.String,
  query: Schema.String,
  /** The page was already read in this session: `web_fetch` with the id serves it again without fetching. */
  read: Schema.optional(Schema.Boolean),
  /** The snippet was cut by the content budget: the line saying where, of how many characters. */
  notice: Schema.optional(Schema.String)
}).annotations({ identifier: "SearchSource" })

/**
 * @since 0.1.0
 * @category models
 */
export type SearchSource = typeof SearchSource.Type

/**
 * What `web_search` returns.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchOutput = Schema.Struct({
  providerId: Schema.String,
  queries: Schema.Array(Schema.String),
  sources: Schema.Array(SearchSource),
  failures: Schema.Array(Schema.Struct({ query: Schema.String, ...Failure.fields })),
  nextSteps: Schema.String
}).annotations({ identifier: "WebSearchOutput" })

/**
 * @since 0.1.0
 * @category models
 */
export type SearchOutput = typeof SearchOutput.Type

/**
 * Token usage of a page analysis, attributed to the `web_fetch` call that asked for it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Usage = Schema.Struct({
  inputTokens: Schema.optional(Schema.Number),
  outputTokens: Schema.optional(Schema.Number),
  totalTokens: Schema.optional(Schema.Number)
}).annotations({ identifier: "AnalysisUsage" })

/**
 * @since 0.1.0
 * @category models
 */
export type Usage = typeof Usage.Type

/**
 * What happened to one `web_fetch` item.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FetchStatus = Schema.Literal("success", "failed", "skipped")

/**
 * One `web_fetch` item: `success` carries the page (its id, title, final URL and content: the fenced page text,
 * or, when the item had a prompt and a model analysed the page, the fenced answer with `analysis`; a page served
 * in part has `totalLength`, `nextStartIndex` unless it is the last page, and `notice`, the line saying where it
 * was cut and how to read on; `pageType` says what kind of page it was read as, when the fetcher says); `failed`
 * carries the failure; `skipped` says why the item was not fetched (a duplicate of an earlier item).
 *
 * @since 0.1.0
 * @category schemas
 */
export const FetchItem = Schema.Struct({
  item: Schema.Int,
  input: Schema.String,
  status: FetchStatus,
  id: Schema.optional(Schema.String),
  title: Schema.optional(Schema.String),
  url: Schema.optional(Schema.String),
  pageType: Schema.optional(PageType),
  content: Schema.optional(Schema.String),
  totalLength: Schema.optional(Schema.Int),
  nextStartIndex: Schema.optional(Schema.Int),
  notice: Schema.optional(Schema.String),
  prompt: Schema.optional(Schema.String),
  analysis: Schema.optional(Schema.Struct({ usage: Usage })),
  analysisError: Schema.optional(Schema.String),
  alreadyRead: Schema.optional(Schema.Boolean),
  failure: Schema.optional(Failure),
  skipped: Schema.optional(Schema.String)
}).annotations({ identifier: "WebFetchItem" })

/**
 * @since 0.1.0
 * @category models
 */
export type FetchItem = typeof FetchItem.Type

/**
 * What `web_fetch` returns.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FetchOutput = Schema.Struct({
  providerId: Schema.optional(Schema.String),
  items: Schema.Array(FetchItem),
  usage: Usage,
  nextSteps: Schema.String
}).annotations({ identifier: "WebFetchOutput" })

/**
 * @since 0.1.0
 * @category models
 */
export type FetchOutput = typeof FetchOutput.Type

/**
 * What `web_research` returns: the fenced report, the queries the provider ran and the sources it cited.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ResearchOutput = Schema.Struct({
  providerId: Schema.String,
  query: Schema.String,
  report: Schema.String,
  queries: Schema.Array(Schema.String),
  sources: Schema.Array(Schema.Struct({ id: Schema.String, title: Schema.String, url: Schema.String })),
  nextSteps: Schema.String
}).annotations({ identifier: "WebResearchOutput" })

/**
 * @since 0.1.0
 * @category models
 */
export type ResearchOutput = typeof ResearchOutput.Type

// A limit a map or crawl reached (what it left out), on one line.
const SiteCut = Schema.Struct({ reason: Schema.String, message: Schema.String }).annotations({
  identifier: "WebSiteCut"
})

// One URL of a mapped site, with its session id: where it was found (`sitemap`, `feed`, `page`, `provider`), its
// `lastmod` and title when known, each on one line.
const MapLink = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  source: Schema.String,
  lastmod: Schema.optional(Schema.String),
  title: Schema.optional(Schema.String)
}).annotations({ identifier: "WebMapLink" })

/**
 * What `web_map` returns: the site's URLs with ids (read one with `web_fetch`), the limits reached and the sources
 * that failed.
 *
 * @since 0.2.0
 * @category schemas
 */
export const MapOutput = Schema.Struct({
  providerId: Schema.String,
  url: Schema.String,
  links: Schema.Array(MapLink),
  cuts: Schema.Array(SiteCut),
  failures: Schema.Array(Schema.Struct({ input: Schema.String, ...Failure.fields })),
  nextSteps: Schema.String
}).annotations({ identifier: "WebMapOutput" })

/**
 * @since 0.2.0
 * @category models
 */
export type MapOutput = typeof MapOutput.Type

// One page a crawl read: its session id (`web_fetch` reads it, in parts, without fetching it again while the session
// keeps it), URL, title, depth, its length in characters and the start of its text, fenced as untrusted.
const CrawlPageItem = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  title: Schema.String,
  depth: Schema.optional(Schema.Int),
  length: Schema.Int,
  excerpt: Schema.String
}).annotations({ identifier: "WebCrawlPage" })

/**
 * What `web_crawl` returns: the pages read (ids and excerpts, never whole pages), the pages that failed, what was
 * skipped by why, and the limits reached.
 *
 * @since 0.2.0
 * @category schemas
 */
export const CrawlOutput = Schema.Struct({
  providerId: Schema.String,
  url: Schema.String,
  pages: Schema.Array(CrawlPageItem),
  failures: Schema.Array(
    Schema.Struct({ input: Schema.String, depth: Schema.optional(Schema.Int), ...Failure.fields })
  ),
  skipped: Schema.Record({ key: Schema.String, value: Schema.Int }),
  cuts: Schema.Array(SiteCut),
  nextSteps: Schema.String
}).annotations({ identifier: "WebCrawlOutput" })

/**
 * @since 0.2.0
 * @category models
 */
export type CrawlOutput = typeof CrawlOutput.Type

/**
 * The page text inside a fenced block, for callers that want it back (citations, display).
 *
 * @since 0.1.0
 * @category constructors
 */
export const unfenced = (text: string): string => Fence.unfence(text)

const failureLine = (input: string, f: Failure): string =>
  `- ${Fence.oneLine(input)}: ${f._tag}/${f.reason}${f.retryable ? " (retryable)" : ""}: ${Fence.oneLine(f.message)} Next step: ${f.nextStep}`

// The renderers normalise again what stands outside a fence, so an output built by hand renders as safely.
const line = (text: string | undefined, max?: number): string => Fence.oneLine(text ?? "", max)

/**
 * The text form of `web_search`'s output.
 *
 * @since 0.1.0
 * @category encoding
 */
export const renderSearch = (output: SearchOutput): string => {
  const lines = [`web_search via ${output.providerId}: ${output.queries.map((q) => `"${line(q)}"`).join(", ")}`, ""]
  for (const source of output.sources) {
    lines.push(`[${source.id}] ${line(source.title, Fence.maxTitleLength)}`, `URL: ${line(source.url)}`)
    if (source.read === true) lines.push(`Already read in this session: web_fetch with "${source.id}" serves it again.`)
    lines.push(source.content)
    if (source.notice !== undefined) lines.push(source.notice)
    lines.push("")
  }
  if (output.failures.length > 0) {
    lines.push("Failed queries:", ...output.failures.map((f) => failureLine(`"${f.query}"`, f)), "")
  }
  lines.push(`Next steps: ${output.nextSteps}`)
  return lines.join("\n")
}

/**
 * The text form of `web_fetch`'s output.
 *
 * @since 0.1.0
 * @category encoding
 */
export const renderFetch = (output: FetchOutput): string => {
  const lines = [`web_fetch${output.providerId === undefined ? "" : ` via ${output.providerId}`}`, ""]
  for (const item of output.items) {
    if (item.status === "success") {
      lines.push(`[${item.id}] ${line(item.title, Fence.maxTitleLength)}`, `URL: ${line(item.url)}`)
      if (item.pageType !== undefined) lines.push(`Page type: ${line(item.pageType)}`)
      if (item.alreadyRead === true) lines.push("Already read in this session: served again without fetching.")
      if (item.prompt !== undefined) {
        const prompt = line(item.prompt)
        lines.push(item.analysis === undefined ? `Prompt (not analysed): ${prompt}` : `Answer to: ${prompt}`)
      }
      if (item.analysisError !== undefined) lines.push(`Analysis failed: ${line(item.analysisError)}`)
      lines.push(item.content ?? "")
      if (item.notice !== undefined) lines.push(line(item.notice))
      lines.push("")
    } else if (item.status === "failed" && item.failure !== undefined) {
      lines.push(failureLine(`item ${item.item} (${item.input})`, item.failure), "")
    } else {
      lines.push(`- item ${item.item} (${line(item.input)}) skipped: ${line(item.skipped)}`, "")
    }
  }
  lines.push(`Next steps: ${output.nextSteps}`)
  return lines.join("\n")
}

/**
 * The text form of `web_research`'s output.
 *
 * @since 0.1.0
 * @category encoding
 */
export const renderResearch = (output: ResearchOutput): string =>
  [
    `web_research via ${output.providerId}: ${line(output.query)}`,
    "",
    output.report,
    "",
    "Sources:",
    ...output.sources.map((s) => `[${s.id}] ${line(s.title, Fence.maxTitleLength)} ${line(s.url)}`),
    "",
    `Next steps: ${output.nextSteps}`
  ].join("\n")

const cutLines = (cuts: ReadonlyArray<typeof SiteCut.Type>): Array<string> =>
  cuts.length === 0 ? [] : ["Limits reached:", ...cuts.map((c) => `- ${line(c.reason)}: ${line(c.message)}`), ""]

/**
 * The text form of `web_map`'s output.
 *
 * @since 0.2.0
 * @category encoding
 */
export const renderMap = (output: MapOutput): string => {
  const lines = [`web_map via ${output.providerId}: ${line(output.url)} (${output.links.length} URLs)`, ""]
  for (const link of output.links) {
    const details = [line(link.source), ...(link.lastmod === undefined ? [] : [line(link.lastmod, 40)])].join(", ")
    const title = link.title === undefined ? "" : ` ${line(link.title, Fence.maxTitleLength)}`
    lines.push(`[${link.id}] ${line(link.url)} (${details})${title}`)
  }
  lines.push("", ...cutLines(output.cuts))
  if (output.failures.length > 0) {
    lines.push("Sources that failed:", ...output.failures.map((f) => failureLine(f.input, f)), "")
  }
  lines.push(`Next steps: ${output.nextSteps}`)
  return lines.join("\n")
}

/**
 * The text form of `web_crawl`'s output.
 *
 * @since 0.2.0
 * @category encoding
 */
export const renderCrawl = (output: CrawlOutput): string => {
  const lines = [
    `web_crawl via ${output.providerId}: ${line(output.url)} (${output.pages.length} pages read, ${output.failures.length} failed)`,
    ""
  ]
  for (const page of output.pages) {
    const depth = page.depth === undefined ? "" : `, depth ${page.depth}`
    lines.push(
      `[${page.id}] ${line(page.title, Fence.maxTitleLength)}`,
      `URL: ${line(page.url)} (${page.length} characters${depth})`,
      page.excerpt,
      ""
    )
  }
  if (output.failures.length > 0) {
    lines.push("Pages that failed:", ...output.failures.map((f) => failureLine(f.input, f)), "")
  }
  const skipped = Object.entries(output.skipped).filter(([, n]) => n > 0)
  if (skipped.length > 0) lines.push(`Skipped: ${skipped.map(([why, n]) => `${n} ${line(why)}`).join(", ")}`, "")
  lines.push(...cutLines(output.cuts), `Next steps: ${output.nextSteps}`)
  return lines.join("\n")
}

/**
 * The text form of a tool's error: tag, reason, message (with its next step) and each failed input.
 *
 * @since 0.1.0
 * @category encoding
 */
export const renderError = (error: WebSearchError.WebSearchError): string =>
  [
    `${error._tag}/${error.reason}${error.retryable ? " (retryable)" : ""}: ${line(error.message)}`,
    ...(error.failures ?? []).map((f) => failureLine(f.input, Failures.failure(f)))
  ].join("\n")
