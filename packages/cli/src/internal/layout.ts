/**
 * The human layout of search and fetch answers, and of failures: results grouped per keyword, numbered sources,
 * wrapped to the terminal, in text or Markdown; the closing line of a partial failure; an error's one line per
 * reason with a hint that names the command-line flag that fixes it. Every remote string is neutralised before a
 * style is put around it.
 */
import type * as WebSearchError from "@websearch/core/WebSearchError"
import type { WebSearchResponse, WebSearchResult } from "@websearch/core/WebSearchResponse"
import * as MarkdownHeadings from "./markdownHeadings.js"
import * as Terminal from "./terminal.js"

/** The look of the output and how it is written. */
export interface LayoutOptions {
  readonly format?: "text" | "markdown" | undefined
  readonly look?: Terminal.Look | undefined
}

const plainLook: Terminal.Look = { colour: false, width: undefined }

// Terminal controls in remote text. C0 (but \n and \t) and DEL become their Unicode control pictures, so an ESC
// sequence shows as inert text ("␛]0;title␇") instead of acting; C1 controls (0x80-0x9f, among them the 8-bit
// CSI and OSC) become U+FFFD; bidi overrides, embeddings, isolates and marks are removed, so text shows in its
// logical order. One character class, so the cost is linear in the text.
const terminalControls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

const neutralise = (c: string): string => {
  const code = c.charCodeAt(0)
  if (code < 0x20) return String.fromCharCode(0x2400 + code)
  if (code === 0x7f) return "\u2421"
  return code <= 0x9f ? "\ufffd" : ""
}

/** Text made safe for a terminal (see `Render.terminalText`). */
export const terminalText = (text: string): string => text.replace(terminalControls, neutralise)

/** One line of at most `max` characters: whitespace runs (line breaks included) collapse to one space. */
export const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

const safeLine = (text: string, max: number): string => terminalText(oneLine(text, max))

/** Results in the order of their inputs, each input's results together; numbering runs across the groups. */
const groups = (response: WebSearchResponse): Array<readonly [string, Array<WebSearchResult>]> => {
  const byInput = new Map<string, Array<WebSearchResult>>(response.inputs.map((input) => [input, []]))
  for (const result of response.results) {
    const group = byInput.get(result.sourceInput)
    if (group === undefined) byInput.set(result.sourceInput, [result])
    else group.push(result)
  }
  return [...byInput].filter(([, results]) => results.length > 0)
}

// Markdown link text and destinations: brackets and parentheses are escaped so a title cannot end the link early.
const markdownText = (text: string): string => text.replace(/[[\]\\]/g, (c) => `\\${c}`)
const markdownUrl = (url: string): string => url.replace(/[()\s]/g, (c) => encodeURIComponent(c))

// A fused search names the providers that found each result, best-ranked first.
const via = (result: WebSearchResult, look: Terminal.Look): string =>
  result.providers === undefined || result.providers.length === 0
    ? ""
    : Terminal.style(look, "dim", ` (${safeLine(result.providers.join(", "), 200)})`)

const textSearch = (response: WebSearchResponse, look: Terminal.Look): Array<string> => {
  const lines: Array<string> = []
  const grouped = groups(response)
  let n = 0
  grouped.forEach(([input, results], index) => {
    if (response.inputs.length > 1) {
      if (index > 0) lines.push("")
      lines.push(Terminal.style(look, "bold", safeLine(input, 300)))
    }
    for (const result of results) {
      n++
      // A title or URL with a line break in it would print lines that look like other results.
      lines.push(
        `${Terminal.style(look, "bold", `[${n}]`)} ${safeLine(result.title, 300) || "(untitled)"}${via(result, look)}`,
        `    ${Terminal.style(look, "cyan", safeLine(result.url, 2000))}`
      )
      if (result.content.length > 0) {
        lines.push(...Terminal.wrapLine(`    ${safeLine(result.content, 300)}`, look.width, "    "))
      }
      if (result.lengthBeforeCut !== undefined) lines.push(`    ${cutLine(result)}`)
    }
  })
  return lines
}

const count = (n: number) => n.toLocaleString("en-US")

// A page printed in part says so with the numbers, and how to read on: the cut is never silent.
const continuation = (result: WebSearchResult): Array<string> =>
  result.nextStartIndex !== undefined && result.totalLength !== undefined
    ? [
        "",
        `… [cut at character ${count(result.nextStartIndex)} of ${count(result.totalLength)}; ` +
          `read on with --start-index ${result.nextStartIndex}]`
      ]
    : result.lengthBeforeCut !== undefined
      ? ["", cutLine(result)]
      : []

// A cut nothing reads on (a snippet, ranked content): the numbers, and the setting behind it.
const cutLine = (result: WebSearchResult): string =>
  `… [cut at ${count(result.content.length)} of ${count(result.lengthBeforeCut ?? 0)} characters]`

// What kind of page a fetched result was read as (the local fetcher says; remote readers do not).
const pageTypeLine = (result: WebSearchResult): Array<string> =>
  result.pageType === undefined ? [] : [`page type: ${result.pageType}`]

const textFetch = (response: WebSearchResponse, look: Terminal.Look): Array<string> => {
  const lines: Array<string> = []
  response.results.forEach((result, index) => {
    lines.push(
      `${Terminal.style(look, "bold", `[${index + 1}]`)} ${safeLine(result.title, 300) || "(untitled)"}`,
      `    ${Terminal.style(look, "cyan", safeLine(result.url, 2000))}`,
      ...pageTypeLine(result).map((line) => `    ${Terminal.style(look, "dim", line)}`),
      "",
      Terminal.wrapContent(terminalText(result.content), look.width),
      ...continuation(result),
      ""
    )
  })
  return lines
}

const markdownSearch = (response: WebSearchResponse, look: Terminal.Look): Array<string> => {
  const lines: Array<string> = []
  let n = 0
  for (const [input, results] of groups(response)) {
    if (lines.length > 0) lines.push("")
    lines.push(`## ${safeLine(input, 300)}`, "")
    for (const result of results) {
      n++
      const title = markdownText(safeLine(result.title, 300)) || "(untitled)"
      lines.push(`${n}. [${title}](${markdownUrl(safeLine(result.url, 2000))})`)
      if (result.content.length > 0) {
        lines.push(...Terminal.wrapLine(`   ${safeLine(result.content, 300)}`, look.width, "   "))
      }
      if (result.lengthBeforeCut !== undefined) lines.push(`   ${cutLine(result)}`)
    }
  }
  return lines
}

// Each page is under its own `##` heading, so the page's own headings are moved below it (`#` becomes `###`).
const markdownFetch = (response: WebSearchResponse, look: Terminal.Look): Array<string> =>
  response.results.flatMap((result, index) => [
    `## [${index + 1}] ${markdownText(safeLine(result.title, 300)) || "(untitled)"}`,
    "",
    `<${markdownUrl(safeLine(result.url, 2000))}>`,
    ...pageTypeLine(result).flatMap((line) => ["", `*${line}*`]),
    "",
    Terminal.wrapContent(terminalText(MarkdownHeadings.nest(result.content, 2)), look.width),
    ...continuation(result),
    ""
  ])

/** Human text of a search or fetch answer. */
export const response = (response: WebSearchResponse, options: LayoutOptions = {}): string => {
  const look = options.look ?? plainLook
  const search = response.capability === "searchKeywords"
  const lines =
    options.format === "markdown"
      ? search
        ? markdownSearch(response, look)
        : markdownFetch(response, look)
      : search
        ? textSearch(response, look)
        : textFetch(response, look)
  if (response.results.length === 0) lines.push(`no results from ${safeLine(response.providerId, 100)}`)
  return `${lines.join("\n")}\n`
}

// Hints in the settings' words, as core writes them, and the flag that does the same on the command line.
const flagWords: ReadonlyArray<readonly [string, string]> = [
  ["in urlPolicy.allowHosts", "with --allow-host"],
  ["urlPolicy.allowHosts", "--allow-host"],
  ["urlPolicy.allowCidrs", "--allow-cidr"],
  ["pass providerId", "pass --provider ID"],
  ["includeDomains", "--include-domain"],
  ["excludeDomains", "--exclude-domain"],
  ["providerId", "--provider"],
  [`set providers.fetch.render to "auto"`, "try --render auto"]
]

/** A message from core with its hints in command-line terms. */
export const inCliWords = (message: string): string =>
  flagWords.reduce((text, [from, to]) => text.split(from).join(to), message)

/**
 * Whether a failure suggests rendering: an empty page that was not rendered may need JavaScript (unless its message
 * already says so: a JavaScript shell, or a wall rendering may pass, names the setting the flag stands for).
 */
const rendersHint = (failure: { readonly reason: string; readonly message: string }, rendered: boolean): boolean =>
  failure.reason === "empty_content" &&
  !rendered &&
  !failure.message.includes("after rendering") &&
  !failure.message.includes("providers.fetch.render")

/** One failed input on one line: the input, the reason once, the message. */
export const failureLine = (failure: WebSearchError.InputFailure, rendered: boolean): string => {
  const retry = failure.retryAfter === undefined ? "" : ` (retry after ${failure.retryAfter} s)`
  const hint = rendersHint(failure, rendered) ? " (the page may need JavaScript: try --render auto)" : ""
  return terminalText(
    `! ${oneLine(failure.input, 2000)}: ${failure._tag}/${failure.reason}: ${oneLine(inCliWords(failure.message), 2000)}${retry}${hint}`
  )
}

/** The closing line of a request where some inputs failed: "2 of 6 failed: a (reason), b (reason)". */
export const summary = (total: number, failures: ReadonlyArray<WebSearchError.InputFailure>, look: Terminal.Look) =>
  failures.length === 0
    ? ""
    : `${Terminal.style(
        look,
        "yellow",
        `${failures.length} of ${total} failed`
      )}: ${terminalText(failures.map((f) => `${oneLine(f.input, 200)} (${f.reason})`).join(", "))}\n`

/** Human text of an error: one reason per line, each input's failure on its own line, a hint where one helps. */
export const error = (
  error: WebSearchError.WebSearchError,
  options: { readonly look?: Terminal.Look | undefined; readonly rendered?: boolean | undefined } = {}
): string => {
  const look = options.look ?? plainLook
  const failures = error.failures ?? []
  const head = Terminal.style(look, "red", "error:")
  const retry = error.retryAfter === undefined ? "" : `\nretry after ${error.retryAfter} s`
  if (failures.length === 0) {
    const hint =
      error.capability === "fetchUrls" && rendersHint(error, options.rendered === true)
        ? "\nhint: the page may need JavaScript: try --render auto"
        : ""
    const retryable = error.retryable ? " (retryable)" : ""
    return `${head} ${terminalText(`${error._tag}/${error.reason}${retryable}: ${inCliWords(error.message)}${retry}${hint}`)}\n`
  }
  if (failures.length === 1) {
    const [only] = failures
    return `${head} ${failureLine(only, options.rendered === true).slice(2)}${terminalText(retry)}\n`
  }
  return `${head} all ${failures.length} inputs failed\n${failures
    .map((failure) => `  ${failureLine(failure, options.rendered === true)}`)
    .join("\n")}${terminalText(retry)}\n`
}
