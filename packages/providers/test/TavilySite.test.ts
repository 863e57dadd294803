/**
 * Tavily's `mapSite` and `crawlSite` over real HTTP against a loopback server replaying the recorded-style
 * fixtures: the bodies sent (the site's host and the path patterns as Tavily's regular expressions), the links and
 * pages read, what Tavily cannot honour refused before any request, its refusals mapped, and the key kept out of
 * every error, log line and span.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as PathPattern from "@websearch/core/internal/pathPattern"
import * as FastCheck from "effect/FastCheck"
import * as HostedSite from "../src/internal/hostedSite.js"
import * as Tavily from "../src/Tavily.js"
import * as Server from "./support/providerServer.js"
import * as Site from "./support/siteDriver.js"

type Json = Server.FixtureJson

const mapFixture = Server.fixture<Json>("tavily_map.json")
const crawlFixture = Server.fixture<Json>("tavily_crawl.json")

const rt = Site.runtime()
let server: Server.ProviderServer
let driver: ProviderDriver.AnyProviderDriver
beforeAll(async () => {
  server = await Server.start()
  driver = await rt.runPromise(Tavily.make)
})
afterAll(async () => {
  await rt.dispose()
  await server.close()
})

const map = (input: Parameters<typeof Site.mapRequest>[0]) =>
  Site.capture(rt, driver.mapSite!(Site.mapRequest(input), Site.ctxOf(server, driver, "mapSite")))
const crawl = (input: Parameters<typeof Site.crawlRequest>[0], keys?: ReadonlyArray<string>) =>
  Site.capture(
    rt,
    Site.collect(driver.crawlSite!(Site.crawlRequest(input), Site.ctxOf(server, driver, "crawlSite", { keys })))
  )

describe("Tavily mapSite", () => {
  it("posts the map body to /map with the Bearer key, kept to the site's host, and reads the URLs", async () => {
    server.handle = Server.json(mapFixture.response.body)
    server.requests.length = 0
    const output = Site.value(await map({ url: "https://docs.example.com/", search: "install" }))
    expect(server.requests).toHaveLength(1)
    const sent = server.requests[0]!
    expect([sent.method, sent.path, sent.headers.authorization]).toEqual(["POST", "/map", `Bearer ${Server.canary}`])
    // `search` is core's ranking, not Tavily's (costlier, filtering) instructions.
    expect(sent.body).toEqual(mapFixture.request.body)
    expect(output.links).toEqual([
      { url: "https://docs.example.com/", source: "provider" },
      { url: "https://docs.example.com/docs/intro", source: "provider" },
      { url: "https://docs.example.com/docs/install", source: "provider" }
    ])
    expect(output.cuts).toEqual([])
  })

  it("sends subdomains and path patterns as Tavily's regular expressions", async () => {
    server.handle = Server.json(mapFixture.response.body)
    server.requests.length = 0
    Site.value(
      await map({
        url: "https://docs.example.com/start",
        limit: 40,
        includeSubdomains: true,
        includePaths: ["/docs/*$"],
        excludePaths: ["/docs/old"]
      })
    )
    const body = server.requests[0]!.body!
    expect(body).toEqual({
      url: "https://docs.example.com/start",
      limit: 40,
      select_domains: ["^(?:[^/]+\\.)?docs\\.example\\.com$"],
      allow_external: false,
      select_paths: ["^\\/docs\\/.*$"],
      exclude_paths: ["^\\/docs\\/old"]
    })
    const domain = new RegExp((body.select_domains as Array<string>)[0]!)
    expect(["docs.example.com", "eu.docs.example.com"].map((h) => domain.test(h))).toEqual([true, true])
    expect(
      ["docsxexample.com", "docs.example.com.evil.test", "evildocs.example.com"].map((h) => domain.test(h))
    ).toEqual([false, false, false])
  })

  it("maps the recorded 432 to a plan limit and 401 to credentials_rejected, never showing the key", async () => {
    server.handle = Server.reply(432, mapFixture.error_examples[0].body)
    const plan = await map({ url: "https://docs.example.com/" })
    expect(Site.error(plan)).toMatchObject({
      _tag: "RequestFailed",
      reason: "rate_limited",
      providerId: "tavily",
      capability: "mapSite"
    })
    server.handle = Server.reply(401, { detail: { error: `Unauthorized: invalid API key ${Server.canary}` } })
    const rejected = await map({ url: "https://docs.example.com/" })
    expect(Site.error(rejected)).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(rejected.clientSpans).toBeGreaterThan(0)
    expect(Site.visible(rejected)).not.toContain(Server.canary)
  })
})

describe("Tavily crawlSite", () => {
  it("posts one crawl to /crawl and turns its pages into items, an empty page into a failure", async () => {
    server.handle = Server.json(crawlFixture.response.body)
    server.requests.length = 0
    const items = Site.value(await crawl({ url: "https://docs.example.com/" }))
    expect(server.requests).toHaveLength(1)
    const sent = server.requests[0]!
    expect([sent.method, sent.path, sent.headers.authorization]).toEqual(["POST", "/crawl", `Bearer ${Server.canary}`])
    expect(sent.body).toEqual(crawlFixture.request.body)
    expect(
      items.map((i) =>
        i._tag === "Page" ? [i._tag, i.url, i.result.title, i.result.content] : [i._tag, i.url, i.error.reason]
      )
    ).toEqual([
      ["Page", "https://docs.example.com/", "https://docs.example.com/", "# Example Docs\n\nWelcome to the docs."],
      [
        "Page",
        "https://docs.example.com/docs/intro",
        "https://docs.example.com/docs/intro",
        "# Introduction\n\nWhat Example does."
      ],
      ["Failed", "https://docs.example.com/docs/empty", "empty_content"]
    ])
    const failed = items[2]!
    expect(failed._tag === "Failed" && failed.error.input).toBe("https://docs.example.com/docs/empty")
  })

  it("sends the request's limits and patterns, and holds maxPages whatever Tavily sends", async () => {
    server.handle = Server.json(crawlFixture.response.body)
    server.requests.length = 0
    const items = Site.value(
      await crawl({
        url: "https://docs.example.com/",
        maxPages: 2,
        maxDepth: 5,
        includeSubdomains: true,
        includePaths: ["/docs"],
        excludePaths: ["/*.pdf$"]
      })
    )
    expect(server.requests[0]!.body).toMatchObject({
      max_depth: 5,
      limit: 2,
      select_domains: ["^(?:[^/]+\\.)?docs\\.example\\.com$"],
      select_paths: ["^\\/docs"],
      exclude_paths: ["^\\/.*\\.pdf$"]
    })
    expect(items.map((i) => i.url)).toEqual(["https://docs.example.com/", "https://docs.example.com/docs/intro"])
  })

  it.each([
    ["concurrency", { concurrency: 2 }],
    ["delay", { delay: 500 }],
    ["fromMap", { fromMap: true }],
    ["maxDepth", { maxDepth: 0 }],
    ["maxDepth", { maxDepth: 6 }],
    ["maxPages", { maxPages: 101 }]
  ] as const)("refuses %s before any request", async (field, fields) => {
    server.handle = Server.json(crawlFixture.response.body)
    server.requests.length = 0
    const error = Site.error(await crawl({ url: "https://docs.example.com/", ...fields }))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "invalid_input", capability: "crawlSite" })
    expect(error.message).toContain(field)
    expect(server.requests).toHaveLength(0)
  })

  it("maps a 400 validation answer, the 433 limit and a 500 quoting the key, never showing it", async () => {
    server.handle = Server.reply(400, crawlFixture.error_examples[0].body)
    const invalid = Site.error(await crawl({ url: "https://docs.example.com/" }))
    expect(invalid).toMatchObject({ _tag: "RequestFailed", reason: "http_status" })
    expect(invalid.message).toContain("less than or equal to 5")
    server.handle = Server.reply(433, crawlFixture.error_examples[1].body)
    expect(Site.error(await crawl({ url: "https://docs.example.com/" }))).toMatchObject({ reason: "rate_limited" })
    server.handle = Server.reply(500, `internal error for ${Server.canary}`)
    const failed = await crawl({ url: "https://docs.example.com/" })
    expect(Site.error(failed)).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx" })
    expect(failed.clientSpans).toBeGreaterThan(0)
    expect(Site.visible(failed)).not.toContain(Server.canary)
  })

  it("fails before any request without a key", async () => {
    server.requests.length = 0
    expect(Site.error(await crawl({ url: "https://docs.example.com/" }, []))).toMatchObject({
      _tag: "Unavailable",
      reason: "missing_credentials"
    })
    expect(server.requests).toHaveLength(0)
  })
})

describe("the patterns, hosts and next links of hosted crawlers", () => {
  // Characters that mean something to a regular expression or to our patterns, and plain ones.
  const char = FastCheck.constantFrom("/", "a", "b", ".", "*", "?", "+", "(", ")", "[", "]", "-", "$", "^", "|", "\\")
  const text = (max: number) => FastCheck.array(char, { maxLength: max }).map((cs) => cs.join(""))

  it.prop(
    "a path pattern sent as a regular expression matches exactly the paths our own matcher does",
    [text(8), text(12)],
    ([rest, tail]) => {
      const pattern = `/${rest}`
      const source = HostedSite.pathRegexes([pattern])![0]!
      // A random path, the pattern's own text (which it should match), and that text with each character in turn
      // replaced (where a regular expression's metacharacter, left unescaped, would still match).
      const literal = pattern.replace(/\*/g, "").replace(/\$$/, "")
      const variants = [...new Set(literal)].flatMap((ch) => [literal.replaceAll(ch, "a"), literal.replaceAll(ch, "/")])
      for (const path of [`/${tail}`, `${literal}${tail}`, ...variants.map((v) => `${v}${tail}`)]) {
        expect(new RegExp(source).test(path)).toBe(PathPattern.matches(pattern, path))
      }
    }
  )

  const label = FastCheck.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/)
  // A last label of letters: a numeric one would make a URL parser read the host as an IPv4 address.
  const host = FastCheck.tuple(
    FastCheck.array(label, { minLength: 1, maxLength: 3 }),
    FastCheck.stringMatching(/^[a-z]{2,6}$/)
  ).map(([labels, tld]) => [...labels, tld].join("."))

  it.prop(
    "the host expression matches the site's host (and its subdomains only when asked)",
    [host, label, host],
    ([site, sub, other]) => {
      const exact = new RegExp(HostedSite.hostRegex(`https://${site}/`, false))
      const wide = new RegExp(HostedSite.hostRegex(`https://${site}/`, true))
      expect(exact.test(site) && wide.test(site) && wide.test(`${sub}.${site}`)).toBe(true)
      expect(exact.test(`${sub}.${site}`)).toBe(false)
      if (other !== site && !other.endsWith(`.${site}`)) expect(wide.test(other)).toBe(false)
    }
  )

  it.prop(
    "a next link is followed only on the endpoint's origin, under its path",
    [host, FastCheck.webPath()],
    ([other, path]) => {
      const endpoint = "https://api.firecrawl.dev"
      expect(HostedSite.nextPath(endpoint, `https://${other}.test${path}`)).toBeUndefined()
      expect(HostedSite.nextPath(endpoint, `https://user:pw@api.firecrawl.dev${path}`)).toBeUndefined()
      expect(HostedSite.nextPath(`${endpoint}/base`, `${endpoint}/elsewhere${path}`)).toBeUndefined()
      const same = HostedSite.nextPath(endpoint, `${endpoint}/v2/crawl/id${path}?skip=10`)
      expect(same?.startsWith("/v2/crawl/id")).toBe(true)
    }
  )
})
