/**
 * A page's headings nested under the result's heading in `--format markdown` (issue 36): every heading level moves
 * down by the shift, capped at six; code blocks and every other line are left as they are; the pass is linear on
 * hostile pages.
 */
import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as MarkdownHeadings from "../src/internal/markdownHeadings.js"

const text = FastCheck.string({ minLength: 1, maxLength: 20 })
  .map((t) => t.replace(/[\n\r]/g, " ").trim() || "x")
  // A line of code that opens with a fence character could close its block.
  .filter((t) => !/^[`~]/.test(t))

// Blocks of a page: ATX headings, paragraphs, lists, quotes and fenced code (whose lines may look like headings).
type Block =
  | { readonly _tag: "heading"; readonly level: number; readonly text: string }
  | { readonly _tag: "other"; readonly line: string }
  | { readonly _tag: "code"; readonly fence: string; readonly lines: ReadonlyArray<string> }

const block: FastCheck.Arbitrary<Block> = FastCheck.oneof(
  FastCheck.record({
    _tag: FastCheck.constant("heading" as const),
    level: FastCheck.integer({ min: 1, max: 6 }),
    text
  }),
  FastCheck.record({
    _tag: FastCheck.constant("other" as const),
    line: FastCheck.oneof(
      text.map((t) => `Paragraph ${t}`),
      text.map((t) => `- item ${t}`),
      text.map((t) => `> quoted ${t}`),
      text.map((t) => `    indented # ${t}`),
      FastCheck.constant("#hashtag is not a heading")
    )
  }),
  FastCheck.record({
    _tag: FastCheck.constant("code" as const),
    fence: FastCheck.constantFrom("```", "````", "~~~"),
    lines: FastCheck.array(
      FastCheck.oneof(
        text.map((t) => `# ${t}`),
        text.map((t) => `## ${t}`),
        text,
        FastCheck.constant("===")
      ),
      { maxLength: 4 }
    )
  })
)

const render = (blocks: ReadonlyArray<Block>, level: (b: Extract<Block, { _tag: "heading" }>) => number) =>
  blocks
    .map((b) =>
      b._tag === "heading"
        ? `${"#".repeat(level(b))} ${b.text}`
        : b._tag === "other"
          ? b.line
          : [b.fence, ...b.lines, b.fence].join("\n")
    )
    .join("\n\n")

describe("MarkdownHeadings.nest", () => {
  it.prop(
    "every heading moves down by the shift, capped at ######; every other line, code included, is unchanged",
    [FastCheck.array(block, { maxLength: 8 }), FastCheck.integer({ min: 0, max: 5 })],
    ([blocks, shift]) => {
      expect(
        MarkdownHeadings.nest(
          render(blocks, (h) => h.level),
          shift
        )
      ).toBe(render(blocks, (h) => Math.min(6, h.level + shift)))
    }
  )

  it("one-line setext headings become ATX ones at their level; a rule after a list item or a paragraph's second line does not", () => {
    expect(MarkdownHeadings.nest("Title\n=====\n\nText\n\nPart\n---\n\nbody", 2)).toBe(
      "### Title\n\nText\n\n#### Part\n\nbody"
    )
    expect(MarkdownHeadings.nest("- item\n---", 2)).toBe("- item\n---")
    expect(MarkdownHeadings.nest("one\ntwo\n===", 2)).toBe("one\ntwo\n===")
    expect(MarkdownHeadings.nest("#5 is no heading\n####### nor is this", 2)).toBe(
      "#5 is no heading\n####### nor is this"
    )
  })

  it("hostile pages: 100k runs of one character and near-miss repetitions are read in one pass", () => {
    for (const c of ["#", "=", "-", " ", "`", "~", "\t", "a"]) {
      const run = c.repeat(100_000)
      expect(MarkdownHeadings.nest(run, 2)).toHaveLength(run.length)
      expect(MarkdownHeadings.nest(`x\n${run}`, 2).length).toBeGreaterThan(0)
    }
    const nearMisses = [
      "#".repeat(7) + " x\n",
      "=".repeat(50) + "x\n",
      "   " + "-".repeat(50) + " x\n",
      "``` \n",
      "paragraph\n" + "=".repeat(30) + " =\n"
    ]
    for (const miss of nearMisses) {
      const page = miss.repeat(Math.ceil(100_000 / miss.length))
      expect(MarkdownHeadings.nest(page, 2).length).toBeGreaterThanOrEqual(page.length - 10)
    }
  })
})
