/**
 * Page-type detection: which kind of page (`PageType`) the signals of `pageSignals.ts` point to. A learned scorer
 * (a multinomial logistic regression over `pageFeatures.ts`, its weights in `pageTypeModel.ts`, trained by
 * `bench/train-page-types.ts` on the WCXB development set and checked on held-out domains) weighs structured data
 * types, the URL's and title's words, and the page's own shape; the type with the highest score is the page's.
 */
import type * as PageType from "../PageType.js"
import * as GridLead from "./gridLead.js"
import * as PageFeatures from "./pageFeatures.js"
import type * as PageSignals from "./pageSignals.js"
import * as Model from "./pageTypeModel.js"

/** Each class's score for a feature vector (higher is likelier), in the order of `Model.classes`. */
export const scores = (x: ReadonlyArray<number>): Array<number> => {
  const z = x.map((v, j) => (j === 0 ? 1 : (v - Model.mean[j]) / Model.scale[j]))
  return Model.weights.map((w) => {
    let sum = 0
    for (let j = 0; j < z.length; j++) sum += w[j] * z[j]
    return sum
  })
}

const article = Model.classes.indexOf("article")

/**
 * How far a collection or a listing must beat the article's score, wider than `Model.articleMargin`: their reader
 * keeps a page's whole sequence of visible blocks, so an article misread as one keeps its related-story strips,
 * teasers and menus too. On the article corpora, which the model never saw, news pages read as listings within this
 * margin lost about a sixth of their F1 each (trafilatura-eval: 0.9302 with a margin of 1, 0.9342 with 1.5), while
 * WCXB-dev's listings lose 0.016 and its collections nothing. Set by hand on those three corpora, not trained:
 * `bench/train-page-types.ts` reports the model's own margin.
 */
export const gridMargin = 1.5

/** How far a type must beat the article's score to be the page's type. */
export const marginOf = (type: PageType.PageType): number =>
  type === "collection" || type === "listing" ? Math.max(gridMargin, Model.articleMargin) : Model.articleMargin

/**
 * The page type of the class scores (in the order of `Model.classes`): the highest, unless it beats the article's by
 * less than its margin ({@link marginOf}): a misread article costs more than a missed type, the article path reading
 * any page passably. A collection or listing that beats the article by less than {@link gridMargin} is the page's
 * type when `gridLeads` says its item grid leads the page's text (see `gridLead.ts`), whatever the model's own
 * margin: the page's structure settles what the scores leave open. Asked only then, as it walks the page.
 */
export const decide = (
  score: ReadonlyArray<number>,
  gridLeads: (type: "collection" | "listing") => boolean = () => false
): PageType.PageType => {
  let best = 0
  for (let c = 1; c < score.length; c++) if (score[c] > score[best]) best = c
  const type = Model.classes[best]
  const lead = score[best] - score[article]
  if (best === article || lead >= marginOf(type)) return type
  return (type === "collection" || type === "listing") && gridLeads(type) ? type : "article"
}

/** The page type the signals of `doc` point to (see {@link decide}). */
export const classify = (s: PageSignals.Signals, doc?: Document): PageType.PageType =>
  decide(scores(PageFeatures.vector(s)), (type) => doc !== undefined && GridLead.leads(doc, type))
