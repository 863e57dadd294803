/**
 * The SSRF-safe HTTP transport: every URL a model or a user hands us goes through it.
 *
 * - Each hop's URL passes the `UrlPolicy` (http(s) only, no userinfo, allowed ports, IP literals in every spelling
 *   classified before anything is dialled).
 * - A host name is resolved once per hop, every answer must pass `UrlPolicy.checkAddress`, and the request is sent
 *   to an origin whose host IS the first checked address (Host header and TLS SNI keep the name). The undici
 *   connector only dials IP literals that a request in flight has pinned, so there is no second resolution and
 *   no DNS-rebinding window, and undici never resolves a name by itself.
 * - Redirects are followed here (at most `maxRedirects`), each hop re-checked; the body is streamed and capped
 *   (the socket is destroyed at the cap); one timeout covers resolution, connect, headers, body and every hop.
 * - With a proxy, the target is still resolved and checked here and the proxy is asked for a CONNECT tunnel to
 *   the checked address, never to the name, so the proxy cannot resolve it to somewhere else; every redirect hop
 *   likewise. The proxy is the `proxy` option, else the proxy of the provider call in progress
 *   (`@websearch/core/OutboundProxy`, from a provider's `proxyUrl`), else, when `proxyEnv` is given,
 *   `HTTPS_PROXY`/`HTTP_PROXY` unless `NO_PROXY` sends the host direct. The proxy's URL passes the policy like
 *   any user-set endpoint: one on a loopback or private address, or a local name, is refused unless allowlisted.
 *
 * Error messages and span attributes name the method, scheme and host only: paths and query strings often
 * carry keys, tokens or signed parameters.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as OutboundProxy from "@websearch/core/OutboundProxy"
import type * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { Agent, buildConnector } from "undici"
import * as BodyPace from "./internal/bodyPace.js"
import * as PinnedConnector from "./internal/connector.js"
import * as DispatcherCache from "./internal/dispatcherCache.js"
import * as HopAddress from "./internal/hopAddress.js"
import * as HopExchange from "./internal/hopExchange.js"
import * as HopProxy from "./internal/hopProxy.js"
import * as HttpClientAdapter from "./internal/httpClientAdapter.js"
import * as HttpStatus from "./internal/httpStatus.js"
import type * as ProxyRoute from "./internal/proxyRoute.js"
import * as Redirects from "./internal/redirects.js"
import * as TransportError from "./internal/transportError.js"
import type * as TransportModel from "./internal/transportModel.js"

/**
 * One answer of a resolver.
 *
 * @since 0.1.0
 * @category models
 */
export interface LookupAddress extends TransportModel.LookupAddress {}

/**
 * A resolver: every address a host name resolves to. The transport calls it once per hop and checks every answer.
 * Failures should carry a Node DNS `code` (`ENOTFOUND`, `EAI_AGAIN`) so they map to `dns_failed`.
 *
 * @since 0.1.0
 * @category models
 */
export type Lookup = TransportModel.Lookup

/**
 * The connector that opens sockets (undici's `buildConnector` shape). Every dial of the transport goes through it
 * after the pin check; tests pass one that records and refuses anything outside loopback.
 *
 * @since 0.1.0
 * @category models
 */
export type Connector = buildConnector.connector

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly policy: UrlPolicy.UrlPolicy
  /** Body cap in bytes, default 5 MiB; the socket is destroyed at the cap (`RequestFailed/too_large`). */
  readonly maxBodyBytes?: number | undefined
  /** Per request, covering resolution, connect, headers, body and every redirect; default 15 s. */
  readonly timeout?: Duration.DurationInput | undefined
  /** Redirects followed, default 5; one more is `RequestFailed/redirect_rejected`. */
  readonly maxRedirects?: number | undefined
  /** Sent unless the request sets its own `user-agent`; default `defaultUserAgent`. */
  readonly userAgent?: string | undefined
  /**
   * An http(s) proxy URL (credentials in its userinfo become `Proxy-Authorization`). Targets are still resolved
   * and checked here; the proxy is asked to CONNECT to the checked address.
   */
  readonly proxy?: string | undefined
  /**
   * The environment to read `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` (and their lower-case forms) from, e.g.
   * `process.env`; default none, so no environment proxy applies. The `fetch` provider's Layer passes the process's.
   */
  readonly proxyEnv?: Readonly<Record<string, string | undefined>> | undefined
  /** The most proxies with an open connection pool at once (least recently used closed first); default 16. */
  readonly maxProxies?: number | undefined
  /**
   * Ask for gzip, deflate and br and decode them while streaming, default true; the cap counts decoded bytes,
   * and the decoded response carries no `content-encoding` or `content-length`. False sends no Accept-Encoding
   * and returns bodies as they came.
   */
  readonly decompress?: boolean | undefined
  /**
   * How fast the bytes of bodies past their first MiB are read, in bytes a second, all requests of this transport
   * together, in arrival order: default 32 MiB/s (`defaultLargeBodyBytesPerSecond`); `Infinity` reads them at full
   * speed. Reading, decoding and extracting a body costs CPU in proportion to its size, and a decompression bomb
   * decodes the whole cap from a few KiB: unpaced, a client looping over big bodies takes the cores from every
   * other request. Bodies under 1 MiB never wait; a 5 MiB body alone takes 125 ms more at the default.
   */
  readonly largeBodyBytesPerSecond?: number | undefined
  /** The resolver, default `dns.promises.lookup(host, { all: true, verbatim: true })`. */
  readonly lookup?: Lookup | undefined
  /** The socket opener, default undici's `buildConnector` (with `tls`). */
  readonly connector?: Connector | undefined
  /** Extra TLS options for the default connector, e.g. `{ ca }` for a self-hosted service's private CA. */
  readonly tls?: { readonly ca?: string | Uint8Array | ReadonlyArray<string | Uint8Array> | undefined } | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export type Method = TransportModel.Method

/**
 * A request: `url`, `method` (default GET), `headers` (names case-insensitive; `host` is always derived from the
 * URL), `body`, and `checkRedirect`, which may refuse a redirect before it is followed (a crawl refuses one that
 * leaves its site); every hop passes the policy and the address checks whatever it says.
 *
 * @since 0.1.0
 * @category models
 */
export interface Request extends TransportModel.Request {}

/**
 * A response: the final `url` after redirects, `status`, `headers` (lower-case names, repeated headers joined
 * with ", "), the whole `body`, and every redirect target followed in order (`redirects`, the last one is `url`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Response extends TransportModel.Response {}

/**
 * The default body cap: 5 MiB.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultMaxBodyBytes = 5 * 1024 * 1024

/**
 * The default pace of the bytes of bodies past their first MiB, all requests of a transport together: 32 MiB a
 * second (see `Options.largeBodyBytesPerSecond`).
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultLargeBodyBytesPerSecond: number = BodyPace.defaultBytesPerSecond

/**
 * The default per-request timeout: 15 seconds.
 */
const defaultTimeout: Duration.Duration = Duration.seconds(15)

/**
 * The default number of redirects followed: 5.
 */
const defaultMaxRedirects = 5

/**
 * The default User-Agent: says what we are and where to read about it, without pretending to be a browser.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultUserAgent = "websearch/0.1.0 (+https://github.com/websearch/websearch; bot)"

/**
 * The SSRF-safe transport service.
 *
 * @since 0.1.0
 * @category services
 */
export class SafeTransport extends Context.Tag("@websearch/node/SafeTransport")<
  SafeTransport,
  SafeTransport.Service
>() {}

/**
 * @since 0.1.0
 */
export declare namespace SafeTransport {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** Sends a request, following redirects; fails only with `RequestFailed`. Non-2xx statuses succeed. */
    readonly request: (request: Request) => Effect.Effect<Response, WebSearchError.RequestFailed>
  }
}

/**
 * Maps a non-2xx response to `http_403` / `http_404` / `http_429` (with `retryAfter` from Retry-After, in seconds
 * or as an HTTP date) / `http_5xx` / `http_status`; passes 2xx through. A 408 is `http_status` but retryable.
 *
 * @since 0.1.0
 * @category combinators
 */
export const ensureOk: (response: Response) => Effect.Effect<Response, WebSearchError.RequestFailed> =
  HttpStatus.ensureOk

const positiveInt = (value: number | undefined, fallback: number) =>
  value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback

// A rate in bytes a second: positive, `Infinity` allowed; anything else is the default.
const positiveRate = (value: number | undefined, fallback: number) =>
  value !== undefined && value > 0 && !Number.isNaN(value) ? value : fallback

const nonNegativeInt = (value: number | undefined, fallback: number) =>
  value !== undefined && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback

/**
 * Builds the transport; its connection pool is closed (every socket destroyed) when the scope closes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): Effect.Effect<SafeTransport.Service, never, Scope.Scope> =>
  Effect.gen(function* () {
    const maxBodyBytes = positiveInt(options.maxBodyBytes, defaultMaxBodyBytes)
    const maxRedirects = nonNegativeInt(options.maxRedirects, defaultMaxRedirects)
    const timeout = options.timeout === undefined ? defaultTimeout : Duration.decode(options.timeout)
    const timeoutMs = Math.max(1, Math.ceil(Duration.toMillis(timeout)))
    const userAgent = options.userAgent ?? defaultUserAgent
    const decompress = options.decompress ?? true
    const pace = BodyPace.make(positiveRate(options.largeBodyBytesPerSecond, defaultLargeBodyBytesPerSecond))
    const lookup = options.lookup ?? HopAddress.defaultLookup
    const pins = PinnedConnector.makePins()
    const base =
      options.connector ??
      buildConnector({
        timeout: timeoutMs,
        ...(options.tls?.ca === undefined ? {} : { ca: options.tls.ca as string | Array<string> })
      })
    const routes = HopProxy.make({ policy: options.policy, proxy: options.proxy, env: options.proxyEnv })
    const agents = DispatcherCache.make<Agent>(options.maxProxies)
    yield* Effect.addFinalizer(() => Effect.promise(() => agents.destroyAll()))
    // Every pool dials through the pinned connector: direct, or tunnelled through its one proxy.
    const agentFor = (proxy: ProxyRoute.Proxy | undefined): Agent =>
      agents.get(
        proxy?.key ?? "",
        () =>
          new Agent({
            connect: PinnedConnector.make({ base, pins, proxy, connectTimeoutMs: timeoutMs }),
            headersTimeout: timeoutMs,
            bodyTimeout: timeoutMs,
            keepAliveTimeout: 4_000
          })
      )

    const resolveOptions: HopAddress.ResolveOptions = { policy: options.policy, lookup, maxBodyBytes }
    const followOptions = (callProxy: HopProxy.CallProxy): Redirects.FollowOptions => ({
      maxRedirects,
      userAgent,
      decompress,
      hop: (current, hop, from) =>
        Effect.gen(function* () {
          const checked = yield* HopAddress.check(options.policy, current.url, hop, from)
          const where = `${current.method} ${TransportError.describe(checked.url)}`
          const proxy = yield* routes.forHop(callProxy, checked.url, where)
          // The target is resolved and checked whether or not a proxy carries the request.
          const address = yield* HopAddress.resolve(resolveOptions, checked, current.method, hop)
          const exchange: HopExchange.ExchangeOptions = {
            agent: agentFor(proxy),
            pins,
            maxBodyBytes,
            decompress,
            pace,
            proxy
          }
          const outcome = yield* HopExchange.send(exchange, checked, address, current, hop)
          return { checked, outcome }
        })
    })

    const request = (request: Request): Effect.Effect<Response, WebSearchError.RequestFailed> => {
      const method = request.method ?? "GET"
      const where = `${method} ${TransportError.describe(request.url)}`
      return Effect.flatMap(OutboundProxy.CallProxy, (callProxy) =>
        Redirects.follow(request, method, followOptions(callProxy))
      ).pipe(
        Effect.timeoutFail({
          duration: timeout,
          onTimeout: () =>
            WebSearchError.requestFailed("timeout", `${where}: no complete response within ${Duration.format(timeout)}`)
        }),
        Effect.withSpan("websearch.transport.request", {
          captureStackTrace: false,
          attributes: { "url.host": TransportError.hostOf(request.url), "http.request.method": method }
        })
      )
    }

    return SafeTransport.of({ request })
  })

/**
 * The transport as a Layer (its sockets are closed when the Layer is released).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<SafeTransport> => Layer.scoped(SafeTransport, make(options))

/**
 * Sends a request with the `SafeTransport` in context.
 *
 * @since 0.1.0
 * @category accessors
 */
export const request = (request: Request): Effect.Effect<Response, WebSearchError.RequestFailed, SafeTransport> =>
  Effect.flatMap(SafeTransport, (transport) => transport.request(request))

/**
 * An `@effect/platform` `HttpClient` over a transport: the same policy, pinned resolution, redirects handled by
 * the transport, body cap and timeout. Non-2xx statuses are responses, as with any `HttpClient`. A transport
 * failure is an `HttpClientError.RequestError` (`reason: "Transport"`) whose `cause` is the `RequestFailed`;
 * `fromHttpClientError` recovers it. FormData bodies are encoded through the web `Response`; streamed bodies are
 * collected before sending.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeHttpClient: (transport: SafeTransport.Service) => HttpClient.HttpClient = HttpClientAdapter.make

/**
 * The `HttpClient` view of the `SafeTransport` in context, for provider drivers.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerHttpClient: Layer.Layer<HttpClient.HttpClient, never, SafeTransport> = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(SafeTransport, makeHttpClient)
)

/**
 * The `RequestFailed` behind an `HttpClientError` from `makeHttpClient`, or a `RequestFailed/network` naming the
 * request's host for any other client error.
 *
 * @since 0.1.0
 * @category encoding
 */
export const fromHttpClientError: (error: HttpClientError.HttpClientError) => WebSearchError.RequestFailed =
  HttpClientAdapter.fromHttpClientError
