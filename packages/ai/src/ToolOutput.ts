/**
 * What the `web_search`, `web_fetch` and `web_research` tools return to a model: numbered sources with short
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
