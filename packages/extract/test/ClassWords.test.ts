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
