/**
 * What a reader of one page type is given and returns. Page-type detection picks the type; the reader of that type
 * (forum, product, collection, listing, documentation, service) turns the page into markdown, or answers
 * `undefined` to leave the page to the article path (Readability and the whole-page pass).
 */
import type * as PageType from "../PageType.js"
import type * as StructuredData from "./structuredData.js"

/** What a reader knows about the page besides its DOM. */
export interface Context {
  /** The page's type as detected (or as the caller forced it). */
  readonly pageType: PageType.PageType
  /** The page's own URL, when the caller gave it. */
  readonly url?: string | undefined
  /** The base for relative links (the page's URL, or its `<base href>`). */
  readonly baseUrl: string | undefined
  /** The page's title as its metadata gives it. */
  readonly title: string | undefined
  /** The page's JSON-LD object nodes (see `structuredData.ts`). */
  readonly structured: ReadonlyArray<StructuredData.JsonObject>
}

/**
 * Reads a page of one type from its parsed document (scripts other than JSON-LD, styles and comments already
 * stripped; not yet pruned by the boilerplate rules). Linear in the page's size. It decides before it changes the
 * page: a reader that answers `undefined` leaves `doc` as it found it, since the article path reads it next; one that
 * answers may mutate `doc` (an answer without a letter or digit counts as none, and the page is parsed afresh).
 */
export type Reader = (doc: Document, context: Context) => string | undefined

/**
 * Prepares a page of one type for the article path, which reads it next (no reader of its type, or the reader
 * declined): shows what the article path would drop but the type needs (the hidden panels of documentation's tabbed
 * examples, ...). Mutates `doc`; linear in the page's size.
 */
export type Preparer = (doc: Document, context: Context) => void
