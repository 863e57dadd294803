import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import { DOMParser } from "linkedom"
import * as Markdown from "../src/Markdown.js"

const body = (html: string): Node =>
  (
    new DOMParser().parseFromString(
      `<html><head></head><body>${html}</body></html>`,
      "text/html"
    ) as unknown as Document
  ).body

const md = (html: string, options?: Markdown.Options) => Markdown.fromNode(body(html), options)

/**
 * The text of a markdown string outside its code spans, as CommonMark reads them: outside a span a backslash escapes
 * the next character (an escaped backtick opens nothing); a run of N backticks opens a span that the next run of
 * exactly N closes, and inside it a backslash is a literal character (so `` `a\` `` is a span); a run with no
 * closing run is literal text. Escaped characters are kept with their backslash, and an escaped backslash becomes
 * U+0001 (it escapes nothing after it).
 */
const withoutCodeSpans = (text: string): string => {
  let out = ""
  let at = 0
  const runAt = (from: number) => {
    let end = from
    while (text[end] === "`") end++
    return end - from
  }
  while (at < text.length) {
    const char = text[at]
    if (char === "\\") {
      // An escaped backslash is a literal one: the character after it is not escaped by it.
      out += text[at + 1] === "\\" ? "\u0001" : text.slice(at, at + 2)
      at += 2
    } else if (char === "`") {
      const length = runAt(at)
      let close = text.indexOf("`", at + length)
      while (close !== -1 && runAt(close) !== length) close = text.indexOf("`", close + runAt(close))
      if (close === -1) {
        out += text.slice(at, at + length)
        at += length
      } else {
        at = close + length
      }
    } else {
      out += char
      at++
    }
  }
  return out
}

describe("Markdown", () => {
  it("reads code spans as CommonMark does: a backslash inside one is literal, outside one it escapes", () => {
    // The property below once read "`<script>\\`" (a code span ending in a backslash) as an escaped backtick, and so
    // "<script>" as outside code.
    expect(md("<code>&lt;script&gt;\\</code>")).toBe("`<script>\\`")
    expect(withoutCodeSpans("`<script>\\`")).toBe("")
    expect(withoutCodeSpans("\\`<script>`")).toBe("\\`<script>`")
    expect(withoutCodeSpans("\\\\`a` <b>")).toBe("\u0001 <b>")
    expect(withoutCodeSpans("``a`b`` c ```d")).toBe(" c ```d")
  })

  it("renders an image inside a link as a linked image, escaping brackets in the text, not in the markup", () => {
    // Escaping the rendered label turned the image's own markup into text: `[!\\[alt\\](src)](href)`.
    expect(md('<a href="https://x.test/big.jpg"><img alt="A cat" src="https://x.test/small.jpg"></a>')).toBe(
      "[![A cat](https://x.test/small.jpg)](https://x.test/big.jpg)"
    )
    expect(md('<a href="https://x.test/">see [1] <img alt="x" src="https://x.test/i.png"></a>')).toBe(
      "[see \\[1\\] ![x](https://x.test/i.png)](https://x.test/)"
    )
    // Brackets in any text are escaped (they were left bare outside labels): "[1]" is text, not markup to drop.
    expect(md("<p>a [note] here</p>")).toBe("a \\[note\\] here")
  })

  it("drops soft hyphens, which no reader sees", () => {
    expect(md("<p>Kiess\u00adling hat vie\u00adle</p>")).toBe("Kiessling hat viele")
  })

  it("escapes a paragraph that starts like a list item or a heading, keeping its number", () => {
    expect(md("<p>100. Ray Gillen</p>")).toBe("100\\. Ray Gillen")
    expect(md("<h2>1. Step one</h2>")).toBe("## 1\\. Step one")
    expect(md("<p>- a dash</p><p># a hash</p><p>2) two</p>")).toBe("\\- a dash\n\n\\# a hash\n\n2\\) two")
    // Real lists keep their markers; a number inside a sentence is untouched.
    expect(md("<ol><li>one</li></ol><p>In 2020. Then</p>")).toBe("1. one\n\nIn 2020. Then")
  })

  it("fences inline code that holds a backtick with a longer run (found by the property below)", () => {
    expect(md("<code>&lt;script&gt;`</code>")).toBe("`` <script>` ``")
  })

  it("escapes a backtick in text so it cannot pair with a following code span's fence", () => {
    // Found by the property below: "`" then <code>&lt;script&gt;</code> came out as "``<script>`".
    expect(md("`<code>&lt;script&gt;</code>")).toBe("\\``<script>`")
    expect(md("a`b <code>x</code>")).toBe("a\\`b `x`")
  })

  it("escapes a backslash in text where CommonMark would read it as an escape, and nowhere else", () => {
    // Found by the property below (seed 1342213649): "\\" then <code>&lt;script&gt;</code> came out as
    // "\\`<script>`", whose backslash escaped the code span's fence and left "<script>" as raw HTML.
    expect(md("\\<code>&lt;script&gt;</code>")).toBe("\\\\`<script>`")
    // Before our own escape of a bracket or backtick, and before "<": each still escaped after it.
    expect(md("a\\[b] c\\` d\\&lt;script&gt;")).toBe("a\\\\\\[b\\] c\\\\\\` d\\\\\\<script>")
    // Not before a letter or a space: "C:\\Users" is literal already.
    expect(md("C:\\Users\\me and \\ here")).toBe("C:\\Users\\me and \\ here")
    // An image's alt text too.
    expect(md("<img alt='x\\' src='/i.png'>", { baseUrl: "https://e.example/" })).toBe(
      "![x\\\\](https://e.example/i.png)"
    )
  })

  it("renders headings and paragraphs, collapsing whitespace", () => {
    expect(md("<h1>Title</h1>\n<p>One   two\n three.</p><h3> Sub  <em>head</em> </h3><p>Four</p>")).toBe(
      "# Title\n\nOne two three.\n\n### Sub _head_\n\nFour"
    )
  })

  it("renders inline formatting with spaces outside the markers, and <br> as a line break", () => {
    expect(md("<p>a<strong> bold </strong>b <i>it</i> <del>gone</del><br>next  line</p>")).toBe(
      "a **bold** b _it_ ~~gone~~\nnext line"
    )
  })

  it("renders nested lists, ordered lists with start, and multi-paragraph items", () => {
    const html =
      "<ul><li>one<ul><li>one.a</li><li>one.b<ol><li>deep</li></ol></li></ul></li><li>two</li></ul>" +
      '<ol start="3"><li><p>three</p><p>more</p></li><li>four</li></ol>'
    expect(md(html)).toBe(
      [
        "- one",
        "",
        "  - one.a",
        "  - one.b",
        "",
        "    1. deep",
        "- two",
        "",
        "3. three",
        "",
        "   more",
        "4. four"
      ].join("\n")
    )
  })

  it("renders tables as GFM pipe tables, escaping pipes and padding short rows", () => {
    const html =
      "<table><caption>Prices</caption><thead><tr><th>Name</th><th>Cost</th></tr></thead>" +
      "<tbody><tr><td>a|b</td><td><b>1</b> €</td></tr><tr><td>only</td></tr></tbody></table>"
    expect(md(html)).toBe("Prices\n\n| Name | Cost |\n| --- | --- |\n| a\\|b | **1** € |\n| only |  |")
  })

  it("renders a layout table (one column, or holding tables) as blocks", () => {
    expect(md("<table><tr><td><p>para one</p></td></tr><tr><td>para two</td></tr></table>")).toBe(
      "para one\n\npara two"
    )
  })

  it("renders code blocks with the language from the class, keeping whitespace, and inline code", () => {
    const html =
      '<pre><code class="language-ts">const a = 1\n  if (a) {\n    b()\n  }\n</code></pre>' +
      '<pre class="highlight-source-python">print("x")</pre><p>use <code>a`b</code> or <code>npm i</code></p>'
    expect(md(html)).toBe(
      '```ts\nconst a = 1\n  if (a) {\n    b()\n  }\n```\n\n```python\nprint("x")\n```\n\nuse ``a`b`` or `npm i`'
    )
  })

  it("makes the fence longer than any backtick run in the code", () => {
    expect(md("<pre>```\ninner\n```</pre>")).toBe("````\n```\ninner\n```\n````")
  })

  it("renders blockquotes, nested, and horizontal rules", () => {
    expect(md("<blockquote><p>quoted</p><blockquote>deeper</blockquote></blockquote><hr><p>after</p>")).toBe(
      "> quoted\n>\n> > deeper\n\n---\n\nafter"
    )
  })

  it("resolves links and images against the base URL and keeps image alt text", () => {
    const html =
      '<p><a href="/docs?q=1">docs</a> <a href="other page.html">space</a> <a href="https://x.example/">abs</a> ' +
      '<img src="img/p.png" alt="a cat"> <a href="javascript:alert(1)">js</a> <a href="#top">top</a></p>'
    expect(md(html, { baseUrl: "https://example.com/a/b.html" })).toBe(
      "[docs](https://example.com/docs?q=1) [space](https://example.com/a/other%20page.html) " +
        "[abs](https://x.example/) ![a cat](https://example.com/a/img/p.png) js top"
    )
  })

  it("keeps relative links as written when there is no base URL", () => {
    expect(md('<a href="/x">x</a>')).toBe("[x](/x)")
  })

  it("drops images without a source and links without text", () => {
    expect(md('<p>a <img data-src="lazy.png" alt="placeholder"> <a href="/x"></a> b</p>')).toBe("a b")
  })

  it("drops scripts, styles, forms controls and media, and in whole-page mode chrome and hidden elements", () => {
    const html =
      "<nav>menu</nav><script>alert('x')</script><style>p{}</style><p>keep</p><input value=secret>" +
      '<form><button>Send</button></form><div hidden>hidden</div><div style="display: none">gone</div>' +
      '<div aria-hidden="true">aria</div><footer>foot</footer><svg><text>svg</text></svg>'
    expect(md(html, { dropChrome: true })).toBe("keep")
    expect(md(html)).toBe("menu\n\nkeep\n\nSend\n\nhidden\n\ngone\n\naria\n\nfoot")
  })

  it("survives 10 000 levels of nesting without overflowing the stack", () => {
    const depth = 10_000
    const html = "<div>".repeat(depth) + "deep text" + "</div>".repeat(depth)
    expect(md(html)).toBe("deep text")
    const lists = "<ul><li>".repeat(2000) + "leaf" + "</li></ul>".repeat(2000)
    expect(md(lists)).toContain("leaf")
  })

  it("escapes tag-like text outside code, and keeps it verbatim inside code", () => {
    expect(md("<p>&lt;script&gt;alert(1)&lt;/script&gt; and 1 &lt; 2</p><p><code>&lt;b&gt;</code></p>")).toBe(
      "\\<script>alert(1)\\</script> and 1 < 2\n\n`<b>`"
    )
  })

  it.prop(
    "never emits a raw <script outside code, nor the text of a script element",
    [
      FastCheck.array(
        FastCheck.oneof(
          FastCheck.constantFrom(
            "<script>INJECTED()</script>",
            "<script>",
            "</script>",
            "&lt;script&gt;",
            "<p>",
            "</p>",
            "<pre>",
            "</pre>",
            "<code>",
            "<table><tr><td>",
            "<td>",
            "<ul><li>",
            "<a href='x'>",
            "<img alt='&lt;script&gt;' src='x'>",
            "<b>",
            "<!--",
            "-->",
            "<scr",
            "ipt>"
          ),
          FastCheck.string({ maxLength: 8 })
        ),
        { maxLength: 30 }
      )
    ],
    ([parts]) => {
      const out = md(parts.join(""))
      // CommonMark code spans: a run of N backticks to the next run of exactly N (escaped backticks are text).
      const outsideCode = withoutCodeSpans(out.replace(/(`{3,})[^\n]*\n[\s\S]*?\n\1/g, ""))
      // `\<script` is CommonMark's escaped, literal "<script" text, not markup.
      expect(outsideCode.toLowerCase()).not.toMatch(/(?:^|[^\\])<script/)
      // The marker may legitimately be text (after "<?" the parser reads "<script>" as a bogus comment); when
      // the parsed page holds it only inside <script> elements, it must not come out.
      const page = new DOMParser().parseFromString(`<body>${parts.join("")}</body>`, "text/html") as unknown as Document
      for (const script of Array.from(page.querySelectorAll("script"))) script.remove()
      if (!(page.documentElement?.textContent ?? "").includes("INJECTED")) expect(out).not.toContain("INJECTED")
      expect(out).not.toMatch(/[\uE000\uE001]/)
    },
    { fastCheck: { numRuns: 400 } }
  )
})
