import { describe, expect, it } from "@effect/vitest"
import * as MainContent from "../src/MainContent.js"

const paragraphs = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Paragraph ${i} carries enough prose about layers, fibers and streams to look like an article body, ` +
      `with commas, clauses, and a full stop at the end of every sentence.</p>`
  ).join("")

const page = (article: string) =>
  `<html><head><title>T</title></head><body><nav>Nav links</nav><div class="sidebar"><p>Side note.</p></div>` +
  `<article>${article}</article><footer>Footer</footer></body></html>`

describe("MainContent", () => {
  it("keeps Readability's article when it is long enough", () => {
    const result = MainContent.fromHtml(page(paragraphs(8)), { url: "https://example.com/" })
    expect(result.method).toBe("article")
    expect(result.markdown).toContain("Paragraph 7")
    expect(result.markdown).not.toContain("Nav links")
  })

  // The article path's own fallback, so the page is read as an article (detected, this tiny page is a service page,
  // whose reader keeps the same blocks: see ServicePage.test.ts).
  it("takes the whole page (without chrome) when the article is too short", () => {
    const result = MainContent.fromHtml(page("<p>Tiny.</p>"), { url: "https://example.com/", pageType: "article" })
    expect(result.method).toBe("page")
    expect(result.markdown).toContain("Tiny.")
    expect(result.markdown).toContain("Side note.")
    expect(result.markdown).not.toContain("Nav links")
    expect(result.markdown).not.toContain("Footer")
  })

  it("skips Readability for pages beyond the element or depth bounds, rendering the whole page once", () => {
    const many = MainContent.fromHtml(page(paragraphs(8)), { maxElements: 5 })
    expect(many.method).toBe("page")
    expect(many.markdown).toContain("Paragraph 7")
    const deep = MainContent.fromHtml(page("<div>".repeat(50) + paragraphs(8) + "</div>".repeat(50)), { maxDepth: 20 })
    expect(deep.method).toBe("page")
    expect(deep.markdown).toContain("Paragraph 7")
  })

  it("strips scripts (but not JSON-LD), styles, SVG and comments before parsing", () => {
    const stripped = MainContent.stripInert(
      '<script>a()</script><script type="application/ld+json">{"a":1}</script><style>p{}</style>' +
        "<svg><text>icon</text></svg><!-- note --><p>kept</p>"
    )
    expect(stripped).toBe('<script type="application/ld+json">{"a":1}</script><p>kept</p>')
  })

  it("ends a script where a browser does: at the end tag's name, up to its `>`", () => {
    // `</script` then a newline is an end tag whose junk runs to the next `>` (here a comment's): the page after it
    // is content, not script.
    expect(MainContent.stripInert("<script>a()</script\n<!-- note --><p>kept</p>")).toBe("<p>kept</p>")
    expect(MainContent.stripInert("<script>a()</script/ x><p>kept</p>")).toBe("<p>kept</p>")
    // `</scripts>` is not the script's end tag.
    expect(MainContent.stripInert("<script>a</scripts>b</script><p>kept</p>")).toBe("<p>kept</p>")
  })
})
