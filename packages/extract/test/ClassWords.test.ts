import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Boilerplate from "../src/internal/boilerplate.js"
import * as ClassWeight from "../src/internal/classWeight.js"
import * as HtmlDocument from "../src/internal/htmlDocument.js"
import * as MainContent from "../src/MainContent.js"

// Class attributes as pages write them: names repeated, runs of spaces, tabs and newlines around and between
// them, camelCase, hiding and caption names.
const name = FastCheck.constantFrom("hidden", "d-none", "imageCaption", "author", "post", "Post", "sr-only", "tooltip")
const gap = FastCheck.constantFrom(" ", "  ", "\t", "\n ", " \n\t ")
const classAttribute = FastCheck.tuple(
  FastCheck.option(gap, { nil: "" }),
  FastCheck.array(FastCheck.tuple(name, gap), { maxLength: 6 })
).map(([lead, parts]) => lead + parts.map(([n, g]) => n + g).join(""))
// What Readability and the rules do to an element's classes after the parse.
const change = FastCheck.oneof(
  FastCheck.tuple(FastCheck.constant("add" as const), name),
  FastCheck.tuple(FastCheck.constant("remove" as const), name),
  FastCheck.tuple(FastCheck.constant("className" as const), classAttribute),
  FastCheck.tuple(FastCheck.constant("setAttribute" as const), classAttribute),
  FastCheck.tuple(FastCheck.constant("removeAttribute" as const), FastCheck.constant(""))
)

describe("class words read from the attribute node", () => {
  it.prop(
    "the node holds what getAttribute reads, after the parse and after any change of the classes",
    [classAttribute, FastCheck.array(change, { maxLength: 4 })],
    ([cls, changes]) => {
      const doc = HtmlDocument.parse(`<html><body><div class="${cls}" id="main">x</div></body></html>`)
      const div = doc.querySelector("div")!
      const check = () => {
        // After `removeAttribute("class")` linkedom's getAttribute reads "" from the emptied list, the node is gone:
        // the rules take both for no class.
        expect(Boilerplate.attribute(div, "class") ?? "").toBe(div.getAttribute("class") ?? "")
        expect(Boilerplate.attribute(div, "id")).toBe(div.getAttribute("id"))
      }
      check()
      for (const [op, value] of changes) {
        if (op === "add") div.classList.add(value)
        else if (op === "remove") div.classList.remove(value)
        else if (op === "className") div.className = value
        else if (op === "setAttribute") div.setAttribute("class", value)
        else div.removeAttribute("class")
        check()
      }
    }
  )
})

describe("class words", () => {
  const tokensOf = (cls: string) =>
    Boilerplate.tokens(
      HtmlDocument.parse(`<html><body><div class="${cls}">x</div></body></html>`).querySelector("div")!
    )

  it("leave out a class name's words after a layout modifier: a block with a sidebar is not one", () => {
    expect(tokensOf("main main-with-sidebar")).toEqual(["main", "main"])
    expect(tokensOf("site-content has-comments")).toEqual(["site", "content"])
    expect(tokensOf("layout no-sidebar")).toEqual(["layout"])
    expect(tokensOf("post single-format-gallery")).toEqual(["post", "single"])
    expect(tokensOf("sidebar widget-area")).toEqual(["sidebar", "widget", "area"])
  })

  const role = FastCheck.constantFrom("sidebar", "comments", "nav", "related", "footer")
  const modifier = FastCheck.constantFrom("with", "has", "no", "without", "With", "HAS")
  const prefix = FastCheck.constantFrom("", "main", "page", "layout")
  it.prop(
    "no word after a modifier in the same class name counts, whatever the separator and case",
    [prefix, modifier, role, FastCheck.constantFrom("-", "_")],
    ([pre, mod, word, sep]) => {
      const lead = pre === "" ? "" : pre + sep
      expect(tokensOf(`${lead}${mod}${sep}${word}`)).not.toContain(word)
      expect(tokensOf(`${lead}${word}`)).toContain(word)
    }
  )
})

describe("Readability's class weight", () => {
  const positive = /article|body|content|entry|main|page|post|text|blog|story/i
  const negative = /hidden|comment|media|meta|related|scroll|share|sidebar|widget/i
  const weigh = (cls: string, id = "") =>
    ClassWeight.weight(
      HtmlDocument.parse(`<html><body><div class="${cls}" id="${id}">x</div></body></html>`).querySelector("div")!,
      positive,
      negative
    )

  it("leaves out utility classes: a scroll margin or an overflow rule names no role", () => {
    expect(weigh("group mt-2 scroll-mt-2 rounded p-2")).toBe(0)
    expect(weigh("overflow-x-hidden md:hidden post-body")).toBe(25)
    expect(weigh("comments overflow-y-scroll")).toBe(-25)
    expect(weigh("sidebar", "main")).toBe(0)
    expect(weigh("hidden")).toBe(-25)
  })

  it("keeps a documentation page's code sample whose wrapper has a scroll margin", () => {
    const para = (i: number) =>
      `<p>Step ${i}: the compose file names each service, and every container joins the app's default network under that name, so the others can reach it.</p>`
    const page = `<html><head><title>Networking</title></head><body><main><article class="prose">${para(1)}${para(2)}
<div class="group mt-2 mb-4 flex w-full scroll-mt-2 flex-col rounded bg-gray-50 p-2"><div class="relative w-full"><div class="highlight"><pre><code class="language-yaml">services:
  web:
    build: .
    ports:
      - "8000:8000"</code></pre></div></div></div>${para(3)}${para(4)}</article></main></body></html>`
    const md = MainContent.fromHtml(page, { url: "https://docs.example.com/compose/networking/" }).markdown
    expect(md).toContain('```yaml\nservices:\n  web:\n    build: .\n    ports:\n      - "8000:8000"\n```')
  })

  const utility = FastCheck.constantFrom(
    "scroll-mt-2",
    "overflow-hidden",
    "md:hidden",
    "snap-x",
    "scrollbar-none",
    "-scroll-mb-4"
  )
  const role = FastCheck.constantFrom("comments", "post", "sidebar", "entry-content", "share-row", "media")
  const token = FastCheck.oneof(
    role.map((word) => ({ word, role: true })),
    utility.map((word) => ({ word, role: false }))
  )
  it.prop(
    "utility classes never change the weight of the role words beside them",
    [FastCheck.array(token, { maxLength: 6 })],
    ([tokens]) => {
      const roles = tokens.filter((t) => t.role).map((t) => t.word)
      expect(weigh(tokens.map((t) => t.word).join(" "))).toBe(weigh(roles.join(" ")))
    }
  )
})

describe("class words without the expressions", () => {
  // The words as the expressions find them: camelCase humps split, lowered, split at anything but a-z and 0-9, each
  // class name cut at its first modifier word; an id of more than three words left out.
  const modifiers = new Set(["with", "has", "no", "without", "format"])
  const words = (raw: string) =>
    raw
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((t) => t !== "")
  const expected = (cls: string, id: string): Array<string> => {
    const out: Array<string> = []
    for (const name of cls.split(/\s+/)) {
      for (const word of words(name)) {
        if (modifiers.has(word)) break
        out.push(word)
      }
    }
    const own = words(id)
    return own.length <= 3 ? [...out, ...own] : out
  }
  // Attributes from the characters that matter: letters of both cases, digits, separators, every ASCII whitespace,
  // the modifier words, and characters outside ASCII (lowering `İ` gives two characters, the Kelvin sign a `k`).
  const piece = FastCheck.oneof(
    FastCheck.constantFrom("a", "B", "z", "Q", "7", "-", "_", ".", " ", "\t", "\n", "\v", "\f", "\r", "  "),
    FastCheck.constantFrom("with", "Has", "no", "format", "main", "postBody", "aB", "xY1z"),
    FastCheck.constantFrom("\u00a0", "İ", "\u212a", "é", "Ä")
  )
  const text = FastCheck.array(piece, { maxLength: 12 }).map((parts) => parts.join(""))
  it.prop("are the words the expressions find, in class and id, ASCII or not", [text, text], ([cls, id]) => {
    const div = HtmlDocument.parse("<html><body><div>x</div></body></html>").querySelector("div")!
    if (cls !== "") div.setAttribute("class", cls)
    if (id !== "") div.setAttribute("id", id)
    // As the element holds them (linkedom keeps a class list: a repeated class name is held once).
    const held = Boilerplate.attribute(div, "class") ?? ""
    const ownId = Boilerplate.attribute(div, "id") ?? ""
    expect([...Boilerplate.tokens(div)]).toEqual(held.length + ownId.length > 400 ? [] : expected(held, ownId))
  })
})
