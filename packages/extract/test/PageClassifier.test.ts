import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as GridLead from "../src/internal/gridLead.js"
import * as HtmlDocument from "../src/internal/htmlDocument.js"
import * as PageClassifier from "../src/internal/pageClassifier.js"
import * as PageFeatures from "../src/internal/pageFeatures.js"
import * as PageSignals from "../src/internal/pageSignals.js"
import * as SectionPass from "../src/internal/sectionPass.js"
import * as Model from "../src/internal/pageTypeModel.js"
import * as PageType from "../src/PageType.js"

const signals = (html: string, url?: string) => PageSignals.read(HtmlDocument.parse(html), url)

describe("page-type detection", () => {
  it("ships weights for exactly the features it computes, one row per class", () => {
    expect(Model.features).toEqual(PageFeatures.names)
    expect(Model.mean).toHaveLength(PageFeatures.names.length)
    expect(Model.scale).toHaveLength(PageFeatures.names.length)
    expect(Model.weights).toHaveLength(Model.classes.length)
    for (const row of Model.weights) expect(row).toHaveLength(PageFeatures.names.length)
    expect(Model.classes.every(PageType.isPageType)).toBe(true)
  })

  it("reads a page's signals: structured data types, labels, prices, repeated shapes, URL and title words", () => {
    const s = signals(
      `<html><head><title>Blue kettle | Shop</title><meta property="og:type" content="product">` +
        `<script type="application/ld+json">{"@type":["Product","Thing"],"name":"Kettle"}</script></head><body>` +
        `<div itemscope itemtype="https://schema.org/Offer"><span class="price">€ 29,99</span>` +
        `<button>Add to cart</button></div><ul>${'<li class="card item">x</li>'.repeat(5)}</ul></body></html>`,
      "https://shop.example/products/blue-kettle?ref=home"
    )
    expect([...s.types].sort()).toEqual(["Offer", "Product", "Thing", "og:product"])
    expect(s.labels["commerce"]).toBe(1)
    expect(s.prices).toBe(1)
    expect(s.words["price"]).toBe(1)
    expect(s.repeat).toBe(5)
    expect(s.urlWords.has("products") && s.urlWords.has("?ref")).toBe(true)
    expect(s.titleWords.has("shop")).toBe(true)
    expect(s.structured).toHaveLength(1)
  })

  it("gives every page a type, and a vector of the model's length", () => {
    expect(PageClassifier.classify(signals("<html><body></body></html>"))).toSatisfy(PageType.isPageType)
    expect(PageFeatures.vector(signals("<p>x</p>"))).toHaveLength(PageFeatures.names.length)
  })

  // Any page and URL: the features stay finite (no NaN from an empty page, no overflow from a huge one).
  it.prop(
    "features are finite for any page and URL",
    [
      FastCheck.array(
        FastCheck.constantFrom("<p>", "</p>", "<a href='/x'>", "</a>", "<li class='item'>", "word ", "€5 "),
        {
          maxLength: 60
        }
      ),
      FastCheck.oneof(FastCheck.webUrl(), FastCheck.string(), FastCheck.constant(undefined))
    ],
    ([parts, url]) => {
      const x = PageFeatures.vector(signals(`<html><body>${parts.join("")}</body></html>`, url))
      expect(x.every(Number.isFinite)).toBe(true)
      expect(PageClassifier.scores(x).every(Number.isFinite)).toBe(true)
    }
  )

  // Any scores: the type decided is the best-scored class, and beats the article's score by its margin (wider for
  // collections and listings, whose reader costs a misread article most); otherwise the page is an article.
  it.prop(
    "a type other than article wins only by its margin over the article's score",
    [
      FastCheck.array(FastCheck.double({ min: -10, max: 10, noNaN: true }), {
        minLength: Model.classes.length,
        maxLength: Model.classes.length
      })
    ],
    ([score]) => {
      const type = PageClassifier.decide(score)
      const article = score[Model.classes.indexOf("article")]
      const best = Math.max(...score)
      if (type === "article") {
        const winner = Model.classes[score.indexOf(best)]
        expect(winner === "article" || best - article < PageClassifier.marginOf(winner)).toBe(true)
      } else {
        expect(score[Model.classes.indexOf(type)]).toBe(best)
        expect(best - article).toBeGreaterThanOrEqual(PageClassifier.marginOf(type))
      }
    }
  )

  it("asks a collection or a listing to beat the article by the grid margin, the other types by the model's", () => {
    expect(PageClassifier.marginOf("listing")).toBe(Math.max(PageClassifier.gridMargin, Model.articleMargin))
    expect(PageClassifier.marginOf("collection")).toBe(PageClassifier.marginOf("listing"))
    expect(PageClassifier.marginOf("forum")).toBe(Model.articleMargin)
    const scores = (listing: number) => Model.classes.map((c) => (c === "listing" ? listing : c === "article" ? 1 : 0))
    // Between the two margins: a forum would win there, a listing does not.
    const between = 1 + (Model.articleMargin + PageClassifier.gridMargin) / 2
    expect(PageClassifier.decide(scores(between))).toBe("article")
    expect(PageClassifier.decide(scores(1 + PageClassifier.gridMargin + 0.01))).toBe("listing")
    const forum = Model.classes.map((c) => (c === "forum" ? between : c === "article" ? 1 : 0))
    expect(PageClassifier.decide(forum)).toBe("forum")
  })

  // Any scores, with the page's grid leading: a collection or listing that beats the article at all wins, nothing
  // else changes; the grid is asked about only below the grid margin.
  it.prop(
    "a collection or listing whose grid leads wins by any lead over the article",
    [
      FastCheck.array(FastCheck.double({ min: -10, max: 10, noNaN: true }), {
        minLength: Model.classes.length,
        maxLength: Model.classes.length
      })
    ],
    ([score]) => {
      let asked = false
      const type = PageClassifier.decide(score, () => ((asked = true), true))
      const article = score[Model.classes.indexOf("article")]
      const best = Math.max(...score)
      const winner = Model.classes[score.indexOf(best)]
      const grid = winner === "collection" || winner === "listing"
      const between = grid && best - article < PageClassifier.gridMargin
      expect(asked).toBe(between)
      expect(type).toBe(between ? winner : PageClassifier.decide(score))
    }
  )

  const page = (body: string) => HtmlDocument.parse(`<html><body>${body}</body></html>`)
  const teaser = (i: number) =>
    `<div class="teaser"><a href="/story/${i}"><h3>Story number ${i} of the day</h3></a><span>2 hours ago</span></div>`
  const teasers = (n: number) => `<div class="stories">${Array.from({ length: n }, (_, i) => teaser(i)).join("")}</div>`
  const story = Array.from(
    { length: 6 },
    (_, i) =>
      `<p>Paragraph ${i} of the story tells what happened, who said what, and why it matters to the readers.</p>`
  ).join("")

  it("reads a section front's grid of teasers as leading the page, a story with a related strip as not", () => {
    expect(GridLead.leads(page(`<h1>Technology</h1>${teasers(12)}`), "listing")).toBe(true)
    // The same strip under a story: the story's block of prose is more than a seventh of the strip.
    expect(GridLead.leads(page(`<h1>A story</h1><article>${story}</article>${teasers(12)}`), "listing")).toBe(false)
    // Too few items to lead.
    expect(GridLead.leads(page(`<h1>Technology</h1>${teasers(5)}`), "listing")).toBe(false)
    // No grid at all.
    expect(GridLead.leads(page(story), "listing")).toBe(false)
  })

  it("reads a page scored as a collection as one unless a block of prose holds half its text", () => {
    const filters = `<div class="filters"><a href="?c=red">Red</a> <a href="?c=blue">Blue</a> <a href="?s=new">Newest</a></div>`
    // A category with a few cards (the rest come with a script), its filters and a line of introduction.
    expect(
      GridLead.leads(page(`<h1>Kettles</h1><p>Kettles in steel and glass.</p>${filters}${teasers(4)}`), "collection")
    ).toBe(true)
    // A story with the same cards below it: its prose is most of its text.
    expect(GridLead.leads(page(`<h1>A story</h1><div>${story}</div>${teasers(4)}`), "collection")).toBe(false)
    // Read as a listing, the few cards do not lead.
    expect(GridLead.leads(page(`<h1>Kettles</h1>${filters}${teasers(4)}`), "listing")).toBe(false)
  })

  it("measures the largest block of prose paragraphs under one parent", () => {
    const doc = page(`<div>${story}</div><div><p>short</p><p><a href="/x">${"linked words ".repeat(10)}</a></p></div>`)
    const p = doc.querySelector("p")!.textContent!.length
    const surveyed = SectionPass.survey(doc)!
    expect(GridLead.proseBlock(surveyed)).toBeGreaterThanOrEqual(6 * (p - 2))
    expect(GridLead.proseBlock(surveyed)).toBeLessThanOrEqual(6 * (p + 2))
  })
})
