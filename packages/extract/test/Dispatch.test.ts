import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Extract from "../src/Extract.js"
import * as Dispatch from "../src/internal/dispatch.js"
import * as HtmlDocument from "../src/internal/htmlDocument.js"
import type * as TypedPage from "../src/internal/typedPage.js"
import * as MainContent from "../src/MainContent.js"
import { prose } from "./support/pages.js"

// A thread marked up as schema.org says (microdata), with posts that have an author and a time.
const thread = `<html><head><title>How do layers compose? - Example Forum</title></head><body>
<div itemscope itemtype="https://schema.org/DiscussionForumPosting">
<h1 itemprop="headline">How do layers compose?</h1>
${["ada", "grace", "alan"]
  .map(
    (who, i) =>
      `<div class="post"><div class="post-author"><a href="/u/${who}">${who}</a></div>` +
      `<time datetime="2024-01-0${i + 1}">Jan ${i + 1}, 2024</time><div class="post-body"><p>Post ${i} by ${who}: ` +
      `a layer builds a service from its dependencies, and composing layers wires them together.</p></div></div>`
  )
  .join("")}
</div></body></html>`

const product = `<html><head><title>Blue kettle</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Blue kettle",
"offers":{"@type":"Offer","price":"29.99","priceCurrency":"EUR"}}</script></head><body>
<h1>Blue kettle</h1><p class="price">29,99 €</p><button>Add to cart</button>
<p>A kettle that boils a litre of water in three minutes, with a blue enamel finish and a wooden handle.</p>
</body></html>`

const article = `<html><head><title>Layers</title></head><body><article><h1>Layers</h1>${prose(6)}</article></body></html>`

const parse = (html: string) => HtmlDocument.parse(MainContent.stripInert(html))

describe("page-type detection", () => {
  it("reads an article as an article, a thread marked as DiscussionForumPosting as a forum, a Product as a product", () => {
    expect(MainContent.fromHtml(article, { url: "https://example.com/blog/layers" }).pageType).toBe("article")
    expect(MainContent.fromHtml(thread, { url: "https://example.com/t/layers/12" }).pageType).toBe("forum")
    expect(MainContent.fromHtml(product, { url: "https://example.com/kettle" }).pageType).toBe("product")
  })

  it("takes the type the caller forces, and says so", () => {
    const forced = MainContent.fromHtml(thread, { url: "https://example.com/t/layers/12", pageType: "article" })
    expect(forced.pageType).toBe("article")
    expect(forced.markdown).toContain("Post 0 by ada")
    const other = MainContent.fromHtml(article, { pageType: "other" })
    expect(other.pageType).toBe("other")
    expect(other.markdown).toContain("Paragraph 5")
  })

  it("puts the type on the extracted document, and passes a forced one through", () => {
    const input = { body: new TextEncoder().encode(thread), contentType: "text/html", url: "https://example.com/t/1" }
    const detected = Extract.extractSync(input)
    expect(Either.isRight(detected) && detected.right.pageType).toBe("forum")
    const forced = Extract.extractSync(input, { pageType: "documentation" })
    expect(Either.isRight(forced) && forced.right.pageType).toBe("documentation")
  })
})

describe("the dispatcher", () => {
  const options = (readers: Partial<Record<string, TypedPage.Reader>>) => ({
    url: "https://example.com/t/layers/12",
    baseUrl: "https://example.com/t/layers/12",
    forced: undefined,
    readers
  })

  it("runs the reader of the detected type with the page's title, base and structured data", () => {
    const seen: Array<TypedPage.Context> = []
    const doc = parse(product)
    const out = Dispatch.dispatch(doc, {
      ...options({ product: (_doc, context) => (seen.push(context), "# Blue kettle\n\n29.99 EUR") }),
      url: "https://example.com/kettle"
    })
    expect(out.pageType).toBe("product")
    expect(out.read?.markdown).toBe("# Blue kettle\n\n29.99 EUR")
    expect(out.read?.metadata.title).toBe("Blue kettle")
    expect(seen).toHaveLength(1)
    expect(seen[0].pageType).toBe("product")
    expect(seen[0].baseUrl).toBe("https://example.com/t/layers/12")
    expect(seen[0].structured.map((n) => n["@type"])).toEqual(["Product"])
  })

  it("leaves the page to the article path when the reader declines, or when the type has no reader", () => {
    const declined = Dispatch.dispatch(parse(thread), options({ forum: () => undefined }))
    expect(declined).toMatchObject({ pageType: "forum", read: undefined, touched: false })
    const none = Dispatch.dispatch(parse(thread), options({ product: () => "never run" }))
    expect(none).toMatchObject({ pageType: "forum", read: undefined, touched: false })
  })

  it("counts an answer without a letter or digit as none, and says the page may have been changed", () => {
    const doc = parse(thread)
    const out = Dispatch.dispatch(
      doc,
      options({
        forum: (page) => {
          page.body?.replaceChildren()
          return " \n- \n"
        }
      })
    )
    expect(out).toMatchObject({ pageType: "forum", read: undefined, touched: true })
  })

  it("makes a fresh parse of the page what the page became (shown, prepared), for positions found in one", () => {
    const served =
      `<html><body><div id="app"></div><noscript><div class="tabs"><div role="tabpanel"><p>${"npm install. ".repeat(50)}` +
      `</p></div><div role="tabpanel" hidden><p>pnpm add.</p></div></div></noscript></body></html>`
    const doc = parse(served)
    const out = Dispatch.dispatch(doc, {
      ...options({}),
      forced: "documentation",
      preparers: { documentation: (page) => page.body?.querySelector("[hidden]")?.removeAttribute("hidden") }
    })
    const fresh = out.redo(parse(served))
    expect(fresh.body?.innerHTML).toBe(doc.body?.innerHTML)
    expect(fresh.body?.querySelector("noscript")).toBeNull()
    expect(fresh.body?.querySelector("[hidden]")).toBeNull()
  })

  it("runs the forced type's reader instead of the detected one's", () => {
    const out = Dispatch.dispatch(parse(article), {
      ...options({ forum: () => "read as a forum" }),
      forced: "forum"
    })
    expect(out.pageType).toBe("forum")
    expect(out.read?.markdown).toBe("read as a forum")
  })
})
