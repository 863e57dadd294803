/**
 * A page read from a `--start-index` at or past its end has nothing to print: that input failed
 * (`RequestFailed/invalid_input`), saying how many characters the page has and the last start that reads any. The
 * command then exits as for any failed input: 1 when no input succeeded, 0 with the closing line when others did.
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import type { WebSearchResponse } from "@websearch/core/WebSearchResponse"

const count = (n: number) => n.toLocaleString("en-US")

/** The failure of a page whose start lies past its end. */
export const failure = (input: string, startIndex: number, totalLength: number, providerId: string) =>
  WebSearchError.requestFailed(
    "invalid_input",
    `--start-index ${startIndex} is past the end: the page has ${count(totalLength)} characters` +
      (totalLength > 0 ? ` (the last --start-index that reads any is ${totalLength - 1})` : ""),
    { capability: "fetchUrls", input, providerId }
  )

/** A response with each page read past its end moved from the results to the failures, and those failures. */
export interface Checked {
  readonly response: WebSearchResponse
  readonly past: ReadonlyArray<WebSearchError.RequestFailed>
}

/** Moves each page read past its end from the results to the failures. */
export const check = (response: WebSearchResponse, startIndex: number | undefined): Checked => {
  if (startIndex === undefined || startIndex === 0) return { response, past: [] }
  const isPast = (result: WebSearchResponse["results"][number]) =>
    result.content === "" && result.totalLength !== undefined && startIndex >= result.totalLength
  const past = response.results
    .filter(isPast)
    .map((result) => failure(result.sourceInput, startIndex, result.totalLength ?? 0, response.providerId))
  if (past.length === 0) return { response, past }
  return {
    past,
    response: {
      ...response,
      results: response.results.filter((result) => !isPast(result)),
      failures: [...response.failures, ...past.map((error) => WebSearchError.toInputFailure(error.input ?? "", error))]
    }
  }
}

/**
 * The error of a fetch whose every page was past its end (or failed): the first such page's, listing every failure,
 * as a request whose inputs all failed.
 */
export const nothingLeft = (checked: Checked): WebSearchError.WebSearchError => {
  const failures = checked.response.failures
  return WebSearchError.annotate(checked.past[0], {
    message: `all ${failures.length} input${failures.length === 1 ? "" : "s"} failed: ${failures
      .map((f) => `"${f.input}": ${f._tag}/${f.reason} (${f.message})`)
      .join("; ")}`,
    failures
  })
}
