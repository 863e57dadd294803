/**
 * The Chromium renderer against real pages on 127.0.0.1, with Debian's chromium. These tests fail (they do not
 * skip) when Chromium is missing: CI installs it (.ci/run).
 *
 * Every page is fetched through a safe transport whose connector records each dial and refuses anything outside
 * loopback, and whose resolver is a recording table: a refusal is proved to happen before any dial, and the
 * second server (the target a hostile page reaches for) proves by its connection count that nothing arrived.
 */
import { describe, expect, it } from "@effect/vitest"
import * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { IncomingMessage, ServerResponse } from "node:http"
import { refusedDials } from "../../../test-support/loopbackGuard.js"
import * as BrowserRenderer from "../src/BrowserRenderer.js"
import * as Chromium from "../src/internal/chromium.js"
import * as SafeTransport from "../src/SafeTransport.js"
import * as Processes from "./support/chromiumProcesses.js"
import * as Support from "./support/transport.js"

type Handler = (request: IncomingMessage, response: ServerResponse) => void

const send =
  (contentType: string, body: string, status = 200, headers: Record<string, string> = {}): Handler =>
  (_, response) => {
    response.writeHead(status, { "content-type": contentType, ...headers })
    response.end(body)
  }
const html = (body: string, headers: Record<string, string> = {}) =>
  send("text/html; charset=utf-8", body, 200, headers)
const js = (body: string) => send("text/javascript", body)
const json = (value: unknown) => send("application/json", JSON.stringify(value))
const redirect =
  (location: string): Handler =>
  (_, response) => {
    response.writeHead(302, { location })
    response.end()
  }
const never: Handler = () => undefined

/** A handler per path (query included); anything else is a 404. */
const router =
  (routes: Record<string, Handler>): Handler =>
  (request, response) => {
    const handler = routes[request.url ?? "/"]
    if (handler !== undefined) return handler(request, response)
    response.writeHead(404, { "content-type": "text/plain" })
    response.end("not here")
  }

/** A transport allowing only the given loopback origins, with a recording connector and resolver. */
const transportFor = (allowHosts: ReadonlyArray<string>, table: Record<string, ReadonlyArray<string>> = {}) =>
  Effect.gen(function* () {
    const connector = Support.recordingConnector()
    const resolver = Support.recordingLookup(table)
    const guardBefore = refusedDials.length
    const transport = yield* SafeTransport.make({
      policy: UrlPolicy.make({ allowHosts }),
      connector: connector.connector,
      lookup: resolver.lookup,
      timeout: "5 seconds"
    })
    return {
      transport,
      dials: connector.dials,
      refused: connector.refused,
      asked: resolver.asked,
      guardRefusals: () => refusedDials.slice(guardBefore)
    }
  })

const paragraphs = [
  "Layers describe how services are constructed, and a program states which services it needs in its type.",
  "Errors are values that the type checker tracks, so a caller always knows what can go wrong and why.",
  "Fibers are cheap, interruptible threads of execution that the runtime schedules cooperatively."
]

const shell = `<!doctype html><html><head><title>Effect Notes</title></head>
<body><div id="root"></div><script src="/app.js"></script></body></html>`

const app = `fetch("/api/notes").then((r) => r.json()).then((notes) => {
  document.getElementById("root").innerHTML =
    "<article><h1>" + notes.title + "</h1>" + notes.paragraphs.map((p) => "<p>" + p + "</p>").join("") + "</article>"
})`

describe("BrowserRenderer with the system Chromium", () => {
  it.scopedLive(
    "a page whose content a script builds is empty over plain HTTP and complete when rendered",
    () =>
      Effect.gen(function* () {
        const site = yield* Support.serve(
          router({
            "/": html(shell),
            "/app.js": js(app),
            "/api/notes": json({ title: "Effect Notes", paragraphs })
          })
        )
        const { dials, refused, transport } = yield* transportFor([`127.0.0.1:${site.port}`])
        const plain = yield* transport.request({ url: `${site.origin}/` })
        const plainText = new TextDecoder().decode(plain.body)
        expect(plainText).not.toContain(paragraphs[0])

        const renderer = yield* BrowserRenderer.make()
        const page = yield* renderer.render({ url: `${site.origin}/`, transport })
        expect(page.url).toBe(`${site.origin}/`)
        expect(page.status).toBe(200)
        for (const paragraph of paragraphs) expect(page.html).toContain(paragraph)
        expect(page.html).toContain("<h1>Effect Notes</h1>")
        expect(page.blocked).toEqual([])
        // The document was fetched once (by the plain read, once more by render), the script and the API once.
        expect(site.requests.map((r) => r.url)).toEqual(["/", "/", "/app.js", "/api/notes"])
        expect(page.requests).toBe(3)
        expect(refused).toEqual([])
        expect(new Set(dials)).toEqual(new Set([`127.0.0.1:${site.port}`]))
      }),
    30_000
  )

  it.scopedLive(
    "a script's requests to 169.254.169.254, a loopback port not allowlisted, a name resolving to a private " +
      "address, or through a redirect to a private address are refused before any dial",
    () =>
      Effect.gen(function* () {
        const target = yield* Support.serve(html("<p>secret</p>"))
        const hostile = `
const out = (key, value) => { const p = document.createElement("p"); p.textContent = key + ": " + value; document.body.append(p) }
const probe = (key, url, init) => fetch(url, init).then((r) => out(key, "status " + r.status), () => out(key, "refused"))
probe("metadata", "http://169.254.169.254/latest/meta-data/")
probe("port", "http://127.0.0.1:${target.port}/secret")
probe("post", "http://127.0.0.1:${target.port}/post", { method: "POST", body: "x" })
probe("name", "http://rebind.test/x")
probe("redirect", "/go-private")
const frame = document.createElement("iframe"); frame.src = "http://127.0.0.1:${target.port}/frame"; document.body.append(frame)
const worker = new Worker("/worker.js"); worker.onmessage = (event) => out("worker", event.data)
new WebSocket("ws://127.0.0.1:${target.port}/ws")
navigator.sendBeacon("http://127.0.0.1:${target.port}/beacon", "x")
window.open("http://127.0.0.1:${target.port}/popup")
const image = new Image(); image.src = "http://127.0.0.1:${target.port}/pixel.png"
`
        const site = yield* Support.serve(
          router({
            "/": html(`<!doctype html><html><head><title>Hostile</title></head><body><h1>Hostile page</h1>
<script src="/hostile.js"></script></body></html>`),
            "/hostile.js": js(hostile),
            "/worker.js": js(
              `fetch("http://127.0.0.1:${target.port}/from-worker").then(() => postMessage("reached"), () => postMessage("refused"))`
            ),
            "/go-private": redirect("http://169.254.169.254/latest/meta-data/")
          })
        )
        const { asked, dials, guardRefusals, refused, transport } = yield* transportFor([`127.0.0.1:${site.port}`], {
          "rebind.test": ["10.0.0.7"]
        })
        const renderer = yield* BrowserRenderer.make()
        const page = yield* renderer.render({ url: `${site.origin}/`, transport })

        for (const probe of ["metadata", "port", "post", "name", "redirect"]) {
          expect(page.html).toContain(`${probe}: refused`)
        }
        expect(page.html).toContain("worker: refused")
        expect(page.blocked).toContainEqual({
          url: `ws://127.0.0.1:${target.port}`,
          resourceType: "websocket",
          reason: "websocket"
        })
        // Nothing reached the second server: not a connection, not a request.
        expect(target.connections()).toBe(0)
        expect(target.requests).toEqual([])
        // Every dial went to the page's own origin; nothing was even handed to the connector for another address.
        expect(refused).toEqual([])
        expect(new Set(dials)).toEqual(new Set([`127.0.0.1:${site.port}`]))
        expect(guardRefusals()).toEqual([])
        // The IP literals were judged without a lookup; the name was resolved once and its answer refused.
        expect(asked).toEqual(["rebind.test"])
        const blocked = page.blocked.map((b) => `${b.url} ${b.reason}`)
        expect(blocked).toContain("http://169.254.169.254 ssrf_rejected")
        expect(blocked).toContain(`http://127.0.0.1:${target.port} ssrf_rejected`)
        expect(blocked).toContain("http://rebind.test ssrf_rejected")
        // The redirect was followed by the transport and refused at the private hop, never shown to Chromium.
        expect(blocked).toContain(`http://127.0.0.1:${site.port} ssrf_rejected`)
        expect(site.requests.filter((r) => r.url === "/go-private")).toHaveLength(1)
        // The frame, the worker's fetch, the beacon and the popup were refused like the fetches.
        expect(page.blocked.filter((b) => b.url === `http://127.0.0.1:${target.port}`).length).toBeGreaterThanOrEqual(5)
      }),
    30_000
  )

  it.scopedLive(
    "a page that navigates itself to a private address fails ssrf_rejected; a document redirected to one is refused " +
      "before rendering",
    () =>
      Effect.gen(function* () {
        const site = yield* Support.serve(
          router({
            "/": html(`<!doctype html><title>Moving</title><p>moving on</p><script>location.href = "/hop"</script>`),
            "/hop": redirect("http://10.1.2.3/admin"),
            "/moved": redirect("http://169.254.169.254/")
          })
        )
        const { dials, refused, transport } = yield* transportFor([`127.0.0.1:${site.port}`])
        const renderer = yield* BrowserRenderer.make()
        const navigated = yield* Effect.flip(renderer.render({ url: `${site.origin}/`, transport }))
        expect(navigated._tag).toBe("RequestFailed")
        expect(navigated.reason).toBe("ssrf_rejected")
        const redirected = yield* Effect.flip(renderer.render({ url: `${site.origin}/moved`, transport }))
        expect(redirected._tag).toBe("RequestFailed")
        expect(redirected.reason).toBe("ssrf_rejected")
        expect(redirected.message).toContain("redirect 1")
        expect(refused).toEqual([])
        expect(new Set(dials)).toEqual(new Set([`127.0.0.1:${site.port}`]))
        // The refused document was never rendered: one launch at most, for the first page.
        expect((yield* renderer.stats).pages).toBe(1)
      }),
    30_000
  )

  it.scopedLive(
    "one browser, a fresh context per page, at most poolSize pages at once; no Chromium process is left after the scope",
    () =>
      Effect.gen(function* () {
        const handlersBefore = Processes.crashHandlers()
        const site = yield* Support.serve(
          router({
            "/state": html(
              `<!doctype html><title>State</title><body><script>
document.body.innerHTML = "<p>cookie: " + (document.cookie || "none") + "</p><p>storage: " + (localStorage.getItem("k") || "none") + "</p>"
document.cookie = "k=1"; localStorage.setItem("k", "1")
fetch("/slow").then((r) => r.text()).then((t) => { const p = document.createElement("p"); p.textContent = t; document.body.append(p) })
</script></body>`,
              { "set-cookie": "session=abc" }
            ),
            "/slow": (_, response) => {
              setTimeout(() => send("text/plain", "slow part done")(_, response), 400)
            }
          })
        )
        const { transport } = yield* transportFor([`127.0.0.1:${site.port}`])
        const pids = yield* Effect.scoped(
          Effect.gen(function* () {
            const renderer = yield* BrowserRenderer.make({ poolSize: 2 })
            const pages = yield* Effect.forEach(
              [1, 2, 3, 4, 5],
              () => renderer.render({ url: `${site.origin}/state`, transport }),
              { concurrency: "unbounded" }
            )
            for (const page of pages) {
              // Each page sees its own document's cookie, never what an earlier page set.
              expect(page.html).toContain("<p>cookie: session=abc</p>")
              expect(page.html).toContain("storage: none")
              expect(page.html).toContain("slow part done")
            }
            const stats = yield* renderer.stats
            expect(stats).toEqual({ launches: 1, running: true, active: 0, peakActive: 2, pages: 5 })
            const running = Processes.started(handlersBefore)
            expect(running.length).toBeGreaterThan(0)
            return running
          })
        )
        // Documents were fetched without cookies; sub-requests carried only their own page's.
        expect(site.requests.filter((r) => r.url === "/state").every((r) => r.headers.cookie === undefined)).toBe(true)
        expect(site.requests.filter((r) => r.url === "/slow").map((r) => r.headers.cookie)).toEqual(
          Array.from({ length: 5 }, () => "session=abc; k=1")
        )
        const deadline = Date.now() + 10_000
        while (Processes.alive(pids).length > 0 && Date.now() < deadline) yield* Effect.sleep("100 millis")
        expect(Processes.alive(pids)).toEqual([])
      }),
    30_000
  )

  it.scopedLive(
    "a page over its byte budget fails too_large; requests over the cap are refused; a stalled sub-resource does " +
      "not stop the snapshot; a document that never loads fails timeout",
    () =>
      Effect.gen(function* () {
        const chunk = "x".repeat(40 * 1024)
        const site = yield* Support.serve(
          router({
            "/heavy": html(`<!doctype html><title>Heavy</title><p>heavy</p><script>
for (let i = 0; i < 4; i++) fetch("/chunk?" + i)</script>`),
            "/chunk?0": send("text/plain", chunk),
            "/chunk?1": send("text/plain", chunk),
            "/chunk?2": send("text/plain", chunk),
            "/chunk?3": send("text/plain", chunk),
            "/many": html(`<!doctype html><title>Many</title><h1>Many requests</h1><script>
for (let i = 0; i < 12; i++) fetch("/n?" + i).catch(() => undefined)</script>`),
            "/stalled": html(`<!doctype html><title>Stalled</title><h1>Visible before the stall</h1><script>
fetch("/hang").catch(() => undefined)</script>`),
            "/blocking": html(`<!doctype html><title>Blocking</title><script src="/hang"></script><p>never</p>`),
            "/hang": never,
            ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`/n?${i}`, send("text/plain", "n")]))
          })
        )
        const { transport } = yield* transportFor([`127.0.0.1:${site.port}`])
        // A long timeout for the pages that must not time out (a busy machine loads them slowly), a short one for
        // the page that must.
        const renderer = yield* BrowserRenderer.make({
          maxPageBytes: 100 * 1024,
          maxRequests: 5,
          timeout: "20 seconds"
        })
        const impatient = yield* BrowserRenderer.make({
          maxPageBytes: 100 * 1024,
          maxRequests: 5,
          timeout: "3 seconds"
        })

        const heavy = yield* Effect.flip(renderer.render({ url: `${site.origin}/heavy`, transport }))
        expect(heavy._tag).toBe("RequestFailed")
        expect(heavy.reason).toBe("too_large")

        const many = yield* renderer.render({ url: `${site.origin}/many`, transport })
        expect(many.html).toContain("Many requests")
        expect(many.requests).toBe(5)
        expect(many.blocked.filter((b) => b.reason === "request_cap")).toHaveLength(8)

        const stalled = yield* renderer.render({ url: `${site.origin}/stalled`, transport })
        // A snapshot at all shows the stalled sub-resource did not hold the page: waiting on it would be a timeout.
        expect(stalled.html).toContain("Visible before the stall")

        const blocking = yield* Effect.flip(impatient.render({ url: `${site.origin}/blocking`, transport }))
        expect(blocking._tag).toBe("RequestFailed")
        expect(blocking.reason).toBe("timeout")
      }),
    90_000
  )

  it.scopedLive(
    "Chromium as launched cannot reach anything by itself: without interception a navigation never connects",
    () =>
      Effect.gen(function* () {
        const site = yield* Support.serve(html("<p>reachable</p>"))
        const browser = yield* Effect.acquireRelease(
          Chromium.launch({ executablePath: BrowserRenderer.defaultExecutablePath, timeoutMs: 30_000 }),
          (browser) => Effect.promise(() => browser.close())
        )
        const outcomes = yield* Effect.promise(async () => {
          const page = await browser.newPage()
          const results: Array<string> = []
          // Loopback only: should the flags ever regress, this test must not reach beyond this machine.
          for (const url of [`${site.origin}/`, `http://localhost:${site.port}/`]) {
            results.push(
              await page.goto(url, { timeout: 5_000 }).then(
                () => "loaded",
                (error: Error) => error.message.split("\n")[0]
              )
            )
          }
          return results
        })
        for (const outcome of outcomes) expect(outcome).toMatch(/net::ERR_(NAME_NOT_RESOLVED|PROXY_CONNECTION_FAILED)/)
        expect(site.connections()).toBe(0)
      }),
    30_000
  )

  it.scopedLive(
    "no Chromium at the configured path: Unavailable/invalid_config naming the path, nothing launched",
    () =>
      Effect.gen(function* () {
        const site = yield* Support.serve(html("<p>hi</p>"))
        const { transport } = yield* transportFor([`127.0.0.1:${site.port}`])
        const renderer = yield* BrowserRenderer.make({ executablePath: "/nonexistent/bin/chromium" })
        const error = yield* Effect.flip(renderer.render({ url: `${site.origin}/`, transport }))
        expect(error).toBeInstanceOf(WebSearchError.Unavailable)
        expect(error.reason).toBe("invalid_config")
        expect(error.message).toContain("/nonexistent/bin/chromium")
        expect(error.message).toContain("apt-get install chromium")
        expect((yield* renderer.stats).launches).toBe(0)
      })
  )

  it.scopedLive(
    "layerConfig reads the path from the application's ConfigProvider, through its own Config or the default one",
    () =>
      Effect.gen(function* () {
        const site = yield* Support.serve(html("<p>hi</p>"))
        const { transport } = yield* transportFor([`127.0.0.1:${site.port}`])
        const pathOf = (layer: Layer.Layer<BrowserRenderer.BrowserRenderer, WebSearchError.Unavailable>) =>
          Effect.gen(function* () {
            const renderer = yield* BrowserRenderer.BrowserRenderer
            const error = yield* Effect.flip(renderer.render({ url: `${site.origin}/`, transport }))
            expect(error.reason).toBe("invalid_config")
            return error.message
          }).pipe(Effect.provide(layer))
        const provider = ConfigProvider.fromMap(
          new Map([
            ["APP_CHROMIUM", "/nonexistent/app/chromium"],
            ["WEBSEARCH_CHROMIUM_PATH", "/nonexistent/env/chromium"]
          ])
        )
        const own = Config.map(Config.string("APP_CHROMIUM"), (executablePath) => ({ executablePath }))
        const withProvider = (layer: Layer.Layer<BrowserRenderer.BrowserRenderer, WebSearchError.Unavailable>) =>
          layer.pipe(Layer.provide(Layer.setConfigProvider(provider)))
        expect(yield* pathOf(withProvider(BrowserRenderer.layerConfig(own)))).toContain("/nonexistent/app/chromium")
        expect(yield* pathOf(withProvider(BrowserRenderer.layerConfig()))).toContain("/nonexistent/env/chromium")
        const missing = yield* Effect.flip(
          Layer.build(
            BrowserRenderer.layerConfig(
              Config.map(Config.string("APP_MISSING"), (executablePath) => ({ executablePath }))
            )
          ).pipe(Effect.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map()))))
        )
        expect(missing).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
        expect(missing.message).toContain("APP_MISSING")
      })
  )
})
