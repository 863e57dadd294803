/**
 * OpenAI research under a recording tracer and a capturing logger, as SpanSecrets.test.ts drives every search and
 * fetch provider: the key never appears in any span attribute, event, link or failure, nor in any log line,
 * whether the stream succeeds or OpenAI refuses the key while quoting it back (as sent, upper-cased, URL-encoded).
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Research from "@websearch/core/Research"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as HashMap from "effect/HashMap"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import { recordingTracer, spanText } from "../../../test-support/recordingTracer.js"
import * as OpenAi from "../src/OpenAi.js"
import * as Server from "./support/openAiServer.js"

// Mixed case and characters that URL encoding changes, so every echo form differs from the key itself.
const canary = "sk-proj-Canary+Key/9f2c=7e1aB5d3"
const forms = [
  canary,
  canary.toLowerCase(),
  canary.toUpperCase(),
  encodeURIComponent(canary),
  encodeURIComponent(canary).toLowerCase(),
  Buffer.from(canary).toString("base64")
]
const echoText = `Incorrect API key provided: ${canary}; ${encodeURIComponent(canary)}; ${canary.toUpperCase()}`

const scenarios: ReadonlyArray<readonly [string, Server.Handler]> = [
  ["the recorded stream", Server.sse(Server.toSse(Server.fixtureEvents()))],
  ["a 401 quoting the key", Server.status(401, { error: { message: echoText, code: "invalid_api_key" } })],
  ["a 500 quoting the key in text", Server.status(500, echoText)],
  ["a 429 quoting the key", Server.status(429, { error: { message: echoText } }, { "retry-after": "3" })]
]

let server: Server.OpenAiServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const text = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) ?? ""

const settings = (): Settings.SettingsInput => ({
  defaults: { research: "openai" },
  providers: { openai: { apiKeys: [canary], capabilities: { research: { apiHost: `${server.url}/v1` } } } },
  urlPolicy: { allowHosts: ["127.0.0.1"] }
})

describe("openai keeps its key out of spans and logs", () => {
  it.each(scenarios)("research: %s", async (_, handler) => {
    server.handle = handler
    server.requests.length = 0
    const logs: Array<string> = []
    const logger = Logger.make(({ annotations, message }) => {
      const line = Array.isArray(message) ? message.map(String).join(" ") : String(message)
      logs.push(`${line} ${JSON.stringify(Object.fromEntries(HashMap.toEntries(annotations)))}`)
    })
    const live = WebSearch.layer(OpenAi.layer).pipe(
      Layer.provide(NodeHttpClient.layerUndici),
      Layer.provideMerge(Settings.layer(settings()))
    )
    const { exit, spans } = await Effect.runPromise(
      Effect.gen(function* () {
        const { spans, tracer } = yield* recordingTracer
        const exit = yield* Effect.exit(
          Effect.withTracer(Research.research({ query: "What happened in Berlin today?", allowedDomains: [] }), tracer)
        )
        return { exit, spans }
      }).pipe(
        Effect.provide(live),
        Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
        Logger.withMinimumLogLevel(LogLevel.All)
      )
    )
    // The key really went out, and the client's span (headers and URL) was made: the scan below is not vacuous.
    expect(server.requests.map((r) => r.headers.authorization)).toContain(`Bearer ${canary}`)
    expect(spans.some((span) => span.attributes.has("url.full") || span.attributes.has("url.path"))).toBe(true)
    // Our trace context never goes to OpenAI, even while a tracer records.
    expect(server.requests.filter((r) => r.headers.traceparent !== undefined || r.headers.b3 !== undefined)).toEqual([])
    const visible = [text(exit), String(Exit.isFailure(exit) ? exit.cause : ""), ...spans.map(spanText), ...logs].join(
      "\n"
    )
    for (const form of forms) {
      const at = visible.indexOf(form)
      expect(at === -1 ? "" : `${form} in: ${visible.slice(Math.max(0, at - 300), at + 60)}`).toBe("")
    }
  })
})
