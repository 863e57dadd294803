/**
 * The fault suite for remote providers: real drivers (Tavily for JSON, Exa's MCP server for server-sent events)
 * over `NodeHttpClient.layerUndici`, through `WebSearch.layer` and the public capability API, against a local
 * server that misbehaves for one input of the request and answers the other.
 *
 * Each case asserts: the typed error and reason of the faulty input (in `failures`, the healthy input answered);
 * no unhandled rejection or uncaught exception; no fiber the request started still alive when it returned; every
 * server-side connection closed once the runtime is disposed — and for a body the client stops reading (too
 * large, timed out, cancelled) the connection closed before disposal, when the client gave up on it.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as SearchKeywords from "@websearch/core/SearchKeywords"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchResponse from "@websearch/core/WebSearchResponse"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as ExaMcp from "../src/ExaMcp.js"
import * as Http from "../src/internal/providerHttp.js"
import * as Tavily from "../src/Tavily.js"
import * as Faults from "./support/faultServer.js"
import type { ProviderLayer } from "./support/providerServer.js"

const key = "tvly-fault-suite-0123456789"

/** A Tavily search answer for one keyword. */
const tavilyAnswer = (query: string) => ({
  query,
  response_time: 0.12,
  results: [
    { title: `About ${query}`, url: `https://example.com/${query}`, content: `What is known about ${query}.`, score: 1 }
  ]
})

/** The keyword of a Tavily search request. */
const tavilyQuery = (exchange: Faults.Exchange): string | undefined => (exchange.body as { query?: string })?.query

/** The JSON-RPC call Exa's MCP server receives. */
const exaBody = (exchange: Faults.Exchange) =>
  exchange.body as { id?: number; params?: { arguments?: { query?: string } } } | undefined

/** The keyword of an Exa MCP call. */
const exaQuery = (exchange: Faults.Exchange): string | undefined => exaBody(exchange)?.params?.arguments?.query

/** A whole event stream carrying the reply to the call, with one result for the keyword. */
const exaReply = (exchange: Faults.Exchange, query: string) =>
  `event: message\ndata: ${JSON.stringify({
    result: {
      content: [
        {
          type: "text",
          text: `Title: About ${query}\nURL: https://example.com/${query}\nPublished: N/A\nAuthor: N/A\nHighlights:\nWhat is known about ${query}.`
        }
      ]
    },
    jsonrpc: "2.0",
    id: exaBody(exchange)?.id
  })}\n\n`

/** A progress notification event: not the reply. */
const progress = `event: message\ndata: ${JSON.stringify({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: 1, progress: 1, total: 2 }
})}\n\n`

/** Answers the healthy keyword, misbehaves for every other one. */
const tavilyRoute =
  (fault: Faults.Behaviour): Faults.Route =>
  (exchange) =>
    tavilyQuery(exchange) === "healthy" ? Faults.answer(200, tavilyAnswer("healthy")) : fault

/** The whole of websearch with one remote provider pointed at `apiHost`. */
const remote = (provider: ProviderLayer, providerId: string, apiHost: string, settings: Settings.SettingsInput = {}) =>
  WebSearch.layer(provider).pipe(
    Layer.provide(NodeHttpClient.layerUndici),
    Layer.provideMerge(
      Settings.layer({
        ...settings,
        defaults: { searchKeywords: null, fetchUrls: null, research: null },
        providers: {
          [providerId]: {
            ...(providerId === Tavily.providerId ? { apiKeys: [key] } : {}),
            capabilities: { searchKeywords: { apiHost } }
          }
        },
        urlPolicy: { allowHosts: [new URL(apiHost).host] }
      })
    )
  )

const search = (providerId: string, keywords: ReadonlyArray<string>) =>
  SearchKeywords.searchKeywords({ providerId, keywords: [...keywords], maxResults: 5 })

const inputs = { healthy: "healthy", faulty: "faulty" }

/** `Faults.expectPartial` for ["healthy", "faulty"], and the key never shows in the failure. */
const expectPartial = (
  report: Faults.Report<WebSearchResponse.WebSearchResponse, unknown>,
  failure: Record<string, unknown>
) => {
  Faults.expectPartial(report, inputs, failure)
  if (Exit.isSuccess(report.exit)) expect(JSON.stringify(report.exit.value.failures)).not.toContain(key)
}

/** Runs one Tavily search of ["healthy", "faulty"] against a server that routes "faulty" to the fault. */
const tavilyCase = async (
  fault: (server: () => Faults.FaultServer) => Faults.Behaviour,
  options: {
    readonly settings?: Settings.SettingsInput
    readonly beforeDispose?: (server: Faults.FaultServer) => Promise<void>
  } = {}
) => {
  const server: Faults.FaultServer = await Faults.start(tavilyRoute(fault(() => server)))
  try {
    const report = await Faults.runCase({
      servers: [server],
      layer: remote(Tavily.layer, Tavily.providerId, server.url, options.settings),
      program: search(Tavily.providerId, ["healthy", "faulty"]),
      inFlight: { server, count: 2 },
      beforeDispose: options.beforeDispose === undefined ? undefined : () => options.beforeDispose!(server)
    })
    return { report, server }
  } finally {
    await server.close()
  }
}

/** The exchange that carried the faulty keyword. */
const faultyExchange = (server: Faults.FaultServer): Faults.Exchange => {
  const found = server.exchanges.find((e) => tavilyQuery(e) === "faulty" || exaQuery(e) === "faulty")
  if (found === undefined) throw new Error("the faulty input never reached the server")
  return found
}

/** The client let go of the faulty exchange's connection while the runtime (and its pool) was still alive. */
const closedBeforeDisposal = (server: Faults.FaultServer) =>
  Faults.within(faultyExchange(server).closed, "the client closed the faulty exchange's connection before disposal")

// The cap of a provider's answer: the 1 GiB body must be abandoned within a small multiple of it.
const tavilyCap = Http.limits.maxBodyBytes

describe("remote provider faults (Tavily, JSON)", () => {
  it("429 with Retry-After: RequestFailed/http_429 carrying retryAfter", async () => {
    const { report } = await tavilyCase((server) =>
      Faults.after(server, 2, Faults.answer(429, { detail: { error: "Too many requests" } }, { "retry-after": "7" }))
    )
    expectPartial(report, { _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 7 })
  })

  it("5xx: RequestFailed/http_5xx, retryable", async () => {
    const { report } = await tavilyCase((server) =>
      Faults.after(server, 2, Faults.answer(503, "<html><body>Service Unavailable</body></html>"))
    )
    expectPartial(report, { _tag: "RequestFailed", reason: "http_5xx", retryable: true })
  })

  it("malformed JSON in a complete answer: ResponseInvalid/decode_failed, not retryable", async () => {
    const { report } = await tavilyCase((server) =>
      Faults.after(
        server,
        2,
        Faults.answer(200, '{"query":"faulty","results":[{"url":', { "content-type": "application/json" })
      )
    )
    expectPartial(report, { _tag: "ResponseInvalid", reason: "decode_failed", retryable: false })
  })

  it("a body cut short of its Content-Length: RequestFailed/stream_incomplete, retryable (a transport fault, not a decode error)", async () => {
    const { report, server } = await tavilyCase((server) =>
      Faults.after(server, 2, Faults.truncated("application/json", JSON.stringify(tavilyAnswer("faulty"))))
    )
    expectPartial(report, { _tag: "RequestFailed", reason: "stream_incomplete", retryable: true })
    expect(faultyExchange(server).written).toBeGreaterThan(0)
    // The message names the socket's fault, not the client's generic "Decode".
    expect(Exit.isSuccess(report.exit) && report.exit.value.failures[0].message).toMatch(
      /cut off (after \d+ bytes|before its announced \d+ bytes) \((UND_ERR_SOCKET|ECONNRESET)\)/
    )
  })

  it("a 1 GiB body: RequestFailed/too_large, the connection dropped after far less than 1 GiB", async () => {
    const { report, server } = await tavilyCase(
      (server) => Faults.after(server, 2, Faults.endless("application/json")),
      {
        beforeDispose: closedBeforeDisposal
      }
    )
    expectPartial(report, { _tag: "RequestFailed", reason: "too_large", retryable: false })
    const written = faultyExchange(server).written
    expect(written).toBeGreaterThanOrEqual(tavilyCap)
    expect(written).toBeLessThan(4 * tavilyCap)
  })

  it("a slow drip: RequestFailed/timeout, and the client hangs up at the timeout", async () => {
    const { report } = await tavilyCase((server) => Faults.after(server, 2, Faults.drip("application/json")), {
      settings: { timeouts: { searchKeywords: 800 } },
      beforeDispose: closedBeforeDisposal
    })
    expectPartial(report, { _tag: "RequestFailed", reason: "timeout", retryable: true })
  })

  it("a hanging connection: RequestFailed/timeout, and the client hangs up at the timeout", async () => {
    const { report } = await tavilyCase(() => Faults.hang, {
      settings: { timeouts: { searchKeywords: 800 } },
      beforeDispose: closedBeforeDisposal
    })
    expectPartial(report, { _tag: "RequestFailed", reason: "timeout", retryable: true })
  })

  it("a connection reset mid-body, short of its Content-Length: RequestFailed/stream_incomplete, retryable", async () => {
    // The client sees a reset and a clean close alike (undici: UND_ERR_SOCKET "other side closed"); what it knows
    // is that the announced length never arrived.
    const { report, server } = await tavilyCase((server) =>
      Faults.after(server, 2, Faults.resetMidBody("application/json", JSON.stringify(tavilyAnswer("faulty"))))
    )
    expectPartial(report, { _tag: "RequestFailed", reason: "stream_incomplete", retryable: true })
    expect(faultyExchange(server).written).toBeGreaterThan(0)
    // The message names the socket's fault, not the client's generic "Decode".
    expect(Exit.isSuccess(report.exit) && report.exit.value.failures[0].message).toMatch(
      /cut off (after \d+ bytes|before its announced \d+ bytes) \((UND_ERR_SOCKET|ECONNRESET)\)/
    )
  })

  it("a TLS failure (self-signed certificate): every input RequestFailed/tls_failed", async () => {
    // The endpoint is per provider, so both inputs meet the same certificate: the request fails as a whole and
    // lists each input. (The local fetch suite mixes a TLS URL with a healthy one in one request.)
    const server = await Faults.start(tavilyRoute(Faults.hang), { tls: true })
    try {
      const report = await Faults.runCase({
        servers: [server],
        layer: remote(Tavily.layer, Tavily.providerId, server.url),
        program: search(Tavily.providerId, ["healthy", "faulty"])
      })
      // A refused certificate stays refused: not retryable, as the local transport judges it too.
      expect(Faults.failureOf(report)).toMatchObject({
        _tag: "RequestFailed",
        reason: "tls_failed",
        retryable: false,
        failures: [
          { input: "healthy", _tag: "RequestFailed", reason: "tls_failed", retryable: false },
          { input: "faulty", _tag: "RequestFailed", reason: "tls_failed", retryable: false }
        ]
      })
      expect(server.exchanges).toHaveLength(0)
      expect(server.tlsErrors()).toBeGreaterThanOrEqual(1)
      expect(report.processEvents).toEqual([])
      expect(report.leftAlive).toEqual([])
      expect(report.connections).toEqual([{ opened: expect.any(Number), open: 0 }])
    } finally {
      await server.close()
    }
  })

  it("an https endpoint on a plain-HTTP port (no TLS at all): every input RequestFailed/tls_failed", async () => {
    const server = await Faults.start(tavilyRoute(Faults.hang))
    try {
      const report = await Faults.runCase({
        servers: [server],
        layer: remote(Tavily.layer, Tavily.providerId, `https://${server.hostPort}`),
        program: search(Tavily.providerId, ["healthy", "faulty"])
      })
      expect(Faults.failureOf(report)).toMatchObject({
        _tag: "RequestFailed",
        reason: "tls_failed",
        failures: [
          { input: "healthy", _tag: "RequestFailed", reason: "tls_failed" },
          { input: "faulty", _tag: "RequestFailed", reason: "tls_failed" }
        ]
      })
      expect(server.exchanges).toHaveLength(0)
      expect(report.processEvents).toEqual([])
      expect(report.leftAlive).toEqual([])
      expect(report.connections).toEqual([{ opened: expect.any(Number), open: 0 }])
    } finally {
      await server.close()
    }
  })
})

// --- Exa's MCP server: server-sent events ---------------------------------------------------------------------

const exaRoute =
  (fault: Faults.Behaviour): Faults.Route =>
  (exchange) =>
    exaQuery(exchange) === "healthy" ? (e) => Faults.eventStream(exaReply(e, "healthy"))(e) : fault

const exaCase = async (fault: (server: () => Faults.FaultServer) => Faults.Behaviour) => {
  const server: Faults.FaultServer = await Faults.start(exaRoute(fault(() => server)))
  try {
    return await Faults.runCase({
      servers: [server],
      layer: remote(ExaMcp.layer, ExaMcp.providerId, server.url),
      program: search(ExaMcp.providerId, ["healthy", "faulty"]),
      inFlight: { server, count: 2 }
    })
  } finally {
    await server.close()
  }
}

describe("remote provider faults (Exa MCP, server-sent events)", () => {
  it("an event stream that ends mid-event, before the JSON-RPC result: RequestFailed/stream_incomplete", async () => {
    const report = await exaCase((server) =>
      Faults.after(server, 2, (exchange) => {
        const whole = exaReply(exchange, "faulty")
        // A progress notification, then the reply's event cut in the middle of its JSON; the HTTP message ends.
        Faults.eventStream(`${progress}${whole.slice(0, Math.floor(whole.length / 2))}`)(exchange)
      })
    )
    expectPartial(report, { _tag: "RequestFailed", reason: "stream_incomplete", retryable: true })
  })

  it("an event stream that ends after notifications only: RequestFailed/stream_incomplete", async () => {
    const report = await exaCase((server) => Faults.after(server, 2, Faults.eventStream(progress)))
    expectPartial(report, { _tag: "RequestFailed", reason: "stream_incomplete", retryable: true })
  })

  it("an event stream whose connection is cut mid-event: RequestFailed/network", async () => {
    const report = await exaCase((server) =>
      Faults.after(server, 2, (exchange) =>
        Faults.truncated("text/event-stream", `${progress}${exaReply(exchange, "faulty")}`, "chunked")(exchange)
      )
    )
    expectPartial(report, { _tag: "RequestFailed", reason: "network", retryable: true })
  })
})

// --- the caller aborts mid-fanout ------------------------------------------------------------------------------

const keywords = ["first", "second", "third"]

describe("the caller aborts mid-fanout", () => {
  it("interrupting the request's fiber cancels every provider call: each connection closes", async () => {
    const server = await Faults.start(() => Faults.hang)
    const layer = remote(Tavily.layer, Tavily.providerId, server.url)
    const exchanges = await Faults.interruptMidFanout(
      server,
      layer,
      search(Tavily.providerId, keywords),
      keywords.length
    )
    expect(exchanges.map(tavilyQuery).sort()).toEqual([...keywords].sort())
  })

  it("aborting the promise client's signal rejects with Aborted/interrupted and cancels every call", async () => {
    const server = await Faults.start(() => Faults.hang)
    await Faults.abortThroughClient(
      server,
      remote(Tavily.layer, Tavily.providerId, server.url),
      keywords.length,
      (client, signal) => client.searchKeywords({ providerId: Tavily.providerId, keywords: [...keywords] }, { signal })
    )
  })
})
