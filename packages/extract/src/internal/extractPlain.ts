/**
 * Extraction of the kinds that need no DOM: plain text, markdown and JSON. It loads neither linkedom, Readability
 * nor the markdown rules (about 20 MiB of heap and 80 ms of compiling on first use, which a server would pay on its
 * event loop in the middle of serving), and each step is linear in the body: what a server runs on its own thread
 * for small bodies. `ExtractCore` (and so `Extract`) gives the same documents for these kinds and handles the rest.
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 *
 * @since 0.2.0
 */
import * as Either from "effect/Either"
import * as ContentKind from "./contentKind.js"
import * as DocumentEnd from "./documentEnd.js"
import * as PlainKinds from "./plainKinds.js"
import type * as PageType from "../PageType.js"
import type * as Wall from "../Wall.js"

/**
 * A fetched body.
 *
 * @since 0.2.0
 * @category models
 */
export interface Input {
  readonly body: Uint8Array
  /** The raw Content-Type header, which may carry a charset. */
  readonly contentType: string | undefined
  /** The final URL, for resolving relative links and for sniffing the kind (`.md`). */
  readonly url: string
}

/**
 * The extracted document.
 *
 * @since 0.2.0
 * @category models
 */
export interface Document {
  readonly kind: ContentKind.Kind
  /** `""` when the body has none. */
  readonly title: string
  /** The model-readable content. */
  readonly markdown: string
  readonly byline: string | undefined
  readonly publishedTime: string | undefined
  readonly siteName: string | undefined
  readonly lang: string | undefined
  readonly excerpt: string | undefined
  /**
   * What kind of page the body was read as. HTML (and XHTML): the type detected from the page (or forced by
   * `Options.pageType`), which chose how it was read; a feed: `listing` (its items); every other kind (text,
   * markdown, JSON, other XML, PDF): `other`, since nothing in them tells the kinds apart.
   *
   * @since 0.2.0
   */
  readonly pageType: PageType.PageType
  /**
   * Set when the HTML page is a wall in front of its content (a bot check, a page asking for JavaScript, a login or
   * consent wall; see `Wall.detect`): `markdown` is then the wall's text, not the page's.
   *
   * @since 0.2.0
   */
  readonly wall?: Wall.Wall | undefined
}

/**
 * @since 0.2.0
 * @category models
 */
export interface Options {
  /** Cap on the length of `markdown`, in UTF-16 code units; a surrogate pair is never split. */
  readonly maxChars?: number
  /**
   * Keep figure captions, photo credits and slide counters of HTML pages (dropped by default); `ExtractPlain`
   * reads no HTML and ignores it.
   */
  readonly keepCaptions?: boolean
  /**
   * Read an HTML page as this type instead of the one detected (a forum thread keeps every post, documentation its
   * code and tables, ...). `article` reads it as an article; `other` as any page the detector sees no type in.
   * `ExtractPlain` reads no HTML and ignores it.
   *
   * @since 0.2.0
   */
  readonly pageType?: PageType.PageType
}

/**
 * Why a body could not be extracted: the reason and message of the `ResponseInvalid` that `Extract` makes of it.
 *
 * @since 0.2.0
 * @category models
 */
export type Failure = DocumentEnd.Failure

/**
 * The kinds this module extracts.
 *
 * @since 0.2.0
 * @category models
 */
export type Kind = "text" | "markdown" | "json"

/**
 * Whether a kind (of `ContentKind.classify`) is one this module extracts.
 *
 * @since 0.2.0
 * @category guards
 */
export const isPlain = (kind: ContentKind.Kind | undefined): kind is Kind =>
  kind === "text" || kind === "markdown" || kind === "json"

/**
 * Extracts a text, markdown or JSON body, the same document `ExtractCore.extractSync` gives. Any other kind
 * (HTML, XML, PDF, binary) fails `unsupported_content_type`: check {@link isPlain} of `ContentKind.classify`
 * first, and hand the rest to `ExtractCore` or `Extract`. Never throws; what a parser throws on hostile input is
 * `parse_failed`.
 *
 * @example
 * import * as ExtractPlain from "@websearch/extract/internal/extractPlain"
 *
 * const body = new TextEncoder().encode('{"name": "websearch"}')
 * const result = ExtractPlain.extractSync({ body, contentType: "application/json", url: "https://example.com/a.json" })
 * console.log(result._tag === "Right" ? result.right.kind : result.left.reason) // "json"
 *
 * @since 0.2.0
 * @category utils
 */
export const extractSync = (input: Input, options?: Options): Either.Either<Document, Failure> => {
  try {
    const kind = ContentKind.classify(input.contentType, input.body, input.url)
    if (!isPlain(kind)) {
      return Either.left({
        reason: "unsupported_content_type",
        message:
          kind === undefined
            ? "cannot extract text from a body that is neither text, markdown nor JSON"
            : `cannot extract a ${kind} body without the DOM extractor (ExtractPlain reads text, markdown and JSON; ExtractCore reads ${kind})`
      })
    }
    return DocumentEnd.finish(options?.maxChars, PlainKinds.fromKind(input, kind))
  } catch (error) {
    return Either.left(DocumentEnd.parseFailed(error))
  }
}
