import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as CollectionPage from "../src/internal/collectionPage.js"
import * as HtmlDocument from "../src/internal/htmlDocument.js"
import * as ItemGrid from "../src/internal/itemGrid.js"
import * as SectionPass from "../src/internal/sectionPass.js"
import * as StructuredData from "../src/internal/structuredData.js"
import * as MainContent from "../src/MainContent.js"

const parse = (html: string, pageType: "collection" | "listing" = "collection") => {
  const doc = HtmlDocument.parse(MainContent.stripInert(html))
  const scripts = Array.from(doc.querySelectorAll("script")).filter(StructuredData.isJsonLdScript)
  return {
    doc,
    context: {
      pageType,
      baseUrl: "https://shop.example/c/kettles",
      title: undefined,
      structured: StructuredData.nodes(scripts)
    }
  }
}
const read = (html: string, pageType: "collection" | "listing" = "collection") => {
  const { context, doc } = parse(html, pageType)
  return CollectionPage.read(doc, context)
}

const card = (name: string, price: string) =>
  `<div class="product-card"><a href="/p/${name.toLowerCase().replace(/\W+/g, "-")}"><img src="/i.jpg" alt="${name}">` +
  `<h3>${name}</h3></a><span class="price">${price}</span><button>Add to cart</button>` +
  `<a class="wishlist" href="/wishlist/add">♡</a></div>`

// A category grid: facets and a sort control beside the grid, pagination and a "recently viewed" rail below it.
const category =
  `<html><body><header><nav><a href="/">Shop</a> <a href="/kitchen">Kitchen</a></nav></header><main>` +
  `<nav class="breadcrumbs"><a href="/">Home</a> / Kettles</nav><h1>Kettles</h1>` +
  `<p>Stovetop and electric kettles in steel, glass and enamel.</p><div class="layout">` +
  `<aside class="facets"><h2>Filter by</h2><ul><li><a href="?m=steel">Steel (12)</a></li>` +
  `<li><a href="?m=glass">Glass (4)</a></li></ul></aside>` +
  `<div class="toolbar"><span>24 products</span><label>Sort by</label><select><option>Featured</option></select></div>` +
  `<div class="product-list filter-results">${card("Steel Kettle 2L", "€39.90")}${card("Glass Kettle 1.7L", "€29.90")}` +
  `${card("Enamel Kettle 1L", "€34.50")}${card("Travel Kettle 0.5L", "€19.90")}</div>` +
  `<nav class="pagination"><a href="?page=1">1</a> <a href="?page=2">2</a> <a href="?page=2">Next</a></nav>` +
  `<section class="recently-viewed"><h2>Recently viewed</h2>${card("Teapot", "€15")}</section></div></main>` +
  `<footer>© Shop</footer></body></html>`

// A search results page: each result a title link, a date and a snippet.
const result = (title: string, day: number) =>
  `<li class="result"><h3><a href="/articles/${day}">${title}</a></h3><span class="date">March ${day}, 2025</span>` +
  `<p>How ${title.toLowerCase()} changes the way a kitchen works, from the first boil to the last cup.</p></li>`
const search =
  `<html><body><form role="search"><input name="q" value="kettle"><button>Search</button></form><main>` +
  `<h1>Results for “kettle”</h1><p class="count">About 1,240 results</p><ol class="results">` +
  `${result("Induction kettles", 3)}${result("Descaling made simple", 9)}${result("Whistles and why", 21)}</ol>` +
  `<div class="pager"><a href="?p=2">Next page</a></div></main></body></html>`

describe("collection and listing reader", () => {
  it("keeps a category's items as they come, without facets, sort controls, pagination or rails", () => {
    const md = read(category)!
    expect(md).toBe(
      `# Kettles\n\nStovetop and electric kettles in steel, glass and enamel.\n\n` +
        `### [Steel Kettle 2L](https://shop.example/p/steel-kettle-2l)\n\n€39.90\n\n` +
        `### [Glass Kettle 1.7L](https://shop.example/p/glass-kettle-1-7l)\n\n€29.90\n\n` +
        `### [Enamel Kettle 1L](https://shop.example/p/enamel-kettle-1l)\n\n€34.50\n\n` +
        `### [Travel Kettle 0.5L](https://shop.example/p/travel-kettle-0-5l)\n\n€19.90`
    )
  })

  it("drops the controls a card draws as links, not an item's own words", () => {
    const linkCard = (name: string) =>
      `<div class="card"><h3><a href="/p/${name}">${name} kettle</a></h3><span>€20</span>` +
      `<a class="btn" href="/cart?add=${name}">Add to  Cart</a><div class="qv"><a href="#q">Quick view</a></div>` +
      `<a href="/p/${name}">Choose options</a><a href="/p/${name}#compare">Compare prices</a></div>`
    const md = read(
      `<html><body><main><h1>Kettles</h1><div class="grid">${["steel", "glass", "enamel"].map(linkCard).join("")}</div></main></body></html>`
    )!
    expect(md).toContain("### [steel kettle](https://shop.example/p/steel)")
    expect(md).toContain("Compare prices")
    expect(md).not.toMatch(/Add to|Quick view|Choose options/)
  })

  it("drops a card's badges and calls to action, not a heading that says the same", () => {
    const badged = (name: string) =>
      `<div class="card"><span class="badge">New</span><span class="flag">Top Rated</span><h3><a href="/p/${name}">` +
      `${name} kettle</a></h3><span>€20</span><span>Only 2 left!</span><p>Sponsored</p>` +
      `<a href="/p/${name}">Shop now</a><a href="/p/${name}">More options</a></div>`
    const md = read(
      `<html><body><main><h1>Kettles</h1><h2>New</h2><div class="grid">${["steel", "glass", "enamel"].map(badged).join("")}` +
        `</div></main></body></html>`
    )!
    expect(md).toContain("### [glass kettle](https://shop.example/p/glass)\n\n€20")
    expect(md).toContain("## New")
    expect(md).not.toMatch(/Top Rated|Only 2|Sponsored|Shop now|More options|^New$/m)
  })

  it("drops a grid's tally and its cards' review-count links, not a category's count", () => {
    const rated = (name: string, reviews: string) =>
      `<div class="card"><h3><a href="/p/${name}">${name} kettle</a></h3><span>€20</span>` +
      `<a href="/p/${name}#reviews">${reviews}</a></div>`
    const md = read(
      `<html><body><main><h1>Kettles</h1><p>Showing 1–24 of 296 results</p><div>Products (143)</div>` +
        `<p><a href="/c/steel">Steel kettles</a> (12)</p><div class="grid">${rated("steel", "(132)")}` +
        `${rated("glass", "28 Reviews")}${rated("enamel", "1,204 ratings")}</div></main></body></html>`
    )!
    expect(md).toContain("### [enamel kettle](https://shop.example/p/enamel)\n\n€20")
    expect(md).toContain("(12)")
    expect(md).not.toMatch(/Showing|Products \(|132|28 Reviews|1,204/)
  })

  it("drops a card's links to pictures, not its links to pages", () => {
    const swatched = (name: string) =>
      `<div class="card"><h3><a href="/p/${name}">${name} pack</a></h3><span>€90</span>` +
      `<a href="/img/${name}-red.webp?v=2">Red (Dyneema)</a><a href="/img/${name}-teal.JPG">Teal</a></div>`
    const md = read(
      `<html><body><main><h1>Packs</h1><div class="grid">${["trail", "ridge", "summit"].map(swatched).join("")}` +
        `</div></main></body></html>`
    )!
    expect(md).toContain("### [ridge pack](https://shop.example/p/ridge)\n\n€90")
    expect(md).not.toMatch(/Dyneema|Teal/)
    // A gallery item whose title links to its picture keeps it.
    const gallery = read(
      `<html><body><main><h1>Photos</h1><div class="grid">${["dawn", "dusk", "noon"]
        .map(
          (n) =>
            `<div class="card"><a href="/photos/${n}.jpg">Harbour cranes at ${n}</a><span>€${n.length}0</span></div>`
        )
        .join("")}</div></main></body></html>`
    )!
    expect(md).not.toContain("Harbour")
    expect(gallery).toContain("Harbour cranes at dusk")
  })

  it("leaves a card's table cells and times as they are, whatever they repeat", () => {
    const specced = (name: string) =>
      `<div class="card"><h3><a href="/p/${name}">${name} speaker</a></h3><span>€90</span><table>` +
      `<tr><th>Waterproof</th><td>Yes</td></tr><tr><th>Bluetooth</th><td>Yes</td></tr>` +
      `<tr><th>Battery</th><td>10 h</td></tr><tr><th>Charge</th><td>10 h</td></tr></table></div>`
    const md = read(
      `<html><body><main><h1>Speakers</h1><div class="grid">${["tide", "reef", "cove"].map(specced).join("")}` +
        `</div></main></body></html>`
    )!
    expect(md).toMatch(/Bluetooth \| Yes/)
    expect(md).toMatch(/Charge \| 10 h/)
  })

  it("reads a card's title and price once where the card draws them twice", () => {
    const doubled = (name: string, regular: string, sale: string) =>
      `<li class="card"><a class="media" href="/p/${name}">${name} kettle</a><h3><a href="/p/${name}">${name} kettle</a>` +
      `</h3><div class="price"><span class="regular">${regular}</span><span class="sale">${sale}</span></div></li>`
    const md = read(
      `<html><body><main><h1>Kettles</h1><ul class="grid">${doubled("steel", "€20", "€20")}` +
        `${doubled("glass", "€30", "€25")}${doubled("enamel", "€15", "€15")}</ul></main></body></html>`
    )!
    expect(md).toContain("- ### [steel kettle](https://shop.example/p/steel)\n\n  €20\n- ### [glass kettle]")
    expect(md).toContain("€30€25")
    expect(md.match(/steel kettle/g)).toHaveLength(1)
  })

  it("spaces a card's brand and name where its style sheet does, not a word's emphasis", () => {
    const branded = (brand: string, name: string) =>
      `<li class="tile"><a href="/p/${name}"><span class="brand">${brand}</span><span class="name">${name} Pack</span>` +
      `</a><span>€90</span><p>Fits the i<b>Phone</b> and the Mc<i>Kinley</i> frame</p></li>`
    const md = read(
      `<html><body><main><h1>Packs</h1><ul class="grid">${branded("Gregory", "Paragon")}${branded("Osprey", "Rook")}` +
        `${branded("HOKA", "Clifton")}</ul></main></body></html>`
    )!
    expect(md).toContain("[Gregory Paragon Pack](https://shop.example/p/Paragon)")
    expect(md).toContain("[HOKA Clifton Pack](https://shop.example/p/Clifton)")
    expect(md).toContain("i**Phone** and the Mc_Kinley_")
  })

  it("leaves the repeats of an item too large to be a card", () => {
    const section = (name: string) =>
      `<div><h3><a href="/p/${name}">${name}</a></h3><p>${"Kettles boil water for tea. ".repeat(25)}</p>` +
      `<p>Weight:</p><p>1 kg</p><p>Weight:</p><p>2 kg</p></div>`
    const md = read(
      `<html><body><main><h1>Kettles</h1><div>${["steel", "glass", "enamel"].map(section).join("")}</div></main></body></html>`
    )!
    expect(md.match(/Weight:/g)?.length).toBeGreaterThanOrEqual(6)
  })

  it("drops a shop's rail of recent blog posts, not a listing's", () => {
    const post = (n: number) =>
      `<div class="post"><h3><a href="/blog/${n}">Caring for kettle number ${n}</a></h3><p>Tips on descaling.</p></div>`
    const page = (type: "collection" | "listing") =>
      read(
        `<html><body><main><h1>Kettles</h1><div class="grid">${card("Steel Kettle 2L", "€39.90")}` +
          `${card("Glass Kettle 1.7L", "€29.90")}${card("Enamel Kettle 1L", "€34.50")}</div>` +
          `<section><h2>Recent Posts</h2>${post(1)}${post(2)}</section></main></body></html>`,
        type
      )!
    expect(page("collection")).not.toContain("Caring for kettle")
    expect(page("listing")).toContain("Caring for kettle number 2")
  })

  it("drops a shop's announcement bar, one message per currency", () => {
    const bar =
      `<div class="promo-bar"><span class="promo-bar__text"><p>Free shipping on orders $40+</p></span>` +
      `<span class="promo-bar__text"><p>Free shipping on orders 65€ or more</p></span></div>` +
      `<div class="announcementBar"><p>Sale ends Sunday</p></div>`
    const md = read(
      `<html><body><main>${bar}<h1>Kettles</h1><div class="grid">${card("Steel Kettle 2L", "€39.90")}` +
        `${card("Glass Kettle 1.7L", "€29.90")}${card("Enamel Kettle 1L", "€34.50")}</div>` +
        `<p class="promo-price">Every kettle ships free in a week.</p></main></body></html>`
    )!
    expect(md).not.toMatch(/Free shipping|Sale ends/)
    expect(md).toContain("Every kettle ships free in a week.")
    expect(md).toContain("Glass Kettle 1.7L")
  })

  it("drops a site's footer and header drawn without their elements, not a card's footer", () => {
    const story = (n: number) =>
      `<div class="card"><h3><a href="/news/${n}">Kettle story number ${n}</a></h3>` +
      `<p>How kettle number ${n} changed the way a small kitchen boils water, from the first cup to the last.</p>` +
      `<div class="card__footer"><a href="/by/ann">Ann Lee</a> on Mar 0${n}</div></div>`
    const links = ["About us", "Careers", "Press", "Help", "Returns"].map((t) => `<li><a href="/${t}">${t}</a></li>`)
    const md = read(
      `<html><body><main><div class="site-header"><a href="/s">Stores</a> <a href="/in">Sign in</a> ` +
        `<a href="/up">Register</a> <a href="/g">Gift cards</a></div>` +
        `<h1>Kettle news</h1><div class="grid">${[1, 2, 3].map(story).join("")}</div>` +
        `<div class="navFooterLinkCol"><div>Get to know us</div><ul>${links.join("")}</ul></div></main></body></html>`,
      "listing"
    )!
    expect(md).toContain("[Ann Lee](https://shop.example/by/ann) on Mar 03")
    expect(md).not.toMatch(/Get to know us|Careers|Sign in|Gift cards/)
  })

  it("keeps a search listing's results with their dates and snippets", () => {
    const md = read(search, "listing")!
    expect(md).toContain("# Results for “kettle”")
    expect(md).toContain("1. ### [Induction kettles](https://shop.example/articles/3)")
    expect(md).toContain("March 21, 2025")
    expect(md).toContain("How descaling made simple changes the way a kitchen works")
    expect(md).not.toContain("Next page")
    expect(md).not.toContain("Search")
  })

  it("leaves an article without an item grid to the article path, and its page untouched", () => {
    const prose =
      "The kettle took its modern form in the nineteenth century, when cast iron gave way to copper and then to " +
      "steel; the whistle came later, borrowed from the steam engine. "
    const html =
      `<html><head><meta property="og:type" content="article"></head><body><article><h1>A short history of ` +
      `kettles</h1><p>${prose.repeat(3)}</p><p>${prose.repeat(2)}</p></article><ul class="related">` +
      `<li><a href="/a">Teapots</a></li><li><a href="/b">Mugs</a></li><li><a href="/c">Cups</a></li></ul></body></html>`
    const { context, doc } = parse(html, "listing")
    const before = doc.documentElement.outerHTML
    expect(CollectionPage.read(doc, context)).toBeUndefined()
    expect(doc.documentElement.outerHTML).toBe(before)
  })

  it("is what MainContent answers for a page read as a collection", () => {
    const result = MainContent.fromHtml(category, { pageType: "collection", url: "https://shop.example/c/kettles" })
    expect(result.method).toBe("reader")
    expect(result.markdown).toContain("[Travel Kettle 0.5L](https://shop.example/p/travel-kettle-0-5l)")
  })

  it.prop(
    "every item of a grid is kept, in order",
    [
      FastCheck.uniqueArray(FastCheck.stringMatching(/^[A-Z][a-z]{2,10}( [A-Z][a-z]{2,10}){1,3}$/), {
        minLength: 3,
        maxLength: 30
      })
    ],
    ([names]) => {
      const md = read(
        `<html><body><main><h1>All</h1><ul class="grid">${names
          .map((n, i) => `<li class="tile"><a href="/p/${i}">${n}</a> <span>$${i + 1}.00</span></li>`)
          .join("")}</ul></main></body></html>`
      )!
      let at = -1
      for (const name of names) {
        const next = md.indexOf(`[${name}]`, at + 1)
        expect(next).toBeGreaterThan(at)
        at = next
      }
    }
  )
})

describe("item grid", () => {
  const grid = (html: string) => {
    const doc = HtmlDocument.parse(`<html><body>${html}</body></html>`)
    const page = SectionPass.survey(doc)!
    return ItemGrid.find(page.root, page)
  }

  it("finds the run of linked items holding the most text", () => {
    const found = grid(
      `<ul class="menu"><li><a href="/a">Home</a></li><li><a href="/b">Shop</a></li><li><a href="/c">Help</a></li></ul>` +
        `<div class="cards">${card("Steel Kettle 2L", "€39.90")}${card("Glass Kettle 1.7L", "€29.90")}` +
        `${card("Enamel Kettle 1L", "€34.50")}</div>`
    )
    expect(found?.parent.getAttribute("class")).toBe("cards")
    expect(found?.items).toHaveLength(3)
  })

  it("takes items of one shape whatever their state classes say", () => {
    const found = grid(
      `<div>${["is-first odd", "even", "odd", "even is-last"].map((s, i) => `<article class="entry ${s}"><a href="/${i}">` + `Entry number ${i} of the archive</a></article>`).join("")}</div>`
    )
    expect(found?.items).toHaveLength(4)
  })

  it("finds no grid in a menu's short entries or a thread's posts", () => {
    expect(
      grid(`<ul>${["Home", "Shop", "Help", "Blog"].map((w) => `<li><a href="/${w}">${w}</a></li>`).join("")}</ul>`)
    ).toBeUndefined()
    const post = (who: string) =>
      `<div class="post"><a href="/u/${who}">${who}</a><p>${"A long reply that argues its point at length, ".repeat(6)}</p></div>`
    expect(grid(`<div class="thread">${post("ada")}${post("grace")}${post("alan")}</div>`)).toBeUndefined()
  })
})
