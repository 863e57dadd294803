/**
 * Every provider, every capability, under a recording tracer and a capturing logger: a key (or a basic-auth
 * password) never appears in any span attribute, event, link or status, nor in any log line — not as sent in a
 * header or the query string, and not as the provider echoes it back: URL-encoded, in another case, or (basic
 * auth) as the base64 of `user:password`.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as SearchKeywords from "@websearch/core/SearchKeywords"
import * as Effect from "effect/Effect"
import * as HashMap from "effect/HashMap"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import { recordingTracer, spanText } from "../../../test-support/recordingTracer.js"
import * as Providers from "../src/Providers.js"
import * as Server from "./support/providerServer.js"

// Mixed case and characters that URL encoding changes, so every echo form differs from the key itself.
const canary = "Canary+Key/9f2c=7e1aB5d3"
const user = "span-user"

// Every form a secret could be seen in; the base64 of `user:password` is how basic auth (SearXNG) sends it.
const forms = (id: string): ReadonlyArray<string> => [
  canary,
  canary.toLowerCase(),
  canary.toUpperCase(),
  encodeURIComponent(canary),
  encodeURIComponent(canary).toLowerCase(),
  Buffer.from(canary).toString("base64"),
  ...(id === "searxng" ? [Buffer.from(`${user}:${canary}`).toString("base64")] : [])
]

// The echoes providers really send, in every field a driver may quote: the key as sent, URL-encoded, upper-cased,
// and for basic auth the header's base64 value.
const echoText = (id: string) =>
  [
    `invalid key ${canary}`,
    encodeURIComponent(canary),
    canary.toUpperCase(),
    ...(id === "searxng" ? [`Basic ${Buffer.from(`${user}:${canary}`).toString("base64")}`] : [])
  ].join("; ")
const echo = (id: string) => ({
  error: { message: echoText(id), code: "1000", error: echoText(id) },
  message: echoText(id),
  detail: { error: echoText(id) },
  error_msg: echoText(id),
  msg: echoText(id)
})
// A credential-named response header quoting the key lands in the client span too.
const echoHeaders = { "x-subscription-token": canary }

const scenarios: ReadonlyArray<readonly [string, (id: string) => Server.Handler]> = [
  ["a 200 answer", (id) => Server.json(echo(id), echoHeaders)],
  ["a 401 quoting the key", (id) => Server.reply(401, echo(id), echoHeaders)],
  ["a 500 quoting the key in text", (id) => Server.reply(500, echoText(id), echoHeaders)]
]

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const ids = Providers.ids.filter((id) => id !== "openai")

const optionsFor = (id: string): Server.HarnessOptions => {
  if (id === "searxng") return { keys: [], override: { basicAuthUsername: user, basicAuthPassword: canary } }
  if (id === "google") return { keys: [canary], override: { engineId: "cx-0001" } }
  return { keys: [canary] }
}

const text = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) ?? ""

const run = (id: string, capability: "searchKeywords" | "fetchUrls") => {
  const logs: Array<string> = []
  const logger = Logger.make(({ annotations, message }) => {
    const text = Array.isArray(message) ? message.map(String).join(" ") : String(message)
    logs.push(`${text} ${JSON.stringify(Object.fromEntries(HashMap.toEntries(annotations)))}`)
  })
  const call: Effect.Effect<void, unknown, SearchKeywords.SearchKeywords | FetchUrls.FetchUrls> =
    capability === "searchKeywords"
      ? Effect.asVoid(SearchKeywords.searchKeywords({ providerId: id, keywords: ["span query"] }))
      : Effect.asVoid(FetchUrls.fetchUrls({ providerId: id, urls: ["https://example.com/page"] }))
  return Effect.runPromise(
    Effect.gen(function* () {
      const { spans, tracer } = yield* recordingTracer
      const exit = yield* Effect.exit(Effect.withTracer(call, tracer))
      return { exit, spans, logs }
    }).pipe(
      Effect.provide(
        Server.live(Providers.layer, Server.settingsFor(server, id, { ...optionsFor(id), capabilities: [capability] }))
      ),
      Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
      Logger.withMinimumLogLevel(LogLevel.All)
    )
  )
}

describe.each(ids)("%s keeps its credentials out of spans and logs", (id) => {
  const capabilities = Providers.presets
    .find((preset) => preset.id === id)!
    .capabilities.map((c) => c.feature)
    // The whole-site capabilities (mapSite, crawlSite) are checked driver by driver in FirecrawlSite and TavilySite.
    .filter((c): c is "searchKeywords" | "fetchUrls" => c === "searchKeywords" || c === "fetchUrls")

  for (const capability of capabilities) {
    it.each(scenarios)(`${capability}: %s`, async (_, handler) => {
      server.handle = handler(id)
      server.requests.length = 0
      const { exit, spans, logs } = await run(id, capability)
      expect(server.requests.length).toBeGreaterThan(0)
      const sent = JSON.stringify(server.requests.map((r) => [r.headers, r.query.toString(), r.text]))
      if (id !== "duckduckgo") {
        // The credential really went out, so its absence below means it was redacted, not never used.
        expect(forms(id).some((form) => sent.includes(form))).toBe(true)
      }
      // Our trace context never goes to the provider, even while a tracer records.
      expect(server.requests.filter((r) => r.headers.traceparent !== undefined || r.headers.b3 !== undefined)).toEqual(
        []
      )
      // The provider's own client span was made (headers and URL would be in it), so the scan is not vacuous.
      expect(spans.some((span) => span.attributes.has("url.full") || span.attributes.has("url.path"))).toBe(true)
      const visible = [text(exit), ...spans.map(spanText), ...logs].join("\n")
      for (const form of forms(id)) {
        const at = visible.indexOf(form)
        expect(at === -1 ? "" : `${form} in: ${visible.slice(Math.max(0, at - 300), at + 60)}`).toBe("")
      }
    })
  }
})
