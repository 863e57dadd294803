// The wire format of the `DuckDuckGo` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Options from "./searchOptions.js"

/**
 * The User-Agent sent: DuckDuckGo's HTML endpoint serves a challenge page to clients that do not look like a
 * browser.
 *
 * @since 0.1.0
 * @category constants
 */
export const userAgent =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

export const safeSearch = { off: "-2", moderate: "-1", strict: "1" } as const

/**
 * The form posted to `/html/` for one keyword: the query, an empty `b` (what DuckDuckGo's own form sends) and
 * the all-regions locale, with the caller's search options in DuckDuckGo's parameters.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchForm = (keyword: string, options: SearchOptions.SearchOptions = {}): Record<string, string> => ({
  q: keyword,
  b: "",
  kl: "wt-wt",
  ...Options.defined({
    df: options.timeRange?.[0],
    kp: options.safeSearch === undefined ? undefined : safeSearch[options.safeSearch]
  })
})
