/**
 * What happens to a response's results after providers answer and blacklisted results are dropped: duplicate
 * URLs removed, content compressed for the query, then cut to the content budget.
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Compression from "../Compression.js"
import * as ContentBudget from "../ContentBudget.js"
import { dedupe } from "../WebSearchRequest.js"
import * as Paging from "./paging.js"
import type { WebSearchResult } from "../WebSearchResponse.js"

/**
 * A result after post-processing cut it (the budget, the hard cap, or compression keeping the chunks that rank
 * best) where no continuation exists (a search snippet, ranked content): it says so with `lengthBeforeCut`, the
 * content's length before. A result left whole is returned as it is.
 */
const markCut = <A extends WebSearchResult>(before: A, after: A): A =>
  after.content === before.content
    ? after
    : { ...after, lengthBeforeCut: before.lengthBeforeCut ?? before.content.length }

/**
 * A verbatim result after the budget cut it to a prefix, with the paging fields that say where it continues:
 * `totalLength` (the whole page's) and `nextStartIndex` just after the prefix kept, so reading on from there
 * covers what the cut left out. A result the cut left alone is returned as it is.
 */
const continueAfterCut = <A extends WebSearchResult>(before: A, after: A): A => {
  if (after.content === before.content) return after
  const start = Paging.startOf(before)
  return {
    ...after,
    totalLength: before.totalLength ?? before.content.length,
    nextStartIndex: start + after.content.length
  }
}

/**
 * The key two result URLs are compared by: WHATWG-parsed, host lower-cased, default port and fragment dropped,
 * and the slash of an empty (root) path dropped so `https://a.example` and `https://a.example/#top` match.
 * Other paths keep a trailing slash, since servers may treat `/docs` and `/docs/` differently. A string that
 * does not parse is compared as it is.
 *
 * @since 0.1.0
 * @category utils
 */
export const normalizeUrlForDedupe = (url: string): string => {
  let parsed: URL
  try {
    // One parse: `URL.canParse` first would parse every result's URL twice (Node 20 has no `URL.parse`).
    parsed = new URL(url.trim())
  } catch {
    return url
  }
  // No setter call when there is nothing to change (each one re-serialises the URL): this runs for every result.
  // A "#" in a serialised URL can only start the fragment (even an empty one, which `hash` reports as "").
  if (parsed.href.includes("#")) parsed.hash = ""
  // Special schemes already lower-case the host; opaque hosts of other schemes keep their case unless told.
  const host = parsed.hostname
  if (host !== "" && host !== host.toLowerCase()) parsed.hostname = host.toLowerCase()
  const href = parsed.href
  if (parsed.pathname !== "/") return href
  const beforePath = href.slice(0, href.length - parsed.search.length - parsed.pathname.length)
  return `${beforePath}${parsed.search}`
}

/**
 * What post-processing needs besides the results: the query compression ranks against, and the settings.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly query: string
  readonly budget: ContentBudget.ContentBudget
  readonly compression: Compression.Compression
  /**
   * Whether results are pages that can be read on (`fetchUrls`): a result the budget cuts then says where its
   * content continues (`totalLength`, `nextStartIndex`), unless compression rewrote it.
   */
  readonly continuable?: boolean | undefined
  /**
   * The token counter of the budget (websearch passes the composed one); without one, the `TokenCounter` in
   * context.
   *
   * @since 0.2.0
   */
  readonly tokenCounter?: ContentBudget.TokenCounter.Service | undefined
  /**
   * The ranker compression scores chunks with (websearch passes the composed one); without one, the `ChunkRanker`
   * in context.
   *
   * @since 0.2.0
   */
  readonly chunkRanker?: Compression.ChunkRanker.Service | undefined
}

/**
 * Removes results whose URL (per {@link normalizeUrlForDedupe}) repeats an earlier one, keeping order.
 *
 * @since 0.1.0
 * @category combinators
 */
export const dedupeByUrl = (results: ReadonlyArray<WebSearchResult>): Array<WebSearchResult> =>
  dedupe(results, (result) => normalizeUrlForDedupe(result.url))

/**
 * Post-processes results in order: URL dedupe (first occurrence wins), compression, content budget. Counts and
 * ranks with `options.tokenCounter` and `options.chunkRanker`, else the `TokenCounter` and `ChunkRanker` references,
 * whose defaults need no setup.
 *
 * @since 0.1.0
 * @category combinators
 */
export const run = (
  results: ReadonlyArray<WebSearchResult>,
  options: Options
): Effect.Effect<ReadonlyArray<WebSearchResult>> => {
  const deduped = dedupeByUrl(results)
  const { tokenCounter } = options
  return Compression.compress(deduped, options.query, options.compression, options.chunkRanker).pipe(
    // The budget runs last so it is the final, hard bound on what enters the model's context: compression
    // may only shrink content, but a plugged-in ranker is not trusted to, and cutting first would throw away
    // the text ranking could have chosen from and leave compression picking among truncated leftovers.
    Effect.flatMap((compressed) =>
      Effect.map(
        tokenCounter === undefined
          ? ContentBudget.enforce(compressed, options.budget)
          : Effect.sync(() => ContentBudget.apply(compressed, options.budget, tokenCounter)),
        (cut) =>
          cut.map((result, index) =>
            // Compression returns a result it left alone as the same object: only then is the content verbatim, and
            // only a verbatim page can be read on; any other cut (by ranking or the budget) says how long the content
            // was before post-processing.
            options.continuable === true && compressed[index] === deduped[index]
              ? continueAfterCut(compressed[index], result)
              : markCut(deduped[index], result)
          )
      )
    )
  )
}
