import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as HtmlDocument from "../src/internal/htmlDocument.js"
import * as ServicePage from "../src/internal/servicePage.js"
import * as StructuredData from "../src/internal/structuredData.js"
import * as MoreLinks from "../src/internal/moreLinks.js"
import * as MainContent from "../src/MainContent.js"

const parse = (html: string) => {
  const doc = HtmlDocument.parse(MainContent.stripInert(html))
  const scripts = Array.from(doc.querySelectorAll("script")).filter(StructuredData.isJsonLdScript)
  return {
    doc,
    context: {
      pageType: "service" as const,
      baseUrl: "https://acme.example/",
      title: undefined,
      structured: StructuredData.nodes(scripts)
    }
  }
}
const read = (html: string) => {
  const { context, doc } = parse(html)
  return ServicePage.read(doc, context)
}

const feature = (title: string, text: string) => `<div class="feature-card"><h3>${title}</h3><p>${text}</p></div>`
const tier = (name: string, price: string, perks: ReadonlyArray<string>) =>
  `<div class="plan"><h3>${name}</h3><p class="amount">${price}</p><ul>${perks.map((p) => `<li>${p}</li>`).join("")}` +
  `</ul><a class="btn" href="/signup?plan=${name.toLowerCase()}">Start free trial</a></div>`
const faq = (q: string, a: string) => `<details><summary>${q}</summary><p>${a}</p></details>`

const landing =
  `<html><body><div id="cookie-notice" class="cc-window"><p>We use cookies to give you the best experience. By ` +
  `continuing you agree to our cookie policy.</p><button>Accept all</button><button>Reject</button></div>` +
  `<header class="site-header"><a href="/">Acme</a><nav><a href="/product">Product</a><a href="/pricing">Pricing</a>` +
  `<a href="/login">Log in</a></nav></header><main>` +
  `<section class="hero"><header><h1>Ship invoices in seconds</h1></header><p>Acme turns your timesheets into ` +
  `invoices and chases the late ones for you.</p><a class="cta" href="/signup">Get started</a></section>` +
  `<section class="features"><h2>Features</h2>` +
  feature("Automatic reminders", "Late payers get a polite nudge on day 3, 7 and 14.") +
  feature("Multi-currency", "Bill in 40 currencies with rates updated hourly.") +
  feature("Bank sync", "Payments are matched to invoices as they arrive.") +
  `</section><section class="pricing"><h2>Pricing</h2>` +
  tier("Starter", "$0 / month", ["5 invoices a month", "Email reminders"]) +
  tier("Team", "$29 / month", ["Unlimited invoices", "Bank sync", "Priority support"]) +
  `</section><section class="faq"><h2>Frequently asked questions</h2>` +
  faq("Can I cancel anytime?", "Yes, plans are monthly and you can cancel from the billing page.") +
  faq("Do you store card numbers?", "No, payments go through our processor and never touch our servers.") +
  `</section></main><div class="footer-links"><a href="/about">About</a> <a href="/jobs">Jobs</a> ` +
  `<a href="/press">Press</a> <a href="/legal">Legal</a></div><footer><p>© 2025 Acme Inc.</p></footer></body></html>`

describe("service reader", () => {
  it("keeps hero, features, pricing tiers and FAQ in order; drops the cookie banner, nav, links, buttons and footer", () => {
    expect(read(landing)).toBe(
      [
        "# Ship invoices in seconds",
        "Acme turns your timesheets into invoices and chases the late ones for you.",
        "## Features",
        "### Automatic reminders",
        "Late payers get a polite nudge on day 3, 7 and 14.",
        "### Multi-currency",
        "Bill in 40 currencies with rates updated hourly.",
        "### Bank sync",
        "Payments are matched to invoices as they arrive.",
        "## Pricing",
        "### Starter",
        "$0 / month",
        "- 5 invoices a month\n- Email reminders",
        "### Team",
        "$29 / month",
        "- Unlimited invoices\n- Bank sync\n- Priority support",
        "## Frequently asked questions",
        "Can I cancel anytime?",
        "Yes, plans are monthly and you can cancel from the billing page.",
        "Do you store card numbers?",
        "No, payments go through our processor and never touch our servers."
      ].join("\n\n")
    )
  })

  it("leaves a misdetected article, mostly prose, to the article path, and its page untouched", () => {
    const paragraph =
      "Invoicing used to mean a spreadsheet, a template and an afternoon; the first tools to automate it came from " +
      "accountants who were tired of chasing their own clients for payment. "
    const html =
      `<html><head><meta property="og:type" content="article"></head><body><article><h1>How invoicing changed</h1>` +
      `<p>${paragraph.repeat(3)}</p><p>${paragraph.repeat(2)}</p><h2>Then came the cloud</h2><p>${paragraph}</p>` +
      `</article></body></html>`
    const { context, doc } = parse(html)
    const before = doc.documentElement.outerHTML
    expect(ServicePage.read(doc, context)).toBeUndefined()
    expect(doc.documentElement.outerHTML).toBe(before)
    expect(MainContent.fromHtml(html, { pageType: "service" }).method).not.toBe("reader")
  })

  it("is what MainContent answers for a page read as a service page", () => {
    const result = MainContent.fromHtml(landing, { pageType: "service", url: "https://acme.example/" })
    expect(result.method).toBe("reader")
    expect(result.markdown).not.toContain("cookie")
  })

  it("drops a copyright line wherever the page put it, and keeps a paragraph that only starts like one", () => {
    const law =
      "Copyright law protects the way an idea is expressed, not the idea itself: we help you register your designs " +
      "and enforce them when a competitor copies one, from the first letter we send to the day in court, if it comes."
    // No `main`: the page's body is what the reader reads, lines of small print and all.
    const md = read(
      `<html><body><div class="top-bar"><span>© 2025 Acme Inc. | All rights reserved</span></div>` +
        `<h1>Design protection</h1><p>We register and defend the designs of small studios.</p>` +
        `<section><h2>What we do</h2><p>${law}</p></section>` +
        `<div class="card"><h3>Copyright registration</h3><p>Filed in a week.</p></div>` +
        `<div class="bottom"><p>Copyright 2010-2025 Acme Inc.</p></div></body></html>`
    )!
    expect(md).not.toContain("2025 Acme")
    expect(md).not.toContain("rights reserved")
    expect(md).toContain(law)
    // A title that only starts like one (no year, no rights reserved) is the page's own.
    expect(md).toContain("### Copyright registration")
  })

  it('drops the bare "Learn more" links of their own line, and keeps longer ones and links in a sentence', () => {
    const md = read(
      `<html><body><main><h1>Acme services</h1>` +
        feature("Audits", "We audit your books every quarter.") +
        `<div class="card"><h3>Payroll</h3><p>Salaries paid on time, every time.</p><p><a href="/payroll">Learn more ` +
        `»</a></p></div><div class="card"><h3>Taxes</h3><p>Filed before the deadline.</p> <a href="/taxes">Read ` +
        `more</a> </div><div class="card"><h3>Advice</h3><p>Talk to an expert.</p><a href="/advice">Learn more ` +
        `about advice</a></div><p>Our prices are public: <a href="/pricing">see more</a> on the pricing page.</p>` +
        `</main></body></html>`
    )!
    expect(md).not.toContain("[Learn more »]")
    expect(md).not.toContain("[Read more]")
    expect(md).toContain("[Learn more about advice](https://acme.example/advice)")
    expect(md).toContain("Our prices are public: [see more](https://acme.example/pricing) on the pricing page.")
  })

  it.prop(
    'a bare "read more" link of its own line goes, one with any other word stays',
    [
      FastCheck.constantFrom("Read", "learn", "KNOW", "See", "find out", "Discover"),
      FastCheck.constantFrom("", ".", "»", " →", "..."),
      FastCheck.stringMatching(/^[a-z]{3,10}$/)
    ],
    ([verb, end, word]) => {
      const md = read(
        `<html><body><main><h1>Acme</h1><p>We keep books.</p><div><a href="/a">${verb} more${end}</a></div>` +
          `<div><a href="/b">${verb} more ${word}</a></div></main></body></html>`
      )!
      expect(md).not.toContain("(https://acme.example/a)")
      expect(md).toContain(`[${verb} more ${word}](https://acme.example/b)`)
    }
  )

  it("drops calls to action of their own line, and keeps links that name where they lead or sit in a sentence", () => {
    const button = (href: string, text: string) => `<div class="cta"><a href="${href}">${text}</a></div>`
    const md = read(
      `<html><body><main><h1>Acme ledger</h1>` +
        feature("Audits", "We audit your books every quarter.") +
        button("/start", "Get started") +
        button("/case", "Read the case study") +
        button("/trial", "Start your free trial →") +
        button("/details", "See details") +
        button("/pricing", "View pricing") +
        button("/sales", "Talk to sales") +
        button("/cli", "Get started with the CLI") +
        `<p>New here? <a href="/signup">Sign up</a> in a minute and import last year's books.</p>` +
        `</main></body></html>`
    )!
    for (const gone of ["/start", "/case", "/trial", "/details"])
      expect(md).not.toContain(`(https://acme.example${gone})`)
    expect(md).toContain("[View pricing](https://acme.example/pricing)")
    expect(md).toContain("[Talk to sales](https://acme.example/sales)")
    expect(md).toContain("[Get started with the CLI](https://acme.example/cli)")
    expect(md).toContain("[Sign up](https://acme.example/signup) in a minute")
  })

  it.prop(
    "a call to action goes on its own line whatever its case and trailing mark, and stays inside a sentence",
    [
      FastCheck.constantFrom(
        "Get started",
        "see details",
        "ORDER NOW",
        "Sign up",
        "Read our story",
        "Start your free trial"
      ),
      FastCheck.constantFrom("", ".", " »", " →", "!")
    ],
    ([text, end]) => {
      expect(MoreLinks.saysNothing(`${text}${end}`)).toBe(true)
      const md = read(
        `<html><body><main><h1>Acme</h1><p>We keep books.</p><div><a href="/a">${text}${end}</a></div>` +
          `<p>Ready? <a href="/b">${text}</a> today.</p></main></body></html>`
      )!
      expect(md).not.toContain("(https://acme.example/a)")
      expect(md).toContain("(https://acme.example/b) today.")
    }
  )

  it.prop(
    "any number of sections comes out in the order the page gives them",
    [
      FastCheck.uniqueArray(FastCheck.stringMatching(/^[A-Z][a-z]{3,12} [a-z]{3,12}$/), { minLength: 1, maxLength: 20 })
    ],
    ([titles]) => {
      const md = read(
        `<html><body><main>${titles.map((t, i) => `<section><h2>${t}</h2><p>Section ${i} in short.</p></section>`).join("")}` +
          `</main></body></html>`
      )!
      expect(md.split("\n").filter((l) => l.startsWith("## "))).toEqual(titles.map((t) => `## ${t}`))
    }
  )
})
