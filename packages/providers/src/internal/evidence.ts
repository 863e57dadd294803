/**
 * Projects a hosted research run onto the research contract, with hard caps so a degenerate or hostile answer
 * cannot flood a model's context: the report is cut at 30 000 characters (never inside a surrogate pair), at
 * most 32 queries (trimmed, deduplicated, each at most 1000 characters), at most 32 sources deduplicated by URL,
 * at most 16 images. Every URL is untrusted third-party data: only absolute http(s) URLs without credentials
 * survive (`javascript:`, `data:`, `file:` and the like are dropped before they reach storage, a model or a
 * browser); the tracking parameter OpenAI appends to cited links (`utm_source=openai`) is removed.
 */
import type { FoundUrl } from "./openAiItems.js"

/** The caps of the research contract. */
export const caps = { reportChars: 30_000, queries: 32, queryChars: 1000, sources: 32, images: 16 } as const

/** The contract's view of a run, plus what the caps removed (for the log). */
export interface Projection {
  readonly report: string
  /** The report's length before truncation, when it was truncated. */
  readonly reportTruncatedFrom: number | undefined
  readonly queries: ReadonlyArray<string>
  readonly sources: ReadonlyArray<{ readonly title: string; readonly url: string }>
  /** Sources that were cited in the report (before the cap): the evidence gate counts these. */
  readonly citedSources: number
  /** URLs dropped for not being http(s) (or not parsing). */
  readonly droppedUrls: number
  /** Distinct sources beyond the cap. */
  readonly sourcesOverCap: number
}

/** Cuts a string to at most `max` UTF-16 units without splitting a surrogate pair. */
export const truncate = (text: string, max: number): string => {
  if (text.length <= max) return text
  const cut = text.charCodeAt(max - 1)
  // A high surrogate as the last kept unit would be half a character.
  return cut >= 0xd800 && cut <= 0xdbff ? text.slice(0, max - 1) : text.slice(0, max)
}

const trackingValues = new Set(["openai", "chatgpt.com"])

/**
 * Normalises an untrusted URL: an absolute http(s) URL without user name or password, its fragment removed and
 * OpenAI's `utm_source` marker stripped. Anything else is `undefined`.
 */
export const httpUrl = (raw: string): string | undefined => {
  const trimmed = raw.trim()
  if (!URL.canParse(trimmed)) return undefined
  const url = new URL(trimmed)
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined
  if (url.username !== "" || url.password !== "" || url.hostname === "") return undefined
  url.hash = ""
  const marker = url.searchParams.get("utm_source")
  if (marker !== null && trackingValues.has(marker)) {
    url.searchParams.delete("utm_source")
  }
  return url.href
}

/** Applies the caps and the URL policy to a run's raw findings. */
export const project = (run: {
  readonly report: string
  readonly queries: ReadonlyArray<string>
  readonly cited: ReadonlyArray<FoundUrl>
  readonly consulted: ReadonlyArray<FoundUrl>
}): Projection => {
  const report = truncate(run.report, caps.reportChars)
  const queries: Array<string> = []
  const seenQueries = new Set<string>()
  for (const raw of run.queries) {
    const q = truncate(raw.replace(/\s+/gu, " ").trim(), caps.queryChars).trimEnd()
    if (q.length === 0 || seenQueries.has(q)) continue
    seenQueries.add(q)
    if (queries.length < caps.queries) queries.push(q)
  }
  const byUrl = new Map<string, { title: string; url: string; cited: boolean }>()
  let droppedUrls = 0
  const add = (found: FoundUrl, cited: boolean) => {
    const url = httpUrl(found.url)
    if (url === undefined) {
      droppedUrls++
      return
    }
    const title = found.title?.replace(/\s+/gu, " ").trim()
    const existing = byUrl.get(url)
    if (existing === undefined) {
      byUrl.set(url, {
        url,
        title: title !== undefined && title !== "" ? truncate(title, 300) : new URL(url).hostname,
        cited
      })
    } else if (cited && !existing.cited) {
      existing.cited = true
    }
  }
  for (const found of run.cited) add(found, true)
  for (const found of run.consulted) add(found, false)
  const all = Array.from(byUrl.values())
  return {
    report,
    reportTruncatedFrom: report.length < run.report.length ? run.report.length : undefined,
    queries,
    sources: all.slice(0, caps.sources).map(({ title, url }) => ({ title, url })),
    citedSources: all.filter((s) => s.cited).length,
    droppedUrls,
    sourcesOverCap: Math.max(0, all.length - caps.sources)
  }
}
