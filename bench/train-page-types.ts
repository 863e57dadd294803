/**
 * Trains the page-type scorer that `@websearch/extract` ships as data (`packages/extract/src/internal/
 * pageTypeModel.ts`): a multinomial logistic regression over the features of `internal/pageFeatures.ts`, read from
 * the WCXB development set (`test-support/wcxb.ts`) as the extractor reads a page (inert parts stripped, a page served
 * in `<noscript>` unwrapped). L2-regularised; the strength is chosen by cross-validation with folds split by domain
 * (no site is in both the training and the held-out part), and the held-out accuracy and confusion matrix printed.
 *
 *   node --conditions=@websearch/source --import tsx bench/train-page-types.ts [options]
 *     --features FILE   cache of the pages' feature vectors (read when present, written when not)
 *     --write           write the model trained on every page to pageTypeModel.ts (else only report)
 *     --folds N         cross-validation folds (default 5)
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Charset from "../packages/extract/src/internal/charset.js"
import * as BlankRuns from "../packages/extract/src/internal/blankRuns.js"
import * as HtmlDocument from "../packages/extract/src/internal/htmlDocument.js"
import * as Inert from "../packages/extract/src/internal/inert.js"
import * as Noscript from "../packages/extract/src/internal/noscript.js"
import * as PageFeatures from "../packages/extract/src/internal/pageFeatures.js"
import * as PageSignals from "../packages/extract/src/internal/pageSignals.js"
import * as Wcxb from "../test-support/wcxb.js"

const args = process.argv.slice(2)
const value = (flag: string): string | undefined => {
  const i = args.indexOf(flag)
  return i >= 0 && i + 1 < args.length ? args[i + 1] : undefined
}
const folds = Number(value("--folds") ?? 5)
const classes = Wcxb.pageTypes

interface Row {
  readonly id: string
  readonly domain: string
  readonly label: number
  readonly x: ReadonlyArray<number>
}

// A page without a URL is a domain of its own.
const domainOf = (url: string | undefined, id: string): string => {
  try {
    return new URL(url ?? "").hostname.replace(/^www\./, "")
  } catch {
    return `#${id}`
  }
}

const featuresOf = (page: Wcxb.WcxbPage): Array<number> => {
  const text = Charset.decode(page.bytes(), "text/html", "html").text
  const doc = HtmlDocument.parse(BlankRuns.dropBetweenBlocks(Inert.strip(text)))
  let signals = PageSignals.read(doc, page.url)
  if (Noscript.servesContent(signals.text, signals.noscriptText)) {
    Noscript.reveal(doc)
    signals = PageSignals.read(doc, page.url)
  }
  return PageFeatures.vector(signals)
}

const load = (): Array<Row> => {
  const cache = value("--features")
  if (cache !== undefined && existsSync(cache)) {
    const rows = (JSON.parse(readFileSync(cache, "utf8")) as Array<Row>).map((r) => ({
      ...r,
      domain: r.domain ?? `#${r.id}`
    }))
    if (rows[0]?.x.length === PageFeatures.names.length) return rows
    console.error("train-page-types: the cached features are of another feature set; reading the pages again")
  }
  const pages = Wcxb.load()
  if (pages === undefined) {
    console.error("train-page-types: the corpus is not there (../shared/corpus/wcxb-dev or WEBSEARCH_WCXB_CORPUS)")
    process.exit(2)
  }
  const rows = pages.map((page) => ({
    id: page.id,
    domain: domainOf(page.url, page.id),
    label: classes.indexOf(page.type),
    x: featuresOf(page)
  }))
  if (cache !== undefined) writeFileSync(cache, JSON.stringify(rows))
  return rows
}

interface Model {
  readonly mean: Array<number>
  readonly scale: Array<number>
  readonly weights: Array<Array<number>>
}

const standardize = (rows: ReadonlyArray<Row>): { mean: Array<number>; scale: Array<number> } => {
  const d = PageFeatures.names.length
  const mean = new Array<number>(d).fill(0)
  const scale = new Array<number>(d).fill(1)
  for (let j = 1; j < d; j++) {
    let sum = 0
    for (const r of rows) sum += r.x[j]
    mean[j] = sum / rows.length
    let sq = 0
    for (const r of rows) sq += (r.x[j] - mean[j]) ** 2
    const sd = Math.sqrt(sq / rows.length)
    scale[j] = sd > 1e-9 ? sd : 1
  }
  return { mean, scale }
}

const scores = (model: Model, x: ReadonlyArray<number>): Array<number> => {
  const z = x.map((v, j) => (j === 0 ? 1 : (v - model.mean[j]) / model.scale[j]))
  return model.weights.map((w) => w.reduce((sum, wj, j) => sum + wj * z[j], 0))
}

/**
 * Full-batch gradient descent with Nesterov-free momentum on the L2-regularised cross-entropy (the bias is not
 * regularised); flat typed arrays, so a few hundred passes over the set take seconds.
 */
const train = (rows: ReadonlyArray<Row>, lambda: number, iterations = 400): Model => {
  const { mean, scale } = standardize(rows)
  const d = PageFeatures.names.length
  const k = classes.length
  const n = rows.length
  const z = new Float64Array(n * d)
  rows.forEach((r, i) => r.x.forEach((v, j) => (z[i * d + j] = j === 0 ? 1 : (v - mean[j]) / scale[j])))
  const w = new Float64Array(k * d)
  const velocity = new Float64Array(k * d)
  const grad = new Float64Array(k * d)
  const s = new Float64Array(k)
  // Each class weighs as much in all as the square root of its share says: articles are half the set.
  const counts = classes.map((_, c) => rows.filter((r) => r.label === c).length)
  const weightOf = counts.map((m) => (m === 0 ? 0 : Math.sqrt(n / classes.length / m)))
  let total = 0
  for (const r of rows) total += weightOf[r.label]
  const rate = 0.5
  const momentum = 0.9
  for (let it = 0; it < iterations; it++) {
    grad.fill(0)
    for (let i = 0; i < n; i++) {
      const off = i * d
      let max = -Infinity
      for (let c = 0; c < k; c++) {
        let v = 0
        for (let j = 0; j < d; j++) v += w[c * d + j] * z[off + j]
        s[c] = v
        if (v > max) max = v
      }
      let sum = 0
      for (let c = 0; c < k; c++) sum += s[c] = Math.exp(s[c] - max)
      const weight = weightOf[rows[i].label]
      for (let c = 0; c < k; c++) {
        const g = (s[c] / sum - (c === rows[i].label ? 1 : 0)) * weight
        if (g === 0) continue
        for (let j = 0; j < d; j++) grad[c * d + j] += g * z[off + j]
      }
    }
    for (let c = 0; c < k; c++) {
      for (let j = 0; j < d; j++) {
        const at = c * d + j
        const g = grad[at] / total + (j === 0 ? 0 : lambda * w[at])
        velocity[at] = momentum * velocity[at] - rate * g
        w[at] += velocity[at]
      }
    }
  }
  const weights = Array.from({ length: k }, (_, c) => Array.from(w.subarray(c * d, (c + 1) * d)))
  return { mean, scale, weights }
}

/**
 * The class of a page: the highest score, except that a page stays an article unless another class beats the
 * article's score by `margin` (misreading an article costs more than missing another type: the article path reads
 * any page passably, and a reader of another type may leave part of an article out).
 */
const decide = (s: ReadonlyArray<number>, margin: number): number => {
  const best = s.indexOf(Math.max(...s))
  const article = classes.indexOf("article")
  return best !== article && s[best] - s[article] < margin ? article : best
}

const predict = (model: Model, x: ReadonlyArray<number>, margin = 0): number => decide(scores(model, x), margin)

// Folds by domain: a site's pages are all held out together.
const foldOf = (domain: string): number => {
  let h = 0
  for (let i = 0; i < domain.length; i++) h = (h * 31 + domain.charCodeAt(i)) >>> 0
  return h % folds
}

/** Each page's held-out scores (from the model trained on the other folds). */
const crossValidate = (rows: ReadonlyArray<Row>, lambda: number): Array<Array<number>> => {
  const out: Array<Array<number>> = rows.map(() => [])
  for (let f = 0; f < folds; f++) {
    const model = train(
      rows.filter((r) => foldOf(r.domain) !== f),
      lambda
    )
    rows.forEach((r, i) => {
      if (foldOf(r.domain) === f) out[i] = scores(model, r.x)
    })
  }
  return out
}

const confusionOf = (rows: ReadonlyArray<Row>, held: ReadonlyArray<ReadonlyArray<number>>, margin: number) => {
  const confusion = classes.map(() => classes.map(() => 0))
  rows.forEach((r, i) => confusion[r.label][decide(held[i], margin)]++)
  return confusion
}

const accuracy = (confusion: ReadonlyArray<ReadonlyArray<number>>): number => {
  let right = 0
  let all = 0
  confusion.forEach((row, i) => row.forEach((n, j) => ((all += n), i === j && (right += n))))
  return right / all
}

const print = (confusion: ReadonlyArray<ReadonlyArray<number>>) => {
  console.log(`label \\ detected | ${classes.join(" | ")} | correct`)
  confusion.forEach((row, i) => {
    const n = row.reduce((a, b) => a + b, 0)
    console.log(`${classes[i]} | ${row.join(" | ")} | ${((row[i] / n) * 100).toFixed(0)}%`)
  })
}

const rows = load()
console.log(`${rows.length} pages, ${new Set(rows.map((r) => r.domain)).size} domains, ${folds} folds by domain`)
let best = { lambda: 0, margin: 0, accuracy: -1, held: [] as Array<Array<number>> }
for (const lambda of [0.03, 0.1, 0.3]) {
  const held = crossValidate(rows, lambda)
  const acc = accuracy(confusionOf(rows, held, 0))
  console.log(`lambda ${lambda}: held-out accuracy ${(acc * 100).toFixed(1)}%`)
  if (acc > best.accuracy) best = { lambda, margin: 0, accuracy: acc, held }
}
// The widest margin for articles that costs at most a third of a point of held-out accuracy: a wider one keeps more
// articles but reads many service and listing pages as articles.
const plain = best.accuracy
for (const margin of [0.25, 0.5, 0.75, 1, 1.5, 2]) {
  const confusion = confusionOf(rows, best.held, margin)
  const acc = accuracy(confusion)
  const articles = confusion[classes.indexOf("article")]
  const kept = articles[classes.indexOf("article")] / articles.reduce((a, b) => a + b, 0)
  console.log(
    `margin ${margin}: held-out accuracy ${(acc * 100).toFixed(1)}%, articles read as articles ${(kept * 100).toFixed(1)}%`
  )
  if (acc >= plain - 0.003) best = { ...best, margin, accuracy: acc }
}
console.log(`\nheld out by domain, lambda ${best.lambda}, margin ${best.margin}: ${(best.accuracy * 100).toFixed(1)}%`)
print(confusionOf(rows, best.held, best.margin))

if (args.includes("--write")) {
  const model = train(rows, best.lambda)
  const trained = classes.map(() => classes.map(() => 0))
  for (const r of rows) trained[r.label][predict(model, r.x, best.margin)]++
  console.log(`\non the training pages: ${(accuracy(trained) * 100).toFixed(1)}%`)
  const round = (v: number) => Number(v.toFixed(4))
  const file = fileURLToPath(new URL("../packages/extract/src/internal/pageTypeModel.ts", import.meta.url))
  writeFileSync(
    file,
    `/**
 * The page-type scorer's weights: a multinomial logistic regression over \`pageFeatures.ts\`, trained by
 * \`bench/train-page-types.ts\` on the WCXB development set (${rows.length} pages; L2 ${best.lambda}; article margin
 * ${best.margin}; held out by domain, ${folds} folds: ${(best.accuracy * 100).toFixed(1)}% of pages typed right).
 * Generated: edit the script, not this file.
 */
import type * as PageType from "../PageType.js"

/** The classes, in the order of {@link weights}' rows. */
export const classes: ReadonlyArray<PageType.PageType> = ${JSON.stringify(classes)}

/** The feature names the weights were trained on, in order (\`pageFeatures.names\` must equal it). */
export const features: ReadonlyArray<string> = ${JSON.stringify(PageFeatures.names)}

/** Each feature's mean and scale over the training pages (the bias's are 0 and 1). */
export const mean: ReadonlyArray<number> = ${JSON.stringify(model.mean.map(round))}
export const scale: ReadonlyArray<number> = ${JSON.stringify(model.scale.map(round))}

/** Another class wins over \`article\` only when its score beats the article's by this much. */
export const articleMargin = ${best.margin}

/** One row of weights per class. */
export const weights: ReadonlyArray<ReadonlyArray<number>> = ${JSON.stringify(model.weights.map((w) => w.map(round)))}
`
  )
  console.log(`wrote ${file}`)
}
