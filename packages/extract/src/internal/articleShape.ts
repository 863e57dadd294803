/**
 * Whether a page reads as an article: its structured data names an article (`Article`, `NewsArticle`,
 * `BlogPosting`, …), its OpenGraph type is `article`, or one `<article>` element holds at least half its text; and
 * how much of its text is in paragraphs of prose. The readers of other types leave such a page to the article path
 * unless their own structure (an item grid, a product's data, short sections) is plainly there: page-type detection
 * errs, and Readability reads an article best.
 */
import type * as SectionPass from "./sectionPass.js"
import * as StructuredData from "./structuredData.js"

const articleTypes = new Set([
  "Article",
  "NewsArticle",
  "BlogPosting",
  "Report",
  "ScholarlyArticle",
  "SocialMediaPosting",
  "LiveBlogPosting",
  "OpinionNewsArticle",
  "AnalysisNewsArticle",
  "ReportageNewsArticle",
  "ReviewNewsArticle",
  "BackgroundNewsArticle",
  "Review",
  "Recipe"
])

/** One `<article>` holding at least this share of the page's text makes it read as an article. */
export const minArticleShare = 0.5

/** Whether the page reads as an article (see the module's comment). */
export const articleLike = (
  doc: Document,
  structured: ReadonlyArray<StructuredData.JsonObject>,
  page: SectionPass.Page
): boolean => {
  if (structured.some((node) => StructuredData.typesOf(node).some((t) => articleTypes.has(t)))) return true
  for (let meta = doc.head?.firstElementChild ?? null; meta !== null; meta = meta.nextElementSibling) {
    if (
      meta.localName === "meta" &&
      (meta.getAttribute("property") ?? "").trim().toLowerCase() === "og:type" &&
      (meta.getAttribute("content") ?? "").trim().toLowerCase() === "article"
    )
      return true
  }
  for (const article of Array.from(page.root.getElementsByTagName("article"))) {
    if (page.text(article) >= page.total * minArticleShare) return true
  }
  return page.root.localName === "article" && page.total > 0
}

/** A paragraph of prose has at least this many characters. */
export const minParagraphChars = 150

/** The share of the page's text in paragraphs (`<p>`) of prose. */
export const proseShare = (page: SectionPass.Page): number => {
  if (page.total === 0) return 0
  let prose = 0
  for (const p of Array.from(page.root.getElementsByTagName("p"))) {
    const chars = page.text(p)
    if (chars >= minParagraphChars) prose += chars
  }
  return prose / page.total
}
