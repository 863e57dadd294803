/**
 * The inputs of `search` and `fetch` as the command line gives them: `-` stands for standard input (one input per
 * line, blank lines skipped), a URL without a scheme means https, and a URL that cannot be fetched is that input's
 * failure, not the whole request's. A request left with no input is a usage error.
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as WebSearchRequest from "@websearch/core/WebSearchRequest"
import * as Either from "effect/Either"

/** What is sent, and the inputs refused before anything was sent. */
export interface Prepared {
  readonly inputs: ReadonlyArray<string>
  readonly refused: ReadonlyArray<WebSearchError.InputFailure>
}

/** Replaces each `-` by the lines of standard input (read once, however many `-` there are). */
export const expandStdin = (args: ReadonlyArray<string>, stdin: () => string): ReadonlyArray<string> => {
  if (!args.includes("-")) return args
  const lines = stdin()
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
  let used = false
  return args.flatMap((arg) => {
    if (arg !== "-") return [arg]
    if (used) return []
    used = true
    return lines
  })
}

const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i

/**
 * A URL as typed: one without `scheme://` is a bare domain (or host and path) and means https. Only the scheme is added;
 * everything else is checked by the request's own URL rules.
 */
export const withScheme = (raw: string): string => {
  const trimmed = raw.trim()
  // A scheme is at the start (RFC 3986: a letter, then letters, digits, "+", "-" or "."); "://" later in a path is not one.
  return hasScheme.test(trimmed) || trimmed.length === 0 ? trimmed : `https://${trimmed}`
}

/** The URLs of a fetch: each with its scheme, the malformed ones refused one by one. */
export const prepareUrls = (urls: ReadonlyArray<string>): Prepared => {
  const inputs: Array<string> = []
  const refused: Array<WebSearchError.InputFailure> = []
  for (const raw of urls) {
    const url = withScheme(raw)
    const checked = WebSearchRequest.normalizeUrl(url)
    if (Either.isRight(checked)) inputs.push(url)
    else {
      refused.push(
        WebSearchError.toInputFailure(
          raw,
          WebSearchError.requestFailed("invalid_input", `"${raw}" is not a URL that can be fetched: ${checked.left}`, {
            capability: "fetchUrls",
            input: raw
          })
        )
      )
    }
  }
  return { inputs, refused }
}

/** The keywords of a search: blank ones refused one by one. */
export const prepareKeywords = (keywords: ReadonlyArray<string>): Prepared => {
  const inputs = keywords.filter((keyword) => keyword.trim().length > 0)
  const refused = keywords
    .filter((keyword) => keyword.trim().length === 0)
    .map((keyword) =>
      WebSearchError.toInputFailure(
        keyword,
        WebSearchError.requestFailed("invalid_input", "an empty keyword cannot be searched", {
          capability: "searchKeywords",
          input: keyword
        })
      )
    )
  return { inputs, refused }
}
