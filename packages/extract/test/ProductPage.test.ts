import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as HtmlDocument from "../src/internal/htmlDocument.js"
import * as ProductData from "../src/internal/productData.js"
import * as ProductPage from "../src/internal/productPage.js"
import * as StructuredData from "../src/internal/structuredData.js"
import * as MainContent from "../src/MainContent.js"

/** The page parsed as the dispatcher hands it to a reader, with its JSON-LD read. */
const parse = (html: string) => {
  const doc = HtmlDocument.parse(MainContent.stripInert(html))
  const scripts = Array.from(doc.querySelectorAll("script")).filter(StructuredData.isJsonLdScript)
  const context = {
    pageType: "product" as const,
    baseUrl: "https://shop.example/p/kettle",
    title: undefined,
    structured: StructuredData.nodes(scripts)
  }
  return { doc, context }
}
const read = (html: string) => {
  const { context, doc } = parse(html)
  return ProductPage.read(doc, context)
}
const jsonLd = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`

const description =
  "A stovetop kettle of brushed steel that whistles when the water boils, with a handle that stays cool and a " +
  "wide mouth for easy cleaning."
const product = {
  "@context": "https://schema.org",
  "@type": "Product",
  name: "Steel Kettle 2L",
  brand: { "@type": "Brand", name: "Acme" },
  sku: "KT-200",
  description,
  offers: { "@type": "Offer", price: "39.90", priceCurrency: "EUR", availability: "https://schema.org/InStock" },
  aggregateRating: { "@type": "AggregateRating", ratingValue: 4.6, reviewCount: 212 },
  additionalProperty: [
    { "@type": "PropertyValue", name: "Capacity", value: "2 L" },
    { "@type": "PropertyValue", name: "Material", value: "Stainless steel" }
  ]
}

describe("product reader", () => {
  it("reads a JavaScript shell's product from its JSON-LD alone", () => {
    const md = read(
      `<html><head><title>Steel Kettle</title>${jsonLd(product)}</head><body><div id="root"></div>` +
        `<script src="/app.js"></script></body></html>`
    )
    expect(md).toBe(
      `# Steel Kettle 2L\n\nBrand: Acme · SKU: KT-200 · Price: 39.90 EUR · In stock · Rating: 4.6 out of 5 (212 ` +
        `reviews)\n\n${description}\n\n| Property | Value |\n| --- | --- |\n| Capacity | 2 L |\n| Material | ` +
        `Stainless steel |`
    )
  })

  it("shows the name once when a thin page shows it", () => {
    const md = read(
      `<html><head>${jsonLd(product)}</head><body><h1>Steel Kettle 2L</h1><div id="root"></div></body></html>`
    )
    expect(md?.match(/Steel Kettle 2L/g)).toHaveLength(1)
    expect(md).toContain("Price: 39.90 EUR")
  })

  it("reads microdata where the visible page holds little", () => {
    const md = read(
      `<html><body><div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Steel Kettle 2L</h1>` +
        `<meta itemprop="sku" content="KT-200"><div itemprop="offers" itemscope itemtype="https://schema.org/Offer">` +
        `<meta itemprop="price" content="39.90"><meta itemprop="priceCurrency" content="EUR">` +
        `<link itemprop="availability" href="https://schema.org/OutOfStock"></div>` +
        `<div itemprop="review" itemscope itemtype="https://schema.org/Review"><meta itemprop="name" content="Meh">` +
        `</div></div></body></html>`
    )
    expect(md).toContain("SKU: KT-200 · Price: 39.90 EUR · Out of stock")
    expect(md).not.toContain("Meh")
  })

  it("keeps the description, bullets and spec tables in tabs; drops reviews, rails, cart form and breadcrumbs", () => {
    const md = read(
      `<html><head>${jsonLd(product)}</head><body><header><nav><a href="/">Shop</a></nav></header>` +
        `<ol class="breadcrumb"><li><a href="/">Home</a></li><li><a href="/kitchen">Kitchen</a></li></ol><main>` +
        `<h1>Steel Kettle 2L</h1><p class="price">€39.90</p>` +
        `<form action="/cart/add"><select name="qty"><option>1</option></select><button>Add to cart</button></form>` +
        `<div class="tabs"><div class="tab-panel"><h2>Description</h2><p>${description}</p><ul><li>Whistles when ` +
        `ready</li><li>Cool-touch handle</li></ul></div><div class="tab-panel" hidden><h2>Specifications</h2>` +
        `<table><tr><th>Capacity</th><td>2 L</td></tr><tr><th>Material</th><td>Stainless steel, brushed, with a ` +
        `copper-clad base that spreads the heat evenly over gas, electric and induction hobs alike, and a ` +
        `heat-resistant phenolic handle that stays cool while the kettle boils</td></tr></table></div>` +
        `<div class="tab-panel" hidden id="reviews"><h2>Reviews (212)</h2><p>Best kettle I ever owned, it boils ` +
        `fast and whistles loud enough to hear from the garden, would buy again.</p></div></div>` +
        `<section><h2>Customers also bought</h2><ul><li><a href="/p/mug">Mug</a> €9</li><li><a href="/p/tea">Tea` +
        `</a> €5</li></ul></section></main><footer>© Acme</footer></body></html>`
    )
    expect(md).toContain("# Steel Kettle 2L")
    expect(md).toContain("€39.90")
    expect(md).toContain(description)
    expect(md).toContain("- Cool-touch handle")
    expect(md).toContain("| Capacity | 2 L |")
    for (const gone of ["Home", "Kitchen", "Add to cart", "Best kettle", "Reviews", "Mug", "Customers also", "©"]) {
      expect(md).not.toContain(gone)
    }
  })

  // A card of another product: its name linked to its page, a price, a rating.
  const card = (name: string, price: string, cls = "card") =>
    `<div class="${cls}"><a href="/p/${name.toLowerCase().replace(/\W+/g, "-")}"><h3>${name}</h3></a>` +
    `<span>${price}</span><span>4.5 stars</span></div>`
  const shell = (rest: string) =>
    `<html><body><main><h1>Steel Kettle 2L</h1><p class="price">€39.90</p><p>${description}</p>${rest}</main>` +
    `</body></html>`

  it("drops a rail of other products' cards, whatever its heading says, with its heading", () => {
    const md = read(
      shell(
        `<section><h2>Handpicked for you</h2><div class="row">${card("Copper Mug", "€9.00")}` +
          `${card("Tea Tin", "€5.50")}${card("Teapot Deluxe", "€49.00", "card card-first")}` +
          `${card("Milk Jug", "€12.00")}</div><a href="/recs">See all</a></section>`
      )
    )
    expect(md).toContain("# Steel Kettle 2L")
    expect(md).toContain(description)
    for (const gone of ["Handpicked", "Copper Mug", "Tea Tin", "Teapot", "Milk Jug", "See all"]) {
      expect(md).not.toContain(gone)
    }
  })

  it("keeps the product's own purchase options, add-ons of their own shapes and runs without prices", () => {
    const md = read(
      shell(
        `<div class="buy"><div class="option"><h3>Kettle alone</h3><span>€39.90</span><a href="javascript:add(1)">` +
          `Add</a></div><div class="option"><h3>Kettle and two mugs</h3><span>€49.90</span><a role="button" ` +
          `href="/cart?add=2">Add</a></div><div class="option"><h3>Kettle, mugs and tea</h3><span>€59.90</span>` +
          `<a href="#add-3">Add</a></div></div>` +
          `<div class="extras"><div class="a"><a href="/p/filter">Spare filter</a> for hard water, €4</div><div ` +
          `class="b"><a href="/p/lid">Spare lid</a> with its seal, €6</div><div class="c"><a href="/p/base">Spare ` +
          `base</a> for induction, €19</div></div>` +
          `<ul class="guides"><li><a href="/g/descale">How to descale</a>: monthly, with vinegar</li><li><a ` +
          `href="/g/water">Which water to use</a>: filtered</li><li><a href="/g/whistle">The whistle</a>: oil ` +
          `it yearly</li></ul>`
      )
    )
    for (const kept of ["Kettle and two mugs", "€59.90", "Spare filter", "Spare base", "How to descale"]) {
      expect(md).toContain(kept)
    }
  })

  it("never takes the product's own region for a rail", () => {
    const md = read(
      `<html><body><main><div class="grid"><div class="cell"><h1><a href="/p/kettle">Steel Kettle 2L</a></h1>` +
        `<span>€39.90</span></div>${card("Copper Mug", "€9")}${card("Tea Tin", "€5")}${card("Milk Jug", "€12")}` +
        `</div><p>${description}</p></main></body></html>`
    )
    expect(md).toContain("Steel Kettle 2L")
    expect(md).toContain("€39.90")
  })

  it("never takes what holds the product's name for a block of links", () => {
    const links = Array.from({ length: 12 }, (_, i) => `<li><a href="/c/${i}">Kettles and teapots ${i}</a></li>`)
    const md = read(
      `<html><body><form><div class="hero"><h1>Steel Kettle 2L</h1><p>Boils fast.</p></div>` +
        `<ul>${links.join("")}</ul></form></body></html>`
    )
    expect(md).toContain("# Steel Kettle 2L")
    expect(md).toContain("Boils fast.")
  })

  it.prop(
    "a rail is told by its cards' prices in any currency",
    [FastCheck.constantFrom("$", "€", "£", "¥", "₹", "USD ", "EUR "), FastCheck.integer({ min: 1, max: 99_999 })],
    ([currency, amount]) => {
      const price = `${currency}${amount}`
      const md = read(shell(`<div>${card("Copper Mug", price)}${card("Tea Tin", price)}${card("Jug", price)}</div>`))
      expect(md).toContain(description)
      expect(md).not.toContain("Copper Mug")
    }
  )

  it("drops dialogs and bare identifiers, and reads a rail's cards without them", () => {
    const notice =
      "Promoted items are selected based on what we think may interest you, and they generate revenue for us. " +
      "We use a variety of relevance factors, including the pages you visit and the items you look at."
    const adCard = (name: string) =>
      `<li><a href="/p/${name}"></a><h3>${name}</h3><span>$8.03</span><span>` +
      `${"<span>0b4f5e2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b</span><span>S</span>".repeat(12)}</span>` +
      `<div role="dialog" hidden><h2>Why you're seeing this ad</h2><p>${notice}</p></div></li>`
    const md = read(
      shell(
        `<div role="dialog" aria-modal="true"><h2>Notify me when back in stock</h2><p>${notice}</p></div>` +
          `<ul>${adCard("Tunic")}${adCard("Blouse")}${adCard("Vest")}</ul>`
      )
    )
    expect(md).toContain(description)
    for (const gone of ["Notify me", "Promoted items", "0b4f5e2a", "Tunic", "Blouse"]) expect(md).not.toContain(gone)
  })

  it("drops sections named as rails or as the seller's reviews, and keeps a bare 'Recommended'", () => {
    const section = (heading: string, body: string) => `<section><h2>${heading}</h2><p>${body}</p></section>`
    const md = read(
      shell(
        section("People who viewed this item also viewed", "Copper mug and tea tin") +
          section("Explore related items", "Spare lids for every kettle") +
          section("Sponsored products related to this item", "A toaster") +
          section("Seller feedback (7,310)", "Great seller, fast shipping") +
          section("This is what customers who viewed this product bought", "A kettle of another brand") +
          section("Best sellers", "The kettle of the year") +
          section("Recommended", "A gas or induction hob of at least 2 kW")
      )
    )
    for (const gone of ["viewed", "Copper", "Spare lids", "toaster", "Great seller", "another brand", "year"]) {
      expect(md).not.toContain(gone)
    }
    expect(md).toContain("## Recommended")
    expect(md).toContain("induction hob")
  })

  it("adds the structured description after the name where the visible page lacks it", () => {
    const md = read(
      `<html><head>${jsonLd(product)}</head><body><main><h1>Steel Kettle 2L</h1><p>€39.90 — in stock, ships in ` +
        `two days from our warehouse; free returns within thirty days of delivery for every order.</p>` +
        `<p>Questions? Our team answers within a day, every day of the week, by mail or on the phone, and our ` +
        `guides show how to descale a kettle, what water to use and how to keep the whistle working.</p>` +
        `</main></body></html>`
    )
    expect(md).toMatch(new RegExp(`^# Steel Kettle 2L\\n\\n${description}\\n\\n€39.90`))
  })

  it("leaves a misdetected article to the article path, and its page untouched", () => {
    const html =
      `<html><head>${jsonLd({ "@type": "NewsArticle", headline: "Kettles" })}</head><body><article><h1>Kettles` +
      `</h1><p>${description.repeat(4)}</p></article><div class="reviews">x</div></body></html>`
    const { context, doc } = parse(html)
    const before = doc.documentElement.outerHTML
    expect(ProductPage.read(doc, context)).toBeUndefined()
    expect(doc.documentElement.outerHTML).toBe(before)
  })

  it("is what MainContent answers for a page read as a product", () => {
    const result = MainContent.fromHtml(
      `<html><head>${jsonLd(product)}</head><body><div id="app"></div></body></html>`,
      {
        pageType: "product"
      }
    )
    expect(result.method).toBe("reader")
    expect(result.pageType).toBe("product")
    expect(result.markdown).toContain("Price: 39.90 EUR")
  })

  it.prop(
    "the structured data's text is the page's text: never markup in the markdown",
    [FastCheck.string({ maxLength: 200 }), FastCheck.string({ maxLength: 400 })],
    ([name, text]) => {
      const md = read(
        `<html><head>${jsonLd({ ...product, name, description: text })}</head><body><div id="root"></div></body></html>`
      )
      // A tag-like text is escaped (`\<script>`), as Markdown.fromNode escapes any page's text.
      expect(md ?? "").not.toMatch(/(?<!\\)<[A-Za-z!/?]/)
    }
  )
})

describe("product data", () => {
  it("reads a product group's offers from its variants, a price range and a rating count", () => {
    const group = ProductData.fromJsonLd([
      { "@type": "Organization", name: "Acme" },
      {
        "@type": ["ProductGroup"],
        name: "Tee",
        brand: "Acme",
        hasVariant: [
          {
            "@type": "Product",
            offers: { "@type": "AggregateOffer", lowPrice: 12, highPrice: 18, priceCurrency: "USD" }
          }
        ],
        aggregateRating: { ratingValue: "4", bestRating: "10", ratingCount: "7" }
      }
    ])
    expect(group).toEqual({
      name: "Tee",
      brand: "Acme",
      description: undefined,
      sku: undefined,
      price: "12–18 USD",
      availability: undefined,
      rating: "4 out of 10 (7 reviews)",
      properties: []
    })
  })

  it("renders an HTML description as the page's markup is rendered", () => {
    const doc = HtmlDocument.parse("<html><body></body></html>")
    const element = ProductData.toElement(
      doc,
      { ...ProductData.fromJsonLd([product])!, description: "<p>Boils <b>fast</b>.</p><ul><li>2 L</li></ul>" },
      { name: false, facts: false, description: true, properties: false }
    )
    expect(element.textContent).toBe("Boils fast.2 L")
    expect(element.querySelector("li")?.textContent).toBe("2 L")
  })

  it("has no product without a product type", () => {
    expect(ProductData.fromJsonLd([{ "@type": "WebPage", name: "x" }])).toBeUndefined()
    const doc = HtmlDocument.parse(
      `<html><body><div itemscope itemtype="https://schema.org/Person">x</div></body></html>`
    )
    expect(ProductData.fromMicrodata(doc.body!)).toBeUndefined()
  })
})
