/**
 * The pure rules of rendering: which headers cross between Chromium and the transport, which statuses Chromium
 * sees, how refusals look to a page, and when `auto` renders.
 */
import { describe, expect, it } from "@effect/vitest"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as FastCheck from "effect/FastCheck"
import * as Chromium from "../src/internal/chromium.js"
import * as JsShell from "../src/internal/jsShell.js"
import * as RenderSession from "../src/internal/renderSession.js"

// The error codes playwright-core's `route.abort` accepts.
const abortCodes = new Set([
  "aborted",
  "accessdenied",
  "addressunreachable",
  "blockedbyclient",
  "blockedbyresponse",
  "connectionaborted",
  "connectionclosed",
  "connectionfailed",
  "connectionrefused",
  "connectionreset",
  "internetdisconnected",
  "namenotresolved",
  "timedout",
  "failed"
])

const headerName = FastCheck.oneof(
  FastCheck.constantFrom(
    "Host",
    "Connection",
    "Content-Length",
    "Transfer-Encoding",
    "Accept-Encoding",
    "Proxy-Authorization",
    "Location",
    "Content-Encoding",
    "Alt-Svc",
    "Keep-Alive",
    "Content-Type",
    "Cookie",
    "Set-Cookie",
    "User-Agent",
    "Referer",
    ":authority"
  ),
  FastCheck.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/)
)
const headers = FastCheck.dictionary(headerName, FastCheck.string({ maxLength: 30 }), { maxKeys: 12 })

describe("render rules", () => {
  it.prop(
    "request headers handed to the transport never carry framing, hop-by-hop or proxy headers; names are lower-case",
    [headers, FastCheck.option(FastCheck.string({ minLength: 1, maxLength: 20 }), { nil: undefined })],
    ([input, userAgent]) => {
      const out = RenderSession.requestHeaders(input, userAgent)
      for (const name of Object.keys(out)) {
        expect(name).toBe(name.toLowerCase())
        expect(name.startsWith(":")).toBe(false)
        expect([
          "host",
          "connection",
          "content-length",
          "transfer-encoding",
          "accept-encoding",
          "proxy-authorization",
          "keep-alive"
        ]).not.toContain(name)
      }
      if (userAgent !== undefined) expect(out["user-agent"]).toBe(userAgent)
      // What is not refused passes through: a harmless header keeps its value.
      expect(RenderSession.requestHeaders({ ...input, "X-Custom": "kept" }, userAgent)["x-custom"]).toBe("kept")
      for (const [name, value] of Object.entries(input)) {
        const lower = name.toLowerCase()
        if (lower === "cookie" && Object.keys(input).filter((n) => n.toLowerCase() === "cookie").length === 1) {
          expect(out.cookie).toBe(value)
        }
      }
    }
  )

  it.prop(
    "responses handed to Chromium never carry Location, a length or coding of the original body, or Alt-Svc",
    [headers],
    ([input]) => {
      const out = RenderSession.responseHeaders(input)
      for (const name of ["location", "content-length", "content-encoding", "transfer-encoding", "alt-svc"]) {
        expect(out[name]).toBeUndefined()
      }
      for (const name of Object.keys(out)) expect(name).toBe(name.toLowerCase())
      expect(RenderSession.responseHeaders({ ...input, "Content-Type": "text/html" })["content-type"]).toBe("text/html")
    }
  )

  it.prop(
    "Chromium is never handed a status it would follow as a redirect",
    [FastCheck.integer({ min: 100, max: 599 })],
    ([status]) => {
      const shown = RenderSession.fulfilStatus(status)
      expect(shown >= 300 && shown <= 399 && shown !== 304).toBe(false)
      if (status < 300 || status > 399) expect(shown).toBe(status)
    }
  )

  it.prop(
    "every refusal reaches the page as a network error playwright-core knows",
    [
      FastCheck.oneof(
        FastCheck.constantFrom(...WebSearchError.RequestFailedReason.literals),
        FastCheck.constantFrom("scheme", "method", "request_cap", "budget", "websocket")
      )
    ],
    ([reason]) => {
      expect(abortCodes.has(RenderSession.abortCode(reason))).toBe(true)
    }
  )

  it("refusals by policy look like a client block, DNS and timeouts like their network errors", () => {
    expect(RenderSession.abortCode("ssrf_rejected")).toBe("blockedbyclient")
    expect(RenderSession.abortCode("redirect_rejected")).toBe("blockedbyclient")
    expect(RenderSession.abortCode("dns_failed")).toBe("namenotresolved")
    expect(RenderSession.abortCode("timeout")).toBe("timedout")
  })

  it.prop(
    "a page without any script is never rendered, whatever its text or markers",
    [
      FastCheck.array(
        FastCheck.oneof(
          FastCheck.string({ maxLength: 40 }),
          FastCheck.constantFrom(
            "<title>Just a moment...</title>",
            '<div id="root"></div>',
            "<noscript>Please enable JavaScript</noscript>",
            "cf-browser-verification",
            "<p>short</p>"
          )
        ),
        { maxLength: 10 }
      )
    ],
    ([parts]) => {
      const html = parts.join("").replace(/<script/gi, "<scrip_")
      expect(JsShell.needsRender(html, "")).toBe(false)
      expect(JsShell.isChallenge(html)).toBe(false)
      expect(JsShell.isShell(html)).toBe(false)
    }
  )

  it.prop(
    "a page with a script is rendered when its text is under the tiny threshold",
    [FastCheck.string({ maxLength: JsShell.tinyChars - 1 })],
    ([markdown]) => {
      expect(JsShell.needsRender("<html><script src=/a.js></script></html>", markdown)).toBe(true)
    }
  )

  it("known shells and browser checks are recognised; a long server-rendered page with scripts is not", () => {
    const long = "A paragraph of real server-rendered text. ".repeat(20)
    expect(JsShell.isShell('<div id="root"></div><script src="/main.js"></script>')).toBe(true)
    expect(JsShell.isShell('<div id="__next"></div><script src="/_next/main.js"></script>')).toBe(true)
    expect(
      JsShell.isShell("<noscript>You need to enable JavaScript to run this app.</noscript><script></script>")
    ).toBe(true)
    expect(JsShell.isShell(`<div id="root"><p>${long}</p></div><script src="/main.js"></script>`)).toBe(false)
    expect(JsShell.isChallenge("<title>Just a moment...</title><script>x</script>")).toBe(true)
    expect(JsShell.isChallenge('<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/jsch/v1"></script>')).toBe(
      true
    )
    expect(JsShell.needsRender(`<p>${long}</p><script src="/analytics.js"></script>`, long)).toBe(false)
  })

  it("Chromium is launched with its resolver and proxy cut off and its side channels closed", () => {
    expect(Chromium.launchArgs).toContain("--host-resolver-rules=MAP * ~NOTFOUND")
    expect(Chromium.launchArgs).toContain(`--proxy-server=${Chromium.blackholeProxy}`)
    expect(Chromium.launchArgs).toContain("--proxy-bypass-list=<-loopback>")
    expect(Chromium.launchArgs).toContain("--force-webrtc-ip-handling-policy=disable_non_proxied_udp")
    expect(Chromium.launchArgs).toContain("--disable-quic")
    expect(Chromium.launchArgs).toContain("--disable-background-networking")
  })
})
