import { describe, expect, it } from "@effect/vitest"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import type { WebSearchResponse } from "@websearch/core/WebSearchResponse"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as Fetch from "../src/Fetch.js"
import * as GithubBlob from "../src/internal/githubBlob.js"
import * as RobotsCheck from "../src/internal/robotsCheck.js"
import * as RobotsTxt from "../src/internal/robotsTxt.js"
import * as Application from "./support/application.js"
import * as LocalServer from "./support/localServer.js"
import * as Pdf from "../../../test-support/pdf.js"

const allowLoopback: Settings.SettingsInput = { urlPolicy: { allowHosts: ["127.0.0.1"] } }

const live = (input: Settings.SettingsInput, options?: Fetch.Options) =>
  WebSearch.layer(Fetch.layerWith(options)).pipe(Layer.provideMerge(Settings.layer(input)))

const fetchUrls = (
  urls: ReadonlyArray<string>,
  input: Settings.SettingsInput = allowLoopback,
  options?: Fetch.Options
): Effect.Effect<WebSearchResponse, WebSearchError.WebSearchError> =>
  FetchUrls.fetchUrls({ urls: [...urls] }).pipe(Effect.provide(live(input, options)))

const paragraphs = [
  "Effect is a powerful TypeScript library designed to help developers easily create complex, synchronous, and asynchronous programs.",
  "Layers describe how services are constructed, and a program states which services it needs in its type.",
  "Errors are values that the type checker tracks, so a caller always knows what can go wrong and why."
]

describe("Fetch provider over real sockets on 127.0.0.1", () => {
  it.scopedLive("an HTML page becomes markdown with its title; the result names the URL it came from", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({
        "/article": LocalServer.html(LocalServer.articlePage("Effect Layers Explained", paragraphs))
      })
      const response = yield* fetchUrls([server.url("/article")])
      expect(response.providerId).toBe("fetch")
      expect(response.failures).toEqual([])
      expect(response.results).toHaveLength(1)
      const [page] = response.results
      expect(page.title).toBe("Effect Layers Explained")
      expect(page.url).toBe(server.url("/article"))
      expect(page.sourceInput).toBe(server.url("/article"))
      expect(page.content).toContain("Layers describe how services are constructed")
      expect(page.content).not.toContain("<p>")
      expect(page.content).not.toContain("Footer links")
    })
  )

  it.scopedLive("a page's own metadata reaches the result: published time as ISO 8601, author, site, language", () =>
    Effect.gen(function* () {
      const head =
        '<meta property="article:published_time" content="2026-11-30T09:15:00+01:00">' +
        '<meta name="author" content="Jane Doe"><meta property="og:site_name" content="The Port Paper">'
      const server = yield* LocalServer.start({
        "/meta": LocalServer.html(
          LocalServer.articlePage("Effect Layers Explained", paragraphs)
            .replace('lang="en"', 'lang="en-GB"')
            .replace("</head>", `${head}</head>`)
        ),
        "/bare": LocalServer.html(
          LocalServer.articlePage("Effect Layers Explained", paragraphs).replace(' lang="en"', "")
        )
      })
      const response = yield* fetchUrls([server.url("/meta"), server.url("/bare")])
      const [meta, bare] = response.results
      expect(meta.publishedAt).toBe("2026-11-30T08:15:00.000Z")
      expect(meta.author).toBe("Jane Doe")
      expect(meta.siteName).toBe("The Port Paper")
      expect(meta.language).toBe("en-GB")
      expect(
        Object.keys(bare).filter((key) => ["publishedAt", "author", "siteName", "language"].includes(key))
      ).toEqual([])
    })
  )

  it.scopedLive("sends an honest User-Agent naming websearch and its version, or the configured one", () =>
    Effect.gen(function* () {
      const agents: Array<string | undefined> = []
      const server = yield* LocalServer.start({
        "/ua": (request) => {
          agents.push(request.headers["user-agent"])
          return LocalServer.html(LocalServer.articlePage("UA", paragraphs))
        }
      })
      yield* fetchUrls([server.url("/ua")])
      yield* fetchUrls([server.url("/ua")], {
        ...allowLoopback,
        providers: { fetch: { userAgent: "ExampleBot/2.0 (+https://bot.example)" } }
      })
      yield* fetchUrls([server.url("/ua")], allowLoopback, { userAgent: "FromCode/1.0" })
      expect(agents[0]).toMatch(/^websearch\/\d+\.\d+\.\d+ \(/)
      expect(agents[1]).toBe("ExampleBot/2.0 (+https://bot.example)")
      expect(agents[2]).toBe("FromCode/1.0")
    })
  )

  it.scopedLive("a PDF is read as text, page by page", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({
        "/paper.pdf": {
          headers: { "content-type": "application/pdf" },
          body: Pdf.build(["First page about layers", "Second page about fibers"], "A Tiny Paper")
        }
      })
      const response = yield* fetchUrls([server.url("/paper.pdf")])
      const [page] = response.results
      expect(page.title).toBe("A Tiny Paper")
      expect(page.content).toContain("First page about layers")
      expect(page.content).toContain("Second page about fibers")
      expect(page.content.indexOf("First page")).toBeLessThan(page.content.indexOf("Second page"))
    })
  )

  it.scopedLive("JSON is pretty-printed and plain text kept; a title falls back to the file name", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({
        "/data/items.json": {
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ items: [{ id: 1, name: "alpha" }], total: 1 })
        },
        "/notes.txt": {
          headers: { "content-type": "text/plain; charset=utf-8" },
          body: "line one\nline two — ünïcode\n"
        }
      })
      const response = yield* fetchUrls([server.url("/data/items.json"), server.url("/notes.txt")])
      expect(response.failures).toEqual([])
      const [json, text] = response.results
      expect(json.title).toBe("items.json")
      expect(json.content).toContain('"name": "alpha"')
      expect(json.content.split("\n").length).toBeGreaterThan(3)
      expect(text.title).toBe("notes.txt")
      expect(text.content).toContain("line one\nline two — ünïcode")
    })
  )

  it.scopedLive("a redirect chain is followed and the final URL is reported", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({
        "/old": { status: 301, headers: { location: "/older" } },
        "/older": { status: 302, headers: { location: "/final?x=1" } },
        "/final?x=1": LocalServer.html(LocalServer.articlePage("Final Page", paragraphs))
      })
      const response = yield* fetchUrls([server.url("/old")])
      const [page] = response.results
      expect(page.url).toBe(server.url("/final?x=1"))
      expect(page.sourceInput).toBe(server.url("/old"))
      expect(page.title).toBe("Final Page")
      expect(server.hits).toEqual(["/old", "/older", "/final?x=1"])
    })
  )

  it.scopedLive("a GitHub blob link is read as its raw file (raw origin pointed at the local server)", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({
        "/octo/repo/main/docs/GUIDE.md": {
          headers: { "content-type": "text/plain; charset=utf-8" },
          body: "# Guide\n\nRaw markdown, not GitHub's page chrome.\n"
        }
      })
      const response = yield* fetchUrls(
        ["https://github.com/octo/repo/blob/main/docs/GUIDE.md?plain=1"],
        allowLoopback,
        {
          githubRawOrigin: server.origin
        }
      )
      const [page] = response.results
      expect(server.hits).toEqual(["/octo/repo/main/docs/GUIDE.md"])
      expect(page.url).toBe(server.url("/octo/repo/main/docs/GUIDE.md"))
      expect(page.sourceInput).toBe("https://github.com/octo/repo/blob/main/docs/GUIDE.md?plain=1")
      expect(page.content).toContain("Raw markdown, not GitHub's page chrome.")
    })
  )

  it.scopedLive("an unsupported content type is ResponseInvalid/unsupported_content_type", () =>
    Effect.gen(function* () {
      const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
      const server = yield* LocalServer.start({ "/image.png": { headers: { "content-type": "image/png" }, body: png } })
      const error = yield* Effect.flip(fetchUrls([server.url("/image.png")]))
      expect(error).toMatchObject({
        _tag: "ResponseInvalid",
        reason: "unsupported_content_type",
        providerId: "fetch",
        capability: "fetchUrls",
        input: server.url("/image.png"),
        retryable: false
      })
    })
  )

  it.scopedLive("a page with no readable text is ResponseInvalid/empty_content", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({
        "/empty": LocalServer.html("<html><head><title>Nothing</title></head><body>  <div></div> </body></html>"),
        "/blank.txt": { headers: { "content-type": "text/plain" }, body: "  \n\n \t " }
      })
      const error = yield* Effect.flip(fetchUrls([server.url("/empty"), server.url("/blank.txt")]))
      expect(error.failures?.map((f) => [f._tag, f.reason])).toEqual([
        ["ResponseInvalid", "empty_content"],
        ["ResponseInvalid", "empty_content"]
      ])
    })
  )

  it.scopedLive("HTTP errors are typed: 404, 403, 503 (retryable) and 429 with its Retry-After", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({
        "/forbidden": { status: 403, body: "no" },
        "/down": { status: 503, body: "later" },
        "/slow-down": { status: 429, headers: { "retry-after": "7" }, body: "" },
        "/fine": LocalServer.html(LocalServer.articlePage("Fine", paragraphs))
      })
      const response = yield* fetchUrls([
        server.url("/missing"),
        server.url("/forbidden"),
        server.url("/down"),
        server.url("/slow-down"),
        server.url("/fine")
      ])
      expect(response.results.map((r) => r.title)).toEqual(["Fine"])
      expect(response.failures.map((f) => [f.reason, f.retryable, f.retryAfter])).toEqual([
        ["http_404", false, undefined],
        ["http_403", false, undefined],
        ["http_5xx", true, undefined],
        ["http_429", true, 7]
      ])
    })
  )

  it.scopedLive("duplicate URLs in one request are fetched once (the request is normalised first)", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({
        "/page": LocalServer.html(LocalServer.articlePage("Once", paragraphs))
      })
      const url = server.url("/page")
      const response = yield* fetchUrls([url, ` ${url} `, url, url.replace("http://", "HTTP://")])
      expect(server.count("/page")).toBe(1)
      expect(response.inputs).toEqual([url])
      expect(response.results).toHaveLength(1)
    })
  )

  it.scopedLive("a loopback URL that is not allowlisted is refused before any request (ssrf_rejected)", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({ "/secret": LocalServer.html("<p>secret</p>") })
      const error = yield* Effect.flip(fetchUrls([server.url("/secret")], {}))
      expect(error).toMatchObject({ _tag: "RequestFailed", reason: "ssrf_rejected", providerId: "fetch" })
      expect(error.message).toContain("127.0.0.1")
      expect(server.hits).toEqual([])
    })
  )

  it.scopedLive("a redirect from an allowlisted port to another loopback port is refused", () =>
    Effect.gen(function* () {
      const other = yield* LocalServer.start({ "/inner": LocalServer.html("<p>inner</p>") })
      const server = yield* LocalServer.start({ "/hop": { status: 302, headers: { location: other.url("/inner") } } })
      const error = yield* Effect.flip(
        fetchUrls([server.url("/hop")], { urlPolicy: { allowHosts: [`127.0.0.1:${server.port}`] } })
      )
      expect(error).toMatchObject({ _tag: "RequestFailed" })
      expect(["ssrf_rejected", "redirect_rejected"]).toContain(error.reason)
      expect(other.hits).toEqual([])
    })
  )
})

describe("robots.txt", () => {
  const robots = [
    "User-agent: *",
    "Disallow: /private",
    "",
    "User-agent: websearch",
    "Disallow: /no-websearch",
    "Allow: /no-websearch/but-this",
    ""
  ].join("\n")
  const site = {
    "/robots.txt": { headers: { "content-type": "text/plain" }, body: robots },
    "/private": LocalServer.html(LocalServer.articlePage("Private", paragraphs)),
    "/no-websearch/page": LocalServer.html(LocalServer.articlePage("Refused", paragraphs)),
    "/no-websearch/but-this": LocalServer.html(LocalServer.articlePage("Allowed", paragraphs))
  }
  const respecting: Settings.SettingsInput = { ...allowLoopback, providers: { fetch: { respectRobotsTxt: true } } }

  it.scopedLive("off by default: robots.txt is never requested", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start(site)
      const response = yield* fetchUrls([server.url("/no-websearch/page")])
      expect(response.results.map((r) => r.title)).toEqual(["Refused"])
      expect(server.count("/robots.txt")).toBe(0)
    })
  )

  it.scopedLive(
    "on: our own group applies (not `*`), Allow beats a shorter Disallow, the file is read once per origin",
    () =>
      Effect.gen(function* () {
        const server = yield* LocalServer.start(site)
        const response = yield* fetchUrls(
          [server.url("/private"), server.url("/no-websearch/page"), server.url("/no-websearch/but-this")],
          respecting
        )
        expect(response.results.map((r) => r.title)).toEqual(["Private", "Allowed"])
        expect(response.failures).toHaveLength(1)
        expect(response.failures[0]).toMatchObject({
          input: server.url("/no-websearch/page"),
          _tag: "RequestFailed",
          reason: "robots_disallowed",
          retryable: false
        })
        expect(response.failures[0].message).toContain("Disallow: /no-websearch")
        expect(server.count("/robots.txt")).toBe(1)
        expect(server.count("/no-websearch/page")).toBe(0)
      })
  )

  it.scopedLive("another product token falls back to the `*` group", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start(site)
      const response = yield* fetchUrls([server.url("/private"), server.url("/no-websearch/page")], respecting, {
        userAgent: "OtherBot/2.0"
      })
      expect(response.results.map((r) => r.title)).toEqual(["Refused"])
      expect(response.failures.map((f) => f.reason)).toEqual(["robots_disallowed"])
      expect(server.count("/private")).toBe(0)
    })
  )

  it.scopedLive("a caller that gives up does not cancel the robots.txt read another caller waits for", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({
        "/robots.txt": { headers: { "content-type": "text/plain" }, body: "User-agent: *\nDisallow: /x\n", delay: 400 },
        "/a": LocalServer.html(LocalServer.articlePage("A", paragraphs)),
        "/b": LocalServer.html(LocalServer.articlePage("B", paragraphs))
      })
      const layer = yield* Layer.build(live(allowLoopback, { respectRobotsTxt: true, workers: false }))
      const run = (url: string) => FetchUrls.fetchUrls({ urls: [url] }).pipe(Effect.provide(layer))
      const impatient = run(server.url("/a")).pipe(Effect.timeout("100 millis"), Effect.flip)
      const [gaveUp, patient] = yield* Effect.all([impatient, run(server.url("/b"))], { concurrency: 2 })
      expect(gaveUp._tag).toBe("TimeoutException")
      expect(patient.results.map((r) => r.title)).toEqual(["B"])
      expect(server.count("/robots.txt")).toBe(1)
      // The rules stay cached for the driver's lifetime.
      yield* run(server.url("/a"))
      expect(server.count("/robots.txt")).toBe(1)
    })
  )

  it.scopedLive("a missing robots.txt (404) allows everything", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({
        "/page": LocalServer.html(LocalServer.articlePage("Page", paragraphs))
      })
      const response = yield* fetchUrls([server.url("/page")], allowLoopback, { respectRobotsTxt: true })
      expect(response.results.map((r) => r.title)).toEqual(["Page"])
      expect(server.hits).toEqual(["/robots.txt", "/page"])
    })
  )

  it.scopedLive("an unreachable robots.txt (503) fails the page, retryably, and is not cached", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({
        "/robots.txt": { status: 503, body: "" },
        "/a": LocalServer.html(LocalServer.articlePage("A", paragraphs)),
        "/b": LocalServer.html(LocalServer.articlePage("B", paragraphs))
      })
      const layer = live(allowLoopback, { respectRobotsTxt: true })
      const run = (urls: Array<string>) => Effect.flip(FetchUrls.fetchUrls({ urls })).pipe(Effect.provide(layer))
      // Both pages wait for the one robots.txt request in flight; a later request asks again.
      const first = yield* run([server.url("/a"), server.url("/b")])
      expect(first.failures?.map((f) => [f.reason, f.retryable])).toEqual([
        ["http_5xx", true],
        ["http_5xx", true]
      ])
      expect(first.message).toContain("robots.txt")
      expect(server.count("/robots.txt")).toBe(1)
      const second = yield* run([server.url("/a")])
      expect(second).toMatchObject({ reason: "http_5xx", retryable: true })
      expect(server.count("/robots.txt")).toBe(2)
      expect(server.count("/a") + server.count("/b")).toBe(0)
    })
  )
})

describe("big bodies on worker threads", () => {
  const bigArticle = (title: string) =>
    LocalServer.articlePage(
      title,
      Array.from({ length: 700 }, (_, i) => `Paragraph ${i}: ${paragraphs[i % paragraphs.length]}`)
    )

  // Starting a worker from TypeScript sources takes seconds (it loads the extractor through tsx), so one
  // request carries both bodies through one worker.
  it.scopedLive(
    "an HTML page and a PDF above the threshold are extracted on a worker, with the same results as inline",
    () =>
      Effect.gen(function* () {
        const page = bigArticle("Big Page")
        expect(page.length).toBeGreaterThan(Fetch.defaultWorkerThreshold)
        const texts = Array.from({ length: 40 }, (_, i) => `Page ${i} ${"lorem ipsum ".repeat(8)}`)
        const pdf = Pdf.build(texts, "Pooled PDF")
        const server = yield* LocalServer.start({
          "/big": LocalServer.html(page),
          "/big.pdf": { headers: { "content-type": "application/pdf" }, body: pdf }
        })
        const urls = [server.url("/big"), server.url("/big.pdf")]
        // The default 15 s per URL can pass while a worker loads the extractor from sources on a busy machine.
        const patient = { ...allowLoopback, timeouts: { fetchUrls: 110_000 } }
        const threshold = Math.min(page.length, pdf.length) - 1
        const pooled = yield* fetchUrls(urls, patient, { workers: { size: 1, threshold } })
        const inline = yield* fetchUrls(urls, patient, { workers: false })
        expect(pooled.failures).toEqual([])
        expect(pooled.results.map((r) => r.title)).toEqual(["Big Page", "Pooled PDF"])
        expect(pooled.results[0].content).toContain("Paragraph 100:")
        expect(pooled.results[1].content).toContain("Page 39")
        expect(pooled.results).toEqual(inline.results)
      }),
    120_000
  )
})

describe("settings keys of the fetch provider", () => {
  it.effect("providers.fetch.* are read from the settings, and FETCH_* from the environment, at start", () =>
    Effect.gen(function* () {
      const fromDocument = yield* Application.registry(
        Settings.layer({ providers: { fetch: { userAgent: " Bot/1 ", respectRobotsTxt: true, render: "auto" } } })
      )
      expect(fromDocument.providers.get("fetch")?.options).toEqual({
        userAgent: "Bot/1",
        respectRobotsTxt: true,
        render: "auto"
      })
      const variables = { FETCH_USER_AGENT: "EnvBot/2", FETCH_RESPECT_ROBOTS_TXT: "false", FETCH_RENDER: "always" }
      const fromEnvironment = yield* Application.registry(Application.fromEnv(variables))
      expect(fromEnvironment.providers.get("fetch")?.options).toEqual({
        userAgent: "EnvBot/2",
        respectRobotsTxt: false,
        render: "always"
      })
      // The document read from the environment holds only WEBSEARCH_* keys: the fetcher's variables are read for
      // the composed fetcher when the application starts.
      const document = yield* Settings.fromConfig.pipe(
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(variables))))
      )
      expect(document.providers).toBeUndefined()
      // The other composed provider takes no options.
      expect(fromEnvironment.providers.get("jina")?.options).toBeUndefined()
    })
  )

  it.scopedLive("FETCH_USER_AGENT is the User-Agent the fetcher sends", () =>
    Effect.gen(function* () {
      const agents: Array<string | undefined> = []
      const server = yield* LocalServer.start({
        "/ua": (request) => {
          agents.push(request.headers["user-agent"])
          return LocalServer.html(LocalServer.articlePage("UA", paragraphs))
        }
      })
      yield* FetchUrls.fetchUrls({ providerId: "fetch", urls: [server.url("/ua")] }).pipe(
        Effect.provide(
          Application.layer(
            Application.documentWithEnv(allowLoopback, { FETCH_USER_AGENT: "EnvBot/2 (+https://bot.example)" })
          )
        )
      )
      expect(agents).toEqual(["EnvBot/2 (+https://bot.example)"])
    })
  )

  it.effect("they are refused at start on providers that take no such option, and must have the right type", () =>
    Effect.gen(function* () {
      // The document itself is accepted: a provider's own options are decoded by its module when it is composed.
      yield* Settings.make({ providers: { jina: { respectRobotsTxt: true } } })
      const onJina = yield* Application.startFailure(
        Settings.layer({ providers: { jina: { respectRobotsTxt: true } } })
      )
      expect(onJina).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
      expect(onJina.message).toContain('providers.jina.respectRobotsTxt: Jina takes no option "respectRobotsTxt"')
      expect(onJina.message).toMatch(/^invalid settings: .* \(from code\)$/)
      const wrongType = yield* Application.startFailure(
        Settings.layer({ providers: { fetch: { respectRobotsTxt: "yes" } } })
      )
      expect(wrongType).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
      expect(wrongType.message).toContain("providers.fetch.respectRobotsTxt")
      const empty = yield* Application.startFailure(Settings.layer({ providers: { fetch: { userAgent: "  " } } }))
      expect(empty.message).toContain("providers.fetch.userAgent")
      const badEnv = yield* Application.startFailure(Application.fromEnv({ FETCH_RESPECT_ROBOTS_TXT: "maybe" }))
      expect(badEnv).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
      expect(badEnv.message).toContain("FETCH_RESPECT_ROBOTS_TXT")
      expect(badEnv.message).toMatch(/\(from environment\)$/)
    })
  )
})

// --- Pure rules -------------------------------------------------------------------------------------------

const segment = FastCheck.stringMatching(/^[A-Za-z0-9._-]{1,12}$/).filter((s) => s !== "." && s !== "..")

describe("GitHub blob rewrite", () => {
  it.prop(
    "github.com/OWNER/REPO/blob/REF/PATH reads raw.githubusercontent.com/OWNER/REPO/REF/PATH",
    [segment, segment, segment, FastCheck.array(segment, { minLength: 1, maxLength: 4 })],
    ([owner, repo, ref, path]) => {
      const blob = `https://github.com/${owner}/${repo}/blob/${ref}/${path.join("/")}`
      const raw = `https://raw.githubusercontent.com/${owner}/${repo}/${ref}/${path.join("/")}`
      expect(GithubBlob.rawUrl(blob)).toBe(raw)
      expect(GithubBlob.rawUrl(`${blob}?plain=1#L3`)).toBe(raw)
      expect(GithubBlob.rawUrl(blob, "http://127.0.0.1:9/")).toBe(
        raw.replace("https://raw.githubusercontent.com", "http://127.0.0.1:9")
      )
    }
  )

  it.prop(
    "any other GitHub page, and any other host, is left alone",
    [segment, segment, FastCheck.constantFrom("tree", "raw", "issues", "commit", "blame"), segment, segment],
    ([owner, repo, kind, ref, file]) => {
      expect(GithubBlob.rawUrl(`https://github.com/${owner}/${repo}/${kind}/${ref}/${file}`)).toBeUndefined()
      expect(GithubBlob.rawUrl(`https://gitlab.com/${owner}/${repo}/blob/${ref}/${file}`)).toBeUndefined()
      expect(GithubBlob.rawUrl(`https://github.com:8443/${owner}/${repo}/blob/${ref}/${file}`)).toBeUndefined()
      expect(GithubBlob.rawUrl(`https://github.com/${owner}/${repo}/blob/${ref}`)).toBeUndefined()
    }
  )
})

describe("robots.txt rules", () => {
  const pathChar = FastCheck.constantFrom("a", "b", "/")
  const path = FastCheck.array(pathChar, { maxLength: 8 }).map((cs) => `/${cs.join("")}`)
  const pattern = FastCheck.tuple(
    FastCheck.array(FastCheck.constantFrom("a", "b", "/", "*"), { maxLength: 6 }),
    FastCheck.boolean()
  ).map(([cs, anchored]) => `/${cs.join("")}${anchored ? "$" : ""}`)

  const oracle = (p: string, s: string): boolean => {
    const anchored = p.endsWith("$")
    const body = anchored ? p.slice(0, -1) : p
    const source = body
      .split("")
      .map((c) => (c === "*" ? ".*" : c.replace(/[/]/g, "\\/")))
      .join("")
    return new RegExp(`^${source}${anchored ? "$" : ""}`).test(s)
  }

  it.prop("wildcard matching agrees with a regular-expression oracle", [pattern, path], ([p, s]) => {
    expect(RobotsTxt.matches(p, s)).toBe(oracle(p, s))
  })

  const rules = FastCheck.array(FastCheck.tuple(FastCheck.boolean(), path), { maxLength: 6 })
  const robotsFile = (list: ReadonlyArray<readonly [boolean, string]>) =>
    ["User-agent: *", ...list.map(([allow, p]) => `${allow ? "Allow" : "Disallow"}: ${p}`)].join("\n")

  it.prop(
    "without wildcards, the longest matching prefix decides and Allow wins a tie (oracle)",
    [rules, path],
    ([list, target]) => {
      const parsed = RobotsTxt.rulesFor(RobotsTxt.parse(robotsFile(list)), "websearch")
      let best: readonly [boolean, string] | undefined
      for (const rule of list) {
        if (!target.startsWith(rule[1])) continue
        if (best === undefined || rule[1].length > best[1].length || (rule[1].length === best[1].length && rule[0])) {
          best = rule
        }
      }
      expect(RobotsTxt.isAllowed(parsed, target)).toBe(best === undefined ? true : best[0])
    }
  )

  it.prop("the order of rules never changes a decision", [rules, path], ([list, target]) => {
    const forward = RobotsTxt.rulesFor(RobotsTxt.parse(robotsFile(list)), "websearch")
    const backward = RobotsTxt.rulesFor(RobotsTxt.parse(robotsFile([...list].reverse())), "websearch")
    expect(RobotsTxt.isAllowed(forward, target)).toBe(RobotsTxt.isAllowed(backward, target))
  })

  it.prop("/robots.txt itself is always allowed", [rules], ([list]) => {
    const parsed = RobotsTxt.rulesFor(RobotsTxt.parse(`${robotsFile(list)}\nDisallow: /`), "websearch")
    expect(RobotsTxt.isAllowed(parsed, "/robots.txt")).toBe(true)
  })

  it("percent-encoding is compared in one spelling; comments, CRLF and case are tolerated", () => {
    const parsed = RobotsTxt.rulesFor(
      RobotsTxt.parse("USER-AGENT: WebSearch/1.0 # us\r\nDISALLOW: /a%7eb\r\ndisallow: /caf%c3%a9\r\n"),
      "websearch"
    )
    expect(RobotsTxt.isAllowed(parsed, "/a~b/c")).toBe(false)
    expect(RobotsTxt.isAllowed(parsed, "/a%7Eb")).toBe(false)
    expect(RobotsTxt.isAllowed(parsed, "/caf%C3%A9")).toBe(false)
    expect(RobotsTxt.isAllowed(parsed, "/café")).toBe(false)
    expect(RobotsTxt.isAllowed(parsed, "/cafe")).toBe(true)
  })

  it("rules before any User-agent line, and an empty Disallow, allow everything", () => {
    const parsed = RobotsTxt.rulesFor(RobotsTxt.parse("Disallow: /\nUser-agent: *\nDisallow:\n"), "websearch")
    expect(RobotsTxt.isAllowed(parsed, "/anything")).toBe(true)
  })

  it("a hostile pattern is matched in bounded time", () => {
    const parsed = RobotsTxt.rulesFor(RobotsTxt.parse(`User-agent: *\nDisallow: /${"*a".repeat(2000)}b\n`), "websearch")
    const started = performance.now()
    expect(RobotsTxt.isAllowed(parsed, `/${"a".repeat(5000)}`)).toBe(true)
    expect(performance.now() - started).toBeLessThan(2000)
  })

  it("the product token of our User-Agent is `websearch`", () => {
    expect(RobotsCheck.productToken("websearch/0.1.0 (+https://github.com/websearch/websearch; bot)")).toBe("websearch")
    expect(RobotsCheck.productToken("Example-Bot_2/1.0")).toBe("example-bot_")
    expect(RobotsCheck.productToken("/1.0")).toBe("websearch")
  })
})
