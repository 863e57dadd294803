/**
 * The fault suite for the local `fetch` provider of `@websearch/node` (the SSRF-safe transport and the
 * extractor), through `WebSearch.layer` and `FetchUrls.fetchUrls`: one request fetches a healthy page and a
 * page whose site misbehaves. The faults are those a web site can commit: 429 with Retry-After, 5xx, a body cut
 * short, a 1 GiB body, a slow drip, silence, a certificate the client refuses, a reset mid-body; and a caller
 * that gives up mid-fanout.
 *
 * Each case asserts the faulty URL's typed error and reason, the healthy page answered, no unhandled rejection
 * or uncaught exception, no fiber of the request left alive, every connection closed once the runtime is
 * disposed — and, where the client abandons a body, closed before disposal.
 */
import { describe, expect, it } from "@effect/vitest"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Fetch from "@websearch/node/Fetch"
import * as SafeTransport from "@websearch/node/SafeTransport"
import * as Layer from "effect/Layer"
import * as Faults from "./support/faultServer.js"

/** An article page with enough prose for the extractor to keep. */
const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `<p>${`This page about ${title.toLowerCase()} answered in full, with enough prose for the extractor to keep. `.repeat(8)}</p>` +
  `</article></body></html>`

const html = "text/html; charset=utf-8"

/** Serves the healthy page at /healthy and the fault everywhere else. */
const route =
  (fault: Faults.Behaviour): Faults.Route =>
  (exchange) =>
    exchange.path === "/healthy" ? Faults.answer(200, page("Healthy page"), { "content-type": html }) : fault

/** The whole of websearch with the local `fetch` provider as the default fetcher, allowed to reach the servers. */
const local = (servers: ReadonlyArray<Faults.FaultServer>, settings: Settings.SettingsInput = {}) =>
  WebSearch.layer(Fetch.layerWith({ workers: false })).pipe(
    Layer.provideMerge(
      Settings.layer({
        ...settings,
        defaults: { searchKeywords: null, fetchUrls: "fetch", research: null },
        urlPolicy: { allowHosts: servers.map((s) => s.hostPort) }
      })
    )
  )

/** Fetches the server's /healthy and /faulty pages in one request; /faulty gets the fault. */
const fetchCase = async (
  fault: (server: () => Faults.FaultServer) => Faults.Behaviour,
  options: {
    readonly settings?: Settings.SettingsInput
    readonly beforeDispose?: (server: Faults.FaultServer) => Promise<void>
  } = {}
) => {
  const server: Faults.FaultServer = await Faults.start(route(fault(() => server)))
  const inputs = { healthy: `${server.url}/healthy`, faulty: `${server.url}/faulty` }
  try {
    const report = await Faults.runCase({
      servers: [server],
      layer: local([server], options.settings),
      program: FetchUrls.fetchUrls({ urls: [inputs.healthy, inputs.faulty] }),
      inFlight: { server, count: 2 },
      beforeDispose: options.beforeDispose === undefined ? undefined : () => options.beforeDispose!(server)
    })
    return { report, server, inputs }
  } finally {
    await server.close()
  }
}

/** The exchange that carried the faulty URL. */
const faultyExchange = (server: Faults.FaultServer): Faults.Exchange => {
  const found = server.exchanges.find((e) => e.path === "/faulty")
  if (found === undefined) throw new Error("the faulty URL was never requested")
  return found
}

/** The client let go of the faulty page's connection while the runtime (and its pool) was still alive. */
const closedBeforeDisposal = (server: Faults.FaultServer) =>
  Faults.within(faultyExchange(server).closed, "the client closed the faulty page's connection before disposal")

describe("local fetch provider faults", () => {
  it("429 with Retry-After: RequestFailed/http_429 carrying retryAfter", async () => {
    const { inputs, report } = await fetchCase((server) =>
      Faults.after(server, 2, Faults.answer(429, "slow down", { "retry-after": "7" }))
    )
    Faults.expectPartial(report, inputs, {
      _tag: "RequestFailed",
      reason: "http_429",
      retryable: true,
      retryAfter: 7
    })
  })

  it("5xx: RequestFailed/http_5xx, retryable", async () => {
    const { inputs, report } = await fetchCase((server) =>
      Faults.after(server, 2, Faults.answer(502, page("Bad gateway"), { "content-type": html }))
    )
    Faults.expectPartial(report, inputs, { _tag: "RequestFailed", reason: "http_5xx", retryable: true })
  })

  it("a body cut short of its Content-Length: RequestFailed/stream_incomplete, retryable", async () => {
    const { inputs, report, server } = await fetchCase((server) =>
      Faults.after(server, 2, Faults.truncated(html, page("Cut short")))
    )
    Faults.expectPartial(report, inputs, { _tag: "RequestFailed", reason: "stream_incomplete", retryable: true })
    expect(report.exit._tag === "Success" && report.exit.value.failures[0].message).toMatch(
      /ended after \d+ of the announced \d+ bytes/
    )
    expect(faultyExchange(server).written).toBeGreaterThan(0)
  })

  it("a 1 GiB body: RequestFailed/too_large, the connection dropped after far less than 1 GiB", async () => {
    const { inputs, report, server } = await fetchCase(
      (server) => Faults.after(server, 2, Faults.endless(html, { fill: "a" })),
      {
        beforeDispose: closedBeforeDisposal
      }
    )
    Faults.expectPartial(report, inputs, { _tag: "RequestFailed", reason: "too_large", retryable: false })
    const written = faultyExchange(server).written
    expect(written).toBeGreaterThan(SafeTransport.defaultMaxBodyBytes)
    expect(written).toBeLessThan(8 * SafeTransport.defaultMaxBodyBytes)
  })

  it("a 1 GiB body announced by Content-Length: RequestFailed/too_large before the body is read", async () => {
    const { inputs, report, server } = await fetchCase(
      (server) => Faults.after(server, 2, Faults.endless(html, { fill: "a", announce: true })),
      { beforeDispose: closedBeforeDisposal }
    )
    Faults.expectPartial(report, inputs, { _tag: "RequestFailed", reason: "too_large", retryable: false })
    expect(report.exit._tag === "Success" && report.exit.value.failures[0].message).toContain("announced")
    expect(faultyExchange(server).written).toBeLessThan(8 * SafeTransport.defaultMaxBodyBytes)
  })

  it("a slow drip: RequestFailed/timeout, and the client hangs up at the timeout", async () => {
    const { inputs, report } = await fetchCase((server) => Faults.after(server, 2, Faults.drip(html)), {
      settings: { timeouts: { fetchUrls: 800 } },
      beforeDispose: closedBeforeDisposal
    })
    Faults.expectPartial(report, inputs, { _tag: "RequestFailed", reason: "timeout", retryable: true })
  })

  it("a hanging connection: RequestFailed/timeout, and the client hangs up at the timeout", async () => {
    const { inputs, report } = await fetchCase(() => Faults.hang, {
      settings: { timeouts: { fetchUrls: 800 } },
      beforeDispose: closedBeforeDisposal
    })
    Faults.expectPartial(report, inputs, { _tag: "RequestFailed", reason: "timeout", retryable: true })
  })

  it("a connection reset mid-body, short of its Content-Length: RequestFailed/stream_incomplete, retryable", async () => {
    // The client sees a reset and a clean close alike; what it knows is that the announced length never arrived.
    const { inputs, report, server } = await fetchCase((server) =>
      Faults.after(server, 2, Faults.resetMidBody(html, page("Reset")))
    )
    Faults.expectPartial(report, inputs, { _tag: "RequestFailed", reason: "stream_incomplete", retryable: true })
    expect(faultyExchange(server).written).toBeGreaterThan(0)
  })

  it("a TLS failure (self-signed certificate): RequestFailed/tls_failed, not retryable; the plain page answers", async () => {
    const tls = await Faults.start(() => Faults.answer(200, page("Never seen"), { "content-type": html }), {
      tls: true
    })
    const plain = await Faults.start(route(Faults.hang))
    const inputs = { healthy: `${plain.url}/healthy`, faulty: `${tls.url}/faulty` }
    try {
      const report = await Faults.runCase({
        servers: [tls, plain],
        layer: local([tls, plain]),
        program: FetchUrls.fetchUrls({ urls: [inputs.healthy, inputs.faulty] }),
        inFlight: { server: plain, count: 1 }
      })
      Faults.expectPartial(report, inputs, { _tag: "RequestFailed", reason: "tls_failed", retryable: false }, 1)
      expect(tls.exchanges).toHaveLength(0)
      expect(tls.tlsErrors()).toBeGreaterThanOrEqual(1)
    } finally {
      await tls.close()
      await plain.close()
    }
  })

  it("https to a plain-HTTP port: RequestFailed/tls_failed; the plain page answers", async () => {
    const server: Faults.FaultServer = await Faults.start(route(Faults.hang))
    const inputs = { healthy: `${server.url}/healthy`, faulty: `https://${server.hostPort}/faulty` }
    try {
      const report = await Faults.runCase({
        servers: [server],
        layer: local([server]),
        program: FetchUrls.fetchUrls({ urls: [inputs.healthy, inputs.faulty] }),
        inFlight: { server, count: 1 }
      })
      Faults.expectPartial(report, inputs, { _tag: "RequestFailed", reason: "tls_failed" }, 1)
      expect(server.exchanges.map((e) => e.path)).toEqual(["/healthy"])
    } finally {
      await server.close()
    }
  })
})

// --- the caller aborts mid-fanout ------------------------------------------------------------------------------

const paths = ["/first", "/second", "/third"]

describe("the caller aborts a fetch mid-fanout", () => {
  it("interrupting the request's fiber cancels every page fetch: each connection closes", async () => {
    const server = await Faults.start(() => Faults.hang)
    const program = FetchUrls.fetchUrls({ urls: paths.map((p) => `${server.url}${p}`) })
    const exchanges = await Faults.interruptMidFanout(server, local([server]), program, paths.length)
    expect(exchanges.map((e) => e.path).sort()).toEqual([...paths].sort())
  })

  it("aborting the promise client's signal rejects with Aborted/interrupted and cancels every fetch", async () => {
    const server = await Faults.start(() => Faults.hang)
    await Faults.abortThroughClient(server, local([server]), paths.length, (client, signal) =>
      client.fetchUrls({ urls: paths.map((p) => `${server.url}${p}`) }, { signal })
    )
  })
})
