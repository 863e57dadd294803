import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as Research from "@websearch/core/Research"
import * as Settings from "@websearch/core/Settings"
import * as UsageSink from "@websearch/core/UsageSink"
import * as WebSearch from "@websearch/core/WebSearch"
import * as WebSearchClient from "@websearch/core/WebSearchClient"
import * as WebSearchError from "@websearch/core/WebSearchError"
import type { ResearchResponse } from "@websearch/core/WebSearchResponse"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as HashMap from "effect/HashMap"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as OpenAi from "../src/OpenAi.js"
import * as OpenAiWire from "../src/internal/openAiWire.js"
import * as OpenAiPrices from "../src/OpenAiPrices.js"
import * as Server from "./support/openAiServer.js"

// A key shaped like a real one: it must never come back in an error, a log line or a response.
const canary = "sk-proj-CANARY7f3a9c2e1b5d4a6f8e0c"

const settingsFor = (
  server: Server.OpenAiServer,
  options: { readonly model?: string; readonly timeoutMs?: number; readonly keys?: ReadonlyArray<string> } = {}
): Settings.SettingsInput => ({
  defaults: { research: "openai" },
  providers: {
    openai: {
      apiKeys: options.keys ?? [canary],
      capabilities: { research: { apiHost: `${server.url}/v1` } },
      ...(options.model === undefined ? {} : { model: options.model })
    }
  },
  urlPolicy: { allowHosts: ["127.0.0.1"] },
  ...(options.timeoutMs === undefined ? {} : { timeouts: { research: options.timeoutMs } })
})

/** The application: OpenAI composed, with the given usage sink composed when there is one. */
const liveLayer = (settings: Settings.SettingsInput, sink?: UsageSink.UsageSink.Service) =>
  WebSearch.layer(OpenAi.layer, sink === undefined ? Layer.empty : UsageSink.layer(sink)).pipe(
    Layer.provide(NodeHttpClient.layerUndici),
    Layer.provideMerge(Settings.layer(settings))
  )

interface LogLine {
  readonly level: string
  readonly text: string
}

const captureLogs = (lines: Array<LogLine>) =>
  Logger.make(({ annotations, logLevel, message }) => {
    const text = Array.isArray(message) ? message.map(String).join(" ") : String(message)
    lines.push({
      level: logLevel.label,
      text: `${text} ${JSON.stringify(Object.fromEntries(HashMap.toEntries(annotations)))}`
    })
  })

interface Outcome {
  readonly exit: Exit.Exit<ResearchResponse, WebSearchError.WebSearchError>
  readonly facts: ReadonlyArray<UsageSink.UsageFact>
  readonly logs: ReadonlyArray<LogLine>
}

/** Runs one research call against the server, capturing usage facts and every log line (debug included). */
const research = (
  server: Server.OpenAiServer,
  request: unknown,
  options: Parameters<typeof settingsFor>[1] & { readonly sink?: UsageSink.UsageSink.Service } = {}
): Effect.Effect<Outcome> =>
  Effect.gen(function* () {
    const facts: Array<UsageSink.UsageFact> = []
    const logs: Array<LogLine> = []
    const sink = options.sink ?? { report: (fact) => Effect.sync(() => facts.push(fact)) }
    const exit = yield* Research.research(request as Parameters<typeof Research.research>[0]).pipe(
      Effect.provide(liveLayer(settingsFor(server, options), sink)),
      Effect.provide(Logger.replace(Logger.defaultLogger, captureLogs(logs))),
      Logger.withMinimumLogLevel(LogLevel.Debug),
      Effect.exit
    )
    // Whatever happened, the key is nowhere in what a caller or an operator can see.
    const visible = JSON.stringify([
      Exit.match(exit, { onSuccess: (r) => r, onFailure: (c) => String(c) }),
      Exit.isFailure(exit) ? Exit.match(exit, { onSuccess: () => null, onFailure: (c) => c.toJSON() }) : null,
      logs,
      facts
    ])
    expect(visible).not.toContain(canary)
    expect(visible).not.toContain(canary.slice(0, 12))
    return { exit, facts, logs }
  })

const withServer = <A, E>(
  handler: Server.Handler | undefined,
  body: (server: Server.OpenAiServer) => Effect.Effect<A, E>
): Effect.Effect<A, E> =>
  Effect.acquireUseRelease(
    Effect.promise(() => Server.start(handler)),
    body,
    (server) => Effect.promise(() => server.close())
  )

const brief = { query: "What happened in Berlin today?", allowedDomains: [] }

const failure = (exit: Exit.Exit<unknown, WebSearchError.WebSearchError>): WebSearchError.WebSearchError => {
  if (Exit.isSuccess(exit)) throw new Error(`expected a failure, got ${JSON.stringify(exit.value).slice(0, 200)}`)
  const error = exit.cause._tag === "Fail" ? exit.cause.error : undefined
  if (error === undefined) throw new Error(`expected a typed failure, got ${String(exit.cause)}`)
  return error
}

const success = (exit: Exit.Exit<ResearchResponse, WebSearchError.WebSearchError>): ResearchResponse => {
  if (Exit.isFailure(exit)) throw new Error(`expected success, got ${String(exit.cause)}`)
  return exit.value
}

const reportedSources = [
  "https://www.wallpaper.com/art/exhibitions-shows/berlin-art-week-2025",
  "https://www.reuters.com/world/europe/berlin-postpones-decision-military-engagement-regarding-ukraine-2025-09-04/",
  "https://en.wikipedia.org/wiki/75th_Berlin_International_Film_Festival",
  "https://apnews.com/article/ecf774eea5cdc7cbf88adf3887102d9b",
  "https://apnews.com/article/1710be90a0e733d016e32db4d8353e1c",
  "https://en.wikipedia.org/wiki/Rave_The_Planet_Parade",
  "https://en.wikipedia.org/wiki/2025_DFB-Pokal_final",
  "https://en.wikipedia.org/wiki/2025_Berlin_Tennis_Open",
  "https://en.wikipedia.org/wiki/Parkb%C3%BChne_Wuhlheide",
  "https://en.wikipedia.org/wiki/2025_Berlin_Tennis_Open_%E2%80%93_Singles",
  "https://www.visitberlin.de/en/berlin-2025-the-main-events",
  "https://helloberl.in/berlin-events-feb-27-march-2nd-2025/"
]

const withoutSearchCalls = (events: ReturnType<typeof Server.fixtureEvents>) =>
  events.filter(
    (e) =>
      !String(e.type).startsWith("response.web_search_call.") &&
      !((e.item as { type?: string } | undefined)?.type === "web_search_call")
  )

const extraSources = (events: ReturnType<typeof Server.fixtureEvents>, count: number) =>
  events.map((e) => {
    const item = e.item as { type?: string; action?: { sources?: Array<unknown> } } | undefined
    if (
      e.type !== "response.output_item.done" ||
      item?.type !== "web_search_call" ||
      item.action?.sources === undefined
    ) {
      return e
    }
    const sources = Array.from({ length: count }, (_, i) => ({ type: "url", url: `https://example.org/source/${i}` }))
    return { ...e, item: { ...item, action: { ...item.action, sources: [...item.action.sources, ...sources] } } }
  })

const finalEvent = (events: ReturnType<typeof Server.fixtureEvents>) => events[events.length - 1]

describe("OpenAi research", () => {
  describe("the recorded run", () => {
    it.live("sends one POST /v1/responses with the key, the brief and the web_search tool, and reads the stream", () =>
      withServer(undefined, (server) =>
        Effect.gen(function* () {
          const { exit, facts } = yield* research(server, brief)
          const response = success(exit)
          expect(server.requests).toHaveLength(1)
          const sent = server.requests[0]
          expect([sent.method, sent.path]).toEqual(["POST", "/v1/responses"])
          expect(sent.headers.authorization).toBe(`Bearer ${canary}`)
          expect(sent.headers.accept).toBe("text/event-stream")
          expect(sent.headers["content-type"]).toContain("application/json")
          expect(sent.body).toEqual({
            model: OpenAiPrices.defaultModel,
            instructions: OpenAiWire.instructions,
            input: brief.query,
            tools: [{ type: "web_search" }],
            tool_choice: "auto",
            include: ["web_search_call.action.sources"],
            store: false,
            stream: true
          })

          expect(response.providerId).toBe("openai")
          expect(response.query).toBe(brief.query)
          expect(response.report).toBe(Server.fixtureReport.trim())
          expect(response.report.startsWith("Here’s what’s notable in Berlin today")).toBe(true)
          expect(response.queries).toEqual(["Berlin news today"])
          expect(response.images).toEqual([])
          // Cited sources first, with the model's titles; consulted ones after, titled by host; each URL once.
          expect(response.sources.map((s) => s.url)).toEqual(reportedSources)
          expect(response.sources[0].title).toBe("What to see at Berlin Art Week 2025 | Wallpaper*")
          expect(response.sources[1].title).toBe(
            "Berlin holds off decision on participation in postwar Ukraine force | Reuters"
          )
          expect(response.sources[2].title).toBe("en.wikipedia.org")

          expect(facts).toHaveLength(1)
          expect(facts[0]).toMatchObject({
            providerId: "openai",
            capability: "research",
            model: "gpt-5-mini",
            providerCallId: "resp_68c187cc09508192aa225af9734e2ed905ca09a4773fcd25",
            inputTokens: 60093,
            cachedInputTokens: 34560,
            outputTokens: 4080,
            reasoningTokens: 3648,
            toolCalls: 2,
            outcome: "succeeded",
            // (60093 - 34560) × $0.25 + 34560 × $0.025 + 4080 × $2 per 1M tokens, plus 2 searches × $0.01.
            cost: { currency: "USD", tokens: 0.015407, toolCalls: 0.02, total: 0.035407, catalogue: "openai-2025-09" }
          })
        })
      )
    )

    it.live("any HttpClient will do: the same answer over the fetch-based client", () =>
      withServer(undefined, (server) =>
        Effect.gen(function* () {
          const baseline = success((yield* research(server, brief)).exit)
          const overFetch = yield* Research.research(brief).pipe(
            Effect.provide(
              WebSearch.layer(OpenAi.layer).pipe(
                Layer.provide(FetchHttpClient.layer),
                Layer.provideMerge(Settings.layer(settingsFor(server)))
              )
            )
          )
          expect(overFetch).toEqual(baseline)
          expect(server.requests).toHaveLength(2)
        })
      )
    )

    it.live("the domain allowlist becomes the tool's filters.allowed_domains (lower-cased, deduplicated)", () =>
      withServer(undefined, (server) =>
        Effect.gen(function* () {
          const { exit } = yield* research(server, {
            query: "  Berlin art week  ",
            allowedDomains: ["Wallpaper.com", "visitberlin.de", "wallpaper.com."]
          })
          success(exit)
          expect(server.requests[0].body?.tools).toEqual([
            { type: "web_search", filters: { allowed_domains: ["wallpaper.com", "visitberlin.de"] } }
          ])
          expect(server.requests[0].body?.input).toBe("Berlin art week")
        })
      )
    )

    it.live("a configured priced model is sent and billed under its own rates", () =>
      withServer(undefined, (server) =>
        Effect.gen(function* () {
          const { exit, facts } = yield* research(server, brief, { model: "gpt-5-nano" })
          success(exit)
          expect(server.requests[0].body?.model).toBe("gpt-5-nano")
          expect(facts[0].model).toBe("gpt-5-nano")
          expect(facts[0].cost?.tokens).toBe(0.003081)
        })
      )
    )

    it.live("comments, unknown fields, garbage lines, CRLF, multi-line data and tiny chunks read the same", () =>
      withServer(undefined, (server) =>
        Effect.gen(function* () {
          const baseline = success((yield* research(server, brief)).exit)
          const eol = "\r\n"
          const noisy = Server.fixtureEvents()
            .map((e, i) => {
              const data = JSON.stringify(e, null, 1)
                .split("\n")
                .map((line) => `data: ${line}`)
                .join(eol)
              return `: keep-alive ${i}${eol}garbage without a colon${eol}retry: 1000${eol}id: ${i}${eol}x-unknown: field${eol}event: ${String(e.type)}${eol}${data}${eol}${eol}${eol}`
            })
            .join("")
          server.handle = Server.sse(noisy, { chunk: 7 })
          const { exit } = yield* research(server, brief)
          expect(success(exit)).toEqual(baseline)
        })
      )
    )
  })

  describe("the evidence gate", () => {
    it.live("no citations: ResponseInvalid/no_evidence, usage still reported exactly once", () =>
      withServer(Server.sse(Server.toSse(Server.mapCitations(Server.fixtureEvents(), () => undefined))), (server) =>
        Effect.gen(function* () {
          const { exit, facts } = yield* research(server, brief)
          const error = failure(exit)
          expect([error._tag, error.reason, error.retryable]).toEqual(["ResponseInvalid", "no_evidence", false])
          expect(error.message).toContain("cites no http(s) source")
          expect(facts).toHaveLength(1)
          expect(facts[0]).toMatchObject({ outcome: "failed", inputTokens: 60093, toolCalls: 2 })
        })
      )
    )

    it.live("no completed search call: no_evidence, with usage reported (zero tool calls)", () =>
      withServer(Server.sse(Server.toSse(withoutSearchCalls(Server.fixtureEvents()))), (server) =>
        Effect.gen(function* () {
          const { exit, facts } = yield* research(server, brief)
          const error = failure(exit)
          expect([error._tag, error.reason]).toEqual(["ResponseInvalid", "no_evidence"])
          expect(error.message).toContain("no web search call completed")
          expect(facts).toHaveLength(1)
          expect(facts[0]).toMatchObject({ outcome: "failed", toolCalls: 0 })
        })
      )
    )

    it.live("an empty report: no_evidence", () =>
      withServer(Server.sse(Server.toSse(Server.withReport(Server.fixtureEvents(), "  \n "))), (server) =>
        Effect.gen(function* () {
          const { exit, facts } = yield* research(server, brief)
          const error = failure(exit)
          expect([error._tag, error.reason]).toEqual(["ResponseInvalid", "no_evidence"])
          expect(error.message).toContain("report is empty")
          expect(facts).toHaveLength(1)
        })
      )
    )

    it.live("javascript: and other non-http(s) URLs are dropped; only a javascript: citation is no evidence", () =>
      withServer(undefined, (server) =>
        Effect.gen(function* () {
          const hostile = Server.mapCitations(Server.fixtureEvents(), (a) =>
            String(a.url).includes("wallpaper") ? { ...a, url: "javascript:alert(document.cookie)" } : a
          ).map((e) =>
            e.type === "response.output_item.done" && (e.item as { type?: string }).type === "web_search_call"
              ? (JSON.parse(JSON.stringify(e).replace("https://apnews.com/", "file:///etc/passwd?")) as typeof e)
              : e
          )
          server.handle = Server.sse(Server.toSse(hostile))
          const response = success((yield* research(server, brief)).exit)
          const urls = response.sources.map((s) => s.url)
          expect(urls.every((u) => u.startsWith("https://"))).toBe(true)
          expect(urls.some((u) => u.includes("javascript") || u.startsWith("file:"))).toBe(false)
          // wallpaper.com is still consulted by the search call, so it stays — as an uncited source, after reuters.
          expect(urls[0]).toContain("reuters.com")

          server.handle = Server.sse(
            Server.toSse(Server.mapCitations(Server.fixtureEvents(), (a) => ({ ...a, url: "javascript:void(0)" })))
          )
          const error = failure((yield* research(server, brief)).exit)
          expect([error._tag, error.reason]).toEqual(["ResponseInvalid", "no_evidence"])
        })
      )
    )

    it.live("40 more sources: capped to 32, deduplicated, cited ones first", () =>
      withServer(Server.sse(Server.toSse(extraSources(Server.fixtureEvents(), 40))), (server) =>
        Effect.gen(function* () {
          const { exit, logs } = yield* research(server, brief)
          const response = success(exit)
          expect(response.sources).toHaveLength(32)
          expect(new Set(response.sources.map((s) => s.url)).size).toBe(32)
          expect(response.sources.slice(0, 12).map((s) => s.url)).toEqual(reportedSources)
          expect(logs.some((l) => l.level === "DEBUG" && l.text.includes("20 source(s) over the cap of 32"))).toBe(true)
        })
      )
    )

    it.live("a report over 30 000 characters is truncated (without splitting a character) and logged", () =>
      withServer(Server.sse(Server.toSse(Server.withReport(Server.fixtureEvents(), "é😀".repeat(20_000)))), (server) =>
        Effect.gen(function* () {
          const { exit, logs } = yield* research(server, brief)
          const response = success(exit)
          expect(response.report.length).toBeLessThanOrEqual(30_000)
          expect(response.report.length).toBeGreaterThanOrEqual(29_999)
          expect(response.report).toBe("é😀".repeat(20_000).slice(0, response.report.length))
          const last = response.report.charCodeAt(response.report.length - 1)
          expect(last >= 0xd800 && last <= 0xdbff).toBe(false)
          expect(logs.some((l) => l.level === "WARN" && l.text.includes("truncated from 60000"))).toBe(true)
        })
      )
    )
  })

  describe("transport and provider failures", () => {
    it.live("a stream cut before response.completed is RequestFailed/stream_incomplete, never no_evidence", () =>
      withServer(Server.sse(Server.toSse(Server.fixtureEvents().slice(0, -1))), (server) =>
        Effect.gen(function* () {
          const { exit, facts } = yield* research(server, brief)
          const error = failure(exit)
          expect([error._tag, error.reason, error.retryable]).toEqual(["RequestFailed", "stream_incomplete", true])
          expect(facts).toHaveLength(0)

          // Cut inside the completion event: half an event is no event.
          const full = Server.toSse(Server.fixtureEvents())
          server.handle = Server.sse(full.slice(0, full.length - 40))
          const cut = failure((yield* research(server, brief)).exit)
          expect([cut._tag, cut.reason]).toEqual(["RequestFailed", "stream_incomplete"])
        })
      )
    )

    it.live("HTTP 401 and 403 are Unavailable/credentials_rejected, and the key OpenAI quotes back is not shown", () =>
      withServer(
        Server.status(401, {
          error: {
            message: `Incorrect API key provided: ${canary.slice(0, 8)}*********${canary.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
            type: "invalid_request_error",
            param: null,
            code: "invalid_api_key"
          }
        }),
        (server) =>
          Effect.gen(function* () {
            const error = failure((yield* research(server, brief)).exit)
            expect([error._tag, error.reason, error.retryable]).toEqual(["Unavailable", "credentials_rejected", false])
            expect(error.message).toContain("Incorrect API key provided: sk-[redacted]")
            expect(error.message).not.toContain(canary.slice(0, 8))
            server.handle = Server.status(403, { error: { message: "Project does not have access", code: null } })
            const forbidden = failure((yield* research(server, brief)).exit)
            expect([forbidden._tag, forbidden.reason]).toEqual(["Unavailable", "credentials_rejected"])
          })
      )
    )

    it.live("HTTP 429 with Retry-After is RequestFailed/http_429 with retryAfter; out of quota is not retryable", () =>
      withServer(
        Server.status(
          429,
          { error: { message: "Rate limit reached for gpt-5-mini", type: "requests", code: "rate_limit_exceeded" } },
          { "retry-after": "7" }
        ),
        (server) =>
          Effect.gen(function* () {
            const error = failure((yield* research(server, brief)).exit)
            expect([error._tag, error.reason, error.retryable, error.retryAfter]).toEqual([
              "RequestFailed",
              "http_429",
              true,
              7
            ])
            expect(error.message).toContain("Rate limit reached for gpt-5-mini")
            server.handle = Server.status(429, {
              error: {
                message: "You exceeded your current quota",
                type: "insufficient_quota",
                code: "insufficient_quota"
              }
            })
            const quota = failure((yield* research(server, brief)).exit)
            expect([quota.reason, quota.retryable]).toEqual(["http_429", false])
          })
      )
    )

    it.live("HTTP 5xx is RequestFailed/http_5xx (retryable); an HTML error page is not quoted", () =>
      withServer(Server.status(503, "<html><body>upstream down</body></html>"), (server) =>
        Effect.gen(function* () {
          const error = failure((yield* research(server, brief)).exit)
          expect([error._tag, error.reason, error.retryable]).toEqual(["RequestFailed", "http_5xx", true])
          expect(error.message).toBe("OpenAI failed with HTTP 503")
          expect(error.providerId).toBe("openai")
          expect(error.capability).toBe("research")
        })
      )
    )

    it.live("undecodable streams: a non-JSON event, a known event without its fields, a JSON answer", () =>
      withServer(undefined, (server) =>
        Effect.gen(function* () {
          const events = Server.toSse(Server.fixtureEvents())
          server.handle = Server.sse(`data: {not json}\n\n${events}`)
          const notJson = failure((yield* research(server, brief)).exit)
          expect([notJson._tag, notJson.reason]).toEqual(["ResponseInvalid", "decode_failed"])
          expect(notJson.message).toContain("is not JSON")

          server.handle = Server.sse(`data: {"type":"response.output_text.delta","delta":42}\n\n${events}`)
          const shape = failure((yield* research(server, brief)).exit)
          expect([shape._tag, shape.reason]).toEqual(["ResponseInvalid", "decode_failed"])

          server.handle = Server.sse(JSON.stringify({ output: [] }), { contentType: "application/json" })
          const json = failure((yield* research(server, brief)).exit)
          expect([json._tag, json.reason]).toEqual(["ResponseInvalid", "decode_failed"])
          expect(json.message).toContain("instead of an event stream")
        })
      )
    )

    it.live("response.failed and error events are typed with the provider's message (scrubbed); usage is billed", () =>
      withServer(undefined, (server) =>
        Effect.gen(function* () {
          const events = Server.fixtureEvents()
          const completed = finalEvent(events) as { response: Record<string, unknown> }
          const failed = {
            type: "response.failed",
            sequence_number: 55,
            response: {
              ...completed.response,
              status: "failed",
              error: {
                code: "server_error",
                message: `The server had an error while processing your request (key ${canary}). ${"x".repeat(500)}`
              }
            }
          }
          server.handle = Server.sse(Server.toSse([...events.slice(0, -1), failed]))
          const { exit, facts } = yield* research(server, brief)
          const error = failure(exit)
          expect([error._tag, error.reason, error.retryable]).toEqual(["RequestFailed", "http_5xx", true])
          expect(error.message).toContain("The server had an error while processing your request")
          expect(error.message.length).toBeLessThan(400)
          expect(facts).toHaveLength(1)
          expect(facts[0]).toMatchObject({ outcome: "failed", inputTokens: 60093 })

          server.handle = Server.sse(
            Server.toSse([
              ...events.slice(0, 3),
              {
                type: "error",
                sequence_number: 3,
                code: "rate_limit_exceeded",
                message: "Rate limit reached",
                param: null
              }
            ])
          )
          const rate = yield* research(server, brief)
          const rateError = failure(rate.exit)
          expect([rateError._tag, rateError.reason, rateError.retryable]).toEqual([
            "RequestFailed",
            "rate_limited",
            true
          ])
          expect(rate.facts).toHaveLength(0)
        })
      )
    )

    it.live("response.incomplete is ResponseInvalid/empty_content (an unfinished report), with usage billed", () =>
      withServer(undefined, (server) =>
        Effect.gen(function* () {
          const events = Server.fixtureEvents()
          const completed = finalEvent(events) as { response: Record<string, unknown> }
          const incomplete = {
            type: "response.incomplete",
            sequence_number: 55,
            response: {
              ...completed.response,
              status: "incomplete",
              incomplete_details: { reason: "max_output_tokens" }
            }
          }
          server.handle = Server.sse(Server.toSse([...events.slice(0, -1), incomplete]))
          const { exit, facts } = yield* research(server, brief)
          const error = failure(exit)
          expect([error._tag, error.reason]).toEqual(["ResponseInvalid", "empty_content"])
          expect(error.message).toContain("max_output_tokens")
          expect(facts).toHaveLength(1)
          expect(facts[0].outcome).toBe("failed")
        })
      )
    )

    it.live("an endpoint that refuses connections is RequestFailed/network", () =>
      withServer(undefined, (server) =>
        Effect.gen(function* () {
          yield* Effect.promise(() => server.close())
          const error = failure((yield* research(server, brief)).exit)
          expect([error._tag, error.reason, error.retryable]).toEqual(["RequestFailed", "network", true])
        })
      )
    )
  })

  describe("usage sink failures never fail the research", () => {
    it.live("a sink that fails, and a sink that dies: the report is returned and the miss is logged", () =>
      withServer(undefined, (server) =>
        Effect.gen(function* () {
          const failing = yield* research(server, brief, { sink: { report: () => Effect.fail("billing is down") } })
          expect(success(failing.exit).sources.length).toBeGreaterThan(0)
          expect(
            failing.logs.some((l) => l.level === "ERROR" && l.text.includes("usage unrecorded: billing is down"))
          ).toBe(true)
          const dying = yield* research(server, brief, {
            sink: { report: () => Effect.die(new Error("sink exploded")) }
          })
          expect(success(dying.exit).report.length).toBeGreaterThan(0)
          expect(dying.logs.some((l) => l.level === "ERROR" && l.text.includes("sink exploded"))).toBe(true)
        })
      )
    )
  })

  describe("timeouts and cancellation", () => {
    it.live("a stalled stream past the configured timeout is RequestFailed/timeout and the connection is closed", () =>
      withServer(Server.stall(Server.toSse(Server.fixtureEvents().slice(0, 6))), (server) =>
        Effect.gen(function* () {
          const { exit } = yield* research(server, brief, { timeoutMs: 300 })
          const error = failure(exit)
          expect([error._tag, error.reason, error.retryable]).toEqual(["RequestFailed", "timeout", true])
          expect(error.message).toContain("within 300ms")
          yield* Effect.promise(() => server.clientClosed()).pipe(Effect.timeout("2 seconds"))
        })
      )
    )

    it.live("the caller's cancellation mid-stream is Aborted and closes the connection", () =>
      withServer(Server.stall(Server.toSse(Server.fixtureEvents().slice(0, 8))), (server) =>
        Effect.promise(async () => {
          const client = WebSearchClient.make(liveLayer(settingsFor(server)))
          try {
            const controller = new AbortController()
            const pending = client.research(brief, { signal: controller.signal }).then(
              () => undefined,
              (error: unknown) => error
            )
            while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
            await new Promise((resolve) => setTimeout(resolve, 50))
            controller.abort()
            const error = (await pending) as WebSearchError.WebSearchError
            expect(WebSearchError.isWebSearchError(error)).toBe(true)
            expect([error._tag, error.reason]).toEqual(["Aborted", "interrupted"])
            await Promise.race([
              server.clientClosed(),
              new Promise((_, reject) => setTimeout(() => reject(new Error("the server never saw the close")), 2000))
            ])
          } finally {
            await client.dispose()
          }
        })
      )
    )
  })

  describe("refused before any request", () => {
    it.live("an unpriced model, a routed model key: Unavailable/unpriced_model, and the server saw nothing", () =>
      withServer(undefined, (server) =>
        Effect.gen(function* () {
          for (const model of ["gpt-9-ultra", "openai/gpt-5", "azure::gpt-5-mini"]) {
            const { exit, facts } = yield* research(server, brief, { model })
            const error = failure(exit)
            expect([error._tag, error.reason, error.providerId]).toEqual(["Unavailable", "unpriced_model", "openai"])
            expect(error.message).toContain(
              model.includes("/") || model.includes("::") ? "bare OpenAI model id" : "no price"
            )
            expect(facts).toHaveLength(0)
          }
          expect(server.requests).toHaveLength(0)
        })
      )
    )

    it.live("an unpriced configured model is reported in the log when the Layer is built", () =>
      withServer(undefined, (server) =>
        Effect.gen(function* () {
          const logs: Array<LogLine> = []
          yield* Effect.scoped(Layer.build(liveLayer(settingsFor(server, { model: "gpt-unpriced" })))).pipe(
            Effect.provide(Logger.replace(Logger.defaultLogger, captureLogs(logs)))
          )
          expect(logs.some((l) => l.level === "WARN" && l.text.includes('"gpt-unpriced" has no price'))).toBe(true)
          expect(server.requests).toHaveLength(0)
        })
      )
    )

    it.live("invalid requests are RequestFailed/invalid_input, and the server saw nothing", () =>
      withServer(undefined, (server) =>
        Effect.gen(function* () {
          const invalid: ReadonlyArray<unknown> = [
            { query: "  ", allowedDomains: [] },
            { query: "q".repeat(1001), allowedDomains: [] },
            { query: "q", allowedDomains: Array.from({ length: 21 }, (_, i) => `d${i}.example.com`) },
            { query: "q", allowedDomains: ["https://example.com/path"] },
            { query: "q", allowedDomains: ["exa mple.com"] },
            { query: "q", allowedDomains: [], maxResults: 5 },
            { query: "q", allowedDomains: "example.com" },
            "just a string"
          ]
          for (const request of invalid) {
            const error = failure((yield* research(server, request)).exit)
            expect([error._tag, error.reason, error.capability]).toEqual(["RequestFailed", "invalid_input", "research"])
          }
          expect(server.requests).toHaveLength(0)
        })
      )
    )

    it.live("without a configured key: Unavailable/missing_credentials naming OPENAI_API_KEY", () =>
      withServer(undefined, (server) =>
        Effect.gen(function* () {
          const error = failure((yield* research(server, brief, { keys: [] })).exit)
          expect([error._tag, error.reason]).toEqual(["Unavailable", "missing_credentials"])
          expect(error.message).toContain("OPENAI_API_KEY")
          expect(server.requests).toHaveLength(0)
        })
      )
    )
  })
})
