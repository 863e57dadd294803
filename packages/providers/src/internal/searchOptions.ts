/**
 * What the drivers share to map the caller's search options (`ctx.searchOptions`) to a provider's parameters:
 * the start of a time range as a date, and records without the parameters the caller did not ask for. Which
 * options a provider honours, and in which of its words, stays in the provider's own module.
 */
import type * as SearchOptions from "@websearch/core/SearchOptions"

/** The caller's options, as a driver reads them. */
export type Options = SearchOptions.SearchOptions

/** The earliest time a range admits, counted back from `now` in calendar units (UTC). */
export const since = (range: SearchOptions.TimeRange, now: number): Date => {
  const date = new Date(now)
  switch (range) {
    case "day":
      date.setUTCDate(date.getUTCDate() - 1)
      break
    case "week":
      date.setUTCDate(date.getUTCDate() - 7)
      break
    case "month":
      date.setUTCMonth(date.getUTCMonth() - 1)
      break
    case "year":
      date.setUTCFullYear(date.getUTCFullYear() - 1)
      break
  }
  return date
}

/** A date as `YYYY-MM-DD` (UTC). */
export const day = (date: Date): string => date.toISOString().slice(0, 10)

/** A date range from the start of `range` to today, as `YYYY-MM-DD..YYYY-MM-DD` (Bing's and Bocha's form). */
export const dayRange = (range: SearchOptions.TimeRange, now: number): string =>
  `${day(since(range, now))}..${day(new Date(now))}`

/** The record without its undefined values: only the parameters the caller asked for are sent. */
export const defined = <A extends Record<string, unknown>>(record: A): { [K in keyof A]: Exclude<A[K], undefined> } => {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record)) if (value !== undefined) out[key] = value
  return out as { [K in keyof A]: Exclude<A[K], undefined> }
}

/** A non-empty list, else undefined (an empty domain list asks for nothing). */
export const nonEmpty = <A>(list: ReadonlyArray<A> | undefined): ReadonlyArray<A> | undefined =>
  list === undefined || list.length === 0 ? undefined : list

/** Google's `tbs` for a time range (`qdr:d`, `qdr:w`, `qdr:m`, `qdr:y`), as Serper, SerpApi and Firecrawl pass it on. */
export const googleTbs = (range: SearchOptions.TimeRange | undefined): string | undefined =>
  range === undefined ? undefined : `qdr:${range[0]}`
