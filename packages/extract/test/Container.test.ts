import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Container from "../src/internal/container.js"
import * as HtmlDocument from "../src/internal/htmlDocument.js"
import * as MainContent from "../src/MainContent.js"

// Small hand-written pages. A paragraph of prose: long, with commas (Readability scores commas), no links.
const sentence = (word: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${word} sentence ${i}, with a comma, and more words about the harbour`).join(
    ". "
  ) + "."

/**
 * The reference the scan's text list is checked against: every non-blank text node under `root` in document order,
 * its position, and whether it is in an `<h1>`, by a plain recursion.
 */
const listTexts = (root: Element) => {
  const nodes: Array<Text> = []
  const index = new Map<Text, number>()
  const titles = new Set<number>()
  const visit = (node: Node, title: boolean): void => {
    if (node.nodeType === 3) {
      if ((node as Text).data.trim() === "") return
      if (title) titles.add(nodes.length)
      index.set(node as Text, nodes.length)
      nodes.push(node as Text)
      return
    }
    if (node.nodeType !== 1) return
    const inTitle = title || (node as Element).localName === "h1"
    for (let c = node.firstChild; c !== null; c = c.nextSibling) visit(c, inTitle)
  }
  visit(root, false)
  return { nodes, index, titles }
}

const extract = (html: string) => MainContent.fromHtml(html, { url: "https://news.example/2026/harbour" })

// An article whose first part is paragraphs and whose rest is a list of long items in a sibling container:
// Readability scores paragraphs, not list items, and takes only the first part.
const split = (rest: string) =>
  `<html><head><title>Harbour</title></head><body><nav><a href="/">Home</a> <a href="/news">News</a></nav>` +
  `<article><div class="part"><div class="text"><p>${sentence("Alpha", 6)}</p><p>${sentence("Beta", 6)}</p></div></div>` +
  `<div class="part">${rest}</div></article><footer><a href="/contact">Contact</a></footer></body></html>`

const items = ["Gamma", "Delta", "Epsilon", "Zeta"]

describe("our own main block", () => {
  it("replaces Readability's article when that is a small part of it and the rest reads as prose", () => {
    const result = extract(split(`<ul>${items.map((w) => `<li>${sentence(w, 3)}</li>`).join("")}</ul>`))
    expect(result.method).toBe("article")
    for (const word of ["Alpha", "Beta", ...items]) expect(result.markdown).toContain(`${word} sentence 0`)
    expect(result.markdown).not.toContain("Home")
    expect(result.markdown).not.toContain("Contact")
  })

  it("does not take in a teaser list beside the article (what it adds is link-dense)", () => {
    const teasers = items
      .map(
        (w) =>
          `<li><a href="/story/${w}">${w}: the story headline that runs on for a while, as teaser headlines do</a> ` +
          `${sentence(w, 3)}</li>`
      )
      .join("")
    const result = extract(split(`<ul>${teasers}</ul>`))
    expect(result.markdown).toContain("Alpha sentence 0")
    for (const word of items) expect(result.markdown).not.toContain(`${word} sentence 0`)
  })

  // A ranked list of reviews after a short introduction: each item is prose with its "read the full review" and shop
  // links (about a fifth of its text in links, more than a teaser list beside an article may add).
  const reviews = (names: ReadonlyArray<string>) =>
    names
      .map(
        (w) =>
          `<li><h2>${w}</h2><p>${sentence(w, 2)}</p><p><a href="/review/${w}">Read the full review</a> ` +
          `<a href="https://shop.example/${w}">Buy it at Shop</a></p></li>`
      )
      .join("")
  const ranked = Array.from({ length: 24 }, (_, i) => `Model${i}`)

  it("takes in a long ranked list whose items carry their own links when the list scores far above the article", () => {
    const result = extract(split(`<ol>${reviews(ranked)}</ol>`))
    for (const word of ["Alpha", "Beta", ...ranked]) expect(result.markdown).toContain(`${word} sentence 0`)
  })

  it("judges a linked list part of the article only when it scores far above the article", () => {
    const judge = (names: ReadonlyArray<string>) => {
      const doc = HtmlDocument.parse(split(`<ol>${reviews(names)}</ol>`))
      const best = Container.best(doc.body)!
      return Container.replaces(doc.querySelector(".text")!, best, listTexts(doc.body))
    }
    expect(judge(ranked)).toBe(true)
    expect(judge(ranked.slice(0, 12))).toBe(false)
  })

  const page = HtmlDocument.parse(
    `<html><body><nav><a href="/a">Home</a> <a href="/b">News</a> <a href="/c">Sport</a></nav>` +
      `<div class="sidebar"><p>${sentence("Side", 30)}</p></div>` +
      `<div id="main"><h1>Harbour</h1><p>${sentence("One", 4)}</p><p>${sentence("Two", 4)}</p>` +
      `<ul><li>${sentence("Three", 3)}</li><li>${sentence("Four", 3)}</li></ul></div>` +
      `<div class="flyout"><p>${sentence("Contact", 2)}</p></div>` +
      `<footer><a href="/imprint">Imprint</a> <a href="/privacy">Privacy</a></footer></body></html>`
  )
  const texts = listTexts(page.body)
  const best = Container.best(page.body)!

  it("scores prose blocks, not navigation, links or a sidebar's prose", () => {
    expect(best.element.getAttribute("id")).toBe("main")
    expect(texts.nodes[best.first].data).toBe("Harbour")
    expect(texts.nodes[best.last].data).toContain("Four sentence 2")
    expect(Container.at(page.body, best.index)).toBe(best.element)
  })

  it("counts the prose of a product widget in a buying guide, not that of a picture gallery", () => {
    const body = (html: string) => HtmlDocument.parse(`<html><body>${html}</body></html>`).body
    const widget = `<div class="c-product-widget"><p>${sentence("Pick", 4)}</p></div>`
    const guide = body(`<div class="guide"><p>${sentence("Intro", 3)}</p>${widget}${widget}</div>`)
    expect(Container.best(guide)!.element.getAttribute("class")).toBe("guide")
    const gallery = `<div class="dnd-widget-wrapper type-gallery"><ul><li>${sentence("Slide", 12)}</li></ul></div>`
    const story = body(`<div class="story"><p>${sentence("Story", 4)}</p>${gallery}</div>`)
    expect(Container.best(story)!.element.localName).toBe("p")
  })

  it("lists the page's text nodes in document order, and which are in an <h1>, in the same walk", () => {
    const doc = HtmlDocument.parse(
      `<html><body><h1>Title <b>bold</b></h1><script type="application/ld+json">{}</script>` +
        `<p> </p><p>one <a href="/x">two</a></p><textarea>three</textarea></body></html>`
    )
    const { texts: scanned } = Container.scan(doc.body)
    const listed = listTexts(doc.body)
    expect(scanned.nodes).toEqual(listed.nodes)
    expect([...scanned.titles]).toEqual([...listed.titles])
    expect([...scanned.index.entries()]).toEqual([...listed.index.entries()])
  })

  it("judges another, lesser block (a flyout) wrong, and a block holding most of ours right", () => {
    expect(Container.replaces(page.querySelector(".flyout")!, best, texts)).toBe(true)
    expect(Container.replaces(page.querySelector("#main")!, best, texts)).toBe(false)
    // A big block elsewhere is not lesser: the sidebar's text is more than ours scores.
    expect(Container.replaces(page.querySelector(".sidebar")!, best, texts)).toBe(false)
  })

  it("matches a re-parsed article's text to ours by its text (a Readability retry makes new nodes)", () => {
    const copy = HtmlDocument.parse(page.documentElement.outerHTML)
    const { all, inside } = Container.overlap(copy.querySelector("#main")!, texts, best.first, best.last)
    expect(inside).toBe(all)
  })

  it("weighs prose for its characters and everything else at or below zero", () => {
    expect(Container.weight(Container.minProseChars, 0, false)).toBe(Container.minProseChars)
    expect(Container.weight(Container.minProseChars - 1, 0, false)).toBeLessThan(0)
    expect(Container.weight(500, 0, true)).toBeLessThan(0)
    expect(Container.weight(100, 60, false)).toBeLessThan(0)
  })

  it.prop(
    "a block's weight is positive only for prose outside chrome, and more links never raise it",
    [FastCheck.nat(2000), FastCheck.nat(2000), FastCheck.nat(500), FastCheck.boolean()],
    ([chars, links, more, chrome]) => {
      const w = Container.weight(chars, links, chrome)
      const prose =
        !chrome && chars >= Container.minProseChars && links <= (chars + links) * Container.maxProseLinkShare
      expect(w > 0).toBe(prose && chars > links)
      expect(Container.weight(chars, links + more, chrome)).toBeLessThanOrEqual(w)
    }
  )

  // A random tree of sections holding paragraphs and link lines; the best block's score is the highest sum of
  // block weights over every element, worked out here by recursion.
  const tree: FastCheck.Arbitrary<Shape> = FastCheck.letrec<{ node: Shape }>((tie) => ({
    node: FastCheck.oneof(
      { depthSize: "small", withCrossShrink: true },
      FastCheck.record({ kind: FastCheck.constant("p" as const), chars: FastCheck.nat(200) }),
      FastCheck.record({ kind: FastCheck.constant("a" as const), chars: FastCheck.nat(60) }),
      FastCheck.record({
        kind: FastCheck.constant("div" as const),
        children: FastCheck.array(tie("node"), { maxLength: 4 })
      })
    )
  })).node
  type Shape =
    | { readonly kind: "p" | "a"; readonly chars: number }
    | { readonly kind: "div"; readonly children: ReadonlyArray<Shape> }
  const html = (node: Shape): string =>
    node.kind === "div"
      ? `<div>${node.children.map(html).join("")}</div>`
      : node.kind === "p"
        ? `<p>${"x".repeat(node.chars)}</p>`
        : `<p><a href="/x">${"y".repeat(node.chars)}</a></p>`
  // [sum of weights, best sum] of a node, as the walk should find them.
  const sums = (node: Shape): [number, number] => {
    if (node.kind !== "div") {
      // A paragraph of `chars` letters, or one link of them; an empty one is no block with text.
      const w = node.kind === "p" ? Container.weight(node.chars, 0, false) : Container.weight(0, node.chars, false)
      return [w, node.chars === 0 ? Number.NEGATIVE_INFINITY : w]
    }
    let sum = 0
    let best = Number.NEGATIVE_INFINITY
    let text = false
    for (const child of node.children) {
      const [s, b] = sums(child)
      sum += s
      best = Math.max(best, b)
      if (b !== Number.NEGATIVE_INFINITY) text = true
    }
    return [sum, Math.max(best, text ? sum : Number.NEGATIVE_INFINITY)]
  }

  it.prop("the best block is the element with the highest sum of block weights", [tree], ([root]) => {
    const doc = HtmlDocument.parse(`<html><body>${html(root)}</body></html>`)
    const { best: found, texts } = Container.scan(doc.body)
    expect(texts.nodes).toEqual(listTexts(doc.body).nodes)
    // The body is a block with no text of its own: its sum is the root's.
    const [, expected] = sums({ kind: "div", children: [root] })
    if (expected <= 0) expect(found).toBeUndefined()
    else expect(found?.score).toBeCloseTo(expected, 6)
  })
})
