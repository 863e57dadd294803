/**
 * The `HttpClient` for provider API calls behind outbound proxies, as the CLI and the server use it: undici (the
 * `@effect/platform-node` client) with one dispatcher per proxy.
 *
 * - A provider call with a `proxyUrl` (the provider's or instance's, set by the capability pipelines as
 *   `@websearch/core/OutboundProxy`'s `CallProxy`) goes through that proxy, whatever the target.
 * - Otherwise, when the environment is read (the default of `layer`), `https_proxy`/`HTTPS_PROXY` serves https
 *   targets (falling back to `http_proxy`/`HTTP_PROXY`), `http_proxy`/`HTTP_PROXY` serves http targets, and
 *   `no_proxy`/`NO_PROXY` sends matching hosts direct: a comma list of names (each matching itself and every name
 *   under it, with or without a leading `.` or `*.`), IP addresses and CIDR blocks, each optionally with a port;
 *   `*` sends everything direct.
 * - Every proxy URL passes the URL policy (`OutboundProxy.check`): one on a loopback or private address, or a
 *   local name, is refused unless `urlPolicy.allowHosts`/`allowCidrs` trusts it. An environment proxy is checked
 *   when the Layer is built (a refused or malformed one fails it, naming the variable); a call's proxy when it is
 *   used (a `RequestError` whose cause is the `RequestFailed` naming the setting).
 * - Every new connection, to a provider or to a proxy, resolves its host once and dials an address only when every
 *   answer passes the same policy, so a name that passed at load cannot later point at a loopback or private address
 *   (DNS rebinding); a refusal is a `RequestError` whose cause is `RequestFailed/ssrf_rejected`.
 * - Through a proxy, the target is resolved and checked here the same way before anything is sent, and the proxy is
 *   asked for a CONNECT tunnel to the checked address, never to the name (the proxy would resolve it itself, inside
 *   whatever network it sits in). A name on `urlPolicy.allowHosts` passes whatever it resolves to, so it is handed
 *   to the proxy as it is: where only the proxy can resolve names, trust the provider hosts there.
 * - Credentials in a proxy URL (`http://user:pass@proxy.example:3128`) are sent as `Proxy-Authorization` on the
 *   CONNECT only; messages and spans name the proxy's scheme, host and port at most.
 *
 * Targets are tunnelled with CONNECT, so an https target's TLS is end to end (SNI and the certificate check use the
 * name). At most `maxProxies` proxies (default 16) keep a connection pool at once, the least recently used closed
 * first. An application that provides an `HttpClient` of its own instead gets neither the environment nor the
 * providers' `proxyUrl`: it can read `CallProxy` itself.
 *
 * @since 0.2.0
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as OutboundProxy from "@websearch/core/OutboundProxy"
import * as Settings from "@websearch/core/Settings"
import type * as SafeTransport from "./SafeTransport.js"
import * as UrlPolicy from "@websearch/core/UrlPolicy"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { Agent } from "undici"
import * as CheckedDial from "./internal/checkedDial.js"
import * as DispatcherCache from "./internal/dispatcherCache.js"
import * as ProxyEnvironment from "./internal/proxyEnvironment.js"
import * as ProxyRoute from "./internal/proxyRoute.js"

/**
 * @since 0.2.0
 * @category models
 */
export interface Options {
  /** The policy every proxy URL must pass (the settings' `urlPolicy`). */
  readonly policy: UrlPolicy.UrlPolicy
  /** The variables `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` are read from (any case); none: no environment proxy. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
  /** The most proxies with an open connection pool at once; default 16. */
  readonly maxProxies?: number | undefined
  /**
   * The resolver each new connection asks (to a provider or to a proxy) before it dials; every answer must pass the
   * policy. Default `dns.promises.lookup(host, { all: true, verbatim: true })`.
   */
  readonly lookup?: SafeTransport.Lookup | undefined
  /** Certificates to trust besides the system's, e.g. `{ ca }` for a self-hosted provider's private CA. */
  readonly tls?: { readonly ca?: string | Uint8Array | ReadonlyArray<string | Uint8Array> | undefined } | undefined
}

/**
 * Builds the client; every connection pool closes when the scope closes. Fails `Unavailable/invalid_config`
 * naming the variable when an environment proxy is malformed or refused by the policy.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (options: Options): Effect.Effect<HttpClient.HttpClient, WebSearchError.Unavailable, Scope.Scope> =>
  Effect.gen(function* () {
    const environment = options.env === undefined ? ProxyRoute.direct : ProxyRoute.fromEnv(options.env)
    if (options.env !== undefined) yield* ProxyEnvironment.validate(options.policy, options.env)
    // Every dial, direct or to a proxy, resolves and checks its host first (internal/checkedDial.ts).
    const dialOptions: CheckedDial.Options = { lookup: options.lookup, ca: options.tls?.ca }
    // The connectors run their check on this runtime: the application's tracer, logger and config provider.
    const runtime = yield* Effect.runtime<never>()
    const directAgent = yield* Effect.acquireRelease(
      Effect.sync(() => new Agent({ connect: CheckedDial.make(runtime, options.policy, dialOptions) })),
      (agent) => Effect.promise(() => agent.destroy().catch(() => undefined))
    )
    const proxies = DispatcherCache.make<Agent>(options.maxProxies)
    yield* Effect.addFinalizer(() => Effect.promise(() => proxies.destroyAll()))
    const direct = NodeHttpClient.makeUndici(directAgent)
    // Through a proxy, each connection's target is resolved and checked here and the proxy asked for a tunnel to
    // the checked address (internal/checkedDial.ts); the credentials travel on the CONNECT only.
    const through = (proxy: ProxyRoute.Proxy): HttpClient.HttpClient =>
      NodeHttpClient.makeUndici(
        proxies.get(
          proxy.key,
          () => new Agent({ connect: CheckedDial.through(runtime, options.policy, proxy, dialOptions) })
        )
      )

    const route = (callProxy: OutboundProxy.CallProxy.Service, url: string) => {
      const source = Option.match(callProxy, {
        onSome: (proxy): ProxyRoute.Source | undefined => ({ field: proxy.field, url: Redacted.value(proxy.url) }),
        // A URL the client cannot parse goes direct, where it fails as the platform's client reports it.
        onNone: () => (URL.canParse(url) ? ProxyRoute.forTarget(environment, new URL(url)) : undefined)
      })
      return source === undefined ? Either.right(undefined) : ProxyRoute.check(options.policy, source)
    }

    return HttpClient.makeWith<HttpClientError.HttpClientError, never, HttpClientError.HttpClientError, never>(
      (prepared) =>
        Effect.flatMap(prepared, (request) =>
          Effect.flatMap(OutboundProxy.CallProxy, (callProxy) =>
            Either.match(route(callProxy, request.url), {
              onLeft: (cause) =>
                Effect.fail(
                  new HttpClientError.RequestError({ request, reason: "Transport", cause, description: cause.message })
                ),
              onRight: (proxy) => (proxy === undefined ? direct : through(proxy)).execute(request)
            })
          )
        ),
      Effect.succeed
    )
  })

/**
 * The proxy environment (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY` and their lower-case forms) as the current
 * `ConfigProvider` gives it: the process's environment by default.
 */
const environment: Effect.Effect<
  Readonly<Record<string, string | undefined>>,
  WebSearchError.Unavailable
> = ProxyEnvironment.read

/**
 * The client as the `HttpClient` Layer, over the settings' URL policy; with `environment: false` only the
 * providers' own `proxyUrl` applies (default: the proxy environment is read too).
 *
 * @example
 * ```ts
 * import * as SearchKeywords from "@websearch/core/SearchKeywords"
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as ProxyHttpClient from "@websearch/node/ProxyHttpClient"
 * import * as Providers from "@websearch/providers/Providers"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * // Brave through the corporate proxy (trusted by the URL policy), the others by HTTPS_PROXY / NO_PROXY.
 * const Live = WebSearch.layer(Providers.layer.pipe(Layer.provide(ProxyHttpClient.layer()))).pipe(
 *   Layer.provide(
 *     Settings.layer({
 *       urlPolicy: { allowHosts: ["proxy.corp.example"] },
 *       providers: { brave: { proxyUrl: "http://proxy.corp.example:3128" } }
 *     })
 *   )
 * )
 *
 * export const main = SearchKeywords.searchKeywords({ keywords: ["effect"], providerId: "brave" }).pipe(
 *   Effect.provide(Live)
 * )
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = (options?: {
  readonly environment?: boolean | undefined
  readonly maxProxies?: number | undefined
}): Layer.Layer<HttpClient.HttpClient, WebSearchError.Unavailable, Settings.Settings> =>
  Layer.scoped(
    HttpClient.HttpClient,
    Effect.gen(function* () {
      const settings = yield* Settings.Settings
      const env = options?.environment === false ? undefined : yield* environment
      return yield* make({ policy: UrlPolicy.fromSettings(settings), env, maxProxies: options?.maxProxies })
    })
  )
