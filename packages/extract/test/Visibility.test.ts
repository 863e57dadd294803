import { describe, expect, it } from "@effect/vitest"
import { Readability } from "@mozilla/readability"
import * as FastCheck from "effect/FastCheck"
import * as HtmlDocument from "../src/internal/htmlDocument.js"
import * as Visibility from "../src/internal/visibility.js"

// Inline styles over the pieces that decide a reading: the two property names in several cases and paddings, the
// values that hide and some that do not, empty declarations, stray colons and semicolons.
const piece = FastCheck.constantFrom(
  "display",
  "visibility",
  "DISPLAY",
  " display ",
  "visibility ",
  "color",
  "none",
  " none",
  "none !important",
  "hidden",
  "block",
  "",
  ":",
  ";",
  " ; ",
  "  ",
  "\n",
  "url(a:b)"
)
const style = FastCheck.array(piece, { maxLength: 14 }).map((parts) => parts.join(""))
const declaration = FastCheck.tuple(
  FastCheck.constantFrom("display", "visibility", "Display", " visibility"),
  FastCheck.constantFrom("none", "hidden", " none ", "", "inline", "none;x:y")
).map(([name, value]) => `${name}:${value}`)
const styles = FastCheck.oneof(
  style,
  FastCheck.array(declaration, { maxLength: 4 }).map((d) => d.join(";"))
)

const element = (attributes: string) =>
  HtmlDocument.parse(`<html><body><div ${attributes}>x</div></body></html>`).querySelector("div")!

const quote = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;")

describe("Visibility", () => {
  it.prop("declared reads a property as linkedom's CSSStyleDeclaration does", [styles], ([s]) => {
    const div = element(`style="${quote(s)}"`)
    const css = div.style
    expect(Visibility.declared(s, "display")).toBe(css.display)
    expect(Visibility.declared(s, "visibility")).toBe(css.visibility)
  })

  it.prop(
    "isProbablyVisible decides as Readability's own test",
    [
      FastCheck.option(styles, { nil: undefined }),
      FastCheck.boolean(),
      FastCheck.option(FastCheck.constantFrom("true", "false", "", "TRUE"), { nil: undefined }),
      FastCheck.option(FastCheck.constantFrom("fallback-image", "mwe-math fallback-image", "lead", ""), {
        nil: undefined
      })
    ],
    ([s, hidden, ariaHidden, cls]) => {
      const attributes = [
        s === undefined ? "" : `style="${quote(s)}"`,
        hidden ? "hidden" : "",
        ariaHidden === undefined ? "" : `aria-hidden="${ariaHidden}"`,
        cls === undefined ? "" : `class="${cls}"`
      ].join(" ")
      const div = element(attributes)
      const reader = new Readability(div.ownerDocument) as unknown as {
        _isProbablyVisible: (node: Element) => unknown
      }
      // Readability's answers `""` (falsy) for an `aria-hidden` element without a class; its callers test truth.
      expect(Visibility.isProbablyVisible(div)).toBe(Boolean(reader._isProbablyVisible(div)))
    }
  )

  it("install replaces the test on that instance only", () => {
    const doc = element("").ownerDocument
    const reader = new Readability(doc) as unknown as Record<string, unknown>
    const other = new Readability(doc) as unknown as Record<string, unknown>
    Visibility.install(reader)
    expect(reader._isProbablyVisible).toBe(Visibility.isProbablyVisible)
    expect(other._isProbablyVisible).not.toBe(Visibility.isProbablyVisible)
  })
})
