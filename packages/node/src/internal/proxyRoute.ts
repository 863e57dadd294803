/**
 * Which proxy a request goes through, shared by the provider client and the safe transport: a proxy given for the
 * call (a provider's `proxyUrl`, or the transport's own option) always applies; otherwise the environment's
 * (`https_proxy`/`HTTPS_PROXY` for https targets, falling back to `http_proxy`/`HTTP_PROXY`, which also serves
 * http targets; lower case first, as curl and undici read them), unless `NO_PROXY`/`no_proxy` sends the host
 * direct. Every proxy is checked by `OutboundProxy.check` (the URL policy) before it is used.
 */
import * as OutboundProxy from "@websearch/core/OutboundProxy"
import type * as UrlPolicy from "@websearch/core/UrlPolicy"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as NoProxy from "./noProxy.js"

/** A proxy someone configured, and where. */
export type Source = OutboundProxy.Source

/** A checked proxy as the connectors use it, with a key that tells two proxies apart (never shown). */
export interface Proxy {
  readonly field: string
  readonly protocol: "http:" | "https:"
  readonly hostname: string
  readonly port: string
  readonly origin: string
  readonly authorization: string | undefined
  readonly key: string
}

/** The proxy environment, read once. */
export interface Environment {
  readonly http: Source | undefined
  readonly https: Source | undefined
  readonly noProxy: NoProxy.NoProxy
}

/** No proxy at all. */
export const direct: Environment = { http: undefined, https: undefined, noProxy: NoProxy.none }

/** The variables that name proxies, in the order they are read. */
export const variables = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "no_proxy", "NO_PROXY"] as const

const variable = (env: Readonly<Record<string, string | undefined>>, names: ReadonlyArray<string>) => {
  for (const name of names) {
    const value = env[name]?.trim()
    if (value !== undefined && value !== "") return { field: name, url: value }
  }
  return undefined
}

/** Reads the proxy environment from a record of variables (`process.env`, or a test's). */
export const fromEnv = (env: Readonly<Record<string, string | undefined>>): Environment => {
  const http = variable(env, ["http_proxy", "HTTP_PROXY"])
  const https = variable(env, ["https_proxy", "HTTPS_PROXY"]) ?? http
  return { http, https, noProxy: NoProxy.parse(variable(env, ["no_proxy", "NO_PROXY"])?.url) }
}

/** The environment's proxy for a target URL, or none when `NO_PROXY` sends it direct. */
export const forTarget = (environment: Environment, target: URL): Source | undefined => {
  const source = target.protocol === "https:" ? environment.https : environment.http
  if (source === undefined) return undefined
  const port = target.port === "" ? (target.protocol === "https:" ? 443 : 80) : Number(target.port)
  return NoProxy.matches(environment.noProxy, target.hostname, port) ? undefined : source
}

/** Checks a proxy by the URL policy (see `OutboundProxy.check`). */
export const check = (
  policy: UrlPolicy.UrlPolicy,
  source: Source
): Either.Either<Proxy, WebSearchError.RequestFailed> =>
  Either.map(OutboundProxy.check(policy, source), (proxy) => {
    const authorization = Option.getOrUndefined(Option.map(proxy.authorization, Redacted.value))
    return {
      field: proxy.field,
      protocol: proxy.protocol,
      hostname: proxy.hostname,
      port: proxy.port,
      origin: proxy.origin,
      authorization,
      key: authorization === undefined ? proxy.origin : `${proxy.origin} ${authorization}`
    }
  })
