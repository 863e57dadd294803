import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as DuckDuckGo from "../src/DuckDuckGo.js"
import * as DuckDuckGoWire from "../src/internal/duckDuckGoWire.js"
import * as DuckDuckGoPage from "../src/internal/duckDuckGoPage.js"
import * as Server from "./support/providerServer.js"

const page = Server.fixture<string>("duckduckgo.html")

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options?: Parameters<typeof Server.search>[4]) =>
  Server.search(server, "duckduckgo", DuckDuckGo.layer, keywords, { capabilities: ["searchKeywords"], ...options })

const input = "cats & dogs comparison"

// DuckDuckGo's challenge page, as served (trimmed) to clients it takes for bots.
const anomalyPage = `<!DOCTYPE html><html><head><title>DuckDuckGo</title></head><body>
<div class="anomaly-modal__mask"><div class="anomaly-modal__modal">
<div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>
<div class="anomaly-modal__description">Please complete the following challenge to confirm this search was made by a human.</div>
<form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=html&amp;cc=botnet&amp;ti=1" method="POST"></form>
</div></div></body></html>`

const resultsPage = (items: string) =>
  `<html><body><div id="links" class="results">${items}</div><div class="nav-link"></div></body></html>`

const item = (href: string, title: string, snippet: string, extraClass = "") =>
  `<div class="result results_links results_links_deep web-result ${extraClass}"><div class="links_main result__body">` +
  `<h2 class="result__title"><a rel="nofollow" class="result__a" href="${href}">${title}</a></h2>` +
  `<a class="result__snippet" href="${href}">${snippet}</a></div></div>`

describe("DuckDuckGo searchKeywords", () => {
  it("posts the HTML form with a browser User-Agent and decodes the recorded page", async () => {
    server.handle = Server.html(200, page)
    server.requests.length = 0
    const response = Server.success(await search([input]))
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/html/")
    expect(sent.headers["content-type"]).toContain("application/x-www-form-urlencoded")
    expect(sent.headers["user-agent"]).toBe(DuckDuckGoWire.userAgent)
    expect(sent.headers.authorization).toBeUndefined()
    expect(Object.fromEntries(new URLSearchParams(sent.text))).toEqual({ q: input, b: "", kl: "wt-wt" })
    expect(response.query).toBe(input)
    expect(response.results).toEqual([
      {
        title: "Cats v dogs: Here's who's smarter, according to science",
        content:
          "There's more research on canines than felines, so dogs' abilities are better known. And, of course, studying pet cats is hard because they don't like to go to new places, like a laboratory for example (think of how they hide whenever the cat carrier comes out).",
        url: "https://www.sciencefocus.com/nature/cats-v-dogs-heres-whos-smarter-according-to-science",
        sourceInput: input
      },
      {
        title: "Cat vs Dog - Difference and Comparison | Diffen",
        content:
          "Cat vs Dog comparison. Cats and dogs are the most popular pets in the world. Cats are more independent and are generally cheaper and less demanding pets. Dogs are loyal and obedient but require more attention and exercise, including regular walks. How to choose When choosing b...",
        url: "https://www.diffen.com/difference/Cat_vs_Dog",
        sourceInput: input
      },
      {
        title: "The Great Debate: Cats vs. Dogs — Exploring the Age-Old Rivalry",
        content:
          "Discover the unique qualities of cats and dogs in the ultimate pet debate. Learn what makes each a great companion and find out which pet is best suited for your lifestyle.",
        url: "https://tica.org/blogs/the-great-debate-cats-vs-dogs/",
        sourceInput: input
      },
      {
        title: "Cats vs. Dogs, a Comprehensive Comparison - HubPages",
        content:
          "It's a classic debate: dogs vs cats. In this article, we explore the key differences between these popular pets, including their unique personalities, social behaviors, and physical characteristics, to help you decide which one is right for you.",
        url: "https://discover.hubpages.com/animals/Dogs-vs-Cats-Is-One-Really-Better-Than-the-Other",
        sourceInput: input
      },
      {
        title: "Wrapped Result",
        content: "A wrapped hit & its snippet.",
        url: "https://real.example.com/page?a=1&b=2",
        sourceInput: input
      }
    ])
  })

  it("cuts the page's list to maxResults", async () => {
    server.handle = Server.html(200, page)
    const response = Server.success(await search([input], { maxResults: 2 }))
    expect(response.results.map((r) => r.url)).toEqual([
      "https://www.sciencefocus.com/nature/cats-v-dogs-heres-whos-smarter-according-to-science",
      "https://www.diffen.com/difference/Cat_vs_Dog"
    ])
  })

  it("skips ads and anything outside #links, unwraps https redirects, and drops non-http targets", async () => {
    const html =
      `<html><body><div class="sidebar">${item("https://outside.example/", "Outside", "not a result")}</div>` +
      `<div id="links" class="results">` +
      item("https://duckduckgo.com/y.js?ad_domain=shop.example&u3=x", "An ad", "buy", "result--ad") +
      item("https://duckduckgo.com/l/?uddg=https%3A%2F%2Fa.example%2Fx%3Fy%3D1&amp;rut=1", "A", "first") +
      item("//duckduckgo.com/l/?uddg=javascript%3Aalert(1)&amp;rut=2", "Script", "dropped") +
      item("/html/?q=more", "Internal", "dropped") +
      item("http://b.example/", "B &amp; co", "second <b>bold</b>") +
      `</div></body></html>`
    server.handle = Server.html(200, html)
    const outcome = await search(["q"])
    expect(Server.success(outcome).results).toEqual([
      { title: "A", content: "first", url: "https://a.example/x?y=1", sourceInput: "q" },
      { title: "B & co", content: "second bold", url: "http://b.example/", sourceInput: "q" }
    ])
    expect(outcome.logs.some((l) => l.text.includes("dropped 2 result(s)"))).toBe(true)
  })

  it("answers no results for DuckDuckGo's no-results page", async () => {
    server.handle = Server.html(200, resultsPage(`<div class="no-results">No results.</div>`))
    expect(Server.success(await search(["zzzqqq"])).results).toEqual([])
  })

  it("maps 202 and the anomaly page to RequestFailed/rate_limited, retryable, with no invented retryAfter", async () => {
    server.handle = Server.html(202, anomalyPage)
    const challenged = Server.failure(await search(["a"]))
    expect(challenged).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: true })
    expect(challenged.retryAfter).toBeUndefined()
    expect(challenged.message).toContain("rate limiting this client (HTTP 202)")
    expect(challenged.message).not.toContain("API key")
    server.handle = Server.html(200, anomalyPage)
    const disguised = Server.failure(await search(["a"]))
    expect(disguised).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: true })
    expect(disguised.message).toContain("bot challenge")
    server.handle = Server.html(202, "", { "retry-after": "30" })
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "rate_limited", retryAfter: 30 })
  })

  it("maps 403 and redirects to rate_limited, 429 to http_429 with retryAfter, 5xx to http_5xx", async () => {
    server.handle = Server.html(403, "<html><body>Forbidden</body></html>")
    const forbidden = Server.failure(await search(["a"]))
    expect(forbidden).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: true })
    expect(forbidden.message).not.toContain("<html>")
    server.handle = Server.html(302, "", { location: "https://duckduckgo.com/anomaly" })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited" })
    server.handle = Server.html(429, "Too Many Requests", { "retry-after": "5" })
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "http_429", retryable: true, retryAfter: 5 })
    server.handle = Server.html(500, "<html>oops</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "http_5xx", retryable: true })
  })

  it("fails with ResponseInvalid/decode_failed on a page without a result list", async () => {
    server.handle = Server.json({ not: "html" })
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    expect(error.message).toContain("#links")
    server.handle = Server.html(200, "<html><body><p>Something else</p></body></html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "decode_failed" })
  })

  it("never sends or shows a key configured by mistake", async () => {
    server.handle = Server.html(403, `<html>${Server.canary}</html>`)
    server.requests.length = 0
    const outcome = await search(["a"], { keys: [Server.canary] })
    Server.failure(outcome)
    const sent = server.requests[0]
    expect(JSON.stringify(sent.headers) + sent.text).not.toContain(Server.canary)
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })
})

describe("DuckDuckGo result links", () => {
  it.prop(
    "a redirect link unwraps to its target, with or without a scheme, and a direct link is itself",
    [FastCheck.webUrl({ validSchemes: ["http", "https"], withQueryParameters: true, withFragments: true })],
    ([target]) => {
      const expected = new URL(target).href
      const encoded = encodeURIComponent(target)
      expect(DuckDuckGoPage.targetUrl(`//duckduckgo.com/l/?uddg=${encoded}&rut=abc`)).toBe(expected)
      expect(DuckDuckGoPage.targetUrl(`https://duckduckgo.com/l/?uddg=${encoded}`)).toBe(expected)
      if (!new URL(target).hostname.endsWith("duckduckgo.com")) expect(DuckDuckGoPage.targetUrl(target)).toBe(expected)
    }
  )

  it.prop(
    "no href yields a non-http(s) target, nor a DuckDuckGo page other than through its redirect",
    [FastCheck.oneof(FastCheck.string(), FastCheck.webUrl(), FastCheck.constant("https://duckduckgo.com/y.js?ad=1"))],
    ([href]) => {
      const target = DuckDuckGoPage.targetUrl(href)
      if (target !== undefined) {
        const url = new URL(target)
        expect(["http:", "https:"]).toContain(url.protocol)
        if (!href.includes("uddg")) expect(url.hostname.endsWith("duckduckgo.com")).toBe(false)
      }
    }
  )
})
