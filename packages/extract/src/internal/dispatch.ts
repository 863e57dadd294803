/**
 * The page-type dispatcher of `MainContent.fromHtml`: detects the type of the page as parsed (or takes the one the
 * caller forced), and runs that type's reader when the table has one. A page served inside `<noscript>` is unwrapped
 * first (see `noscript.ts`), for the article path too. What the reader answers is the page's
 * markdown; when it answers nothing (it found no posts, no items ...) the article path reads the page.
 */
import * as Metadata from "../Metadata.js"
import type * as PageType from "../PageType.js"
import * as Noscript from "./noscript.js"
import * as PageClassifier from "./pageClassifier.js"
import * as PageSignals from "./pageSignals.js"
import type * as TypedPage from "./typedPage.js"

/** What the dispatcher found: the page's type, and the reader's markdown with the page's metadata when it read it. */
export interface Dispatched {
  readonly pageType: PageType.PageType
  readonly read: { readonly markdown: string; readonly metadata: Metadata.Metadata } | undefined
  /** Whether a reader may have changed `doc` (it answered, but with no text): the article path needs a fresh parse. */
  readonly touched: boolean
}

const hasText = (markdown: string): boolean => /[\p{L}\p{N}]/u.test(markdown)

/**
 * Detects the page's type (unless `forced`) and runs its reader from `readers`, over `doc` as parsed (scripts other
 * than JSON-LD already stripped, nothing pruned yet).
 */
export const dispatch = (
  doc: Document,
  options: {
    readonly url: string | undefined
    readonly baseUrl: string | undefined
    readonly forced: PageType.PageType | undefined
    readonly readers: Partial<Record<PageType.PageType, TypedPage.Reader>>
  }
): Dispatched => {
  let signals = PageSignals.read(doc, options.url)
  // A page served in <noscript> is read from there, by every reading that follows.
  if (Noscript.servesContent(signals.text, signals.noscriptText)) {
    Noscript.reveal(doc)
    signals = PageSignals.read(doc, options.url)
  }
  const pageType = options.forced ?? PageClassifier.classify(signals)
  const reader = options.readers[pageType]
  if (reader === undefined) return { pageType, read: undefined, touched: false }
  // Read before the reader changes the page: it may remove what the metadata comes from.
  const metadata = Metadata.fromDocument(doc)
  const markdown = reader(doc, {
    pageType,
    baseUrl: options.baseUrl,
    title: metadata.title,
    structured: signals.structured
  })
  if (markdown === undefined) return { pageType, read: undefined, touched: false }
  if (!hasText(markdown)) return { pageType, read: undefined, touched: true }
  return { pageType, read: { markdown, metadata }, touched: false }
}
