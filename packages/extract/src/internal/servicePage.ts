/**
 * The reader of service and landing pages (a company's, a SaaS product's, an agency's): a sequence of short
 * sections (a hero, features, pricing tiers, testimonials, an FAQ) kept in order as the section pass reads them,
 * less the cookie banner, the navigation, the footer and blocks of links (a footer's columns outside `<footer>`, a
 * "more services" strip). A page that reads as an article, mostly paragraphs of prose, is left to the article path.
 */
import * as Markdown from "../Markdown.js"
import * as ArticleShape from "./articleShape.js"
import * as MoreLinks from "./moreLinks.js"
import * as SectionPass from "./sectionPass.js"
import * as Tail from "./tail.js"
import type * as TypedPage from "./typedPage.js"

const chromeWords = new Set(SectionPass.chromeWords)
const partWords = new Set([...SectionPass.partWords, "related"])

/** A page that reads as an article is left to the article path from this share of its text in prose. */
export const maxProseShare = 0.5

/** Reads a service page; `undefined` for a page that reads as an article. */
export const read: TypedPage.Reader = (doc, context) => {
  const page = SectionPass.survey(doc)
  if (page === undefined) return undefined
  if (ArticleShape.proseShare(page) >= maxProseShare && ArticleShape.articleLike(doc, context.structured, page))
    return undefined
  SectionPass.prune(page.root, page.stats, { chromeWords, partWords, linkBlocks: true })
  MoreLinks.remove(page.root)
  // Links and headings after the last text (a "Contact us" row, a heading of an empty strip).
  Tail.trim(page.root)
  return Markdown.fromNode(page.root, { baseUrl: context.baseUrl })
}
