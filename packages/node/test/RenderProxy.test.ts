/**
 * Rendering behind an outbound proxy, with Debian's chromium: every request a page makes goes through the safe
 * transport, which resolves and checks each target before the proxy is asked for anything, so a page's scripts
 * cannot use the proxy to reach what the URL policy refuses (names resolving to loopback, private or IPv6 loopback
 * addresses). The CONNECT proxy on loopback records every tunnel it is asked for. Fails (does not skip) without
 * Chromium, as the other rendering tests do.
 */
import { describe, expect, it } from "@effect/vitest"
import * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as Effect from "effect/Effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import * as ConnectProxy from "../../../test-support/connectProxy.js"
import * as BrowserRenderer from "../src/BrowserRenderer.js"
import * as SafeTransport from "../src/SafeTransport.js"
import * as Support from "./support/transport.js"

const answer = (contentType: string, body: string) => (_: IncomingMessage, response: ServerResponse) => {
  response.writeHead(200, { "content-type": contentType })
  response.end(body)
}

describe("rendering through an outbound proxy", () => {
  it.scopedLive(
    "a page's requests to names resolving to refused addresses never reach the proxy; its own requests do",
    () =>
      Effect.gen(function* () {
        const proxy = yield* ConnectProxy.scoped
        const internal = yield* Support.serve(answer("text/plain", "internal admin console"))
        const names = ["loop.attacker.example", "private.attacker.example", "v6.attacker.example"]
        const hostile = `
const out = (key, value) => { const p = document.createElement("p"); p.textContent = key + ": " + value; document.body.append(p) }
const probe = (key, url) => fetch(url).then((r) => r.text().then((t) => out(key, t)), () => out(key, "refused"))
${names.map((name) => `probe("${name}", "http://${name}:${internal.port}/secret")`).join("\n")}
const frame = document.createElement("iframe"); frame.src = "http://${names[0]}:${internal.port}/frame"; document.body.append(frame)
const image = new Image(); image.src = "http://${names[1]}:${internal.port}/pixel.png"
fetch("/api").then((r) => r.text()).then((t) => out("own", t))
`
        const site = yield* Support.serve((request, response) => {
          const routes: Record<string, [string, string]> = {
            "/": ["text/html", `<!doctype html><title>Probe</title><h1>Probe</h1><script src="/probe.js"></script>`],
            "/probe.js": ["text/javascript", hostile],
            "/api": ["text/plain", "own answer"]
          }
          const route = routes[request.url ?? ""] ?? ["text/plain", "not here"]
          answer(route[0], route[1])(request, response)
        })
        const resolver = Support.recordingLookup({
          "loop.attacker.example": ["127.0.0.1"],
          "private.attacker.example": ["10.0.0.7"],
          "v6.attacker.example": ["::1"]
        })
        const transport = yield* SafeTransport.make({
          policy: UrlPolicy.make({
            allowHosts: [`127.0.0.1:${site.port}`, proxy.hostPort],
            allowPorts: [internal.port]
          }),
          lookup: resolver.lookup,
          proxyEnv: { HTTP_PROXY: proxy.url() },
          timeout: "5 seconds"
        })
        const renderer = yield* BrowserRenderer.make()
        const page = yield* renderer.render({ url: `${site.origin}/`, transport })

        for (const name of names) expect(page.html).toContain(`${name}: refused`)
        expect(page.html).toContain("own: own answer")
        // The proxy carried the page's own requests, each to the checked address, and nothing else.
        expect(proxy.targets.length).toBeGreaterThanOrEqual(1)
        expect(new Set(proxy.targets)).toEqual(new Set([`127.0.0.1:${site.port}`]))
        expect(internal.requests).toEqual([])
        expect(internal.connections()).toBe(0)
        const blocked = page.blocked.map((b) => `${b.url} ${b.reason}`)
        for (const name of names) expect(blocked).toContain(`http://${name}:${internal.port} ssrf_rejected`)
        expect(resolver.asked).toEqual(expect.arrayContaining(names))
      }),
    30_000
  )
})
