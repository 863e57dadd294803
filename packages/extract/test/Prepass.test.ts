import { describe, expect, it } from "@effect/vitest"
import { Readability } from "@mozilla/readability"
import * as FastCheck from "effect/FastCheck"
import * as Markdown from "../src/Markdown.js"
import * as BlankRuns from "../src/internal/blankRuns.js"
import * as Byline from "../src/internal/byline.js"
import * as HtmlDocument from "../src/internal/htmlDocument.js"
import * as TagWalk from "../src/internal/tagWalk.js"

// Small random pages: blocks holding blocks or runs of inline content, with whitespace (indentation, single
// spaces, newlines) between any two tags, and preformatted blocks whose whitespace is content.
const space = FastCheck.constantFrom("", " ", "\n", "\n    ", "\t", "  \n  ")
const word = FastCheck.constantFrom("crane", "barge", "gull", "tide", "dock")
const inline: FastCheck.Arbitrary<string> = FastCheck.letrec<{ run: string }>((tie) => ({
  run: FastCheck.oneof(
    { depthSize: "small", withCrossShrink: true },
    word,
    FastCheck.tuple(FastCheck.constantFrom("b", "em", "span", "a"), space, tie("run"), space).map(
      ([tag, s1, inner, s2]) => `<${tag}${tag === "a" ? ' href="/x"' : ""}>${s1}${inner}${s2}</${tag}>`
    ),
    FastCheck.tuple(tie("run"), FastCheck.constantFrom(" ", "\n"), tie("run")).map(([a, s, b]) => a + s + b)
  )
})).run
const block: FastCheck.Arbitrary<string> = FastCheck.letrec<{ block: string }>((tie) => ({
  block: FastCheck.oneof(
    { depthSize: "small", withCrossShrink: true },
    FastCheck.tuple(FastCheck.constantFrom("p", "h2", "li"), inline).map(([tag, body]) => `<${tag}>${body}</${tag}>`),
    FastCheck.tuple(space, word, space, word).map(([a, w, b, v]) => `<pre>${a}${w}${b}<span>${v}</span>${a}</pre>`),
    FastCheck.tuple(
      FastCheck.constantFrom("div", "section", "ul", "blockquote"),
      FastCheck.array(FastCheck.tuple(space, tie("block")), { maxLength: 4 }),
      space
    ).map(([tag, items, last]) => `<${tag}>${items.map(([s, b]) => s + b).join("")}${last}</${tag}>`)
  )
})).block
const page = FastCheck.tuple(space, FastCheck.array(FastCheck.tuple(block, space), { maxLength: 5 })).map(
  ([lead, blocks]) =>
    `<html>${lead}<head>${lead}<title>t</title>${lead}</head>${lead}<body>${blocks.map(([b, s]) => b + s).join("")}</body></html>`
)

const render = (html: string) => Markdown.fromNode(HtmlDocument.parse(html).body)

describe("BlankRuns.dropBetweenBlocks", () => {
  it.prop("renders every page exactly as the page with its indentation", [page], ([html]) => {
    expect(render(BlankRuns.dropBetweenBlocks(html))).toBe(render(html))
  })

  it("drops whitespace beside block tags only, never inside pre, textarea or an attribute value", () => {
    const html =
      '<div>\n  <p title="a>  <b">One <b>two</b> <i>three</i></p>\n  <pre>\n  code  <b>x</b>\n</pre>\n' +
      "<textarea>\n  <p>kept</p>\n</textarea>\n</div>"
    expect(BlankRuns.dropBetweenBlocks(html)).toBe(
      '<div><p title="a>  <b">One <b>two</b> <i>three</i></p><pre>\n  code  <b>x</b>\n</pre>' +
        "<textarea>\n  <p>kept</p>\n</textarea></div>"
    )
  })

  it("leaves a page whose tag never ends as it was from that tag on", () => {
    expect(BlankRuns.dropBetweenBlocks("<div>\n<p>x</p>\n<p class='open>\n<p>")).toBe(
      "<div><p>x</p><p class='open>\n<p>"
    )
  })
})

const tags = FastCheck.constantFrom("p", "div", "span", "h1", "h2", "li", "ul", "img", "a", "P", "DIV")
const tree: FastCheck.Arbitrary<string> = FastCheck.letrec<{ node: string }>((tie) => ({
  node: FastCheck.oneof(
    { depthSize: "small", withCrossShrink: true },
    word,
    FastCheck.tuple(
      FastCheck.constantFrom("p", "div", "span", "h1", "h2", "ul", "li", "a", "section"),
      FastCheck.array(tie("node"), { maxLength: 3 })
    ).map(([tag, kids]) => `<${tag}>${kids.join(" ")}</${tag}>`),
    FastCheck.constant("<img src=x.png>")
  )
})).node

describe("TagWalk.withTags", () => {
  it.prop(
    "finds what querySelectorAll finds, in the same order, elements Readability creates in upper case included",
    [tree, FastCheck.uniqueArray(tags, { minLength: 1, maxLength: 3 })],
    ([html, names]) => {
      const doc = HtmlDocument.parse(`<html><body><main>${html}</main></body></html>`)
      const main = doc.querySelector("main")!
      // Readability's own elements: `createElement("P")` keeps its upper-case name in linkedom.
      main.appendChild(doc.createElement("P")).appendChild(doc.createElement("DIV"))
      const lower = [...new Set(names.map((n) => n.toLowerCase()))]
      expect(TagWalk.withTags(main, lower)).toEqual(Array.from(main.querySelectorAll(lower.join(","))))
      expect(TagWalk.withTags(doc, lower)).toEqual(Array.from(doc.querySelectorAll(lower.join(","))))
    }
  )

  it("gives Readability the same article as its own lookup does", () => {
    const html =
      "<html><head><title>Dock work</title></head><body><nav><a href='/'>Home</a></nav><article>" +
      "<h1>Dock work</h1><div>Cranes lift the boxes, one by one, all night long, while the gulls wait.</div>" +
      Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i} on barges, tides, ropes, and the night shift.</p>`).join(
        ""
      ) +
      "<table><tr><td>Shift</td><td>Crew</td></tr></table><ul><li><a href='/a'>More</a></li></ul></article></body></html>"
    const read = (fast: boolean) => {
      const reader = new Readability(HtmlDocument.parse(html), { serializer: (node) => (node as Element).outerHTML })
      if (fast) TagWalk.install(reader)
      return reader.parse()?.content
    }
    expect(read(true)).toBe(read(false))
    expect(read(true)).toContain("Paragraph 5")
  })
})

describe("Byline.isValidByline", () => {
  const attribute = FastCheck.constantFrom("", ' rel="author"', ' itemprop="author"', ' itemprop="name"', ' rel="nofollow"')
  const names = FastCheck.constantFrom("", "byline", "post-author", "dateline", "meta", "writtenby")
  const body = FastCheck.constantFrom("", "   ", "By Ada Lovelace", "x".repeat(99), "x".repeat(100), "<b>By</b> Ada")

  it.prop(
    "answers as Readability's own test does, for any attributes, class words and text length",
    [attribute, names, body],
    ([attr, name, text]) => {
      const doc = HtmlDocument.parse(`<html><body><div class="${name}"${attr}>${text}</div></body></html>`)
      const node = doc.querySelector("div")!
      const reader = new Readability(doc) as unknown as {
        readonly REGEXPS: { readonly byline: RegExp }
        readonly _isValidByline: (node: Element, matchString: string) => boolean
      }
      const own = reader._isValidByline(node, name)
      expect(Byline.isValidByline(node, name, reader.REGEXPS.byline)).toBe(own)
      Byline.install(reader)
      expect(reader._isValidByline(node, name)).toBe(own)
    }
  )

  it("gives Readability the same byline and article as its own test does", () => {
    const html =
      "<html><head><title>Dock work</title></head><body><div class='wrap'><div class='post-meta'>" +
      "<span class='byline'>By Ada Lovelace</span></div><article><h1>Dock work</h1>" +
      Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i} on barges, tides, ropes, and the night shift.</p>`).join(
        ""
      ) +
      "</article></div></body></html>"
    const read = (fast: boolean) => {
      const reader = new Readability(HtmlDocument.parse(html), { serializer: (node) => (node as Element).outerHTML })
      if (fast) Byline.install(reader)
      return reader.parse()
    }
    expect(read(true)?.byline).toBe("By Ada Lovelace")
    expect(read(true)?.byline).toBe(read(false)?.byline)
    expect(read(true)?.content).toBe(read(false)?.content)
  })
})
