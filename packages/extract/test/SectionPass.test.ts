import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as HtmlDocument from "../src/internal/htmlDocument.js"
import * as SectionPass from "../src/internal/sectionPass.js"
import * as Markdown from "../src/Markdown.js"

const base: SectionPass.Options = {
  chromeWords: new Set(SectionPass.chromeWords),
  partWords: new Set([...SectionPass.partWords, "filter"])
}

/** The page read by the section pass alone: surveyed, pruned with `options`, rendered. */
const read = (body: string, options: Partial<SectionPass.Options> = {}): string => {
  const doc = HtmlDocument.parse(`<html><body>${body}</body></html>`)
  const page = SectionPass.survey(doc)!
  SectionPass.prune(page.root, page.stats, { ...base, ...options })
  return Markdown.fromNode(page.root)
}

const prose = (n: number) =>
  `Paragraph ${n} says what the service does for its customers, in a sentence long enough to count as prose, ` +
  `and then another clause so that it reads like a real paragraph of a page.`

describe("section pass", () => {
  it("keeps every block in order and drops chrome elements, hidden menus and media", () => {
    const md = read(
      `<header><nav><a href="/">Home</a><a href="/about">About</a></nav></header>` +
        `<h1>Acme Cloud</h1><p>Short hero line.</p><img src="/hero.png" alt="A smiling team">` +
        `<ul class="menu" hidden><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul>` +
        `<h2>Features</h2><p>${prose(1)}</p><h2>Pricing</h2><table><tr><th>Plan</th><th>Price</th></tr>` +
        `<tr><td>Basic</td><td>$9</td></tr></table><form><label>Email</label><input><button>Go</button></form>` +
        `<footer>© Acme</footer>`
    )
    expect(md).toBe(
      `# Acme Cloud\n\nShort hero line.\n\n## Features\n\n${prose(1)}\n\n## Pricing\n\n` +
        `| Plan | Price |\n| --- | --- |\n| Basic | $9 |`
    )
  })

  it("keeps a closed tab panel that reads as text, not one of addresses or a short hidden label", () => {
    const md = read(
      `<h1>Trail pack</h1><div class="tabs"><div role="tabpanel"><p>${prose(1)}</p></div>` +
        `<div role="tabpanel" style="display:none"><h2>Specifications</h2><p>${prose(2)}</p><p>${prose(3)}</p></div>` +
        `<div hidden>${"https://cdn.example/images/thumbnails/pack-" + "x".repeat(40) + ".jpg ".repeat(8)}</div>` +
        `<div class="tooltip" hidden>Opens in a new window</div></div>`
    )
    expect(md).toContain(prose(2))
    expect(md).toContain("## Specifications")
    expect(md).not.toContain("cdn.example")
    expect(md).not.toContain("new window")
  })

  it("drops a section its heading names, with what the heading leads", () => {
    const names = /^(?:customer reviews|you may also like)$/i
    const md = read(
      `<h1>Kettle</h1><p>${prose(1)}</p>` +
        // A wrapper the heading starts, holding its reviews.
        `<section><h2>Customer Reviews (128)</h2><div class="r"><p>Great kettle, five stars.</p></div></section>` +
        // A heading alone in its wrapper, leading the siblings after it.
        `<div class="title"><h2>You may also like</h2></div><ul><li><a href="/p/2">Teapot</a></li></ul>` +
        `<div><a href="/p/3">Mug</a></div><h2>Care</h2><p>${prose(2)}</p>`,
      { sectionNames: names }
    )
    expect(md).toBe(`# Kettle\n\n${prose(1)}\n\n## Care\n\n${prose(2)}`)
  })

  it("drops a leaf block met before word for word, and keeps the first", () => {
    const row = `<p>Weight: 1 lb 13 oz, capacity 25 liters</p>`
    const md = read(`<div class="desktop">${row}</div><div class="mobile">${row}</div><p>${prose(1)}</p>`)
    expect(md.match(/Weight/g)).toHaveLength(1)
    expect(md).toContain(prose(1))
  })

  it("drops overlays by their words (also in compounds) and parts unless they read as text", () => {
    const md = read(
      `<div class="cookiebanner">We use cookies to improve your experience. <a href="/p">Privacy</a></div>` +
        `<div class="cart-drawer">Your cart is empty</div>` +
        `<div class="product-card cartButton"><p>${prose(1)}</p></div>` +
        `<div class="facet-row filters"><h2>What should I look for?</h2><p>${prose(2)}</p></div>` +
        `<div class="filter-panel"><a href="/c?size=s">Small</a><a href="/c?size=m">Medium</a></div>`
    )
    expect(md).toBe(`${prose(1)}\n\n## What should I look for?\n\n${prose(2)}`)
  })

  it("drops a cookie banner by its first line, whatever its class", () => {
    const md = read(
      `<div class="x1"><h3>Manage Cookie Consent</h3><p>To provide the best experiences, we use technologies like ` +
        `cookies.</p><button>Accept</button></div><h1>Bakery</h1><p>${prose(1)}</p>`
    )
    expect(md).toBe(`# Bakery\n\n${prose(1)}`)
  })

  it("keeps a section's header and drops the page's banner", () => {
    const md = read(
      `<header class="site"><a href="/">Logo</a> Free shipping over $50</header><main><section>` +
        `<header><h2>Lightning fast</h2></header><p>${prose(1)}</p></section></main>`
    )
    expect(md).toBe(`## Lightning fast\n\n${prose(1)}`)
  })

  it("drops blocks of links when asked, and never what `keep` names", () => {
    const links = `<ul><li><a href="/a">Alpha</a></li><li><a href="/b">Beta</a></li><li><a href="/c">Gamma</a></li></ul>`
    expect(read(`<p>${prose(1)}</p>${links}`, { linkBlocks: true })).toBe(prose(1))
    expect(read(`<p>${prose(1)}</p>${links}`, { linkBlocks: false })).toContain("Gamma")
    const doc = HtmlDocument.parse(`<html><body><p>${prose(1)}</p>${links}</body></html>`)
    const page = SectionPass.survey(doc)!
    const list = doc.querySelector("ul")!
    SectionPass.prune(page.root, page.stats, { ...base, linkBlocks: true, keep: (e) => e === list })
    expect(Markdown.fromNode(page.root)).toContain("Gamma")
  })

  it("reads from the page's <main> when it holds enough of the text, else from the body", () => {
    const nav = `<div class="links">${"<a href='/x'>A link of the site's own menu</a> ".repeat(20)}</div>`
    const big = HtmlDocument.parse(`<html><body>${nav}<main><p>${prose(1)}</p><p>${prose(2)}</p></main></body></html>`)
    expect(SectionPass.survey(big)!.root.localName).toBe("main")
    const small = HtmlDocument.parse(`<html><body><p>${prose(1)}</p><p>${prose(2)}</p><main>x</main></body></html>`)
    expect(SectionPass.survey(small)!.root.localName).toBe("body")
  })

  it.prop(
    "distinct paragraphs under plain headings are all kept, in order",
    [FastCheck.array(FastCheck.stringMatching(/^[a-z]{3,12}( [a-z]{3,12}){12,30}$/), { minLength: 1, maxLength: 12 })],
    ([paragraphs]) => {
      const unique = [...new Set(paragraphs)]
      const md = read(unique.map((p, i) => `<section><h2>Part ${i + 1}</h2><p>${p}</p></section>`).join(""))
      let at = -1
      for (const p of unique) {
        const next = md.indexOf(p, at + 1)
        expect(next).toBeGreaterThan(at)
        at = next
      }
    }
  )

  it.prop(
    "a heading's count never keeps a named section",
    [FastCheck.integer({ min: 0, max: 1_000_000 }), FastCheck.constantFrom("(n)", "n reviews for", "n")],
    ([n, shape]) => {
      const heading = shape === "(n)" ? `Reviews (${n})` : shape === "n" ? `${n} Reviews` : `${n} reviews for Kettle`
      const md = read(`<p>${prose(1)}</p><section><h2>${heading}</h2><p>Lovely.</p></section>`, {
        sectionNames: /^(?:reviews?|reviews? for\b.*)$/i
      })
      expect(md).toBe(prose(1))
    }
  )
})
