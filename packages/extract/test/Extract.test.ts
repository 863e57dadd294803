import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as Extract from "../src/Extract.js"
import { makePdf } from "./support/pdf.js"

const utf8 = (s: string) => new TextEncoder().encode(s)

const input = (body: string | Uint8Array, contentType: string | undefined, url = "https://example.com/path/page") => ({
  body: typeof body === "string" ? utf8(body) : body,
  contentType,
  url
})

const ok = (result: Either.Either<Extract.Document, unknown>): Extract.Document => {
  if (Either.isLeft(result)) throw new Error(`expected a document, got ${JSON.stringify(result.left)}`)
  return result.right
}

const reasonOf = (result: Either.Either<Extract.Document, { readonly reason: string }>) =>
  Either.isLeft(result) ? result.left.reason : "ok"

const paragraph = (i: number) =>
  `<p>Paragraph ${i} of the article explains, at some length and with care, how the layers of the system compose ` +
  `and why each boundary exists, so that a reader can follow the argument from start to finish.</p>`

const articlePage = `<!doctype html>
<html lang="en-GB">
<head>
  <meta charset="utf-8">
  <title>Layers explained | Example Site</title>
  <meta property="og:site_name" content="Example Site">
  <meta property="og:description" content="How layers compose.">
  <meta property="article:published_time" content="2024-05-01T10:00:00Z">
  <script type="application/ld+json">
    {"@context":"https://schema.org","@type":"NewsArticle","headline":"Layers explained",
     "author":[{"@type":"Person","name":"Ada Lovelace"},{"@type":"Person","name":"Alan Turing"}],
     "datePublished":"2024-05-01T10:00:00Z","publisher":{"@type":"Organization","name":"Example Site"}}
  </script>
  <script>document.write("SCRIPT-INJECTED")</script>
  <style>.x { color: red }</style>
</head>
<body>
  <nav><a href="/">Home</a> <a href="/about">About</a></nav>
  <article>
    <h1>Layers explained</h1>
    ${Array.from({ length: 6 }, (_, i) => paragraph(i)).join("\n")}
    <h2>Details</h2>
    <p>See <a href="../docs/intro.html">the introduction</a> and <a href="/api?x=1">the API</a>.</p>
    <ul><li>first point</li><li>second point<ul><li>nested point</li></ul></li></ul>
    <table><tr><th>Key</th><th>Value</th></tr><tr><td>alpha</td><td>1</td></tr></table>
    <pre><code class="language-js">const layer = make()</code></pre>
    <script>window.evil = "SCRIPT-INJECTED"</script>
  </article>
  <footer>Copyright footer text</footer>
</body>
</html>`

describe("Extract: HTML", () => {
  it("extracts the article as markdown, with metadata from JSON-LD, OpenGraph and <html lang>", () => {
    const doc = ok(Extract.extractSync(input(articlePage, "text/html; charset=utf-8")))
    expect(doc.kind).toBe("html")
    expect(doc.pageType).toBe("article")
    expect(doc.title).toBe("Layers explained")
    expect(doc.byline).toBe("Ada Lovelace, Alan Turing")
    expect(doc.publishedTime).toBe("2024-05-01T10:00:00Z")
    expect(doc.siteName).toBe("Example Site")
    expect(doc.lang).toBe("en-GB")
    expect(doc.excerpt).toBe("How layers compose.")
    expect(doc.markdown).toContain("Paragraph 0 of the article")
    expect(doc.markdown).toContain("## Details")
    expect(doc.markdown).toContain("- second point\n\n  - nested point")
    expect(doc.markdown).toContain("| Key | Value |\n| --- | --- |\n| alpha | 1 |")
    expect(doc.markdown).toContain("```js\nconst layer = make()\n```")
    expect(doc.markdown).not.toContain("SCRIPT-INJECTED")
    expect(doc.markdown).not.toContain("color: red")
    expect(doc.markdown).not.toContain("Copyright footer")
  })

  it("resolves relative links against the final URL, or the page's <base href>", () => {
    const doc = ok(Extract.extractSync(input(articlePage, "text/html", "https://example.com/blog/2024/post.html")))
    expect(doc.markdown).toContain("[the introduction](https://example.com/blog/docs/intro.html)")
    expect(doc.markdown).toContain("[the API](https://example.com/api?x=1)")
    const based = articlePage.replace("<head>", '<head><base href="https://cdn.example.org/root/">')
    const doc2 = ok(Extract.extractSync(input(based, "text/html", "https://example.com/blog/post.html")))
    expect(doc2.markdown).toContain("[the introduction](https://cdn.example.org/docs/intro.html)")
  })

  it("falls back to the whole page when main-content detection finds too little", () => {
    const index = `<html><head><title>Index</title></head><body>
      <nav>Site menu</nav>
      <div class="sidebar"><h2>Projects</h2><ul><li><a href="/a">Alpha</a> parser</li><li><a href="/b">Beta</a> runner</li></ul></div>
      <div><p>Short note.</p></div>
      <footer>footer text</footer></body></html>`
    const doc = ok(Extract.extractSync(input(index, "text/html")))
    expect(doc.title).toBe("Index")
    expect(doc.markdown).toContain("## Projects")
    expect(doc.markdown).toContain("[Alpha](https://example.com/a) parser")
    expect(doc.markdown).toContain("Short note.")
    expect(doc.markdown).not.toContain("Site menu")
    expect(doc.markdown).not.toContain("footer text")
  })

  it("handles fragments and malformed markup", () => {
    const doc = ok(Extract.extractSync(input("<p>Unclosed <b>bold <i>both</p><div>after</span></div>", undefined)))
    expect(doc.kind).toBe("html")
    expect(doc.markdown).toContain("Unclosed")
    expect(doc.markdown).toContain("after")
    const text = ok(Extract.extractSync(input("<html><body>text after</body></html> trailing <p>more", "text/html")))
    expect(text.markdown).toContain("trailing")
  })

  it("removes NUL bytes and never lets a script's text through", () => {
    const doc = ok(
      Extract.extractSync(input("<p>before\u0000after</p><script>alert('SCRIPT-INJECTED')</script>", "text/html"))
    )
    expect(doc.markdown).not.toContain("\u0000")
    expect(doc.markdown).not.toContain("SCRIPT-INJECTED")
    expect(doc.markdown).toMatch(/before.?after/)
  })

  it("survives 10 000 levels of nesting", () => {
    const depth = 10_000
    const html =
      "<html><body>" + "<div>".repeat(depth) + "deeply nested words" + "</div>".repeat(depth) + "</body></html>"
    const doc = ok(Extract.extractSync(input(html, "text/html")))
    expect(doc.markdown).toContain("deeply nested words")
  })

  it("extracts 5 MiB of text in one paragraph", () => {
    const words = "lorem ipsum dolor sit amet ".repeat((5 * 1024 * 1024) / 27)
    const doc = ok(Extract.extractSync(input(`<html><body><p>${words}</p></body></html>`, "text/html")))
    expect(doc.markdown.length).toBeGreaterThan(5_000_000)
    const capped = ok(Extract.extractSync(input(words, "text/plain"), { maxChars: 1000 }))
    expect(capped.markdown.length).toBeLessThanOrEqual(1000)
  })

  it("decodes legacy charsets declared in <meta>", () => {
    const head = utf8('<html><head><meta charset="windows-1252"><title>Caf')
    const rest = utf8("</title></head><body><p>")
    const body = Uint8Array.from([...head, 0xe9, ...rest, 0x93, 0x71, 0x94, 0x20, 0x80, ...utf8("</p></body></html>")])
    const doc = ok(Extract.extractSync(input(body, "text/html")))
    expect(doc.title).toBe("Café")
    expect(doc.markdown).toBe("“q” €")
  })
})

describe("Extract: other kinds", () => {
  it("passes plain text through with line endings normalized and control characters removed", () => {
    const doc = ok(Extract.extractSync(input("line one\r\nline\u0007 two\u0000\r\n\r\n", "text/plain; charset=utf-8")))
    expect(doc).toMatchObject({ kind: "text", title: "", markdown: "line one\nline two", pageType: "other" })
  })

  it("passes markdown through, titled by its first heading, without front matter", () => {
    const md = "---\nlayout: post\n---\nIntro\n\n```\n# not a title\n```\n\n## Real title\n\ntext"
    const doc = ok(Extract.extractSync(input(md, "text/markdown")))
    expect(doc).toMatchObject({ kind: "markdown", title: "Real title", pageType: "other" })
    expect(doc.markdown.startsWith("Intro")).toBe(true)
    const fm = ok(Extract.extractSync(input('---\ntitle: "From front matter"\n---\n# Other', "text/markdown")))
    expect(fm.title).toBe("From front matter")
  })

  it("treats text/plain from a .md URL (raw files) as markdown", () => {
    const doc = ok(
      Extract.extractSync(
        input("# Readme\n\nHello", "text/plain", "https://raw.githubusercontent.com/o/r/main/README.md")
      )
    )
    expect(doc).toMatchObject({ kind: "markdown", title: "Readme" })
  })

  it("pretty-prints JSON in a fenced block, and keeps invalid JSON as text", () => {
    const doc = ok(Extract.extractSync(input('{"a":[1,2],"b":{"c":"d"}}', "application/json")))
    expect(doc.kind).toBe("json")
    expect(doc.pageType).toBe("other")
    expect(doc.markdown).toBe('```json\n{\n  "a": [\n    1,\n    2\n  ],\n  "b": {\n    "c": "d"\n  }\n}\n```')
    const vendor = ok(Extract.extractSync(input("[true]", "application/vnd.api+json")))
    expect(vendor.kind).toBe("json")
    const broken = ok(Extract.extractSync(input("{not json", "application/json")))
    expect(broken).toMatchObject({ kind: "text", markdown: "{not json" })
  })

  it("prints deeply nested JSON compact when indenting it would outgrow the body (the output stays linear)", () => {
    // 500 levels, then 32 000 numbers: indented, 1 000 spaces before each number (32 MB from 64 KiB).
    const deep = "[".repeat(500) + "1,".repeat(32_000) + "1" + "]".repeat(500)
    const doc = ok(Extract.extractSync(input(deep, "application/json")))
    expect(doc.kind).toBe("json")
    expect(doc.markdown).toBe("```json\n" + deep + "\n```")
    // Nesting that pretty-prints to a bounded size keeps its indentation.
    const shallow = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, tags: ["a", "b"] })) })
    expect(ok(Extract.extractSync(input(shallow, "application/json"))).markdown).toContain('\n      "tags": [\n')
  })

  it("renders RSS items as text, with links, dates, authors and HTML descriptions", () => {
    const rss = `<?xml version="1.0"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
      <title>Example feed</title><description>All the news</description><language>en</language>
      <item><title>First post</title><link>https://example.com/1</link><pubDate>Mon, 01 Jan 2024 00:00:00 GMT</pubDate>
        <dc:creator>Ada</dc:creator><description><![CDATA[<p>Hello <b>world</b></p><script>SCRIPT-INJECTED</script>]]></description></item>
      <item><title>Second</title><link>/2</link><description>plain &amp; simple</description></item>
    </channel></rss>`
    const doc = ok(Extract.extractSync(input(rss, "application/rss+xml")))
    // A feed is a list of entries.
    expect(doc).toMatchObject({
      kind: "xml",
      title: "Example feed",
      lang: "en",
      excerpt: "All the news",
      pageType: "listing"
    })
    expect(doc.markdown).toContain("# Example feed")
    expect(doc.markdown).toContain("## [First post](https://example.com/1)")
    expect(doc.markdown).toContain("Mon, 01 Jan 2024 00:00:00 GMT · by Ada")
    expect(doc.markdown).toContain("Hello **world**")
    expect(doc.markdown).toContain("## [Second](https://example.com/2)")
    expect(doc.markdown).toContain("plain & simple")
    expect(doc.markdown).not.toContain("SCRIPT-INJECTED")
  })

  it("renders Atom entries", () => {
    const atom = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom" xml:lang="fr">
      <title>Atom feed</title><subtitle>Sub</subtitle>
      <entry><title>Entry one</title><link rel="alternate" href="https://example.com/e1"/><updated>2024-02-02T00:00:00Z</updated>
        <author><name>Grace</name></author><summary type="html">&lt;em&gt;Summary&lt;/em&gt; text</summary></entry>
    </feed>`
    const doc = ok(Extract.extractSync(input(atom, "application/atom+xml")))
    expect(doc).toMatchObject({ kind: "xml", title: "Atom feed", lang: "fr", pageType: "listing" })
    expect(doc.markdown).toContain("## [Entry one](https://example.com/e1)")
    expect(doc.markdown).toContain("2024-02-02T00:00:00Z · by Grace")
    expect(doc.markdown).toContain("_Summary_ text")
  })

  it("keeps other XML verbatim in a fenced block, and extracts XHTML served as XML as HTML", () => {
    const doc = ok(
      Extract.extractSync(input('<?xml version="1.0"?><config><title>Cfg</title><a>1</a></config>', "text/xml"))
    )
    expect(doc).toMatchObject({ kind: "xml", title: "Cfg", pageType: "other" })
    expect(doc.markdown.startsWith("```xml\n<?xml")).toBe(true)
    const xhtml = ok(
      Extract.extractSync(
        input(
          '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head><body><p>xhtml body</p></body></html>',
          "application/xml"
        )
      )
    )
    expect(xhtml).toMatchObject({ kind: "html", title: "X", markdown: "xhtml body" })
  })

  it("sniffs bodies without a Content-Type or with application/octet-stream", () => {
    const kind = (body: string | Uint8Array, type?: string, url?: string) =>
      ok(Extract.extractSync(input(body, type, url))).kind
    expect(kind("<!DOCTYPE html><title>t</title><p>x")).toBe("html")
    expect(kind('{"a":1}', "application/octet-stream")).toBe("json")
    expect(kind("<rss><channel><title>t</title></channel></rss>")).toBe("xml")
    expect(kind("just words")).toBe("text")
    expect(kind("# Title", "application/octet-stream", "https://example.com/x.md")).toBe("markdown")
  })
})

describe("Extract: refusals", () => {
  it("refuses images, video, audio, archives and binary octet-streams as unsupported_content_type", () => {
    for (const type of ["image/png", "video/mp4", "audio/mpeg", "application/zip", "image/svg+xml", "font/woff2"]) {
      const result = Extract.extractSync(input("whatever", type))
      expect(reasonOf(result)).toBe("unsupported_content_type")
      if (Either.isLeft(result)) {
        expect(result.left._tag).toBe("ResponseInvalid")
        expect(result.left.message).toContain(type)
        expect(result.left.input).toBe("https://example.com/path/page")
      }
    }
    const binary = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])
    expect(reasonOf(Extract.extractSync(input(binary, "application/octet-stream")))).toBe("unsupported_content_type")
    expect(reasonOf(Extract.extractSync(input(binary, undefined)))).toBe("unsupported_content_type")
  })

  it("answers bodies with nothing readable with empty_content", () => {
    expect(reasonOf(Extract.extractSync(input("", "text/html")))).toBe("empty_content")
    expect(reasonOf(Extract.extractSync(input("<html><body><script>x()</script>  </body></html>", "text/html")))).toBe(
      "empty_content"
    )
    expect(reasonOf(Extract.extractSync(input(" \n\t ", "text/plain")))).toBe("empty_content")
  })

  it("knows which Content-Types it reads", () => {
    for (const type of [
      "text/html; charset=utf-8",
      "application/xhtml+xml",
      "text/plain",
      "text/markdown",
      "application/json",
      "application/ld+json",
      "application/rss+xml",
      "application/pdf",
      "text/csv",
      undefined,
      "application/octet-stream"
    ]) {
      expect(Extract.supportedContentType(type), String(type)).toBe(true)
    }
    for (const type of ["image/png", "video/webm", "application/zip", "image/svg+xml", "application/wasm"]) {
      expect(Extract.supportedContentType(type), type).toBe(false)
    }
  })

  it("caps the markdown at maxChars without splitting a surrogate pair", () => {
    const text = "word ".repeat(100) + "😀".repeat(50)
    for (let max = 0; max < text.length; max += 7) {
      const doc = Extract.extractSync(input(text, "text/plain"), { maxChars: max })
      if (Either.isRight(doc)) {
        expect(doc.right.markdown.length).toBeLessThanOrEqual(max)
        expect(doc.right.markdown).not.toMatch(/[\uD800-\uDBFF]$/)
      } else {
        expect(doc.left.reason).toBe("empty_content")
      }
    }
  })

  it.effect.prop(
    "extract never defects on random bodies and content types",
    [
      FastCheck.oneof(FastCheck.string({ maxLength: 400 }), FastCheck.uint8Array({ maxLength: 400 })),
      FastCheck.option(
        FastCheck.constantFrom(
          "text/html",
          "text/plain",
          "application/json",
          "application/xml",
          "application/rss+xml",
          "application/pdf",
          "text/markdown",
          "application/octet-stream",
          "image/png",
          "text/html; charset=shift_jis",
          "text/html; charset=bogus"
        )
      )
    ],
    ([body, contentType]) =>
      Effect.gen(function* () {
        const exit = yield* Effect.exit(Extract.extract(input(body, contentType ?? undefined)))
        if (Exit.isFailure(exit)) {
          expect(exit.cause._tag).toBe("Fail")
          if (exit.cause._tag === "Fail") {
            expect(exit.cause.error._tag).toBe("ResponseInvalid")
            expect(["unsupported_content_type", "empty_content", "parse_failed"]).toContain(exit.cause.error.reason)
          }
        } else {
          expect(exit.value.markdown.trim()).not.toBe("")
        }
      }),
    { fastCheck: { numRuns: 200 } }
  )
})

describe("Extract: PDF", () => {
  it.effect("extracts text per page with the document's title, author and creation date", () =>
    Effect.gen(function* () {
      const pdf = makePdf([["Hello PDF world", "second line"], [], ["Third page (with parens)"]], {
        title: "A tiny PDF",
        author: "Ada Lovelace",
        created: "D:20240102030405Z"
      })
      const doc = yield* Extract.extract(input(pdf, "application/pdf", "https://example.com/tiny.pdf"))
      expect(doc).toMatchObject({
        kind: "pdf",
        title: "A tiny PDF",
        byline: "Ada Lovelace",
        publishedTime: "2024-01-02T03:04:05.000Z",
        pageType: "other"
      })
      expect(doc.markdown).toMatch(
        /^## Page 1\n\nHello PDF world\s*\n\s*second line\n\n## Page 3\n\nThird page \(with parens\)$/
      )
      // The caller's bytes stay usable: the engine gets a copy.
      expect(pdf.byteLength).toBeGreaterThan(0)
    })
  )

  it.effect("reads a PDF given as a Node Buffer (as fs.readFile gives it), and leaves the Buffer as it was", () =>
    Effect.gen(function* () {
      // Over a larger pool, as Buffers often are: the PDF is a view into memory shared with other bytes.
      const pool = Buffer.concat([Buffer.from("before"), makePdf([["from a Buffer"]]), Buffer.from("after")])
      const pdf = pool.subarray(6, pool.length - 5)
      const doc = yield* Extract.extract(input(pdf, "application/pdf"))
      expect(doc).toMatchObject({ kind: "pdf", markdown: "## Page 1\n\nfrom a Buffer" })
      expect(pool.subarray(0, 6).toString()).toBe("before")
      expect(pdf.subarray(0, 5).toString()).toBe("%PDF-")
    })
  )

  it.effect("sniffs a PDF served as application/octet-stream", () =>
    Effect.gen(function* () {
      const doc = yield* Extract.extract(input(makePdf([["sniffed"]]), "application/octet-stream"))
      expect(doc).toMatchObject({ kind: "pdf", markdown: "## Page 1\n\nsniffed" })
    })
  )

  it.effect("answers a corrupt PDF with parse_failed and a PDF without text with empty_content", () =>
    Effect.gen(function* () {
      const corrupt = yield* Effect.flip(
        Extract.extract(input("%PDF-1.7\n garbage without structure", "application/pdf"))
      )
      expect(corrupt.reason).toBe("parse_failed")
      const blank = yield* Effect.flip(Extract.extract(input(makePdf([[]]), "application/pdf")))
      expect(blank.reason).toBe("empty_content")
    })
  )

  it("extractAsync reads PDFs too, while extractSync says to use it", async () => {
    const pdf = makePdf([["async text"]])
    const async = await Extract.extractAsync(input(pdf, "application/pdf"))
    expect(ok(async).markdown).toBe("## Page 1\n\nasync text")
    const sync = Extract.extractSync(input(pdf, "application/pdf"))
    expect(reasonOf(sync)).toBe("unsupported_content_type")
    if (Either.isLeft(sync)) expect(sync.left.message).toContain("extractAsync")
  })

  it("caps PDF text at maxChars", async () => {
    const pages = Array.from({ length: 20 }, (_, i) => [`page ${i} `.repeat(20)])
    const doc = ok(await Extract.extractAsync(input(makePdf(pages), "application/pdf"), { maxChars: 500 }))
    expect(doc.markdown.length).toBeLessThanOrEqual(500)
    expect(doc.markdown.startsWith("## Page 1")).toBe(true)
  })
})
