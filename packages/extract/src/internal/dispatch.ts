/**
 * The page-type dispatcher of `MainContent.fromHtml`: shows the page as a script would (see {@link show}), detects
 * its type (or takes the one the caller forced), and runs that type's reader when the table has one. What the reader
 * answers is the page's markdown; when it answers nothing (it found no posts, no items ...) the article path reads
 * the page, prepared first by the type's preparer when it has one.
 */
import * as Metadata from "../Metadata.js"
import type * as PageType from "../PageType.js"
import * as Noscript from "./noscript.js"
import * as PageClassifier from "./pageClassifier.js"
import * as PageSignals from "./pageSignals.js"
import * as Revealed from "./revealed.js"
import type * as TypedPage from "./typedPage.js"

/** What the dispatcher found: the page's type, and the reader's markdown with the page's metadata when it read it. */
export interface Dispatched {
  readonly pageType: PageType.PageType
  readonly read: { readonly markdown: string; readonly metadata: Metadata.Metadata } | undefined
  /** Whether a reader may have changed `doc` (it answered, but with no text): the article path needs a fresh parse. */
  readonly touched: boolean
  /**
   * Makes a fresh parse of the page what `doc` became for the article path (shown as a script would, prepared for
   * its type), so that positions found in one are the same elements in the other.
   */
  readonly redo: (fresh: Document) => Document
}

const hasText = (markdown: string): boolean => /[\p{L}\p{N}]/u.test(markdown)

/**
 * Shows a page as a script would, for every reading that follows: a page served in `<noscript>`, hidden as a whole
 * until a script shows it, or streamed into place by a script (see `noscript.ts`, `revealed.ts`). Returns the signals
 * of the page as shown, and whether showing it changed it.
 */
export const show = (
  doc: Document,
  url: string | undefined
): { readonly signals: PageSignals.Signals; readonly changed: boolean } => {
  let signals = PageSignals.read(doc, url)
  let changed = false
  const wrappers = signals.hidden.filter((element) => Revealed.isPageWrapper(element, signals.text, signals.elements))
  if (wrappers.length > 0 || signals.streamed.length > 0) {
    Revealed.reveal(wrappers, signals.streamed, signals.placeholders)
    signals = PageSignals.read(doc, url)
    changed = true
  }
  if (Noscript.servesContent(signals.text, signals.noscriptText)) {
    Noscript.reveal(doc)
    signals = PageSignals.read(doc, url)
    changed = true
  }
  return { signals, changed }
}

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
    readonly preparers?: Partial<Record<PageType.PageType, TypedPage.Preparer>> | undefined
  }
): Dispatched => {
  const { changed, signals } = show(doc, options.url)
  const pageType = options.forced ?? PageClassifier.classify(signals, doc)
  const reader = options.readers[pageType]
  const preparer = options.preparers?.[pageType]
  // A page shown as it was parsed (most are) needs no second look.
  const shown = (fresh: Document) => (changed && show(fresh, options.url), fresh)
  if (reader === undefined && preparer === undefined) {
    return { pageType, read: undefined, touched: false, redo: shown }
  }
  // Read before the reader changes the page: it may remove what the metadata comes from.
  const metadata = Metadata.fromDocument(doc)
  const context = {
    pageType,
    url: options.url,
    baseUrl: options.baseUrl,
    title: metadata.title,
    structured: signals.structured
  }
  const redo = (fresh: Document) => (shown(fresh), preparer?.(fresh, context), fresh)
  const markdown = reader?.(doc, context)
  if (markdown !== undefined && hasText(markdown)) {
    return { pageType, read: { markdown, metadata }, touched: false, redo }
  }
  // Declined (the page as it was), or answered without text (the page may have changed: parsed afresh).
  if (markdown === undefined) preparer?.(doc, context)
  return { pageType, read: undefined, touched: markdown !== undefined, redo }
}
