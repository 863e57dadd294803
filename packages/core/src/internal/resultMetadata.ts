/**
 * What a provider or a page says about a result beyond its title, snippet and URL, as websearch's optional result
 * fields (one reader for both, so a date means the same whoever gave it):
 * the published time as ISO 8601, the author, the site name and the language. Each is kept only in a form that
 * can be read without guessing; anything else (a relative "3 days ago", a weekday, a year no web page has) is
 * dropped rather than passed on as if it were a date.
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 *
 * @since 0.2.0
 */

/**
 * The optional fields of a result, as they are returned.
 *
 * @since 0.2.0
 * @category models
 */
export interface Metadata {
  readonly publishedAt?: string
  readonly author?: string
  readonly siteName?: string
  readonly language?: string
}

/**
 * The same fields as a provider gives them, before they are read.
 *
 * @since 0.2.0
 * @category models
 */
export interface RawMetadata {
  readonly publishedAt?: string | number | null | undefined
  readonly author?: string | null | undefined
  readonly siteName?: string | null | undefined
  readonly language?: string | null | undefined
}

const maxText = 200
const minYear = 1990
const maxYear = 2100

const text = (s: string | null | undefined): string | undefined => {
  if (typeof s !== "string" || s.length > 4 * maxText) return undefined
  const out = s.replace(/\s+/g, " ").trim()
  return out === "" ? undefined : out.slice(0, maxText)
}

const pad = (n: number, width = 2): string => String(n).padStart(width, "0")

// A calendar date that exists (no 31 April) in the years web pages have.
const validDate = (year: number, month: number, day: number): boolean => {
  if (year < minYear || year > maxYear || month < 1 || month > 12 || day < 1) return false
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate()
}

// ISO 8601 as providers write it: a date, optionally a time (a space or T before it, any fraction), optionally a
// zone. Every part is bounded, so the match is linear in the input.
const iso =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s?(Z|[+-]\d{2}(?::?\d{2})?)?$/i

const months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
const monthOf = (name: string): number => months.indexOf(name.slice(0, 3).toLowerCase()) + 1

// "Mar 5, 2024" and "5 Mar 2024" (Google's result dates, as Serper and SerpApi pass them on).
const monthFirst = /^([A-Za-z]{3,9})\.? (\d{1,2}), (\d{4})$/
const dayFirst = /^(\d{1,2}) ([A-Za-z]{3,9})\.? (\d{4})$/
// RFC 1123 / RFC 2822 with a zone ("Tue, 14 May 2024 12:00:00 GMT"), which `Date.parse` reads the same on
// every platform.
const rfc1123 = /^(?:[A-Za-z]{3}, )?\d{1,2} [A-Za-z]{3} \d{4} \d{2}:\d{2}(?::\d{2})? (?:GMT|UTC|Z|[+-]\d{4})$/

const fromMillis = (millis: number): string | undefined => {
  if (!Number.isFinite(millis)) return undefined
  const date = new Date(millis)
  const year = date.getUTCFullYear()
  return year < minYear || year > maxYear ? undefined : date.toISOString()
}

const fromIso = (m: RegExpExecArray): string | undefined => {
  const [, y, mo, d, h, mi, s, fraction, zone] = m
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  if (!validDate(year, month, day)) return undefined
  const date = `${y}-${pad(month)}-${pad(day)}`
  if (h === undefined) return date
  const hour = Number(h)
  const minute = Number(mi)
  const second = s === undefined ? 0 : Number(s)
  if (hour > 23 || minute > 59 || second > 59) return undefined
  const millis = fraction === undefined ? "" : `.${fraction.slice(0, 3).padEnd(3, "0")}`
  const local = `${date}T${pad(hour)}:${pad(minute)}:${pad(second)}${millis}`
  // Without a zone the time is the provider's local time: ISO 8601 writes that without an offset, and
  // inventing one would move the time by hours.
  if (zone === undefined) return local
  const offset =
    zone.toUpperCase() === "Z"
      ? "Z"
      : zone.length === 3
        ? `${zone}:00`
        : zone.replace(/^([+-]\d{2}):?(\d{2})$/, "$1:$2")
  return fromMillis(Date.parse(`${local}${offset}`))
}

/**
 * A published time as ISO 8601: a zoned time in UTC (`2024-05-14T12:00:00.000Z`), a time without a zone as the
 * provider's local time (`2024-05-14T12:00:00`), a bare date as a date (`2024-05-14`); Unix seconds (or
 * milliseconds) as UTC. `undefined` for anything else.
 *
 * @since 0.2.0
 * @category utils
 */
export const publishedAt = (value: string | number | null | undefined): string | undefined => {
  if (typeof value === "number") return fromMillis(value < 1e11 ? value * 1000 : value)
  if (typeof value !== "string") return undefined
  const s = value.trim()
  if (s === "" || s.length > 64) return undefined
  if (/^\d{9,13}$/.test(s)) return publishedAt(Number(s))
  const isoMatch = iso.exec(s)
  if (isoMatch !== null) return fromIso(isoMatch)
  const named = monthFirst.exec(s)
  if (named !== null) {
    const [, name, day, year] = named
    const month = monthOf(name)
    return month > 0 && validDate(Number(year), month, Number(day))
      ? `${year}-${pad(month)}-${pad(Number(day))}`
      : undefined
  }
  const european = dayFirst.exec(s)
  if (european !== null) {
    const [, day, name, year] = european
    const month = monthOf(name)
    return month > 0 && validDate(Number(year), month, Number(day))
      ? `${year}-${pad(month)}-${pad(Number(day))}`
      : undefined
  }
  return rfc1123.test(s) ? fromMillis(Date.parse(s)) : undefined
}

// BCP 47, loosely: a primary tag of 2-3 letters and short subtags ("de", "en-US", "zh-Hant-TW").
const languageTag = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,4}$/

/**
 * A BCP 47 language tag (`_` written as `-`), or `undefined`.
 *
 * @since 0.2.0
 * @category utils
 */
export const language = (value: string | null | undefined): string | undefined => {
  const s = typeof value === "string" ? value.trim() : undefined
  return s === undefined || !languageTag.test(s) ? undefined : s.replace(/_/g, "-")
}

/**
 * The fields a provider gave, read; absent keys for what it did not give in a usable form.
 *
 * @since 0.2.0
 * @category constructors
 */
export const metadata = (raw: RawMetadata): Metadata => {
  const out: { publishedAt?: string; author?: string; siteName?: string; language?: string } = {}
  const at = publishedAt(raw.publishedAt)
  if (at !== undefined) out.publishedAt = at
  const author = text(raw.author)
  if (author !== undefined) out.author = author
  const siteName = text(raw.siteName)
  if (siteName !== undefined) out.siteName = siteName
  const lang = language(raw.language)
  if (lang !== undefined) out.language = lang
  return out
}
