/**
 * The reader of service pages.
 */
import * as Markdown from "../Markdown.js"
import * as SectionPass from "./sectionPass.js"
import * as Tail from "./tail.js"
import type * as TypedPage from "./typedPage.js"

const partWords = new Set([...SectionPass.partWords, "related"])
const chromeWords = new Set(SectionPass.chromeWords)

export const read: TypedPage.Reader = (doc, context) => {
  const page = SectionPass.survey(doc)
  if (page === undefined) return undefined
  SectionPass.prune(page.root, page.stats, { chromeWords, partWords, linkBlocks: true })
  Tail.trim(page.root)
  return Markdown.fromNode(page.root, { baseUrl: context.baseUrl })
}
