/**
 * The extractor without Effect: {@link extractAsync} and {@link extractSync} of `Extract`, whose failures are plain
 * values (a reason and a message) rather than `WebSearchError.ResponseInvalid`. What an extraction worker thread
 * loads: `Extract` brings effect's `Effect` and (through `WebSearchError`) its `Schema`, about 9 MiB of live heap
 * and 20 MiB of RSS in each worker that would never use them. Applications use `Extract`.
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 *
 * @since 0.2.0
 */
import * as Either from "effect/Either"
import * as Charset from "./charset.js"
import * as ContentKind from "./contentKind.js"
import type * as ExtractPlain from "./extractPlain.js"
import * as Feed from "./feed.js"
import * as DocumentEnd from "./documentEnd.js"
import * as PlainKinds from "./plainKinds.js"
import * as MainContent from "../MainContent.js"
import * as Pdf from "../Pdf.js"
import * as PlainText from "./plainText.js"
import * as Wall from "../Wall.js"

/**
 * A fetched body.
 *
 * @since 0.2.0
 * @category models
 */
export type Input = ExtractPlain.Input

/**
 * The extracted document.
 *
 * @since 0.2.0
 * @category models
 */
export type Document = ExtractPlain.Document

/**
 * @since 0.2.0
 * @category models
 */
export type Options = ExtractPlain.Options

const none = DocumentEnd.none

/**
 * Cuts text to at most `max` code units, preferring the last whitespace in the final stretch so a word is not
 * cut in half, and never leaving half a surrogate pair.
 *
 * @since 0.2.0
 * @category encoding
 */
export const truncate: (text: string, max: number | undefined) => string = DocumentEnd.truncate

/**
 * Whether a Content-Type names a body `extract` can read, or one it sniffs (absent, `application/octet-stream`).
 * A sniffed body may still turn out to be binary and be refused.
 *
 * @since 0.2.0
 * @category guards
 */
export const supportedContentType = (contentType: string | undefined): boolean =>
  ContentKind.fromMediaType(ContentKind.mediaType(contentType)) !== undefined

/**
 * Why a body could not be extracted: the reason and message of the `ResponseInvalid` that `Extract` makes of it.
 *
 * @since 0.2.0
 * @category models
 */
export type Failure = ExtractPlain.Failure

const describe = (contentType: string | undefined): string => {
  const type = ContentKind.mediaType(contentType)
  return type === undefined ? "a binary body without a Content-Type" : `"${type.slice(0, 100)}"`
}

const html = (input: Input, text: string, options: Options | undefined): Document => {
  const { markdown, metadata, pageType, title } = MainContent.fromHtml(text, {
    url: input.url,
    keepCaptions: options?.keepCaptions,
    pageType: options?.pageType
  })
  const wall = Wall.detect({ html: text, text: markdown, title })
  return { kind: "html", ...metadata, title, markdown, pageType, ...(wall === undefined ? {} : { wall }) }
}

const sync = (input: Input, kind: Exclude<ContentKind.Kind, "pdf">, options: Options | undefined): Document => {
  switch (kind) {
    case "html": {
      return html(input, Charset.decode(input.body, input.contentType, "html").text, options)
    }
    case "xml": {
      const text = Charset.decode(input.body, input.contentType, "xml").text
      if (Feed.isXhtml(text)) return html(input, text, options)
      if (Feed.isFeed(text)) {
        const feed = Feed.fromXml(text, input.url)
        // A feed is a list of entries: its items are what it holds.
        if (feed !== undefined) return { kind: "xml", ...none, ...feed, pageType: "listing" }
      }
      return { kind: "xml", ...none, ...Feed.genericXml(PlainText.clean(text)), pageType: "other" }
    }
    default: {
      return PlainKinds.fromKind(input, kind)
    }
  }
}

/**
 * Extracts every kind except PDF synchronously (PDF parsing is asynchronous in every maintained pure-JS engine;
 * a PDF body gets `ResponseInvalid/unsupported_content_type` naming {@link extractAsync}). CPU-bound: measured on
 * a shared 2-vCPU machine, a real 5 MiB news page took 0.5-0.6 s, a synthetic 5.8 MiB article 1.9 s and a flat
 * 1 MiB page of 6 600 paragraphs 1.4 s (Readability is superlinear there), with a few hundred MiB of DOM; run big
 * bodies in a worker. Never throws.
 *
 * @since 0.2.0
 * @category utils
 */
export const extractSync = (input: Input, options?: Options): Either.Either<Document, Failure> => {
  try {
    const kind = ContentKind.classify(input.contentType, input.body, input.url)
    if (kind === undefined) return Either.left(DocumentEnd.unsupported(describe(input.contentType)))
    if (kind === "pdf") return Either.left(DocumentEnd.unsupported("a PDF synchronously (use extractAsync)"))
    return DocumentEnd.finish(options?.maxChars, sync(input, kind, options))
  } catch (error) {
    return Either.left(DocumentEnd.parseFailed(error))
  }
}

const pdf = async (
  input: Input,
  options: Options | undefined,
  signal: AbortSignal | undefined
): Promise<Either.Either<Document, Failure>> => {
  const read = await Pdf.fromBytes(input.body, { maxChars: options?.maxChars, signal })
  if (read instanceof Pdf.PdfError) {
    return Either.left({ reason: "parse_failed", message: read.message })
  }
  return DocumentEnd.finish(options?.maxChars, {
    kind: "pdf",
    title: read.title,
    markdown: read.markdown,
    byline: read.author,
    publishedTime: read.createdAt,
    siteName: undefined,
    lang: read.lang,
    excerpt: undefined,
    pageType: "other"
  })
}

/**
 * Whether a body classifies as PDF (the one kind extracted only asynchronously); `false` when classifying throws.
 *
 * @since 0.2.0
 * @category guards
 */
export const isPdf = (input: Input): boolean => {
  try {
    return ContentKind.classify(input.contentType, input.body, input.url) === "pdf"
  } catch {
    return false
  }
}

/**
 * Extracts any supported kind, PDF included, as a plain promise that never rejects: what a worker thread calls.
 *
 * @since 0.2.0
 * @category utils
 */
export const extractAsync = async (
  input: Input,
  options?: Options & { readonly signal?: AbortSignal }
): Promise<Either.Either<Document, Failure>> => {
  if (!isPdf(input)) return extractSync(input, options)
  try {
    return await pdf(input, options, options?.signal)
  } catch (error) {
    return Either.left(DocumentEnd.parseFailed(error))
  }
}
