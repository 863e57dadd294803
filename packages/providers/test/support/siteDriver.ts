/**
 * A hosted site driver (`mapSite`, `crawlSite`) called directly against the fixture server: the driver built once
 * over undici, a driver context pointing at the server with the canary key, and runs that capture the exit, every
 * log line and every span, for the assertions on requests, results and secrets.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as SiteRequest from "@websearch/core/SiteRequest"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import * as HashMap from "effect/HashMap"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { recordingTracer, spanText } from "../../../../test-support/recordingTracer.js"
import * as Server from "./providerServer.js"

/** The HTTP client every driver of a test file is built with, alive for the whole file. */
export const runtime = (): ManagedRuntime.ManagedRuntime<HttpClient.HttpClient, never> =>
  ManagedRuntime.make(NodeHttpClient.layerUndici)

/** A `mapSite` request decoded as core decodes it (its defaults filled in). */
export const mapRequest = (input: typeof SiteRequest.MapSiteRequest.Encoded): SiteRequest.MapSiteRequest =>
  Schema.decodeUnknownSync(SiteRequest.MapSiteRequest)(input)

/** A `crawlSite` request decoded as core decodes it (its defaults filled in). */
export const crawlRequest = (input: typeof SiteRequest.CrawlSiteRequest.Encoded): SiteRequest.CrawlSiteRequest =>
  Schema.decodeUnknownSync(SiteRequest.CrawlSiteRequest)(input)

/** The context core gives a driver: the server as the endpoint, the canary as the key (or none). */
export const ctxOf = (
  server: Server.ProviderServer,
  driver: ProviderDriver.AnyProviderDriver,
  capability: "mapSite" | "crawlSite",
  options: { readonly keys?: ReadonlyArray<string> | undefined; readonly options?: unknown } = {}
): ProviderDriver.DriverContext<unknown> => {
  const keys = (options.keys ?? [Server.canary]).map((key) => Redacted.make(key))
  return {
    provider: {
      ...driver.preset,
      apiKeys: keys,
      engines: [],
      basicAuth: Option.none(),
      model: Option.none(),
      rateLimit: Option.none(),
      proxyUrl: Option.none(),
      options: options.options
    },
    capability,
    apiHost: Option.some(server.url),
    apiKey: keys.length === 0 ? Option.none() : Option.some(keys[0]!),
    apiKeyIndex: keys.length === 0 ? Option.none() : Option.some(0),
    searchOptions: {},
    maxResults: 10,
    timeout: Duration.seconds(10),
    options: options.options,
    fetchUrls: () => Effect.die("a site driver never fetches through the application here")
  }
}

/** What one run produced: its exit, its log lines and the text of every span it made. */
export interface Run<A> {
  readonly exit: Exit.Exit<A, WebSearchError.WebSearchError>
  readonly logs: ReadonlyArray<string>
  readonly spans: ReadonlyArray<string>
  /** Whether a provider client span (with the URL) was made: the span scan is not vacuous. */
  readonly clientSpans: number
}

/** Runs an effect under a recording tracer and a capturing logger. */
export const capture = <A>(
  rt: ManagedRuntime.ManagedRuntime<HttpClient.HttpClient, never>,
  effect: Effect.Effect<A, WebSearchError.WebSearchError>
): Promise<Run<A>> => {
  const logs: Array<string> = []
  const logger = Logger.make(({ annotations, message }) => {
    const text = Array.isArray(message) ? message.map(String).join(" ") : String(message)
    logs.push(`${text} ${JSON.stringify(Object.fromEntries(HashMap.toEntries(annotations)))}`)
  })
  return rt.runPromise(
    Effect.gen(function* () {
      const { spans, tracer } = yield* recordingTracer
      const exit = yield* Effect.exit(Effect.withTracer(effect, tracer))
      return {
        exit,
        logs,
        spans: spans.map(spanText),
        clientSpans: spans.filter((s) => s.attributes.has("url.full") || s.attributes.has("url.path")).length
      }
    }).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)), Logger.withMinimumLogLevel(LogLevel.All))
  )
}

/** The items of a whole crawl stream, in order. */
export const collect = (
  stream: Stream.Stream<ProviderDriver.CrawlItem, WebSearchError.WebSearchError>
): Effect.Effect<ReadonlyArray<ProviderDriver.CrawlItem>, WebSearchError.WebSearchError> =>
  Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

const text = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) ?? ""

/** Everything a caller or an operator could see of a run, as text: for canary checks. */
export const visible = (run: Run<unknown>): string => [text(run.exit), ...run.logs, ...run.spans].join("\n")

/** The value of a successful run; throws (failing the test) with the cause otherwise. */
export const value = <A>(run: Run<A>): A => {
  if (run.exit._tag === "Success") return run.exit.value
  throw new Error(`expected a success, got ${text(run.exit.cause)}`)
}

/** The typed error of a failed run; throws (failing the test) otherwise. */
export const error = (run: Run<unknown>): WebSearchError.WebSearchError => {
  if (run.exit._tag === "Failure" && run.exit.cause._tag === "Fail") return run.exit.cause.error
  throw new Error(`expected a typed failure, got ${text(run.exit)}`)
}

/** Waits until `check` holds (polling every 5 ms, at most `ms`), for what a server sees after a stream stopped. */
export const eventually = async (check: () => boolean, ms = 2_000): Promise<boolean> => {
  const until = Date.now() + ms
  while (!check()) {
    if (Date.now() > until) return false
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return true
}
