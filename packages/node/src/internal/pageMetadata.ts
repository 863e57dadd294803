/**
 * The page's own metadata (from `@websearch/extract`) as the optional fields of a result: the published time as
 * ISO 8601, the author, the site name and the language, each only when the page states it in a usable form; and
 * the title of a result.
 */
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as ResultMetadata from "@websearch/core/internal/resultMetadata"
import * as WebSearchError from "@websearch/core/WebSearchError"
import type * as Extract from "@websearch/extract/Extract"
import * as Effect from "effect/Effect"

/** What a result carries of its page's metadata. */
export type PageMetadata = ResultMetadata.Metadata

/** The optional result fields from an extracted document; absent keys for what the page does not say. */
export const fromDocument = (document: Extract.Document): PageMetadata =>
  ResultMetadata.metadata({
    publishedAt: document.publishedTime,
    author: document.byline,
    siteName: document.siteName,
    language: document.lang
  })

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

/**
 * The result of a fetched page from its document, with the kind of page it was read as; `ResponseInvalid/empty_content`
 * when it has no text.
 */
export const toResult = (
  document: Extract.Document,
  url: string
): Effect.Effect<ProviderDriver.DriverResult, WebSearchError.ResponseInvalid> =>
  document.markdown.trim() === ""
    ? Effect.fail(WebSearchError.responseInvalid("empty_content", `${url} has no readable text`))
    : Effect.succeed({
        title: title(document, url),
        content: document.markdown,
        url,
        ...fromDocument(document),
        pageType: document.pageType
      })
