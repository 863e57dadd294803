import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Fetch from "@websearch/node/Fetch"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as SearXng from "../src/SearXng.js"
import * as SearXngWire from "../src/internal/searXngWire.js"
import * as Server from "./support/providerServer.js"

interface Fixture {
  readonly response: {
    readonly body: Record<string, unknown> & {
      readonly results: ReadonlyArray<{ readonly title: string; readonly content: string; readonly url: string }>
    }
  }
}

const fixture = Server.fixture<Fixture>("searxng.json")
const body = fixture.response.body

let server: Server.ProviderServer
let pages: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
  pages = await Server.start()
})
afterAll(async () => {
  await server.close()
  await pages.close()
})

type Options = NonNullable<Parameters<typeof Server.search>[4]>

const search = (keywords: ReadonlyArray<string>, options?: Options, layer: Server.ProviderLayer = SearXng.layer) =>
  Server.search(server, "searxng", layer, keywords, { capabilities: ["searchKeywords"], keys: [], ...options })

const basicAuth = { basicAuthUsername: "alice", basicAuthPassword: Server.canary }

const expected = (sourceInput: string) =>
  body.results.map((r) => ({ title: r.title, content: r.content, url: r.url, sourceInput }))

describe("SearXNG searchKeywords", () => {
  it("sends GET /search?q=&format=json&pageno=1 and decodes the recorded answer", async () => {
    server.handle = Server.json(body)
    server.requests.length = 0
    const response = Server.success(await search(["python"]))
    const sent = server.requests[0]
    expect(sent.method).toBe("GET")
    expect(sent.path).toBe("/search")
    expect(Object.fromEntries(sent.query)).toEqual({ q: "python", format: "json", pageno: "1" })
    expect(sent.headers.accept).toContain("application/json")
    expect(sent.headers.authorization).toBeUndefined()
    expect(response.results).toEqual(expected("python"))
    expect(response.query).toBe("python")
    expect(response.providerId).toBe("searxng")
  })

  it("sorts results by score, highest first, whatever order SearXNG sends them in", async () => {
    server.handle = Server.json({ ...body, results: [...body.results].reverse() })
    expect(Server.success(await search(["python"])).results).toEqual(expected("python"))
    // Scores as strings, and results without a score after the scored ones, in SearXNG's order.
    server.handle = Server.json({
      results: [
        { url: "https://a.example/", title: "A", content: "a" },
        { url: "https://b.example/", title: "B", content: "b", score: "0.5" },
        { url: "https://c.example/", title: "C", content: "c", score: null },
        { url: "https://d.example/", title: "D", content: "d", score: 2 },
        { title: "no url", content: "dropped", score: 99 }
      ]
    })
    const outcome = await search(["x"])
    expect(Server.success(outcome).results.map((r) => r.title)).toEqual(["D", "B", "A", "C"])
    expect(outcome.logs.some((l) => l.text.includes("dropped 1 result"))).toBe(true)
  })

  it("cuts the sorted list to maxResults", async () => {
    server.handle = Server.json({ ...body, results: [...body.results].reverse() })
    const response = Server.success(await search(["python"], { maxResults: 2 }))
    expect(response.results.map((r) => r.url)).toEqual([
      "https://www.python.org/",
      "https://wiki.nerdvpn.de/wiki/Python_(programming_language)"
    ])
  })

  it("asks the configured engines and sends basic auth when it is configured", async () => {
    server.handle = Server.json(body)
    server.requests.length = 0
    Server.success(await search(["python"], { override: { engines: ["google", "bing"], ...basicAuth } }))
    const sent = server.requests[0]
    expect(sent.query.get("engines")).toBe("google,bing")
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from(`alice:${Server.canary}`).toString("base64")}`)
  })

  it("explains a 403 HTML page as format=json disabled: Unavailable/invalid_config, not retryable", async () => {
    server.handle = Server.html(
      403,
      `<!doctype html>\n<html lang=en>\n<title>403 Forbidden</title>\n<h1>Forbidden</h1>\n<p>You don&#39;t have the permission to access the requested resource. It is either read-protected or not readable by the server.</p>\n`
    )
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({
      _tag: "Unavailable",
      reason: "invalid_config",
      retryable: false,
      providerId: "searxng"
    })
    expect(error.message).toContain("SearXNG refused format=json")
    expect(error.message).toContain("enable json in search.formats of the instance's settings.yml")
    expect(error.message).not.toContain("<h1>")
  })

  it("maps 401 to credentials_rejected naming the basic-auth settings, never the password", async () => {
    server.handle = Server.reply(401, `Unauthorized ${Server.canary}`, { "www-authenticate": 'Basic realm="searx"' })
    const outcome = await search(["a"], { override: basicAuth })
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(error.message).toContain("rejected the basic-auth credentials")
    expect(error.message).toContain("providers.searxng.basicAuthUsername")
    expect(error.message).not.toContain("API key")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
    const unauthenticated = Server.failure(await search(["a"]))
    expect(unauthenticated).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(unauthenticated.message).toContain("requires basic auth: set providers.searxng.basicAuthUsername")
  })

  it("maps a non-HTML 403 to credentials_rejected with basic auth, else to RequestFailed/http_403", async () => {
    server.handle = Server.reply(403, { error: "user not allowed" })
    const withAuth = await search(["a"], { override: basicAuth })
    expect(Server.failure(withAuth)).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(Server.failure(withAuth).message).toContain("basicAuthUsername")
    expect(Server.visible(withAuth)).not.toContain(Server.canary)
    const without = Server.failure(await search(["a"]))
    expect(without).toMatchObject({ _tag: "RequestFailed", reason: "http_403", retryable: false })
    expect(without.message).toContain("user not allowed")
  })

  it("maps the limiter's 429 to http_429 with retryAfter and a hint, and 5xx to http_5xx", async () => {
    server.handle = Server.reply(429, "Too Many Requests", { "retry-after": "9" })
    const limited = Server.failure(await search(["a"]))
    expect(limited).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 9 })
    expect(limited.message).toContain("rate limiting this client")
    expect(limited.message).toContain("limiter")
    server.handle = Server.html(502, "<html><body>Bad Gateway</body></html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "http_5xx", retryable: true })
  })

  it("fails when every engine failed instead of answering 'nothing found', and logs engines that failed beside results", async () => {
    server.handle = Server.json({ query: "a", results: [], unresponsive_engines: [["google", "timeout"]] })
    const timedOut = Server.failure(await search(["a"]))
    expect(timedOut).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx", retryable: true })
    expect(timedOut.message).toContain("every engine it asked failed: google (timeout)")
    server.handle = Server.json({
      results: [],
      unresponsive_engines: [
        ["google", "CAPTCHA"],
        ["bing", "too many requests"]
      ]
    })
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "rate_limited", retryable: true })
    server.handle = Server.json({ ...body, unresponsive_engines: [["brave", "Suspended: too many requests"]] })
    const partial = await search(["python"])
    expect(Server.success(partial).results).toHaveLength(4)
    expect(
      partial.logs.some((l) => l.level === "WARN" && l.text.includes("brave (Suspended: too many requests)"))
    ).toBe(true)
    server.handle = Server.json({ query: "zzz", results: [], unresponsive_engines: [] })
    expect(Server.success(await search(["zzz"])).results).toEqual([])
  })

  it("fails with ResponseInvalid/decode_failed on a 200 that is not SearXNG's JSON", async () => {
    server.handle = Server.html(200, "<html><body>login</body></html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({ results: "nope" })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
  })

  it("without an apiHost, fails invalid_config naming the setting and SEARXNG_API_HOST, sending nothing", async () => {
    server.requests.length = 0
    const error = Server.failure(await search(["a"], { capabilities: [] }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
    expect(error.message).toContain("providers.searxng.capabilities.searchKeywords.apiHost")
    expect(error.message).toContain("SEARXNG_API_HOST")
    expect(server.requests).toHaveLength(0)
  })

  it("never sends a key configured by mistake", async () => {
    server.handle = Server.json(body)
    server.requests.length = 0
    const outcome = await search(["a"], { keys: [Server.canary] })
    Server.success(outcome)
    expect(JSON.stringify(server.requests[0].headers) + server.requests[0].text).not.toContain(Server.canary)
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })
})

describe("SearXNG ordering", () => {
  const scored = FastCheck.array(
    FastCheck.option(FastCheck.oneof(FastCheck.double(), FastCheck.integer({ min: 0, max: 3 })), { nil: undefined }),
    { maxLength: 30 }
  ).map((scores) => scores.map((score, id) => ({ id, score })))

  it.prop("byScore is a stable permutation with finite scores first, in descending order", [scored], ([items]) => {
    const sorted = SearXngWire.byScore(items)
    expect([...sorted].sort((a, b) => a.id - b.id)).toEqual([...items].sort((a, b) => a.id - b.id))
    const finite = (s: number | undefined) => typeof s === "number" && Number.isFinite(s)
    for (let i = 1; i < sorted.length; i++) {
      const [prev, next] = [sorted[i - 1], sorted[i]]
      if (finite(next.score)) {
        expect(finite(prev.score)).toBe(true)
        expect(prev.score as number).toBeGreaterThanOrEqual(next.score as number)
      }
      const same = finite(prev.score) ? prev.score === next.score : !finite(next.score)
      if (same) expect(items.indexOf(prev)).toBeLessThan(items.indexOf(next))
    }
  })
})

describe("SearXNG with fetchResults", () => {
  const article = (sentence: string) =>
    `<!doctype html><html><head><title>Page</title></head><body><main><article><h1>Heading</h1>` +
    `<p>${sentence} ${"Filler words make this a real article body. ".repeat(20)}</p></article></main></body></html>`

  const withFetch = (options: SearXng.Options = {}): Server.ProviderLayer =>
    Layer.mergeAll(SearXng.layerWith({ fetchResults: true, fetchProviderId: "fetch", ...options }), Fetch.layer)

  const answerWith = (urls: ReadonlyArray<string>) =>
    Server.json({
      results: urls.map((url, index) => ({ url, title: `T${index}`, content: `snippet ${index}`, score: 10 - index }))
    })

  const allowPages = (extra: Options = {}): Options => ({
    ...extra,
    settings: { ...extra.settings, urlPolicy: { allowHosts: [pages.hostPort] } }
  })

  it("replaces each snippet with its page's text, keeping the snippet of pages that fail or are refused", async () => {
    pages.requests.length = 0
    pages.handle = Server.route(
      [(r) => r.path === "/ok", Server.html(200, article("The unique sentence of the first page."))],
      [(r) => r.path === "/broken", Server.html(500, "<html>down</html>")]
    )
    // A loopback port that is not allowlisted: the URL policy refuses it before any connection.
    const refused = "http://127.0.0.1:1/private"
    server.handle = answerWith([`${pages.url}/ok`, `${pages.url}/broken`, refused])
    const outcome = await search(["q"], allowPages(), withFetch())
    const results = Server.success(outcome).results
    expect(results.map((r) => r.url)).toEqual([`${pages.url}/ok`, `${pages.url}/broken`, refused])
    expect(results[0].title).toBe("T0")
    expect(results[0].content).toContain("The unique sentence of the first page.")
    expect(results[0].content).not.toBe("snippet 0")
    expect(results[1].content).toBe("snippet 1")
    expect(results[2].content).toBe("snippet 2")
    expect(pages.requests.map((r) => r.path).sort()).toEqual(["/broken", "/ok"])
    expect(outcome.logs.some((l) => l.text.includes(`kept the snippet of ${pages.url}/broken`))).toBe(true)
    expect(
      outcome.logs.some(
        (l) => l.text.includes("kept the snippet of http://127.0.0.1") && l.text.includes("ssrf_rejected")
      )
    ).toBe(true)
  })

  it("keeps the pages fetched in time and the snippets of the rest when a page hangs, never failing the search", async () => {
    pages.handle = Server.route(
      [(r) => r.path === "/ok", Server.html(200, article("Fetched in time."))],
      [(r) => r.path === "/slow", () => undefined]
    )
    server.handle = answerWith([`${pages.url}/ok`, `${pages.url}/slow`])
    const outcome = await search(["q"], allowPages({ settings: { timeouts: { searchKeywords: 6000 } } }), withFetch())
    // A success at all shows it: the search's own timeout is 6 s, the hanging page's fetch timeout 15 s, and the
    // search gave the pages only its share of the 6 s (room for the extraction worker's cold start: HTML is
    // always extracted off the main thread).
    const results = Server.success(outcome).results
    expect(results[0].content).toContain("Fetched in time.")
    expect(results[1].content).toBe("snippet 1")
    expect(outcome.logs.some((l) => l.text.includes("stopped fetching pages"))).toBe(true)
  })

  it("is turned on by the settings too (providers.searxng.fetchResults), with the default Layer", async () => {
    pages.handle = Server.html(200, article("Read because the settings asked."))
    server.handle = answerWith([`${pages.url}/settings`])
    const outcome = await search(
      ["q"],
      allowPages({ override: { fetchResults: true }, settings: { defaults: { fetchUrls: "fetch" } } }),
      Layer.mergeAll(SearXng.layer, Fetch.layer)
    )
    expect(Server.success(outcome).results[0].content).toContain("Read because the settings asked.")
  })

  it("fetches nothing without fetchResults, and keeps every snippet when no fetch provider is usable", async () => {
    pages.requests.length = 0
    pages.handle = Server.html(200, article("never read"))
    server.handle = answerWith([`${pages.url}/a`])
    const plain = Server.success(await search(["q"], allowPages()))
    expect(plain.results[0].content).toBe("snippet 0")
    const off = Server.success(await search(["q"], allowPages(), withFetch({ fetchResults: false })))
    expect(off.results[0].content).toBe("snippet 0")
    expect(pages.requests).toHaveLength(0)
    // The fetch provider is not composed: the search still answers, with the problem logged as a warning that
    // names the providers that are composed.
    const unregistered = await search(
      ["q"],
      allowPages(),
      SearXng.layerWith({ fetchResults: true, fetchProviderId: "fetch" })
    )
    expect(Server.success(unregistered).results[0].content).toBe("snippet 0")
    expect(
      unregistered.logs.some(
        (l) =>
          l.level === "WARN" &&
          l.text.includes("Unavailable/unknown_provider") &&
          l.text.includes('unknown provider "fetch": no composed provider has this id (composed: searxng)')
      )
    ).toBe(true)
    expect(pages.requests).toHaveLength(0)
  })
})
