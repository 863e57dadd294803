/**
 * The fetch provider's rendering modes (`never`, `auto`, `always`) with Debian's chromium, over real sockets on
 * 127.0.0.1, and the `render` setting. These tests fail (they do not skip) when Chromium is missing.
 */
import { describe, expect, layer } from "@effect/vitest"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import type { WebSearchResponse } from "@websearch/core/WebSearchResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as BrowserRenderer from "../src/BrowserRenderer.js"
import * as Fetch from "../src/Fetch.js"
import * as WallPages from "../../../test-support/wallPages.js"
import * as Application from "./support/application.js"
import * as LocalServer from "./support/localServer.js"

const allowLoopback: Settings.SettingsInput = { urlPolicy: { allowHosts: ["127.0.0.1"] } }

const fetchUrls = (
  urls: ReadonlyArray<string>,
  options: Fetch.Options,
  input: Settings.SettingsInput = allowLoopback
): Effect.Effect<WebSearchResponse, WebSearchError.WebSearchError> =>
  FetchUrls.fetchUrls({ urls: [...urls] }).pipe(
    Effect.provide(
      WebSearch.layer(Fetch.layerWith({ workers: false, ...options })).pipe(Layer.provideMerge(Settings.layer(input)))
    )
  )

const paragraphs = [
  "Layers describe how services are constructed, and a program states which services it needs in its type.",
  "Errors are values that the type checker tracks, so a caller always knows what can go wrong and why.",
  "Fibers are cheap, interruptible threads of execution that the runtime schedules cooperatively."
]

const scriptBuilt = {
  "/": LocalServer.html(`<!doctype html><html><head><title>Effect Notes</title></head>
<body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript>
<script src="/app.js"></script></body></html>`),
  "/app.js": {
    headers: { "content-type": "text/javascript" },
    body: `fetch("/api/notes").then((r) => r.json()).then((notes) => {
  document.title = notes.title
  document.getElementById("root").innerHTML =
    "<article><h1>" + notes.title + "</h1>" + notes.paragraphs.map((p) => "<p>" + p + "</p>").join("") + "</article>"
})`
  },
  "/api/notes": {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ title: "Effect Notes", paragraphs })
  }
}

// A browser check in the style of the common bot walls: 503 with a script that sets a clearance cookie and reloads.
const guarded = {
  "/guarded": (request: { headers: Record<string, string | Array<string> | undefined> }) =>
    String(request.headers.cookie ?? "").includes("clearance=ok")
      ? LocalServer.html(LocalServer.articlePage("Behind The Wall", paragraphs))
      : {
          status: 503,
          headers: { "content-type": "text/html; charset=utf-8" },
          body: `<!doctype html><html><head><title>Just a moment...</title></head><body>
<div id="challenge-platform">Checking your browser before accessing the site.</div>
<script>setTimeout(() => { document.cookie = "clearance=ok; path=/"; location.reload() }, 50)</script></body></html>`
        }
}

layer(BrowserRenderer.layer(), { excludeTestServices: true })("fetch provider rendering with Chromium", (it) => {
  it.scoped(
    "never reads the empty shell; auto and always render it; the rendered DOM goes through the same extraction",
    () =>
      Effect.gen(function* () {
        const server = yield* LocalServer.start(scriptBuilt)
        const never = yield* Effect.flip(fetchUrls([server.url("/")], { render: "never" }))
        expect(never._tag).toBe("ResponseInvalid")
        expect(never.reason).toBe("empty_content")
        expect(never.message).toContain(`needs rendering: set providers.fetch.render to "auto"`)
        expect(server.count("/app.js")).toBe(0)

        for (const render of ["auto", "always"] as const) {
          const response = yield* fetchUrls([server.url("/")], { render })
          expect(response.failures).toEqual([])
          const [page] = response.results
          expect(page.title).toBe("Effect Notes")
          expect(page.url).toBe(server.url("/"))
          for (const paragraph of paragraphs) expect(page.content).toContain(paragraph)
          expect(page.content).not.toContain("<p>")
          expect(page.content).not.toContain("enable JavaScript")
        }
        expect(server.count("/app.js")).toBe(2)
        // The document was fetched once per request: the transport's answer is handed to the browser.
        expect(server.count("/")).toBe(3)
      }),
    30_000
  )

  it.scoped(
    "auto leaves a complete server-rendered page alone and never renders non-HTML; always renders HTML only",
    () =>
      Effect.gen(function* () {
        const server = yield* LocalServer.start({
          "/article": LocalServer.html(
            LocalServer.articlePage("Server Rendered", paragraphs).replace(
              "</body>",
              `<script src="/tracker.js"></script></body>`
            )
          ),
          "/tracker.js": { headers: { "content-type": "text/javascript" }, body: "void 0" },
          "/data.json": { headers: { "content-type": "application/json" }, body: JSON.stringify({ ok: true }) }
        })
        const auto = yield* fetchUrls([server.url("/article"), server.url("/data.json")], { render: "auto" })
        expect(auto.failures).toEqual([])
        expect(auto.results[0].content).toContain(paragraphs[1])
        expect(auto.results[1].content).toContain('"ok": true')
        expect(server.count("/tracker.js")).toBe(0)
        const always = yield* fetchUrls([server.url("/article"), server.url("/data.json")], { render: "always" })
        expect(always.failures).toEqual([])
        expect(always.results[0].content).toContain(paragraphs[1])
        expect(always.results[1].content).toContain('"ok": true')
        expect(server.count("/tracker.js")).toBe(1)
      }),
    30_000
  )

  it.scoped(
    "a browser check (503 + script) is passed by rendering in auto mode; never answers blocked, suggesting rendering",
    () =>
      Effect.gen(function* () {
        const server = yield* LocalServer.start(guarded)
        const never = yield* Effect.flip(fetchUrls([server.url("/guarded")], { render: "never" }))
        expect(never._tag).toBe("RequestFailed")
        expect(never.reason).toBe("blocked")
        expect(never.retryable).toBe(false)
        expect(never.message).toContain(`answered 503 with a bot check`)
        expect(never.message).toContain(`set providers.fetch.render to "auto"`)
        const auto = yield* fetchUrls([server.url("/guarded")], { render: "auto" })
        expect(auto.failures).toEqual([])
        expect(auto.results[0].title).toBe("Behind The Wall")
        expect(auto.results[0].content).toContain(paragraphs[0])
      }),
    30_000
  )

  it.scoped(
    "a wall rendering does not get past is blocked, saying so; a login wall is never rendered",
    () =>
      Effect.gen(function* () {
        const server = yield* LocalServer.start({
          // A check whose script never clears it: the rendered page is the same wall.
          "/stuck": {
            status: 503,
            headers: { "content-type": "text/html; charset=utf-8" },
            body: WallPages.cloudflare.html
          },
          "/login": LocalServer.html(
            WallPages.loginWall.html.replace("</body>", `<script src="/login.js"></script></body>`)
          ),
          "/login.js": { headers: { "content-type": "text/javascript" }, body: "void 0" }
        })
        const stuck = yield* Effect.flip(fetchUrls([server.url("/stuck")], { render: "auto" }))
        expect(stuck).toMatchObject({ _tag: "RequestFailed", reason: "blocked", retryable: false })
        expect(stuck.message).toContain("still shows a bot check (Cloudflare) after rendering")
        const login = yield* Effect.flip(fetchUrls([server.url("/login")], { render: "auto" }))
        expect(login.reason).toBe("blocked")
        expect(login.message).toContain("a login or subscription wall instead of its content")
        expect(server.count("/login.js")).toBe(0)
      }),
    30_000
  )

  it.scoped(
    "render failures keep the transport's reasons: a page navigating to a private address is ssrf_rejected",
    () =>
      Effect.gen(function* () {
        const server = yield* LocalServer.start({
          "/": LocalServer.html(`<!doctype html><title>Away</title><script>location.href = "/away"</script>`),
          "/away": { status: 302, headers: { location: "http://169.254.169.254/latest/" } }
        })
        const error = yield* Effect.flip(fetchUrls([server.url("/")], { render: "always" }))
        expect(error._tag).toBe("RequestFailed")
        expect(error.reason).toBe("ssrf_rejected")
        expect(error.providerId).toBe("fetch")
      }),
    30_000
  )
})

describe("fetch provider rendering without a renderer, and the render setting", () => {
  layer(Layer.empty, { excludeTestServices: true })((it) => {
    it.scoped("always without a BrowserRenderer fails Unavailable/invalid_config naming it; auto reads plainly", () =>
      Effect.gen(function* () {
        const server = yield* LocalServer.start(scriptBuilt)
        const always = yield* Effect.flip(fetchUrls([server.url("/")], { render: "always" }))
        expect(always._tag).toBe("Unavailable")
        expect(always.reason).toBe("invalid_config")
        expect(always.message).toContain("BrowserRenderer")
        expect(always.message).toContain("chromium")
        expect(server.hits).toEqual([])
        const auto = yield* Effect.flip(fetchUrls([server.url("/")], { render: "auto" }))
        expect(auto.reason).toBe("empty_content")
        expect(auto.message).toContain("needs rendering, but no BrowserRenderer is provided")
        expect(server.count("/app.js")).toBe(0)
      })
    )

    it.effect(
      "providers.fetch.render is read from a document and from FETCH_RENDER at start; bad values fail the start naming the field",
      () =>
        Effect.gen(function* () {
          const fromDocument = yield* Settings.make({ providers: { fetch: { render: "auto" } } })
          expect(yield* Fetch.renderMode(fromDocument)).toBe("auto")
          expect(yield* Fetch.renderMode(yield* Settings.make({}))).toBe("never")
          const composed = yield* Application.registry(Settings.layer({ providers: { fetch: { render: "auto" } } }))
          expect(composed.providers.get("fetch")?.options).toEqual({ render: "auto" })
          const fromEnvironment = yield* Application.registry(Application.fromEnv({ FETCH_RENDER: "always" }))
          expect(fromEnvironment.providers.get("fetch")?.options).toEqual({ render: "always" })
          const badEnv = yield* Application.startFailure(Application.fromEnv({ FETCH_RENDER: "sometimes" }))
          expect(badEnv).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
          expect(badEnv.message).toContain("providers.fetch.render")
          expect(badEnv.message).toMatch(/\(from environment\)$/)
          const badValue = yield* Application.startFailure(
            Settings.layer({ providers: { fetch: { render: "sometimes" } } })
          )
          expect(badValue).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
          expect(badValue.message).toMatch(/^invalid settings: providers\.fetch\.render/)
          expect(badValue.message).toMatch(/\(from code\)$/)
          const onJina = yield* Application.startFailure(Settings.layer({ providers: { jina: { render: "auto" } } }))
          expect(onJina.message).toContain('providers.jina.render: Jina takes no option "render"')
        })
    )

    it.scoped("the setting picks the mode when the Layer's options do not; the options win over it", () =>
      Effect.gen(function* () {
        const server = yield* LocalServer.start(scriptBuilt)
        const fromSettings = yield* Effect.flip(
          fetchUrls([server.url("/")], {}, { ...allowLoopback, providers: { fetch: { render: "always" } } })
        )
        expect(fromSettings.reason).toBe("invalid_config")
        const overridden = yield* Effect.flip(
          fetchUrls(
            [server.url("/")],
            { render: "never" },
            { ...allowLoopback, providers: { fetch: { render: "always" } } }
          )
        )
        expect(overridden.reason).toBe("empty_content")
      })
    )
  })
})
