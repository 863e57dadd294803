/**
 * HTML -> the page's main content as markdown, with its metadata. Readability (over linkedom) finds the article;
 * when it finds nothing, or less than a page plainly holds, a whole-page pass takes over that keeps every
 * visible block except page chrome, so a short page or an index page still yields its text.
 *
 * @since 0.1.0
 */
import { Readability } from "@mozilla/readability"
import * as Markdown from "./Markdown.js"
import * as Metadata from "./Metadata.js"
import type * as PageType from "./PageType.js"
import * as BlankRuns from "./internal/blankRuns.js"
import * as Boilerplate from "./internal/boilerplate.js"
import * as Byline from "./internal/byline.js"
import * as BoilerplateRules from "./internal/boilerplateRules.js"
import * as ClassWeight from "./internal/classWeight.js"
import * as Container from "./internal/container.js"
import * as Credits from "./internal/credits.js"
import * as Dispatch from "./internal/dispatch.js"
import * as EmptyElement from "./internal/emptyElement.js"
import * as EmbeddedState from "./internal/embeddedState.js"
import * as Figures from "./internal/figures.js"
import * as HeadingIds from "./internal/headingIds.js"
import * as HtmlDocument from "./internal/htmlDocument.js"
import * as Inert from "./internal/inert.js"
import * as Lead from "./internal/lead.js"
import * as Nesting from "./internal/nesting.js"
import * as Prompts from "./internal/prompts.js"
import * as Readers from "./internal/readers.js"
import * as Tail from "./internal/tail.js"
import * as TagWalk from "./internal/tagWalk.js"
import * as Visibility from "./internal/visibility.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Result {
  readonly title: string
  readonly markdown: string
  readonly metadata: Metadata.Metadata
  /**
   * `article` when Readability's result was kept, `page` when the whole-page pass was, `reader` when the reader of
   * the page's type read it (every post of a forum thread, ...), `state` when the page's HTML showed nothing and its
   * embedded state was read.
   */
  readonly method: "article" | "page" | "reader" | "state"
  /**
   * What kind of page it was read as: detected from the page (or forced by `Options.pageType`).
   *
   * @since 0.2.0
   */
  readonly pageType: PageType.PageType
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Absolute URL of the page, for resolving relative links (a `<base href>` in the page wins). */
  readonly url?: string | undefined
  /**
   * Below this many characters of article text the whole page is rendered too, and the longer of the two kept.
   * Default 250.
   */
  readonly minArticleChars?: number | undefined
  /** Pages with more elements than this skip Readability (quadratic in places) and go straight to the whole-page pass. */
  readonly maxElements?: number | undefined
  /** Pages nested deeper than this (estimated from the text) skip Readability too. Default 1000. */
  readonly maxDepth?: number | undefined
  /**
   * Pages whose tables and lists would cost Readability more than this (Σ k² over elements, k the number of table
   * and list elements among an element's ancestors and itself; see `internal/nesting.ts`) skip Readability too.
   * Default 500 000: about 0.2–0.3 s of Readability, 16× the costliest page of both corpora (31 000).
   */
  readonly maxNestingCost?: number | undefined
  /** Keep figure captions, photo credits, slide counters and galleries (dropped by default). */
  readonly keepCaptions?: boolean | undefined
  /**
   * Read the page as this type instead of the one detected: its type's reader runs (a forum's, documentation's ...),
   * and `article` or `other` go straight to the article path.
   *
   * @since 0.2.0
   */
  readonly pageType?: PageType.PageType | undefined
}

const defaultMinArticleChars = 250
const defaultMaxElements = 60_000
const defaultMaxDepth = 1000
const defaultMaxNestingCost = 500_000

const baseOf = (doc: Document, url: string | undefined): string | undefined => {
  // <base> belongs in <head>; looking only there saves a walk over the whole body. By name, not by a selector
  // (`base[href]`), which linkedom compiles anew on every call.
  const head = doc.head as Element | null | undefined
  const base =
    head === null || head === undefined
      ? undefined
      : TagWalk.withTags(head, ["base"]).find((element) => element.hasAttribute("href"))
  const href = base?.getAttribute("href")
  if (href === null || href === undefined) return url
  try {
    return url === undefined ? new URL(href).href : new URL(href, url).href
  } catch {
    return url
  }
}

// Readability removes scripts, styles and comments first thing, and inline SVG holds no text worth reading;
// removing them from the text before parsing saves the tokenizer and the DOM their weight (often most of a big
// page). JSON-LD scripts stay for metadata. A scan, not a regular expression (see `internal/inert.ts`).
/**
 * Removes scripts (except JSON-LD), styles, inline SVG and comments from HTML text, as the first step of extraction.
 *
 * @since 0.1.0
 * @category utils
 */
export const stripInert = (html: string): string => Inert.strip(html)

// Elements that never nest (void) or close themselves implicitly (optional end tags): ignoring them keeps the
// depth estimate close to the real tree's.
const flat = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
  "p",
  "li",
  "dt",
  "dd",
  "option",
  "tr",
  "td",
  "th",
  "tbody",
  "thead",
  "tfoot",
  "html",
  "head",
  "body",
  "!doctype"
])

/**
 * Start tags and estimated nesting depth, from one pass over the text: a walk over the DOM would cost as much as
 * the parse. Readability's cost grows with elements times depth, so hostile pages are caught before it runs.
 */
const shape = (html: string): { readonly tags: number; readonly depth: number } => {
  let tags = 0
  let depth = 0
  let deepest = 0
  let close = -2
  for (let i = html.indexOf("<"); i >= 0 && i < html.length - 1; i = html.indexOf("<", i + 1)) {
    const c = html.charCodeAt(i + 1)
    const closing = c === 47
    const start = closing ? i + 2 : i + 1
    const first = html.charCodeAt(start)
    if (!((first >= 97 && first <= 122) || (first >= 65 && first <= 90))) continue
    let end = start + 1
    while (end < html.length && end - start < 12) {
      const d = html.charCodeAt(end)
      if (!((d >= 97 && d <= 122) || (d >= 65 && d <= 90) || (d >= 48 && d <= 57) || d === 45)) break
      end++
    }
    if (flat.has(html.slice(start, end).toLowerCase())) {
      if (!closing) tags++
      continue
    }
    if (closing) {
      if (depth > 0) depth--
      continue
    }
    tags++
    // The next `>` is remembered: looked up afresh for each of a run of `<a<a<a` with no `>`, it was quadratic.
    if (close !== -1 && close < end) close = html.indexOf(">", end)
    if (close > 0 && html.charCodeAt(close - 1) === 47) continue
    depth++
    if (depth > deepest) deepest = depth
  }
  return { tags, depth: deepest }
}

// Markdown's markup characters besides whitespace (`#*_\`>|-[]()!`), by character code.
const markup = new Uint8Array(128)
for (const c of "#*_`>|-[]()!") markup[c.charCodeAt(0)] = 1
// What `\s` matches beyond ASCII.
const wideSpace = new Set([0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff])

/**
 * The characters of markdown that are neither whitespace (as `\s` matches it) nor markup: counted, not left after a
 * replace, which built a copy of each page's markdown to measure it.
 */
const letters = (s: string): number => {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c <= 32) {
      if (c === 32 || (c >= 9 && c <= 13)) continue
    } else if (c < 128) {
      if (markup[c] === 1) continue
    } else if (wideSpace.has(c) || (c >= 0x2000 && c <= 0x200a)) continue
    n++
  }
  return n
}

const wholePage = (doc: Document, url: string | undefined): string =>
  Markdown.fromNode(doc.body, { baseUrl: baseOf(doc, url), dropChrome: true })

const article = (
  doc: Document
): {
  readonly node: Element | undefined
  readonly title: string | undefined
  readonly meta: Partial<Metadata.Metadata>
} => {
  // Readability tests every element from <html> down against its "unlikely candidate" class/id pattern and its
  // visibility test, and drops what fails with all it holds: `<html class="header-spacing">` or `<body
  // style="display:none">` (revealed by a script) lose the whole page. The root and body are never chrome.
  for (const root of [doc.documentElement, doc.body]) {
    if (root === null) continue
    for (const attr of ["class", "id", "style", "hidden", "aria-hidden"]) root.removeAttribute(attr)
  }
  try {
    // The serializer hands back the element itself: rendering it directly saves a serialize + re-parse.
    const reader = new Readability<Element>(doc, { serializer: (node) => node as Element, keepClasses: true })
    TagWalk.install(reader)
    Visibility.install(reader)
    Byline.install(reader)
    ClassWeight.install(reader)
    EmptyElement.install(reader)
    const parsed = reader.parse()
    if (parsed === null) return { node: undefined, title: undefined, meta: {} }
    const or = (s: string | null | undefined) =>
      s === null || s === undefined || s.trim() === "" ? undefined : s.trim()
    return {
      node: parsed.content ?? undefined,
      title: or(parsed.title),
      meta: {
        byline: or(parsed.byline),
        publishedTime: or(parsed.publishedTime),
        siteName: or(parsed.siteName),
        lang: or(parsed.lang),
        excerpt: or(parsed.excerpt)
      }
    }
  } catch {
    // Readability throws on documents it cannot walk; the whole-page pass still can.
    return { node: undefined, title: undefined, meta: {} }
  }
}

// Rules on class/id words run over the whole page before Readability, which renames the classes away when it turns
// a <div> into a <p>; rules on position and link density run over the article it found.
const before: ReadonlyArray<Boilerplate.Rule> = [
  BoilerplateRules.hiddenRule,
  BoilerplateRules.pagerRule,
  BoilerplateRules.captionRule,
  Credits.creditRule,
  Figures.figureImageRule,
  BoilerplateRules.trailingRule
]
const after: ReadonlyArray<Boilerplate.Rule> = [
  BoilerplateRules.navRule,
  BoilerplateRules.linkRule,
  BoilerplateRules.sectionRule,
  BoilerplateRules.headRule,
  Prompts.promptRule
]

/**
 * What every copy of the page goes through before it is read: embedded posts' wrappers and sections named after
 * their heading lose the words that would have them dropped, then the rules on class/id words prune it.
 */
const prepass = (body: Element, context: Boilerplate.Context): void => {
  BoilerplateRules.protectEmbeds(body)
  HeadingIds.clear(body)
  Boilerplate.prune(body, context, before)
}

/**
 * Our block in a fresh copy of the page, pruned as the page was before Readability, then as an article is (with
 * the characters of text its tail lost).
 */
const ownBlock = (copy: Document, index: number, metadata: Metadata.Metadata, keepCaptions: boolean) => {
  if (copy.body === null) return undefined
  prepass(copy.body, { title: undefined, byline: undefined, keepCaptions })
  const element = Container.at(copy.body, index)
  if (element === undefined) return undefined
  Boilerplate.prune(element, { title: metadata.title, byline: metadata.byline, keepCaptions }, after)
  return { element, trimmed: Tail.trim(element) }
}

/** Below this many letters, the page's own HTML showed (nearly) nothing: its embedded state is read instead. */
const minShownLetters = 200

/**
 * Extracts the main content of an HTML page as markdown. Synchronous and CPU-bound: call it from a worker for
 * big pages. A JavaScript shell whose HTML shows (nearly) nothing is read from the state it embeds for its scripts
 * (`__NEXT_DATA__`, `__NUXT__`, `window.__INITIAL_STATE__`, JSON-LD ...), when it carries any.
 *
 * @since 0.1.0
 * @category utils
 */
export const fromHtml = (source: string, options?: Options): Result => {
  const result = fromMarkup(source, options)
  const shown = letters(result.markdown)
  if (shown >= minShownLetters) return result
  // The base for its links is the page's URL: a <base href> is not worth another parse here.
  const state = EmbeddedState.read(source, options?.url)
  return letters(state) > shown ? { ...result, markdown: state, method: "state" } : result
}

const fromMarkup = (source: string, options?: Options): Result => {
  // Indentation between blocks is dropped too: a quarter of a page's nodes, and no text.
  const html = BlankRuns.dropBetweenBlocks(stripInert(source))
  let doc = HtmlDocument.parse(html)
  const base = baseOf(doc, options?.url)
  // The page's type decides how it is read: its type's reader first, the article path when it has none or declines.
  const typed = Dispatch.dispatch(doc, {
    url: options?.url,
    baseUrl: base,
    forced: options?.pageType,
    readers: Readers.readers,
    preparers: Readers.preparers
  })
  const pageType = typed.pageType
  if (typed.read !== undefined) {
    const { markdown, metadata } = typed.read
    return { title: metadata.title ?? "", markdown, metadata, method: "reader", pageType }
  }
  if (typed.touched) doc = typed.redo(HtmlDocument.parse(html))
  const { depth, tags } = shape(html)
  const maxNestingCost = options?.maxNestingCost ?? defaultMaxNestingCost
  const huge =
    tags > (options?.maxElements ?? defaultMaxElements) ||
    depth > (options?.maxDepth ?? defaultMaxDepth) ||
    (doc.body !== null && Nesting.cost(doc.body, maxNestingCost) > maxNestingCost)
  if (!huge && doc.body !== null) {
    prepass(doc.body, { title: undefined, byline: undefined, keepCaptions: options?.keepCaptions === true })
  }
  // Listed before Readability moves the article's nodes out of the page, to find where the article began.
  // The walk that scores our own block lists them too.
  const scanned = huge || doc.body === null ? undefined : Container.scan(doc.body)
  const texts = scanned?.texts
  const block = scanned?.best
  const found = huge ? { node: undefined, title: undefined, meta: {} } : article(doc)
  // Our own block replaces Readability's article when that is plainly the wrong block or a small part of ours.
  const elsewhere =
    found.node !== undefined &&
    block !== undefined &&
    texts !== undefined &&
    Container.replaces(found.node, block, texts)
  if (found.node !== undefined && texts !== undefined && doc.body !== null && !elsewhere) {
    Lead.restore(doc.body, found.node, texts)
  }
  // Readability mutates `doc`; the whole-page pass and our own metadata reading need the page as it was when
  // Readability found nothing (untouched when it was skipped). Parsed at most once more, and only then.
  let pristine: Document | undefined = huge ? doc : undefined
  // Shown and prepared as `doc` was, so that our block's position in `doc` finds it there.
  const original = () => (pristine ??= typed.redo(HtmlDocument.parse(html)))
  const keys = ["byline", "publishedTime", "siteName", "lang", "excerpt"] as const
  // Readability reads JSON-LD and meta tags itself; ours fills its gaps. Its leftovers keep every <meta>, so the
  // mutated document serves when it found an article.
  const own =
    found.title !== undefined && keys.every((key) => found.meta[key] !== undefined)
      ? undefined
      : Metadata.fromDocument(found.node === undefined ? original() : doc)
  const pick = <K extends keyof Metadata.Metadata>(key: K) => found.meta[key] ?? own?.[key]
  const metadata: Metadata.Metadata = {
    title: found.title ?? own?.title,
    byline: pick("byline"),
    publishedTime: pick("publishedTime"),
    siteName: pick("siteName"),
    lang: pick("lang"),
    excerpt: pick("excerpt")
  }
  const title = metadata.title ?? ""
  // Characters of text the article's tail lost: the links after its prose do not make it a short article.
  let trimmed = 0
  if (found.node !== undefined && after.length > 0 && !elsewhere) {
    Boilerplate.prune(
      found.node,
      { title: metadata.title, byline: metadata.byline, keepCaptions: options?.keepCaptions === true },
      after
    )
    trimmed = Tail.trim(found.node)
  }
  // Our block is read from the page as parsed, pruned as `doc` was before Readability (which moved and rewrote
  // parts of `doc`): the same tree, so the same position finds it.
  const ours =
    elsewhere && block !== undefined
      ? ownBlock(original(), block.index, metadata, options?.keepCaptions === true)
      : undefined
  if (ours !== undefined) trimmed = ours.trimmed
  const articleMarkdown =
    ours !== undefined
      ? Markdown.fromNode(ours.element, { baseUrl: base, dropChrome: true })
      : found.node === undefined
        ? ""
        : Markdown.fromNode(found.node, { baseUrl: base })
  const minChars = options?.minArticleChars ?? defaultMinArticleChars
  if (found.node !== undefined && letters(articleMarkdown) + trimmed >= minChars) {
    return { title, markdown: articleMarkdown, metadata, method: "article", pageType }
  }
  // The page pass reads the page as parsed, before any pruning: the whole-page rules run on it too (Readability's
  // leftovers were pruned, not this copy), so hidden text, captions and trailing boilerplate stay out of it as well.
  const pageDoc = original()
  if (pageDoc !== doc && pageDoc.body !== null && ours === undefined) {
    prepass(pageDoc.body, {
      title: metadata.title,
      byline: metadata.byline,
      keepCaptions: options?.keepCaptions === true
    })
  }
  // Its end is trimmed as an article's is: the links and headings after the page's last text.
  if (pageDoc.body !== null) Tail.trim(pageDoc.body)
  const page = wholePage(pageDoc, options?.url)
  // The page pass drops chrome the article may have kept, so it can be somewhat shorter and still be the better
  // text; only a page pass with much less than the article loses (everything was in an <aside>, say).
  return letters(page) * 2 >= letters(articleMarkdown)
    ? { title, markdown: page, metadata, method: "page", pageType }
    : { title, markdown: articleMarkdown, metadata, method: "article", pageType }
}
