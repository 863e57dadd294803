import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import { atxHeading } from "../src/internal/atxHeading.js"
import * as Inert from "../src/internal/inert.js"
import * as Whitespace from "../src/internal/whitespace.js"

// Strings over the characters the trims care about, in long runs as often as short ones.
const text = (alphabet: ReadonlyArray<string>) =>
  FastCheck.array(
    FastCheck.tuple(FastCheck.constantFrom(...alphabet), FastCheck.integer({ min: 1, max: 6 })).map(([c, n]) =>
      c.repeat(n)
    ),
    { maxLength: 30 }
  ).map((parts) => parts.join(""))

const spaces = text([" ", "\t", "\n", "a", "#", "\uE000", "\uE001", "\u00a0", "\u2028", "\r", '"'])

describe("linear trims equal the expressions they replace", () => {
  it.prop("trimLineEnds = replace(/[ \\t]+$/gm)", [spaces], ([s]) => {
    // The multiline `$` also matches before `\r` and U+2028; the callers have only `\n` line ends.
    const lf = s.replace(/[\r\u2028\u2029]/g, "")
    expect(Whitespace.trimLineEnds(lf)).toBe(lf.replace(/[ \t]+$/gm, ""))
  })

  it.prop("trimLeadingNewlines + trimEnd = replace(/^\\n+|\\s+$/g)", [spaces], ([s]) => {
    expect(Whitespace.trimLeadingNewlines(s).trimEnd()).toBe(s.replace(/^\n+|\s+$/g, ""))
  })

  it.prop("trimEnd = replace(/\\s+$/)", [spaces], ([s]) => {
    expect(s.trimEnd()).toBe(s.replace(/\s+$/, ""))
  })

  it.prop("trimSpaceTabNewline = replace(/^[ \\t\\n]+|[ \\t\\n]+$/g)", [spaces], ([s]) => {
    expect(Whitespace.trimSpaceTabNewline(s)).toBe(s.replace(/^[ \t\n]+|[ \t\n]+$/g, ""))
  })

  it.prop("collapseBlankLines = replace(/\\n{3,}/g)", [spaces], ([s]) => {
    expect(Whitespace.collapseBlankLines(s)).toBe(s.replace(/\n{3,}/g, "\n\n"))
  })

  it.prop("resolveLineMarker = replace(/[ \\t]*\\uE001[ \\t]*/g)", [spaces], ([s]) => {
    expect(Whitespace.resolveLineMarker(s, "\uE001")).toBe(s.replace(/[ \t]*\uE001[ \t]*/g, "\n"))
  })

  it.prop("resolveBlockMarker = replace(/[ \\t\\n]*\\uE000[ \\t\\n\\uE000]*/g)", [spaces], ([s]) => {
    expect(Whitespace.resolveBlockMarker(s, "\uE000")).toBe(s.replace(/[ \t\n]*\uE000[ \t\n\uE000]*/g, "\n\n"))
  })

  it.prop("atxHeading = /^\\s{0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$/ on one line", [spaces], ([s]) => {
    const line = s.replace(/\n/g, "")
    expect(atxHeading(line)).toBe(/^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1])
  })

  const markup = text([
    "<script>",
    "<script ",
    "<SCRIPT type=application/ld+json>",
    "</script>",
    "</script >",
    "</script\n",
    "</script/",
    "</scripts>",
    "<style>",
    "</style>",
    "<svg>",
    "<svgx>",
    "</svg>",
    "<!--",
    "-->",
    "<![CDATA[",
    "<![",
    "]]>",
    "<",
    ">",
    "a",
    " "
  ])
  const inert =
    /(<script\b(?=[^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script(?=[\t\n\f\r />])[^>]*>)|<script\b(?![^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script(?=[\t\n\f\r />])[^>]*>|<style\b[^>]*>[\s\S]*?<\/style(?=[\t\n\f\r />])[^>]*>|<svg\b[^>]*>[\s\S]*?<\/svg(?=[\t\n\f\r />])[^>]*>|<!--[\s\S]*?-->|<!\[[^>]*>/gi
  const expected = (s: string) => s.replace(inert, (_match, ld: string | undefined) => ld ?? "")

  it.prop(
    "Inert.strip = the expression it replaces",
    [markup],
    ([s]) => {
      expect(Inert.strip(s)).toBe(expected(s))
    },
    { fastCheck: { numRuns: 2000 } }
  )

  it("an end tag with no `>` after it does not hide a later element's own `>` (found by the property above)", () => {
    for (const s of ["<script><svg></svg></script\n", "<style><svg></svg></style ", "<svg><script></script></svg/"]) {
      expect(Inert.strip(s)).toBe(expected(s))
    }
  })
})
