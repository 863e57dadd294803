import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as HtmlDocument from "../src/internal/htmlDocument.js"
import * as Noscript from "../src/internal/noscript.js"
import * as MainContent from "../src/MainContent.js"
import * as Metadata from "../src/Metadata.js"

const sentence = (i: number) =>
  `Reply ${i} explains, with a few clauses and some care, why the resolver picks the newest compatible version. `

// A forum that renders with JavaScript and serves its posts to readers without scripts inside <noscript>.
const noscriptForum = `<html><head><title>Is a bump breaking? - Example Forum</title></head><body>
<section id="splash"><div class="dots"></div></section>
<div id="app"></div>
<noscript><header><a href="/">Example Forum</a></header><div id="main-outlet">
<h1>Is a bump breaking?</h1>
${[0, 1, 2, 3].map((i) => `<div class="post"><span class="creator">user${i}</span><p>${sentence(i).repeat(2)}</p></div>`).join("")}
</div></noscript>
</body></html>`

describe("pages served inside <noscript>", () => {
  it("reads the content a script-rendered page serves in <noscript>", () => {
    const result = MainContent.fromHtml(noscriptForum, { url: "https://forum.example/t/bump/1" })
    for (const i of [0, 1, 2, 3]) expect(result.markdown).toContain(`Reply ${i} explains`)
  })

  it("keeps a page's own text, and leaves out its <noscript> notes and fallback images", () => {
    const article =
      `<html><body><article><h1>Tides</h1>${[0, 1, 2, 3, 4].map((i) => `<p>${sentence(i)}</p>`).join("")}</article>` +
      `<noscript><p>Please enable JavaScript to see the comments, the newsletter form and the related stories ` +
      `that this page would otherwise show below the article you just read.</p></noscript>` +
      `<noscript><img src="/pixel.gif" alt="tracking pixel"></noscript></body></html>`
    const result = MainContent.fromHtml(article, { url: "https://example.com/tides" })
    expect(result.markdown).toContain("Reply 4 explains")
    expect(result.markdown).not.toContain("enable JavaScript")
    expect(result.markdown).not.toContain("tracking pixel")
  })

  it("does not read markup a parser kept as text inside <noscript> (tracking pixels) as the page", () => {
    const pixels = Array.from(
      { length: 20 },
      (_, i) =>
        `<noscript>&lt;div style="position:absolute;"&gt;&lt;img src="https://ads.example/b?P=${i}${"x".repeat(300)}"&gt;&lt;/div&gt;</noscript>`
    ).join("")
    const page = `<html><body><article><p>${sentence(1).repeat(3)}</p><p>${sentence(2).repeat(3)}</p></article>${pixels}</body></html>`
    const result = MainContent.fromHtml(page, { url: "https://example.com/news" })
    expect(result.markdown).toContain("Reply 2 explains")
    expect(result.markdown).not.toContain("position:absolute")
  })

  it("counts <noscript> as the content only when it holds most of the page's text", () => {
    expect(Noscript.servesContent(0, Noscript.minChars)).toBe(true)
    expect(Noscript.servesContent(0, Noscript.minChars - 1)).toBe(false)
    expect(Noscript.servesContent(1000, 1999)).toBe(false)
    expect(Noscript.servesContent(1000, 2000)).toBe(true)
  })

  // Random nestings of <noscript> among blocks: unwrapping keeps every word, in order, and leaves none behind.
  const word = FastCheck.constantFrom("crane", "barge", "gull", "tide")
  const tree: FastCheck.Arbitrary<string> = FastCheck.letrec<{ node: string }>((tie) => ({
    node: FastCheck.oneof(
      { depthSize: "small", withCrossShrink: true },
      word,
      FastCheck.tuple(
        FastCheck.constantFrom("div", "noscript", "p", "section"),
        FastCheck.array(tie("node"), { maxLength: 4 })
      ).map(([tag, kids]) => `<${tag}>${kids.join(" ")}</${tag}>`)
    )
  })).node

  it.prop("unwrapping <noscript> keeps every word in order and leaves no <noscript>", [tree], ([html]) => {
    const doc = HtmlDocument.parse(`<html><body>${html}</body></html>`)
    const before = (doc.body?.textContent ?? "").replace(/\s+/g, " ").trim()
    Noscript.reveal(doc)
    expect(doc.body?.querySelector("noscript")).toBeNull()
    expect((doc.body?.textContent ?? "").replace(/\s+/g, " ").trim()).toBe(before)
  })
})

describe("`<![` sections in HTML", () => {
  it("ends a stray <![CDATA[ at the next `>`, as a browser does, instead of losing the page after it", () => {
    const page =
      `<html><body>\n<![CDATA[\n<div class="wrapper"><article><h1>Tides</h1>` +
      `${[0, 1, 2, 3, 4].map((i) => `<p>${sentence(i)}</p>`).join("")}</article></div></body></html>`
    const result = MainContent.fromHtml(page, { url: "https://example.com/tides" })
    expect(result.markdown).toContain("Reply 0 explains")
    expect(result.markdown).toContain("Reply 4 explains")
  })

  it("drops conditional comments' markers and keeps a CDATA wrapper inside JSON-LD for the metadata", () => {
    expect(MainContent.stripInert("<![if !IE]><p>kept</p><![endif]>")).toBe("<p>kept</p>")
    const ld = '<script type="application/ld+json"><![CDATA[{"@type":"NewsArticle","headline":"H <b>"}]]></script>'
    expect(MainContent.stripInert(`${ld}<p>x</p>`)).toBe(`${ld}<p>x</p>`)
    const page = HtmlDocument.parse(MainContent.stripInert(`<html><head>${ld}</head><body><p>x</p></body></html>`))
    expect(Metadata.fromDocument(page).title).toBe("H <b>")
  })
})
