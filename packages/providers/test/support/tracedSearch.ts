/**
 * For drivers that put the API key in the URL: runs a search under a recording tracer so a test can look for the
 * key in every span (attributes, and the exit each span ended with), and finds a loopback port nobody listens on
 * so the transport error path (whose `HttpClientError` message names the URL) can be exercised without leaving
 * 127.0.0.1.
 */
import * as SearchKeywords from "@websearch/core/SearchKeywords"
import type * as Settings from "@websearch/core/Settings"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import type * as WebSearchResponse from "@websearch/core/WebSearchResponse"
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import type * as Tracer from "effect/Tracer"
import { createServer } from "node:net"
import { recordingTracer } from "../../../../test-support/recordingTracer.js"
import * as Server from "./providerServer.js"

/** A port on 127.0.0.1 that was free a moment ago: connecting to it is refused. */
export const closedPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })

/** What a traced search produced. */
export interface Traced {
  readonly exit: Exit.Exit<WebSearchResponse.WebSearchResponse, WebSearchError.WebSearchError>
  readonly spans: ReadonlyArray<Tracer.Span>
  readonly logs: ReadonlyArray<string>
}

/** Everything a span holds that an exporter would send, as text. */
export const spanText = (span: Tracer.Span): string => {
  const status = span.status._tag === "Ended" ? JSON.stringify(span.status.exit) : ""
  return `${span.name} ${JSON.stringify(Object.fromEntries(span.attributes))} ${status}`
}

/** Runs one search with the given settings under a recording tracer, capturing logs. */
export const search = async (
  provider: Server.ProviderLayer,
  providerId: string,
  settings: Settings.SettingsInput,
  keywords: ReadonlyArray<string>
): Promise<Traced> => {
  const logs: Array<string> = []
  const logger = Logger.make(({ annotations, message }) => {
    logs.push(`${String(message)} ${JSON.stringify(annotations)}`)
  })
  return Effect.runPromise(
    Effect.gen(function* () {
      const { spans, tracer } = yield* recordingTracer
      const exit = yield* Effect.exit(SearchKeywords.searchKeywords({ providerId, keywords: [...keywords] })).pipe(
        Effect.withTracer(tracer)
      )
      return { exit, spans, logs }
    }).pipe(
      Effect.provide(Server.live(provider, settings)),
      Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
      Logger.withMinimumLogLevel(LogLevel.All)
    )
  )
}

/** Settings that point the provider at a loopback port nobody listens on. */
export const refusedSettings = (
  server: Server.ProviderServer,
  providerId: string,
  port: number,
  override?: Record<string, unknown>
): Settings.SettingsInput => {
  const base = Server.settingsFor(server, providerId, {
    capabilities: ["searchKeywords"],
    ...(override === undefined ? {} : { override })
  })
  return {
    ...base,
    providers: {
      ...base.providers,
      [providerId]: {
        ...base.providers?.[providerId],
        capabilities: { searchKeywords: { apiHost: `http://127.0.0.1:${port}` } }
      }
    },
    urlPolicy: { ...base.urlPolicy, allowHosts: [...(base.urlPolicy?.allowHosts ?? []), `127.0.0.1:${port}`] }
  }
}
