/**
 * The page's own metadata (from `@websearch/extract`) as the optional fields of a result: the published time as
 * ISO 8601, the author, the site name and the language, each only when the page states it in a usable form; and
 * the title of a result.
 */
import type * as Extract from "@websearch/extract/Extract"

/** What a result carries of its page's metadata. */
export interface PageMetadata {
  readonly publishedAt?: string
  readonly author?: string
  readonly siteName?: string
  readonly language?: string
}

const maxText = 200

const text = (s: string | undefined): string | undefined => {
  const out = s?.replace(/\s+/g, " ").trim()
  return out === undefined || out === "" ? undefined : out.slice(0, maxText)
}

// A date the page wrote in its own words ("vor 2 Stunden", "Monday") is no timestamp; only an ISO date or a date
// that names its year is read, and a year outside any web page's life is refused.
const isoish = /^\d{4}-\d{2}-\d{2}/
const hasYear = /\b(?:19|20)\d{2}\b/

/** A published time as ISO 8601 (UTC), or `undefined` when the page's value is not a readable date. */
export const publishedAt = (value: string | undefined): string | undefined => {
  const s = value?.trim()
  if (s === undefined || s === "" || s.length > 64 || !(isoish.test(s) || hasYear.test(s))) return undefined
  const time = Date.parse(s)
  if (Number.isNaN(time)) return undefined
  const year = new Date(time).getUTCFullYear()
  return year < 1990 || year > 2100 ? undefined : new Date(time).toISOString()
}

// BCP 47, loosely: a primary tag of 2-3 letters and short subtags ("de", "en-US", "zh-Hant-TW").
const languageTag = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,4}$/

/** A BCP 47 language tag (`_` written as `-`), or `undefined`. */
export const language = (value: string | undefined): string | undefined => {
  const s = value?.trim()
  return s === undefined || !languageTag.test(s) ? undefined : s.replace(/_/g, "-")
}

/** The optional result fields from an extracted document; absent keys for what the page does not say. */
export const fromDocument = (document: Extract.Document): PageMetadata => {
  const out: { publishedAt?: string; author?: string; siteName?: string; language?: string } = {}
  const at = publishedAt(document.publishedTime)
  if (at !== undefined) out.publishedAt = at
  const author = text(document.byline)
  if (author !== undefined) out.author = author
  const siteName = text(document.siteName)
  if (siteName !== undefined) out.siteName = siteName
  const lang = language(document.lang)
  if (lang !== undefined) out.language = lang
  return out
}

/** A title for bodies that have none (text, JSON, raw files): the file name, else the host. */
const fallbackTitle = (url: string): string => {
  const parsed = new URL(url)
  const name = parsed.pathname.split("/").filter((segment) => segment !== "")
  const last = name.length > 0 ? name[name.length - 1] : undefined
  if (last === undefined) return parsed.host
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

/** The result's title: the document's own, else (text, JSON, raw files have none) the file name, else the host. */
export const title = (document: Pick<Extract.Document, "title">, url: string): string =>
  document.title.trim() === "" ? fallbackTitle(url) : document.title.trim()
