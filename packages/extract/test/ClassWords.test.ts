import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Boilerplate from "../src/internal/boilerplate.js"
import * as HtmlDocument from "../src/internal/htmlDocument.js"

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
