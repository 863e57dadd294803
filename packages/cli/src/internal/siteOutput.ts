/**
 * How `map` and `crawl` print: a map's URLs one per line, a crawl's pages as they arrive (title, URL, a short
 * excerpt), its failures and progress on stderr, and the closing summary (counts, what was skipped and why, every
 * limit reached, or that Ctrl-C stopped it). `--json` prints one JSON object per line. Every remote string is
 * neutralised for the terminal before a style is put around it; JSON lines escape every control character.
 */
import type * as SiteResponse from "@websearch/core/SiteResponse"
import { CrawlEvent } from "@websearch/core/SiteResponse"
import * as Schema from "effect/Schema"
import * as Layout from "./layout.js"
import * as Render from "./render.js"
import * as SiteArgs from "./siteArgs.js"
import * as Terminal from "./terminal.js"

const safeLine = (text: string, max: number): string => Layout.terminalText(Layout.oneLine(text, max))

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`

const encodeEvent = Schema.encodeSync(CrawlEvent)

/** One crawl event as one JSON line (the event's own fields, `_tag` first). */
export const eventLine = (event: SiteResponse.CrawlEvent): string =>
  `${Render.jsonLine({ _tag: event._tag, ...(encodeEvent(event) as object) })}\n`

/** The characters of a page's excerpt in human output. */
const excerptLength = 240

/** One page read, in human output: its number, title, URL (with its depth) and the start of its text. */
export const pageText = (event: SiteResponse.CrawlPage, n: number, look: Terminal.Look): string => {
  const { result } = event
  const depth = event.depth === undefined ? "" : Terminal.style(look, "dim", ` (depth ${event.depth})`)
  // The page's whole length when it was cut by --max-length, else what was read.
  const length = result.totalLength ?? result.content.length
  const lines = [
    `${Terminal.style(look, "bold", `[${n}]`)} ${safeLine(result.title, 300) || "(untitled)"}`,
    `    ${Terminal.style(look, "cyan", safeLine(result.url, 2000))}${depth}`
  ]
  const excerpt = safeLine(result.content, excerptLength)
  if (excerpt.length > 0) lines.push(...Terminal.wrapLine(`    ${excerpt}`, look.width, "    "))
  lines.push(`    ${Terminal.style(look, "dim", `${count(length, "character")}`)}`, "")
  return `${lines.join("\n")}\n`
}

/** One page that failed, in human output (stderr). */
export const failureText = (event: SiteResponse.CrawlFailure, look: Terminal.Look): string =>
  `${Terminal.style(look, "yellow", "!")}${Layout.failureLine(event.failure, false).slice(1)}\n`

/** One progress line (stderr): how many pages were read and failed of at most `maxPages`. */
export const progressText = (event: SiteResponse.CrawlPage | SiteResponse.CrawlFailure, step: number, max: number) =>
  event._tag === "CrawlPage"
    ? Layout.terminalText(`[${step}/${max}] ${Layout.oneLine(event.url, 2000)}\n`)
    : Layout.terminalText(`[${step}/${max}] ! ${Layout.oneLine(event.url, 2000)}: ${event.failure.reason}\n`)

const skipWords: ReadonlyArray<readonly [keyof SiteResponse.CrawlDone["skipped"], string]> = [
  ["offSite", "off the site"],
  ["excluded", "excluded by a pattern"],
  ["duplicate", "duplicates"],
  ["depth", "beyond --max-depth"],
  ["policy", "refused by the URL policy or blacklist"],
  ["robots", "disallowed by robots.txt"]
]

const cutLines = (cuts: ReadonlyArray<SiteResponse.SiteCut>, look: Terminal.Look): Array<string> =>
  cuts.map(
    (cut) =>
      `${Terminal.style(look, "yellow", `cut (${cut.reason}):`)} ${safeLine(SiteArgs.inFlagWords(cut.message), 500)}`
  )

/** The closing summary of a crawl that ended (stderr). */
export const doneText = (done: SiteResponse.CrawlDone, look: Terminal.Look): string => {
  const skipped = skipWords.flatMap(([key, words]) => (done.skipped[key] > 0 ? [`${done.skipped[key]} ${words}`] : []))
  const lines = [
    `${Terminal.style(look, "bold", "crawled")} ${safeLine(done.url, 2000)} via ${safeLine(done.providerId, 100)}: ` +
      `${count(done.pages, "page")} read, ${done.failed} failed`,
    ...(skipped.length === 0 ? [] : [`skipped: ${skipped.join(", ")}`]),
    ...cutLines(done.cuts, look)
  ]
  return `${lines.join("\n")}\n`
}

/** What a crawl stopped by Ctrl-C reports: the counts so far; the pages printed stay. */
export interface Interrupted {
  readonly providerId: string
  readonly url: string
  readonly pages: number
  readonly failed: number
}

const interruptedMessage = "interrupted by the user (Ctrl-C): the pages printed before are kept"

/** The summary of an interrupted crawl as the closing JSON line: a `CrawlDone` whose cut says it was interrupted. */
export const interruptedLine = (state: Interrupted): string =>
  `${Render.jsonLine({
    _tag: "CrawlDone",
    providerId: state.providerId,
    url: state.url,
    pages: state.pages,
    failed: state.failed,
    skipped: { offSite: 0, excluded: 0, duplicate: 0, depth: 0, policy: 0, robots: 0 },
    cuts: [{ reason: "interrupted", message: interruptedMessage }]
  })}\n`

/** The summary of an interrupted crawl in human output (stderr). */
export const interruptedText = (state: Interrupted, look: Terminal.Look): string =>
  `${Terminal.style(look, "yellow", "interrupted:")} ${safeLine(state.url, 2000)}: ${count(state.pages, "page")} read, ` +
  `${state.failed} failed before Ctrl-C; the pages printed are kept\n`

/** A map's URLs, one per line, each with where it was found, its date and title when known (stdout). */
export const mapText = (map: SiteResponse.MapSiteResponse, look: Terminal.Look): string => {
  const lines = map.links.map((link) => {
    const details = [link.source, ...(link.lastmod === undefined ? [] : [safeLine(link.lastmod, 40)])].join(", ")
    const title = link.title === undefined ? "" : `  ${safeLine(link.title, 200)}`
    return `${safeLine(link.url, 2000)}  ${Terminal.style(look, "dim", `(${details})`)}${title}`
  })
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`
}

/** The closing lines of a map (stderr): how many URLs, the limits reached and the sources that failed. */
export const mapSummary = (map: SiteResponse.MapSiteResponse, look: Terminal.Look): string => {
  const lines = [
    `${Terminal.style(look, "bold", "mapped")} ${safeLine(map.url, 2000)} via ${safeLine(map.providerId, 100)}: ` +
      `${count(map.links.length, "URL")}`,
    ...cutLines(map.cuts, look),
    ...map.failures.map((failure) => `  ${Layout.failureLine(failure, false)}`)
  ]
  return `${lines.join("\n")}\n`
}
