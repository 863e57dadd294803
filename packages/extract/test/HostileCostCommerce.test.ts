import { describe, expect, it } from "@effect/vitest"
import * as GridLead from "../src/internal/gridLead.js"
import * as HtmlDocument from "../src/internal/htmlDocument.js"
import type * as PageType from "../src/PageType.js"
import * as MainContent from "../src/MainContent.js"
import { cost } from "./support/cost.js"

// The readers of product, collection, listing and service pages (the section pass, the item grid, the product's
// structured data), priced as HostileCost.test.ts prices the rest: each hostile body against a benign body of about
// the same size through the same entry point, the page's type forced so that the reader runs whatever the detector
// would say. A linear pass costs about the same on both; a quadratic one costs hundreds of times more.

const as =
  (pageType: PageType.PageType, body: string, head = "") =>
  () =>
    MainContent.fromHtml(`<html><head>${head}</head><body>${body}</body></html>`, {
      pageType,
      url: "https://shop.example/p/1"
    })

const kib = 1024
const fill = (pattern: string, size: number) => pattern.repeat(Math.ceil(size / pattern.length)).slice(0, size)
const jsonLd = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`
// Class names of distinct letters (names holding digits are no shape), one per element.
const letters = (i: number): string => {
  let out = ""
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) out = String.fromCharCode(97 + ((n - 1) % 26)) + out
  return out
}

// Page-type detection's look at a page's item grid, without a reader.
const leads = (body: string) => () => GridLead.leads(HtmlDocument.parse(`<html><body>${body}</body></html>`), "listing")
const prose = "lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore."
const teasers = '<div><a href="/s"><h3>A story of the day</h3></a></div>'.repeat(20)

interface Case {
  readonly name: string
  readonly hostile: () => unknown
  readonly benign: () => unknown
}

const cases: ReadonlyArray<Case> = [
  {
    // Each heading leads every ancestor that starts with it: named once, each ancestor weighed in constant time.
    name: "a product page whose named sections are nested 2 000 deep",
    hostile: as(
      "product",
      `<h1>Kettle</h1>${"<div><h2>Reviews</h2><p>lorem ipsum dolor</p>".repeat(2000)}${"</div>".repeat(2000)}`
    ),
    benign: as("product", `<h1>Kettle</h1>${"<div><h2>Reviews</h2><p>lorem ipsum dolor</p></div>".repeat(2000)}`)
  },
  {
    // A heading's text is collapsed once, however much space its text nodes hold and however many ancestors it
    // leads.
    name: "a named heading of 256 KiB of spaces leading 1 000 ancestors",
    hostile: as(
      "product",
      `${"<div>".repeat(1000)}<h2>Reviews${" ".repeat(256 * kib)}(12)</h2>${"</div>".repeat(1000)}<p>x</p>`
    ),
    benign: as(
      "product",
      `${"<div>".repeat(1000)}<h2>Reviews (12)</h2>${"</div>".repeat(1000)}<p>${fill("lorem ipsum ", 256 * kib)}</p>`
    )
  },
  {
    // A cookie banner's first line is read once per text, however many ancestors start with it.
    name: "a cookie notice leading 2 000 nested blocks",
    hostile: as(
      "service",
      `${"<div>".repeat(2000)}<p>We use cookies on this site.</p>${"</div>".repeat(2000)}<p>x</p>`
    ),
    benign: as("service", `${"<div><p>We use cookies on this site.</p></div>".repeat(2000)}<p>x</p>`)
  },
  {
    // A copyright line is told apart by the same first-line reading as a cookie notice: once per text.
    name: "a copyright line leading 2 000 nested blocks",
    hostile: as("service", `${"<div>".repeat(2000)}<p>© 2025 Acme Inc.</p>${"</div>".repeat(2000)}<p>x</p>`),
    benign: as("service", `${"<div><p>© 2025 Acme Inc.</p></div>".repeat(2000)}<p>x</p>`)
  },
  {
    // Each "Read more" link looks at its own text and one or two neighbours: 20 000 of them in one parent, beside
    // as many blank text nodes, cost what as many ordinary links do.
    name: '20 000 "Read more" links in one parent',
    hostile: as(
      "service",
      `<main><h1>All</h1><p>lorem ipsum</p><div>${'<a href="/a">Read more</a> '.repeat(20_000)}</div></main>`
    ),
    benign: as(
      "service",
      `<main><h1>All</h1><p>lorem ipsum</p><div>${'<a href="/a">Item page</a> '.repeat(20_000)}</div></main>`
    )
  },
  {
    // Siblings are grouped by shape once per parent: 20 000 shapes cost what one does.
    name: "a grid of 20 000 siblings of distinct shapes",
    hostile: as(
      "collection",
      `<main><h1>All</h1><div>${Array.from({ length: 20_000 }, (_, i) => `<div class="${letters(i)}"><a href="/p">Item name here</a></div>`).join("")}</div></main>`
    ),
    benign: as(
      "collection",
      `<main><h1>All</h1><div>${Array.from({ length: 20_000 }, (_, i) => `<div class="${letters(i % 3)}"><a href="/p">Item name here</a></div>`).join("")}</div></main>`
    )
  },
  {
    // Leaf blocks are compared by their text once each: 10 000 copies cost what 10 000 distinct blocks do.
    name: "10 000 copies of one block",
    hostile: as(
      "listing",
      `<main>${`<p><a href="/a">${fill("lorem ipsum dolor ", 400)}</a></p>`.repeat(10_000)}</main>`
    ),
    benign: as(
      "listing",
      `<main>${Array.from({ length: 10_000 }, (_, i) => `<p><a href="/a">${letters(i)} ${fill("lorem ipsum dolor ", 400 - 1 - letters(i).length)}</a></p>`).join("")}</main>`
    )
  },
  {
    // A link is turned inside out once, at its first heading, however many it holds and however deep.
    name: "a link around 5 000 nested headings",
    hostile: as(
      "collection",
      `<main><a href="/p">${"<div><h3>Item</h3>".repeat(5000)}${"</div>".repeat(5000)}</a></main>`
    ),
    benign: as("collection", `<main>${'<div><a href="/p"><h3>Item</h3></a></div>'.repeat(5000)}</main>`)
  },
  {
    // A card's control is matched on its one text node, once per element, however deep the labels nest.
    name: "5 000 nested elements each ending in a control's label",
    hostile: as(
      "collection",
      `<main>${'<div><a href="/p">Item</a>'.repeat(5000)}<a href="/c">Add to cart</a>${"</div>".repeat(5000)}</main>`
    ),
    benign: as(
      "collection",
      `<main>${'<div><a href="/p">Item</a><a href="/c">Add to cart</a></div>'.repeat(5000)}</main>`
    )
  },
  {
    // A card is walked once, whether a text is in a heading carried down the walk: a text 20 000 elements deep in a
    // card's heading costs what 20 000 empty elements side by side do.
    name: "a grid card's price 20 000 elements deep in its heading",
    hostile: as(
      "collection",
      `<main><ul>${'<li><a href="/p">Mug one</a> $9</li>'.repeat(3)}<li><a href="/p">Mug</a> $9<h3>${"<span>".repeat(20_000)}$9${"</span>".repeat(20_000)}</h3></li></ul></main>`
    ),
    benign: as(
      "collection",
      `<main><ul>${'<li><a href="/p">Mug one</a> $9</li>'.repeat(3)}<li><a href="/p">Mug</a> $9<h3>${"<span></span>".repeat(20_000)}$9</h3></li></ul></main>`
    )
  },
  {
    // Cards are runs of small items: runs nested in one another hold ever fewer characters, so a node is in a few
    // cards at most. 4 000 rows of three small cards each, nested, cost what side-by-side rows do.
    name: "4 000 nested rows of small cards",
    hostile: as(
      "collection",
      `<main>${'<div><p><a href="/p">Mug</a>Mug Blue</p><p><a href="/p">Cup</a>Cup Red</p><p><a href="/p">Jar</a>Jar Tall</p>'.repeat(4000)}${"</div>".repeat(4000)}</main>`
    ),
    benign: as(
      "collection",
      `<main>${'<div><p><a href="/p">Mug</a>Mug Blue</p><p><a href="/p">Cup</a>Cup Red</p><p><a href="/p">Jar</a>Jar Tall</p></div>'.repeat(4000)}</main>`
    )
  },
  {
    // A link's href is cut at its query once and its end looked at: picture endings repeated over 256 KiB cost what
    // letters do.
    name: "a card link whose href repeats a picture's ending over 256 KiB",
    hostile: as("collection", `<main><a href="/${fill("a.jpg", 256 * kib)}x">Red</a></main>`),
    benign: as("collection", `<main><a href="/${fill("abcde", 256 * kib)}x">Red</a></main>`)
  },
  {
    // An announcement bar is looked for once per element, top-down, and not looked into once found.
    name: "5 000 nested promo bars",
    hostile: as(
      "collection",
      `<main>${'<div class="promo-bar"><a href="/p">Item</a>'.repeat(5000)}${"</div>".repeat(5000)}</main>`
    ),
    benign: as("collection", `<main>${'<div class="promo-bar"><a href="/p">Item</a></div>'.repeat(5000)}</main>`)
  },
  {
    // A footer is looked for once per element, top-down, and not looked into once found.
    name: "5 000 nested footers",
    hostile: as(
      "collection",
      `<main>${'<div class="footer"><a href="/p">Item</a>'.repeat(5000)}${"</div>".repeat(5000)}</main>`
    ),
    benign: as("collection", `<main>${'<div class="footer"><a href="/p">Item</a></div>'.repeat(5000)}</main>`)
  },
  {
    // A product's microdata is read from its own properties, not from the items nested in it.
    name: "a microdata product holding 2 000 nested items",
    hostile: as(
      "product",
      `<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Kettle</h1>${'<div itemprop="isRelatedTo" itemscope itemtype="https://schema.org/Product"><span itemprop="name">lorem ipsum</span>'.repeat(2000)}${"</div>".repeat(2001)}`
    ),
    benign: as(
      "product",
      `<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Kettle</h1>${'<div itemprop="isRelatedTo" itemscope itemtype="https://schema.org/Product"><span itemprop="name">lorem ipsum</span></div>'.repeat(2000)}</div>`
    )
  },
  {
    // A description is looked at for markup with a bounded pattern: tag openings without an end cost what words do.
    name: "a JSON-LD description of 256 KiB of tag openings without an end",
    hostile: as(
      "product",
      `<div id="root"></div>`,
      jsonLd({ "@type": "Product", name: "Kettle", description: fill("<ab", 256 * kib) })
    ),
    benign: as(
      "product",
      `<div id="root"></div>`,
      jsonLd({ "@type": "Product", name: "Kettle", description: fill("a b", 256 * kib) })
    )
  },
  {
    // A rail's frame is looked for once per ancestor: rails nested 2 000 deep, each of three priced cards beside the
    // next, cost what 2 000 rails side by side do.
    name: "rails of priced cards nested 2 000 deep",
    hostile: as(
      "product",
      `<h1>Kettle</h1>${'<div class="rail">' + '<div class="card"><a href="/p">Mug</a> $9</div>'.repeat(3)}`.repeat(
        2000
      ) + "</div>".repeat(2000)
    ),
    benign: as(
      "product",
      `<h1>Kettle</h1>${`<div class="rail">${'<div class="card"><a href="/p">Mug</a> $9</div>'.repeat(3)}</div>`.repeat(2000)}`
    )
  },
  {
    // Siblings are grouped by tag once per parent, and told alike by one count of their shapes.
    name: "20 000 priced cards of distinct shapes in one parent",
    hostile: as(
      "product",
      `<h1>Kettle</h1><div>${Array.from({ length: 20_000 }, (_, i) => `<div class="${letters(i)}"><a href="/p">Mug</a> $9</div>`).join("")}</div>`
    ),
    benign: as(
      "product",
      `<h1>Kettle</h1><div>${Array.from({ length: 20_000 }, (_, i) => `<p class="${letters(i)}">Mug and more $9</p>`).join("")}</div>`
    )
  },
  {
    // Dialogs are removed whole, at the outermost, and identifiers tested on short texts only.
    name: "2 000 nested dialogs and 50 000 identifiers",
    hostile: as(
      "product",
      `<h1>Kettle</h1>${'<div role="dialog"><p>lorem ipsum</p>'.repeat(2000)}${"</div>".repeat(2000)}` +
        "<span>0b4f5e2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b</span>".repeat(50_000)
    ),
    benign: as(
      "product",
      `<h1>Kettle</h1>${"<div><p>lorem ipsum</p></div>".repeat(2000)}` +
        "<span>0b4f5e2a 1c3d 4e5f 8a9b 0c1d2e3f4a5b</span>".repeat(50_000)
    )
  },
  {
    // A hidden block's words are counted in one scan of its text.
    name: "a hidden panel of 512 KiB of spaces between letters",
    hostile: as("product", `<h1>Kettle</h1><div hidden><p>${fill("a ", 512 * kib)}</p></div>`),
    benign: as("product", `<h1>Kettle</h1><div><p>${fill("ab", 512 * kib)}</p></div>`)
  },
  {
    // Whether a grid leads (page-type detection's question): each paragraph is added to its parent's sum once,
    // however deep the paragraphs' parents are nested.
    name: "a grid's lead over 5 000 paragraphs of prose nested each in the last one's block",
    hostile: leads(`${`<div><p>${prose}</p>`.repeat(5000)}${"</div>".repeat(5000)}${teasers}`),
    benign: leads(`${`<div><p>${prose}</p></div>`.repeat(5000)}${teasers}`)
  }
]

describe("hostile bodies cost the page readers about what benign ones of the same size do", () => {
  for (const c of cases) {
    it(c.name, { timeout: 120_000 }, () => {
      const benign = cost(c.benign)
      const hostile = cost(c.hostile)
      expect(hostile).toBeLessThan(Math.max(benign, 1) * 10)
    })
  }
})
