/**
 * Page-type detection: which kind of page (`PageType`) the signals of `pageSignals.ts` point to. A learned scorer
 * (a multinomial logistic regression over `pageFeatures.ts`, its weights in `pageTypeModel.ts`, trained by
 * `bench/train-page-types.ts` on the WCXB development set and checked on held-out domains) weighs structured data
 * types, the URL's and title's words, and the page's own shape; the type with the highest score is the page's.
 */
import type * as PageType from "../PageType.js"
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
 * The page type the signals point to: the highest score, unless it beats the article's by less than
 * `Model.articleMargin` (a misread article costs more than a missed type: the article path reads any page passably).
 */
export const classify = (s: PageSignals.Signals): PageType.PageType => {
  const score = scores(PageFeatures.vector(s))
  let best = 0
  for (let c = 1; c < score.length; c++) if (score[c] > score[best]) best = c
  return best !== article && score[best] - score[article] < Model.articleMargin ? "article" : Model.classes[best]
}
