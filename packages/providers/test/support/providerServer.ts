/**
 * A local stand-in for any provider's HTTP API on 127.0.0.1: it records every request (method, path, query,
 * headers, raw and JSON body) and answers with a scripted handler, usually a fixture from `../fixtures/`
 * (copied from the shared provider fixtures: real captures or documented examples, see each file's `source`).
 *
 * `harness` builds the whole of websearch around one provider Layer, with the provider's endpoint pointed at the
 * server (allowlisted), a canary key, and a quota of its own, so each test starts with a fresh budget.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as FetchUrls from "@websearch/core/FetchUrls"
import type * as Composition from "@websearch/core/Composition"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as ProviderQuota from "@websearch/core/ProviderQuota"
import * as SearchKeywords from "@websearch/core/SearchKeywords"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import type * as WebSearchResponse from "@websearch/core/WebSearchResponse"
import type * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as HashMap from "effect/HashMap"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

type Json = Record<string, unknown>

/**
 * A fixture's JSON, untyped on purpose: tests reach into recorded bodies of many shapes, and a wrong path fails
 * the assertion that uses it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type FixtureJson = Record<string, any>

/** Reads a fixture file of `test/fixtures` (JSON parsed; `.html` and other files as text). */
export const fixture = <A = Json>(name: string): A => {
  const text = readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8")
  return (name.endsWith(".json") ? JSON.parse(text) : text) as A
}

/** One request as the server received it. */
export interface Recorded {
  readonly method: string
  /** The path without the query. */
  readonly path: string
  readonly query: URLSearchParams
  readonly headers: IncomingMessage["headers"]
  readonly text: string
  /** The body parsed as JSON, when it is JSON. */
  readonly body: Json | undefined
}

/** A scripted answer. */
export type Handler = (request: Recorded, res: ServerResponse) => void

/** Answers with a status, headers and a body (objects are sent as JSON). */
export const reply =
  (code: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_, res) => {
    const text = typeof body === "string" ? body : JSON.stringify(body)
    res.writeHead(code, {
      "content-type": typeof body === "string" ? "text/plain; charset=utf-8" : "application/json",
      ...headers
    })
    res.end(text)
  }

/** Answers 200 with a JSON body. */
export const json = (body: unknown, headers: Record<string, string> = {}): Handler => reply(200, body, headers)

/** Answers with an HTML body. */
export const html =
  (code: number, body: string, headers: Record<string, string> = {}): Handler =>
  (_, res) => {
    res.writeHead(code, { "content-type": "text/html; charset=utf-8", ...headers })
    res.end(body)
  }

/** Answers by the request: the first handler whose predicate matches, else 404. */
export const route =
  (...routes: ReadonlyArray<readonly [(request: Recorded) => boolean, Handler]>): Handler =>
  (request, res) => {
    const found = routes.find(([matches]) => matches(request))
    if (found === undefined) return reply(404, { error: "no route" })(request, res)
    return found[1](request, res)
  }

/** The running server. */
export interface ProviderServer {
  readonly url: string
  /** `127.0.0.1:PORT`, for `urlPolicy.allowHosts`. */
  readonly hostPort: string
  readonly requests: Array<Recorded>
  handle: Handler
  readonly close: () => Promise<void>
}

/** Starts a server on 127.0.0.1 with an ephemeral port. */
export const start = async (handle: Handler = reply(500, { error: "no handler" })): Promise<ProviderServer> => {
  const requests: Array<Recorded> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8")
      let body: Json | undefined
      try {
        body = text === "" ? undefined : (JSON.parse(text) as Json)
      } catch {
        body = undefined
      }
      const url = new URL(req.url ?? "/", "http://127.0.0.1")
      const recorded: Recorded = {
        method: req.method ?? "",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        text,
        body
      }
      requests.push(recorded)
      state.handle(recorded, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const { port } = server.address() as AddressInfo
  const state: ProviderServer = {
    url: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    requests,
    handle,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
  return state
}

/** A key shaped like a real one: it must never come back in an error, a log line or a response. */
export const canary = "CANARY-9f2c7e1a5b3d4c6e8a0b"

/** One captured log line. */
export interface LogLine {
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

/** Options of a harness. */
export interface HarnessOptions {
  /** Which capabilities point at the server (default: every one the provider has). */
  readonly capabilities?: ReadonlyArray<"searchKeywords" | "fetchUrls">
  /** The keys (default: the canary); `[]` for none. */
  readonly keys?: ReadonlyArray<string>
  /** More of the provider's override (engines, engineId, basic auth, ...). */
  readonly override?: Record<string, unknown>
  /** More settings. */
  readonly settings?: Settings.SettingsInput
  /** A path appended to the server URL as the apiHost (e.g. "/api/paas/v4"). */
  readonly basePath?: string
}

/** What one call produced: its exit and every log line (debug included). */
export interface Outcome {
  readonly exit: Exit.Exit<WebSearchResponse.WebSearchResponse, WebSearchError.WebSearchError>
  readonly logs: ReadonlyArray<LogLine>
}

/** The settings that point one provider at the server. */
export const settingsFor = (
  server: ProviderServer,
  providerId: string,
  options: HarnessOptions = {}
): Settings.SettingsInput => {
  const capabilities = options.capabilities ?? ["searchKeywords", "fetchUrls"]
  const apiHost = `${server.url}${options.basePath ?? ""}`
  const base = options.settings ?? {}
  return {
    ...base,
    defaults: { searchKeywords: null, fetchUrls: null, research: null, ...base.defaults },
    providers: {
      ...base.providers,
      [providerId]: {
        ...(options.keys === undefined
          ? { apiKeys: [canary] }
          : options.keys.length > 0
            ? { apiKeys: options.keys }
            : {}),
        capabilities: Object.fromEntries(capabilities.map((c) => [c, { apiHost }])),
        ...options.override
      }
    },
    urlPolicy: { ...base.urlPolicy, allowHosts: [...(base.urlPolicy?.allowHosts ?? []), server.hostPort] }
  }
}

/**
 * A provider module's Layer, a part of `WebSearch.layer`: it may use the HttpClient and the settings, and may
 * fail at start (a provider whose options are refused).
 */
export type ProviderLayer = Layer.Layer<
  never,
  WebSearchError.Unavailable,
  Composition.Composition | HttpClient.HttpClient | Settings.Settings
>

/** The whole of websearch with one provider Layer, over undici, with a fresh quota. */
export const live = (
  provider: ProviderLayer,
  settings: Settings.SettingsInput
): Layer.Layer<WebSearch.WebSearch | Settings.Settings, WebSearchError.Unavailable> =>
  WebSearch.layer(provider, ProviderQuota.layerMemory()).pipe(
    Layer.provide(NodeHttpClient.layerUndici),
    Layer.provideMerge(Settings.layer(settings))
  )

/** Runs `searchKeywords` on the provider against the server. */
export const search = (
  server: ProviderServer,
  providerId: string,
  provider: ProviderLayer,
  keywords: ReadonlyArray<string>,
  options: HarnessOptions & {
    readonly maxResults?: number
    /** The request's search options. */
    readonly searchOptions?: SearchOptions.SearchOptions
    /** The clock the whole call sees (a fixed time for options counted back from now). */
    readonly clock?: Clock.Clock
  } = {}
): Promise<Outcome> => {
  const logs: Array<LogLine> = []
  const call = SearchKeywords.searchKeywords({
    providerId,
    keywords: [...keywords],
    ...(options.maxResults === undefined ? {} : { maxResults: options.maxResults }),
    ...options.searchOptions
  })
  return Effect.runPromise(
    Effect.exit(options.clock === undefined ? call : Effect.withClock(call, options.clock)).pipe(
      Effect.provide(live(provider, settingsFor(server, providerId, options))),
      Effect.provide(Logger.replace(Logger.defaultLogger, captureLogs(logs))),
      Logger.withMinimumLogLevel(LogLevel.All),
      Effect.map((exit) => ({ exit, logs }))
    )
  )
}

/** Runs `fetchUrls` on the provider against the server. */
export const fetch = (
  server: ProviderServer,
  providerId: string,
  provider: ProviderLayer,
  urls: ReadonlyArray<string>,
  options: HarnessOptions = {}
): Promise<Outcome> => {
  const logs: Array<LogLine> = []
  return Effect.runPromise(
    Effect.exit(FetchUrls.fetchUrls({ providerId, urls: [...urls] })).pipe(
      Effect.provide(live(provider, settingsFor(server, providerId, options))),
      Effect.provide(Logger.replace(Logger.defaultLogger, captureLogs(logs))),
      Logger.withMinimumLogLevel(LogLevel.All),
      Effect.map((exit) => ({ exit, logs }))
    )
  )
}

/** The response of a successful outcome; throws (failing the test) with the error otherwise. */
export const success = (outcome: Outcome): WebSearchResponse.WebSearchResponse => {
  if (Exit.isSuccess(outcome.exit)) return outcome.exit.value
  throw new Error(`expected a success, got ${JSON.stringify(outcome.exit.cause)}`)
}

/**
 * The error of an outcome: the request's error when it failed as a whole. Throws (failing the test) on success.
 */
export const failure = (outcome: Outcome): WebSearchError.WebSearchError => {
  if (Exit.isFailure(outcome.exit) && outcome.exit.cause._tag === "Fail") return outcome.exit.cause.error
  throw new Error(`expected a typed failure, got ${JSON.stringify(outcome.exit)}`)
}

/** Everything a caller could see of an outcome, as text: for canary checks. */
export const visible = (outcome: Outcome): string =>
  `${JSON.stringify(outcome.exit)}\n${outcome.logs.map((l) => l.text).join("\n")}`
