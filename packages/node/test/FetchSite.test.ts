import { describe, expect, it } from "@effect/vitest"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as Settings from "@websearch/core/Settings"
import * as SiteRequest from "@websearch/core/SiteRequest"
import * as UrlPolicy from "@websearch/core/UrlPolicy"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { gzipSync } from "node:zlib"
import * as Fetch from "../src/Fetch.js"
import * as FetchCall from "../src/internal/fetchCall.js"
import * as RobotsCheck from "../src/internal/robotsCheck.js"
import * as SiteMap from "../src/internal/siteMap.js"
import * as SafeTransport from "../src/SafeTransport.js"
import * as LocalServer from "./support/localServer.js"
import * as Transport from "./support/transport.js"
import * as DnsAnswers from "../../../test-support/dnsAnswers.js"
import * as GeneratedSite from "../../../test-support/generatedSite.js"
import { refusedDials } from "../../../test-support/loopbackGuard.js"

type Driver = ProviderDriver.ProviderDriver<typeof Fetch.SettingsOptions.Type, typeof Fetch.SettingsOptions.Encoded>
type Ctx = ProviderDriver.DriverContext<typeof Fetch.SettingsOptions.Type>

const loopback = (...hosts: ReadonlyArray<string>): Settings.SettingsInput => ({
  urlPolicy: { allowHosts: ["127.0.0.1", ...hosts] }
})

/** The driver as the application builds it (its own transport from the settings), with no worker threads. */
const driver = (input: Settings.SettingsInput, options: Fetch.Options = {}) =>
  Fetch.make({ workers: false, ...options }).pipe(
    Effect.provide(Fetch.layerTransport(options).pipe(Layer.provideMerge(Settings.layer(input))))
  )

/** A call's context for the composed provider, as the pipeline would give it. */
const ctxOf = (driver: Driver, capability: "mapSite" | "crawlSite"): Ctx => ({
  provider: {
    ...driver.preset,
    apiKeys: [],
    engines: [],
    basicAuth: Option.none(),
    model: Option.none(),
    rateLimit: Option.none(),
    proxyUrl: Option.none(),
    options: {}
  },
  capability,
  apiHost: Option.none(),
  apiKey: Option.none(),
  apiKeyIndex: Option.none(),
  searchOptions: {},
  maxResults: 10,
  timeout: Duration.seconds(15),
  options: {},
  fetchUrls: () => Effect.die("a map or a crawl page never calls fetchUrls")
})

const mapSite = (d: Driver, request: typeof SiteRequest.MapSiteRequest.Encoded) =>
  Effect.flatMap(SiteRequest.decodeMapSite(request), (decoded) => d.mapSite!(decoded, ctxOf(d, "mapSite")))

const crawlPage = (d: Driver, url: string, site: ProviderDriver.SiteScope) =>
  d.crawlPage!(url, site, ctxOf(d, "crawlSite"))

const failure = <A>(effect: Effect.Effect<A, WebSearchError.WebSearchError>) =>
  Effect.flip(effect).pipe(Effect.map((error) => ({ tag: error._tag, reason: error.reason })))

const xml = (body: string): LocalServer.Answer => ({ headers: { "content-type": "application/xml" }, body })

const urlset = (entries: ReadonlyArray<readonly [path: string, lastmod: string]>, origin: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries
    .map(([path, lastmod]) => `<url><loc>${origin}${path}</loc><lastmod>${lastmod}</lastmod></url>`)
    .join("")}</urlset>`

const article = (title: string, extra = "") =>
  LocalServer.articlePage(title, [
    `This page of the test site is about ${title}, in sentences long enough for the extractor to keep them.`,
    "A second paragraph says more about the same subject, so the page reads as an article and not a menu."
  ]).replace("</head>", `${extra}</head>`)

describe("the fetch provider maps a site", () => {
  it.scopedLive("robots.txt's sitemaps, an index of two (one gzipped), a feed and the start page's links", () =>
    Effect.gen(function* () {
      // Another host, named by robots.txt and linked from the site: the map lists nothing from it and never asks it.
      const other = yield* Transport.serve((_, response) => response.end("no"), "127.0.0.2")
      let origin = ""
      const server = yield* LocalServer.start({
        "/robots.txt": () => ({
          headers: { "content-type": "text/plain" },
          body:
            `User-agent: *\nDisallow: /private\n` +
            `Sitemap: ${origin}/sitemap_index.xml\nSitemap: ${other.origin}/elsewhere.xml\n`
        }),
        "/sitemap_index.xml": () =>
          xml(
            `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
              ["/maps/pages.xml", "/maps/posts.xml.gz", "/maps/broken.xml", "/maps/page.xml"]
                .map((path) => `<sitemap><loc>${origin}${path}</loc></sitemap>`)
                .join("") +
              `</sitemapindex>`
          ),
        "/maps/pages.xml": () =>
          xml(
            urlset(
              [
                ["/docs/a", "2026-11-01"],
                ["/docs/b", "2026-11-02T10:00:00+01:00"]
              ],
              origin
            ).replace("</urlset>", "<url><loc>http://other.example/x</loc></url></urlset>")
          ),
        "/maps/posts.xml.gz": () => ({
          headers: { "content-type": "application/gzip" },
          body: gzipSync(urlset([["/posts/1", "2026-10-31"]], origin))
        }),
        "/maps/broken.xml": { status: 500, body: "down" },
        "/maps/page.xml": LocalServer.html("<html><body>Not a sitemap</body></html>"),
        "/": () =>
          LocalServer.html(
            `<html><head><title>Home</title>` +
              `<link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body>` +
              `<a href="/docs/a">Doc A</a> <a href="/about#team">About us</a> <a href="mailto:x@y.z">mail</a>` +
              `<a href="${other.origin}/away">Away</a></body></html>`
          ),
        "/feed.xml": () =>
          xml(
            `<rss version="2.0"><channel><title>News</title><item><title>Launch day</title>` +
              `<link>${origin}/news/launch</link><pubDate>Tue, 01 Dec 2026 09:00:00 GMT</pubDate></item></channel></rss>`
          )
      })
      origin = server.origin
      const d = yield* driver(loopback("127.0.0.2"))
      const output = yield* mapSite(d, { url: server.url("/") })
      expect(output.links).toEqual([
        { url: server.url("/docs/a"), source: "sitemap", lastmod: "2026-11-01T00:00:00.000Z" },
        { url: server.url("/docs/b"), source: "sitemap", lastmod: "2026-11-02T09:00:00.000Z" },
        { url: "http://other.example/x", source: "sitemap" },
        { url: server.url("/posts/1"), source: "sitemap", lastmod: "2026-10-31T00:00:00.000Z" },
        { url: server.url("/news/launch"), source: "feed", lastmod: "2026-12-01T09:00:00.000Z", title: "Launch day" },
        { url: server.url("/docs/a"), source: "page", title: "Doc A" },
        { url: server.url("/about"), source: "page", title: "About us" },
        { url: `${other.origin}/away`, source: "page", title: "Away" }
      ])
      expect(output.cuts).toEqual([])
      expect(output.failures?.map(([url, error]) => [url, error.reason])).toEqual([
        [server.url("/maps/broken.xml"), "http_5xx"],
        [server.url("/maps/page.xml"), "parse_failed"]
      ])
      // Nothing off the site was asked for; /sitemap.xml was not guessed, robots.txt named the sitemaps.
      expect(other.requests).toEqual([])
      expect(server.count("/sitemap.xml")).toBe(0)
      expect(server.count("/maps/pages.xml")).toBe(1)
    })
  )

  it.scopedLive(
    "a generated site's sitemap; with no robots.txt, /sitemap.xml is guessed and its absence is no failure",
    () =>
      Effect.gen(function* () {
        const site = yield* GeneratedSite.start({ pages: 5 })
        const d = yield* driver(loopback())
        const output = yield* mapSite(d, { url: site.url("/") })
        expect(output.links.filter((link) => link.source === "sitemap").map((link) => link.url)).toEqual(
          [0, 1, 2, 3, 4].map(site.pageUrl)
        )
        expect(output.links.filter((link) => link.source === "page").map((link) => link.url)).toEqual([site.pageUrl(0)])

        const bare = yield* LocalServer.start({ "/": LocalServer.html(`<a href="/only">Only</a>`) })
        const plain = yield* mapSite(d, { url: bare.url("/") })
        expect(plain).toEqual({
          links: [{ url: bare.url("/only"), source: "page", title: "Only" }],
          cuts: [],
          failures: []
        })
        expect(bare.count("/sitemap.xml")).toBe(1)
        // A guessed /sitemap.xml answered by a page (a soft 404) is no failure either.
        const soft = yield* LocalServer.start({
          "/": LocalServer.html(`<a href="/only">Only</a>`),
          "/sitemap.xml": LocalServer.html("<html><body>Page not found</body></html>")
        })
        expect((yield* mapSite(d, { url: soft.url("/") })).failures).toEqual([])
      })
  )

  it.scopedLive("a 10,000-page site: the map reads robots.txt and one sitemap, and stops at its bound", () =>
    Effect.gen(function* () {
      const site = yield* GeneratedSite.start({ pages: 10_000 })
      const d = yield* driver(loopback())
      const output = yield* mapSite(d, { url: site.url("/"), limit: 100 })
      expect(output.links).toHaveLength(1_000)
      expect(output.links[999]).toEqual({
        url: site.pageUrl(999),
        source: "sitemap",
        lastmod: "2026-11-01T00:00:00.000Z"
      })
      expect(output.cuts.map((cut) => cut.reason)).toEqual(["limit"])
      // The sitemap filled the map: the start page is not read.
      expect([...site.requests().keys()].sort()).toEqual(["/robots.txt", "/sitemap.xml"])
      expect(site.total()).toBe(2)
    })
  )

  it.scopedLive("with robots.txt respected, a disallowed start page is a failure; its sitemaps still count", () =>
    Effect.gen(function* () {
      let origin = ""
      const server = yield* LocalServer.start({
        "/robots.txt": () => ({ body: `User-agent: *\nDisallow: /\nSitemap: ${origin}/map.xml\n` }),
        "/map.xml": () => xml(urlset([["/kept", "2026-01-01"]], origin)),
        "/": LocalServer.html(`<a href="/never">Never</a>`)
      })
      origin = server.origin
      const d = yield* driver(loopback(), { respectRobotsTxt: true })
      const output = yield* mapSite(d, { url: server.url("/") })
      expect(output.links.map((link) => link.url)).toEqual([server.url("/kept")])
      expect(output.failures?.map(([url, error]) => [url, error.reason])).toEqual([
        [server.url("/"), "robots_disallowed"]
      ])
      expect(server.count("/")).toBe(0)
    })
  )

  it.scopedLive("a corrupt gzipped sitemap is a failure (decode_failed); the other sitemap is read", () =>
    Effect.gen(function* () {
      let origin = ""
      const server = yield* LocalServer.start({
        "/robots.txt": () => ({ body: `Sitemap: ${origin}/bad.xml.gz\nSitemap: ${origin}/good.xml\n` }),
        "/bad.xml.gz": {
          headers: { "content-type": "application/gzip" },
          body: new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xfe, 0xfd, 0xfc])
        },
        "/good.xml": () => xml(urlset([["/fine", "2026-01-01"]], origin)),
        "/": LocalServer.html("<p>No links here.</p>")
      })
      origin = server.origin
      const d = yield* driver(loopback())
      const output = yield* mapSite(d, { url: server.url("/") })
      expect(output.links.map((link) => link.url)).toEqual([server.url("/fine")])
      expect(output.failures?.map(([url, error]) => [url, error._tag, error.reason])).toEqual([
        [server.url("/bad.xml.gz"), "ResponseInvalid", "decode_failed"]
      ])
    })
  )

  it.scopedLive("an unreachable start page with nothing else found fails the map, typed", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({})
      const d = yield* driver(loopback())
      expect(yield* failure(mapSite(d, { url: server.url("/") }))).toEqual({ tag: "RequestFailed", reason: "http_404" })
    })
  )
})

describe("the map's bounds are cuts", () => {
  const mapWith = (request: typeof SiteRequest.MapSiteRequest.Encoded, bounds: Partial<SiteMap.Bounds>) =>
    Effect.gen(function* () {
      const transport = yield* SafeTransport.make({ policy: UrlPolicy.make({ allowHosts: ["127.0.0.1"] }) })
      const robotsCheck = yield* RobotsCheck.make(transport)
      const call = FetchCall.make(
        { userAgent: SafeTransport.defaultUserAgent, respectRobotsTxt: false, render: "never" },
        undefined,
        robotsCheck
      )
      const decoded = yield* SiteRequest.decodeMapSite(request)
      return yield* SiteMap.map({ transport, call }, decoded, { ...SiteMap.defaultBounds, ...bounds })
    })

  it.scopedLive("links beyond the request's limit times the factor: a limit cut, the first ones kept", () =>
    Effect.gen(function* () {
      const site = yield* GeneratedSite.start({ pages: 40 })
      const output = yield* mapWith({ url: site.url("/"), limit: 2 }, { linkFactor: 5 })
      expect(output.links.map((link) => link.url)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(site.pageUrl))
      expect(output.cuts.map((cut) => cut.reason)).toEqual(["limit"])
    })
  )

  it.scopedLive("sitemap files beyond the count, and indexes nested too deep: sitemaps cuts", () =>
    Effect.gen(function* () {
      let origin = ""
      const index = (paths: ReadonlyArray<string>) =>
        xml(`<sitemapindex>${paths.map((p) => `<sitemap><loc>${origin}${p}</loc></sitemap>`).join("")}</sitemapindex>`)
      const server = yield* LocalServer.start({
        "/robots.txt": () => ({ body: `Sitemap: ${origin}/wide.xml\nSitemap: ${origin}/deep-0.xml\n` }),
        "/wide.xml": () => index(["/s/1.xml", "/s/2.xml", "/s/3.xml", "/s/4.xml", "/s/5.xml"]),
        "/deep-0.xml": () => index(["/deep-1.xml"]),
        "/deep-1.xml": () => index(["/deep-2.xml"]),
        "/deep-2.xml": () => index(["/deep-3.xml"]),
        "/deep-3.xml": () => xml(urlset([["/deepest", "2026-01-01"]], origin)),
        ...Object.fromEntries(
          [1, 2, 3, 4, 5].map((n) => [`/s/${n}.xml`, () => xml(urlset([[`/page-${n}`, "2026-01-01"]], origin))])
        )
      })
      origin = server.origin
      const counted = yield* mapWith({ url: server.url("/") }, { maxSitemaps: 4 })
      expect(counted.cuts.map((cut) => cut.reason)).toEqual(["sitemaps"])
      expect(counted.links.filter((link) => link.source === "sitemap").map((link) => link.url)).toEqual([
        server.url("/page-1"),
        server.url("/page-2")
      ])
      const shallow = yield* mapWith({ url: server.url("/") }, { maxDepth: 2 })
      expect(shallow.cuts).toEqual([{ reason: "sitemaps", message: expect.stringContaining("deeper than 2") }])
      expect(shallow.links.map((link) => link.url)).not.toContain(server.url("/deepest"))
      expect(server.count("/deep-3.xml")).toBe(0)
    })
  )

  it.scopedLive("a gzipped sitemap bigger than the bytes left is read up to them: a bytes cut, its first links", () =>
    Effect.gen(function* () {
      let origin = ""
      const entries = Array.from({ length: 2_000 }, (_, i) => [`/item/${i}`, "2026-01-01"] as const)
      const server = yield* LocalServer.start({
        "/robots.txt": () => ({ body: `Sitemap: ${origin}/big.xml.gz\n` }),
        "/big.xml.gz": () => ({
          headers: { "content-type": "application/gzip" },
          body: gzipSync(urlset(entries, origin))
        })
      })
      origin = server.origin
      const output = yield* mapWith({ url: server.url("/"), limit: 5_000 }, { maxBytes: 8_192 })
      expect(output.cuts.map((cut) => cut.reason)).toEqual(["bytes"])
      const found = output.links.filter((link) => link.source === "sitemap")
      expect(found.length).toBeGreaterThan(10)
      expect(found.length).toBeLessThan(200)
      expect(found[0]).toEqual({ url: server.url("/item/0"), source: "sitemap", lastmod: "2026-01-01T00:00:00.000Z" })
    })
  )
})

describe("the fetch provider reads one page of a crawl", () => {
  it.scopedLive("the page as fetchUrls reads it, its links in document order and its canonical link", () =>
    Effect.gen(function* () {
      const site = yield* GeneratedSite.start({ pages: 20, duplicates: true })
      const d = yield* driver(loopback())
      const scope = { host: "127.0.0.1", includeSubdomains: false }
      const page = yield* crawlPage(d, site.pageUrl(1), scope)
      expect(page.result.title).toBe("Page 1: site crawl")
      expect(page.result.content).toContain("Page 1 is about site crawl")
      expect(page.result.url).toBe(site.pageUrl(1))
      expect(page.links).toEqual(GeneratedSite.linksOf(1, 20, 2, true).map(site.url))
      expect(page.canonical).toBe(site.pageUrl(1))
      // A canonical duplicate answers with the page it duplicates.
      const duplicate = yield* crawlPage(d, `${site.pageUrl(2)}?utm_source=x`, scope)
      expect(duplicate.canonical).toBe(site.pageUrl(2))
      expect(site.count("/p/2?utm_source=x")).toBe(1)
    })
  )

  it.scopedLive("a redirect off the site is refused before it is followed; fetchUrls follows it", () =>
    Effect.gen(function* () {
      const other = yield* Transport.serve((_, response) => {
        response.writeHead(200, { "content-type": "text/html" })
        response.end(article("Elsewhere"))
      }, "127.0.0.2")
      const server = yield* LocalServer.start({
        "/away": { status: 302, headers: { location: `${other.origin}/landing` } },
        "/www": { status: 301, headers: { location: "/landing" } },
        "/landing": LocalServer.html(article("Landing"))
      })
      const d = yield* driver(loopback("127.0.0.2"))
      const scope = { host: "127.0.0.1", includeSubdomains: false }
      expect(yield* failure(crawlPage(d, server.url("/away"), scope))).toEqual({
        tag: "RequestFailed",
        reason: "redirect_rejected"
      })
      expect(other.requests).toEqual([])
      // The same URL read by fetchUrls follows the redirect: the refusal is the crawl's, not the policy's.
      const fetched = yield* d.fetchUrls!(server.url("/away"), ctxOf(d, "crawlSite"))
      expect(fetched.url).toBe(`${other.origin}/landing`)
      // A redirect on the site is followed.
      const onSite = yield* crawlPage(d, server.url("/www"), scope)
      expect(onSite.result.url).toBe(server.url("/landing"))
    })
  )

  it.scopedLive("the site is its host with or without www., and its subdomains only when asked", () =>
    Effect.gen(function* () {
      yield* DnsAnswers.scoped(
        Object.fromEntries(
          ["site.test", "www.site.test", "docs.site.test"].map((name) => [name, { address: "127.0.0.1", family: 4 }])
        )
      )
      // The page redirected to, and two servers whose /go redirects there under another name of the site.
      const server = yield* LocalServer.start({ "/landing": LocalServer.html(article("Landing")) })
      const at = (host: string, path: string) => `http://${host}:${server.port}${path}`
      const redirectTo = (host: string) =>
        LocalServer.start({ "/go": { status: 302, headers: { location: at(host, "/landing") } } })
      const d = yield* driver({ urlPolicy: { allowHosts: ["127.0.0.1", "*.site.test"] } })
      const www = yield* redirectTo("www.site.test")
      const docs = yield* redirectTo("docs.site.test")
      const site = { host: "site.test", includeSubdomains: false }
      const viaWww = yield* crawlPage(d, `http://site.test:${www.port}/go`, site)
      expect(viaWww.result.url).toBe(at("www.site.test", "/landing"))
      expect(yield* failure(crawlPage(d, `http://site.test:${docs.port}/go`, site))).toEqual({
        tag: "RequestFailed",
        reason: "redirect_rejected"
      })
      const withSubdomains = yield* crawlPage(d, `http://site.test:${docs.port}/go`, {
        ...site,
        includeSubdomains: true
      })
      expect(withSubdomains.result.url).toBe(at("docs.site.test", "/landing"))
      expect(server.count("/landing")).toBe(2)
    })
  )

  it.scopedLive("a redirect loop fails typed", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({
        "/a": { status: 302, headers: { location: "/b" } },
        "/b": { status: 302, headers: { location: "/a" } }
      })
      const d = yield* driver(loopback())
      const error = yield* Effect.flip(crawlPage(d, server.url("/a"), { host: "127.0.0.1", includeSubdomains: false }))
      expect([error._tag, error.reason]).toEqual(["RequestFailed", "redirect_rejected"])
      expect(error.message).toContain("more than 5 redirects")
      expect(server.count("/a") + server.count("/b")).toBe(6)
    })
  )

  it.scopedLive("a link to a private address is listed but never fetched: the SSRF guard refuses it first", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({
        "/": LocalServer.html(
          article("Links", '<link rel="canonical" href="/">').replace(
            "<footer>",
            '<a href="http://10.0.0.7/admin">Admin</a><footer>'
          )
        )
      })
      const d = yield* driver(loopback())
      const scope = { host: "127.0.0.1", includeSubdomains: false }
      const page = yield* crawlPage(d, server.url("/"), scope)
      expect(page.links).toContain("http://10.0.0.7/admin")
      const before = refusedDials.length
      expect(
        yield* failure(crawlPage(d, "http://10.0.0.7/admin", { host: "10.0.0.7", includeSubdomains: false }))
      ).toEqual({ tag: "RequestFailed", reason: "ssrf_rejected" })
      // Refused by the policy before any dial: the loopback guard saw no attempt.
      expect(refusedDials.length).toBe(before)
    })
  )

  it.scopedLive("with robots.txt respected, a disallowed page fails robots_disallowed and is never asked for", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({
        "/robots.txt": { headers: { "content-type": "text/plain" }, body: "User-agent: *\nDisallow: /private\n" },
        "/private/x": LocalServer.html(article("Private")),
        "/public": LocalServer.html(article("Public"))
      })
      const scope = { host: "127.0.0.1", includeSubdomains: false }
      const careful = yield* driver(loopback(), { respectRobotsTxt: true })
      expect(yield* failure(crawlPage(careful, server.url("/private/x"), scope))).toEqual({
        tag: "RequestFailed",
        reason: "robots_disallowed"
      })
      expect(server.count("/private/x")).toBe(0)
      expect((yield* crawlPage(careful, server.url("/public"), scope)).result.title).toBe("Public")
      // Off (the default), the same page is read.
      const plain = yield* driver(loopback())
      expect((yield* crawlPage(plain, server.url("/private/x"), scope)).result.title).toBe("Private")
    })
  )

  it.scopedLive("the preset declares the three capabilities", () =>
    Effect.sync(() => {
      expect(Fetch.preset.capabilities.map((c) => c.feature)).toEqual(["fetchUrls", "mapSite", "crawlSite"])
    })
  )
})
