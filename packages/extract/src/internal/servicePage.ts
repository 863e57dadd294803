/**
 * The reader of service pages.
 */
import * as Markdown from "../Markdown.js"
import * as ArticleShape from "./articleShape.js"
import * as SectionPass from "./sectionPass.js"
import * as Tail from "./tail.js"
import type * as TypedPage from "./typedPage.js"

const partWords = new Set([...SectionPass.partWords, "related"])
const chromeWords = new Set(SectionPass.chromeWords)

/** A page that reads as an article is left to the article path from this share of its text in prose. */
export const maxProseShare = 0.5

export const read: TypedPage.Reader = (doc, context) => {
  const page = SectionPass.survey(doc)
  if (page === undefined) return undefined
  // An article (misdetected) is the article path's: most of its text in paragraphs of prose.
  if (ArticleShape.proseShare(page) >= maxProseShare && ArticleShape.articleLike(doc, context.structured, page))
    return undefined
  SectionPass.prune(page.root, page.stats, { chromeWords, partWords, linkBlocks: true })
  Tail.trim(page.root)
  return Markdown.fromNode(page.root, { baseUrl: context.baseUrl })
}
