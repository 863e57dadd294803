/**
 * Test support for the provider-management routes: tokens of two workspaces (an admin and a member of `acme`,
 * an admin of `beta`, a plain token of `default`), a server with a provider store on 127.0.0.1, a client that
 * keeps every response's headers and body (to look for canaries in them) and a logger that keeps every line.
 */
import type * as ProviderStore from "@websearch/core/ProviderStore"
import type * as Settings from "@websearch/core/Settings"
import type * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import type * as Scope from "effect/Scope"
import type * as WebSearchServer from "../../src/WebSearchServer.js"
import * as Support from "./server.js"

/** Tokens, each long enough for the server's rules. */
export const tokens = {
  acmeAdmin: "acme-admin-token-0123456789",
  acmeMember: "acme-member-token-0123456789",
  betaAdmin: "beta-admin-token-0123456789",
  plain: Support.token
} as const

/** The server's token settings: the env form for two, a grant object for one, a plain token. */
export const tokenOptions = [
  `${tokens.acmeAdmin}@acme:admin`,
  { token: tokens.acmeMember, workspace: "acme" },
  `${tokens.betaAdmin}@beta:admin`,
  tokens.plain
] as const

/** What a call answered, its headers and body as text. */
export interface Answer {
  readonly status: number
  readonly headers: string
  readonly text: string
  readonly json: unknown
}

/** A client of one server that keeps every answer. */
export const client = (base: string) => {
  const seen: Array<string> = []
  const call = (method: string, path: string, token: string | undefined, body?: unknown): Effect.Effect<Answer> =>
    Effect.promise(async () => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...(body === undefined ? {} : { "content-type": "application/json" })
        },
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
      })
      const lines: Array<string> = []
      response.headers.forEach((value, name) => lines.push(`${name}: ${value}`))
      const text = await response.text()
      seen.push(lines.join("\n"), text)
      let json: unknown = undefined
      try {
        json = text.length === 0 ? undefined : JSON.parse(text)
      } catch {
        json = undefined
      }
      return { status: response.status, headers: lines.join("\n"), text, json }
    })
  return { call, seen }
}

/** A logger that keeps every line (at every level), to provide to a test's effect. */
export const capturedLogs = () => {
  const lines: Array<string> = []
  const logger = Logger.make(({ annotations, cause, message }) => {
    lines.push(`${JSON.stringify(message)} ${JSON.stringify(Object.fromEntries(annotations))} ${String(cause)}`)
  })
  const layer = Layer.merge(Logger.replace(Logger.defaultLogger, logger), Logger.minimumLogLevel(LogLevel.All))
  return { lines, layer }
}

/** Starts a server with the workspace tokens and a provider store (or none). */
export const start = (
  services: Layer.Layer<WebSearch.WebSearch | Settings.Settings, WebSearchError.Unavailable>,
  store: Layer.Layer<ProviderStore.ProviderStore, WebSearchError.Unavailable> | undefined,
  options: WebSearchServer.Options = {}
): Effect.Effect<string, WebSearchError.Unavailable, Scope.Scope> =>
  Support.start(
    { tokens: tokenOptions, logRequests: true, ...(store === undefined ? {} : { providerStore: store }), ...options },
    services
  )
