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
 *   the checked address, never to the name, so the proxy cannot resolve it to somewhere else. The proxy itself
 *   is operator configuration and is trusted (it is not checked by the policy).
 *
 * Error messages and span attributes name the method, scheme and host only: paths and query strings often
 * carry keys, tokens or signed parameters.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import dns from "node:dns"
import * as net from "node:net"
import * as zlib from "node:zlib"
import { Agent, buildConnector } from "undici"
import type { Dispatcher } from "undici"
import * as PinnedConnector from "./internal/connector.js"
import * as TransportError from "./internal/transportError.js"

/**
 * One answer of a resolver.
 *
 * @since 0.1.0
 * @category models
 */
export interface LookupAddress {
  readonly address: string
  readonly family: number
}

/**
 * A resolver: every address a host name resolves to. The transport calls it once per hop and checks every answer.
 * Failures should carry a Node DNS `code` (`ENOTFOUND`, `EAI_AGAIN`) so they map to `dns_failed`.
 *
 * @since 0.1.0
 * @category models
 */
export type Lookup = (
  hostname: string
) => Effect.Effect<ReadonlyArray<LookupAddress>, unknown> | Promise<ReadonlyArray<LookupAddress>>

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
   * Ask for gzip, deflate and br and decode them while streaming, default true; the cap counts decoded bytes,
   * and the decoded response carries no `content-encoding` or `content-length`. False sends no Accept-Encoding
   * and returns bodies as they came.
   */
  readonly decompress?: boolean | undefined
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
export type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS"

/**
 * @since 0.1.0
 * @category models
 */
export interface Request {
  readonly url: string
  readonly method?: Method | undefined
  /** Header names are case-insensitive; `host` is always derived from the URL. */
  readonly headers?: Record<string, string> | undefined
  readonly body?: Uint8Array | string | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Response {
  /** The final URL, after redirects. */
  readonly url: string
  readonly status: number
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array
  /** Every redirect target followed, in order (the last one is `url`). */
  readonly redirects: ReadonlyArray<string>
}

/**
 * The default body cap: 5 MiB.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultMaxBodyBytes = 5 * 1024 * 1024

/**
 * The default per-request timeout: 15 seconds.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultTimeout: Duration.Duration = Duration.seconds(15)

/**
 * The default number of redirects followed: 5.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultMaxRedirects = 5

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
  {
    /** Sends a request, following redirects; fails only with `RequestFailed`. Non-2xx statuses succeed. */
    readonly request: (request: Request) => Effect.Effect<Response, WebSearchError.RequestFailed>
  }
>() {}

/**
 * @since 0.1.0
 */
export declare namespace SafeTransport {
  /**
   * @since 0.1.0
   * @category models
   */
  export type Service = Context.Tag.Service<SafeTransport>
}

// --- status mapping -----------------------------------------------------------------------------------------

const retryAfterSeconds = (value: string | undefined, now: number): number | undefined => {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed)
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, Math.ceil((date - now) / 1000))
}

/**
 * Maps a non-2xx response to `http_403` / `http_404` / `http_429` (with `retryAfter` from Retry-After, in seconds
 * or as an HTTP date) / `http_5xx` / `http_status`; passes 2xx through. A 408 is `http_status` but retryable.
 *
 * @since 0.1.0
 * @category combinators
 */
export const ensureOk = (response: Response): Effect.Effect<Response, WebSearchError.RequestFailed> => {
  const status = response.status
  if (status >= 200 && status <= 299) return Effect.succeed(response)
  const at = `HTTP ${status} from ${TransportError.describe(response.url)}`
  if (status === 403) return Effect.fail(WebSearchError.requestFailed("http_403", `${at}: forbidden`))
  if (status === 404) return Effect.fail(WebSearchError.requestFailed("http_404", `${at}: not found`))
  if (status === 429) {
    return Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const retryAfter = retryAfterSeconds(response.headers["retry-after"], now)
      return Effect.fail(
        WebSearchError.requestFailed(
          "http_429",
          `${at}: rate limited${retryAfter === undefined ? "" : `, retry after ${retryAfter} s`}`,
          { retryAfter }
        )
      )
    })
  }
  if (status >= 500 && status <= 599) {
    return Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const retryAfter = retryAfterSeconds(response.headers["retry-after"], now)
      return Effect.fail(WebSearchError.requestFailed("http_5xx", `${at}: server error`, { retryAfter }))
    })
  }
  return Effect.fail(
    WebSearchError.requestFailed("http_status", `${at}: unexpected status`, {
      retryable: status === 408
    })
  )
}

// --- the transport ------------------------------------------------------------------------------------------

const redirectStatuses = new Set([301, 302, 303, 307, 308])
const credentialHeaders = ["authorization", "cookie", "proxy-authorization"]
const bodyHeaders = ["content-type", "content-length", "content-encoding", "content-language", "content-location"]
const droppedHeaders = new Set(["host", "connection", "transfer-encoding", "keep-alive", "upgrade", "te", "trailer"])
const redirectDrainBytes = 64 * 1024

const acceptEncoding = "gzip, deflate, br"

/** A streaming decoder for a single supported content coding; `undefined` leaves the body as it came. */
const makeDecoder = (coding: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined => {
  // Lenient flushing: servers often end a gzip stream without a clean trailer; what was decoded still counts.
  const lenient = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH }
  if (coding === "gzip" || coding === "x-gzip") return zlib.createGunzip(lenient)
  if (coding === "deflate") return zlib.createInflate(lenient)
  if (coding === "br") return zlib.createBrotliDecompress()
  return undefined
}

const defaultLookup: Lookup = (hostname) =>
  // Read `dns.promises.lookup` at call time: a test guard may have replaced it.
  dns.promises.lookup(hostname, { all: true, verbatim: true })

interface Current {
  readonly url: string
  readonly method: Method
  readonly headers: Record<string, string>
  readonly body: Uint8Array | string | undefined
}

type HopOutcome =
  | { readonly _tag: "Redirect"; readonly status: number; readonly location: string }
  | {
      readonly _tag: "Done"
      readonly status: number
      readonly headers: Record<string, string>
      readonly body: Uint8Array
    }

const flattenHeaders = (headers: Dispatcher.ResponseData["headers"]): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value
  }
  return out
}

const urlHostname = (address: string) => (net.isIPv6(address) ? `[${address}]` : address)

const stripTrailingDot = (host: string) => (host.endsWith(".") ? host.slice(0, -1) : host)

const sameOrigin = (a: string, b: string) => {
  try {
    return new URL(a).origin === new URL(b).origin
  } catch {
    return false
  }
}

const positiveInt = (value: number | undefined, fallback: number) =>
  value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback

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
    const lookup = options.lookup ?? defaultLookup
    const proxy = options.proxy === undefined ? undefined : PinnedConnector.parseProxy(options.proxy)
    const proxyInvalid = options.proxy !== undefined && proxy === undefined
    const pins = PinnedConnector.makePins()
    const base =
      options.connector ??
      buildConnector({
        timeout: timeoutMs,
        ...(options.tls?.ca === undefined ? {} : { ca: options.tls.ca as string | Array<string> })
      })
    const agent = new Agent({
      connect: PinnedConnector.make({ base, pins, proxy, connectTimeoutMs: timeoutMs }),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4_000
    })
    yield* Effect.addFinalizer(() => Effect.promise(() => agent.destroy().catch(() => undefined)))

    /** The policy check of one hop's URL; a redirect's refusals say so. */
    const checkHop = (url: string, hop: number, from: string | undefined) => {
      const result = UrlPolicy.checkUrl(options.policy, url)
      if (Either.isRight(result)) return Effect.succeed(result.right)
      const error = result.left
      if (from === undefined) return Effect.fail(error)
      const message = `redirect ${hop} from ${TransportError.describe(from)} refused: ${error.message}`
      return Effect.fail(
        error.reason === "ssrf_rejected"
          ? WebSearchError.annotate(error, { message }, false)
          : WebSearchError.requestFailed("redirect_rejected", message)
      )
    }

    /** Resolves once, checks every answer, returns the address to dial. */
    const resolveHop = (checked: UrlPolicy.CheckedUrl, method: Method, hop: number) => {
      const ctx = { method, url: checked.url, hop, maxBodyBytes }
      const redirectNote = hop > 0 ? ` (redirect ${hop})` : ""
      const verify = (address: string) =>
        Either.match(UrlPolicy.checkAddress(options.policy, checked, address), {
          onRight: () => Effect.void,
          onLeft: (error) =>
            Effect.fail(
              hop > 0 ? WebSearchError.annotate(error, { message: `${error.message}${redirectNote}` }, false) : error
            )
        })
      if (checked.literal) {
        return Effect.as(verify(checked.host), checked.host)
      }
      return Effect.try({ try: () => lookup(checked.host), catch: (e) => e }).pipe(
        Effect.flatMap((answer) =>
          Effect.isEffect(answer) ? answer : Effect.tryPromise({ try: () => answer, catch: (e) => e })
        ),
        Effect.mapError((e) => {
          const mapped = TransportError.fromUnknown(e, ctx)
          return mapped.reason === "dns_failed"
            ? mapped
            : WebSearchError.requestFailed(
                "dns_failed",
                `${method} ${TransportError.describe(checked.url)}${redirectNote}: the host name did not resolve`
              )
        }),
        Effect.flatMap((answers) => {
          if (answers.length === 0) {
            return Effect.fail(
              WebSearchError.requestFailed(
                "dns_failed",
                `${method} ${TransportError.describe(checked.url)}${redirectNote}: the host name has no addresses`
              )
            )
          }
          // Every answer must pass, not just the one we dial: a mixed answer is a rebinding attempt or a
          // misconfiguration, and either way the host is not safely public.
          return Effect.flatMap(
            Effect.forEach(answers, (a) => verify(a.address), { discard: true }),
            () => {
              // A zone-scoped address (fe80::1%eth0) cannot be written in a URL; it only passes when allowlisted.
              const dialable = answers.find((a) => !a.address.includes("%") && net.isIP(a.address) !== 0)
              return dialable === undefined
                ? Effect.fail(
                    WebSearchError.requestFailed(
                      "dns_failed",
                      `${method} ${TransportError.describe(checked.url)}${redirectNote}: no address can be dialled`
                    )
                  )
                : Effect.succeed(dialable.address)
            }
          )
        }),
        Effect.withSpan("websearch.transport.lookup", {
          attributes: { "url.host": checked.url.host, "websearch.hop": hop }
        })
      )
    }

    /** One HTTP exchange with the pinned address; the body is read here, chunk by chunk, up to the cap. */
    const sendHop = (checked: UrlPolicy.CheckedUrl, address: string, current: Current, hop: number) => {
      const url = checked.url
      const pinned = urlHostname(address)
      const origin = `${url.protocol}//${pinned}:${checked.port}`
      // The URL parser's spelling of the address, without brackets: what undici hands the connector.
      const pinKey = URL.canParse(origin) ? new URL(origin).hostname.replace(/^\[|\]$/g, "") : address
      const headers: Record<string, string> = { ...current.headers, host: url.host }
      const servername = checked.literal ? undefined : stripTrailingDot(url.hostname)
      const ctx = { method: current.method, url, hop, maxBodyBytes }
      const exchange = (signal: AbortSignal): Promise<HopOutcome> =>
        agent
          .request({
            origin,
            path: `${url.pathname}${url.search}`,
            method: current.method,
            headers,
            body: current.body ?? null,
            signal,
            // undici takes the TLS server name from the request; the origin is an address, so pass the name.
            ...({ servername } as object)
          })
          .then(async (response) => {
            const status = response.statusCode
            const responseHeaders = flattenHeaders(response.headers)
            const location = responseHeaders["location"]
            if (redirectStatuses.has(status) && location !== undefined) {
              await response.body.dump({ limit: redirectDrainBytes }).catch(() => undefined)
              return { _tag: "Redirect", status, location }
            }
            const announced = Number(responseHeaders["content-length"])
            if (Number.isFinite(announced) && announced > maxBodyBytes) {
              response.body.destroy()
              throw new TransportError.BodyTooLarge(maxBodyBytes, announced)
            }
            const hasBody = current.method !== "HEAD" && status !== 204 && status !== 304
            const coding = decompress && hasBody ? (responseHeaders["content-encoding"] ?? "").trim().toLowerCase() : ""
            const decoder = makeDecoder(coding)
            const source: AsyncIterable<Uint8Array> =
              decoder === undefined ? response.body : response.body.pipe(decoder)
            if (decoder !== undefined) {
              // The decoded body replaces the encoded one, so its length and coding no longer apply.
              delete responseHeaders["content-encoding"]
              delete responseHeaders["content-length"]
              response.body.on("error", (error) => decoder.destroy(error))
            }
            const chunks: Array<Uint8Array> = []
            let total = 0
            // Bytes as they came on the wire, to tell a body cut short of its announced length.
            let received = 0
            if (decoder !== undefined) response.body.on("data", (chunk: Uint8Array) => void (received += chunk.length))
            try {
              for await (const chunk of source) {
                // The cap counts decoded bytes: a small compressed bomb is stopped like an endless body.
                total += chunk.byteLength
                if (decoder === undefined) received = total
                if (total > maxBodyBytes) throw new TransportError.BodyTooLarge(maxBodyBytes, undefined)
                chunks.push(chunk)
              }
            } catch (error) {
              // Destroying an unfinished body makes undici destroy the socket: no more bytes are read.
              response.body.destroy()
              decoder?.destroy()
              // The connection ended (cleanly or by a reset: the client sees the same socket error) before the
              // announced length arrived: the stream is incomplete, which says more than "network".
              if (!signal.aborted && !(error instanceof TransportError.BodyTooLarge) && received < announced) {
                throw new TransportError.BodyIncomplete(received, announced)
              }
              throw error
            }
            return { _tag: "Done", status, headers: responseHeaders, body: Buffer.concat(chunks, total) }
          })
      return Effect.acquireUseRelease(
        Effect.sync(() => pins.pin(pinKey)),
        () =>
          Effect.tryPromise({
            try: exchange,
            catch: (error) => TransportError.fromUnknown(error, ctx)
          }),
        (release) => Effect.sync(release)
      ).pipe(
        Effect.tap((outcome) => Effect.annotateCurrentSpan("http.response.status_code", outcome.status)),
        Effect.withSpan("websearch.transport.hop", {
          attributes: {
            "url.host": url.host,
            "url.scheme": url.protocol.slice(0, -1),
            "http.request.method": current.method,
            "network.peer.address": address,
            "websearch.hop": hop
          }
        })
      )
    }

    const follow = (request: Request, method: Method) =>
      Effect.gen(function* () {
        const headers: Record<string, string> = {}
        for (const [name, value] of Object.entries(request.headers ?? {})) {
          const lower = name.toLowerCase()
          if (!droppedHeaders.has(lower)) headers[lower] = value
        }
        if (headers["user-agent"] === undefined) headers["user-agent"] = userAgent
        if (decompress && headers["accept-encoding"] === undefined) headers["accept-encoding"] = acceptEncoding
        let current: Current = { url: request.url, method, headers, body: request.body }
        const redirects: Array<string> = []
        let previous: string | undefined = undefined
        for (let hop = 0; ; hop++) {
          const checked: UrlPolicy.CheckedUrl = yield* checkHop(current.url, hop, previous)
          const address = yield* resolveHop(checked, current.method, hop)
          const outcome = yield* sendHop(checked, address, current, hop)
          if (outcome._tag === "Done") {
            return {
              url: checked.url.href,
              status: outcome.status,
              headers: outcome.headers,
              body: outcome.body,
              redirects
            } satisfies Response
          }
          if (hop >= maxRedirects) {
            return yield* WebSearchError.requestFailed(
              "redirect_rejected",
              `${current.method} ${TransportError.describe(request.url)}: more than ${maxRedirects} redirects`,
              { retryable: false }
            )
          }
          let next: URL
          try {
            next = new URL(outcome.location, checked.url)
          } catch {
            return yield* WebSearchError.requestFailed(
              "redirect_rejected",
              `redirect ${hop + 1} from ${TransportError.describe(checked.url)}: the Location header is not a URL`
            )
          }
          if (next.protocol !== "http:" && next.protocol !== "https:") {
            return yield* WebSearchError.requestFailed(
              "redirect_rejected",
              `redirect ${hop + 1} from ${TransportError.describe(checked.url)}: the scheme ${next.protocol} is not allowed`
            )
          }
          const toGet =
            (outcome.status === 303 && current.method !== "HEAD") ||
            ((outcome.status === 301 || outcome.status === 302) && current.method === "POST")
          const nextHeaders = { ...current.headers }
          if (toGet) for (const name of bodyHeaders) delete nextHeaders[name]
          if (!sameOrigin(checked.url.href, next.href)) for (const name of credentialHeaders) delete nextHeaders[name]
          redirects.push(next.href)
          previous = checked.url.href
          current = {
            url: next.href,
            method: toGet ? "GET" : current.method,
            headers: nextHeaders,
            body: toGet ? undefined : current.body
          }
        }
      })

    const request = (request: Request): Effect.Effect<Response, WebSearchError.RequestFailed> => {
      const method = request.method ?? "GET"
      const where = `${method} ${TransportError.describe(request.url)}`
      if (proxyInvalid) {
        return Effect.fail(
          WebSearchError.requestFailed("network", `${where}: the configured proxy is not an http(s) URL`, {
            retryable: false
          })
        )
      }
      return follow(request, method).pipe(
        Effect.timeoutFail({
          duration: timeout,
          onTimeout: () =>
            WebSearchError.requestFailed("timeout", `${where}: no complete response within ${Duration.format(timeout)}`)
        }),
        Effect.withSpan("websearch.transport.request", {
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

// --- HttpClient view -----------------------------------------------------------------------------------------

const nullBodyStatuses = new Set([101, 103, 204, 205, 304])

const methods = new Set<string>(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

const bodyBytes = (
  request: HttpClientRequest.HttpClientRequest
): Effect.Effect<Uint8Array | string | undefined, HttpClientError.RequestError> => {
  const body = request.body
  const encodeError = (description: string, cause?: unknown) =>
    new HttpClientError.RequestError({ request, reason: "Encode", description, cause })
  switch (body._tag) {
    case "Empty":
      return Effect.succeed(undefined)
    case "Uint8Array":
      return Effect.succeed(body.body)
    case "Raw":
      return typeof body.body === "string" || body.body instanceof Uint8Array
        ? Effect.succeed(body.body)
        : Effect.fail(encodeError("only string and Uint8Array raw bodies are supported"))
    case "FormData":
      return Effect.tryPromise({
        try: async () => new Uint8Array(await new globalThis.Response(body.formData).arrayBuffer()),
        catch: (cause) => encodeError("the form data could not be encoded", cause)
      })
    case "Stream":
      return body.stream.pipe(
        Stream.runFold([] as Array<Uint8Array>, (acc, chunk) => {
          acc.push(chunk)
          return acc
        }),
        Effect.map((chunks) => Buffer.concat(chunks)),
        Effect.mapError((cause) => encodeError("the request body stream failed", cause))
      )
  }
}

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
export const makeHttpClient = (transport: SafeTransport.Service): HttpClient.HttpClient =>
  HttpClient.make((request, url) =>
    Effect.gen(function* () {
      if (!methods.has(request.method)) {
        return yield* new HttpClientError.RequestError({
          request,
          reason: "Encode",
          description: `the method ${request.method} is not supported by the safe transport`
        })
      }
      const body = yield* bodyBytes(request)
      const headers: Record<string, string> = { ...request.headers }
      const contentType = request.body._tag === "Empty" ? undefined : request.body.contentType
      if (contentType !== undefined && contentType !== "" && headers["content-type"] === undefined) {
        // FormData carries its boundary in the encoded body's own content type, set by the web Response.
        if (request.body._tag !== "FormData") headers["content-type"] = contentType
      }
      if (request.body._tag === "FormData") {
        headers["content-type"] = new globalThis.Response(request.body.formData).headers.get("content-type") ?? ""
      }
      const response = yield* transport
        .request({ url: url.href, method: request.method as Method, headers, body })
        .pipe(
          Effect.mapError(
            (cause) =>
              new HttpClientError.RequestError({ request, reason: "Transport", cause, description: cause.message })
          )
        )
      if (response.status < 200 || response.status > 599) {
        return yield* new HttpClientError.RequestError({
          request,
          reason: "Transport",
          description: `the server answered with status ${response.status}`
        })
      }
      const web = new globalThis.Response(
        nullBodyStatuses.has(response.status) ? null : (response.body as Uint8Array<ArrayBuffer>),
        {
          status: response.status,
          headers: response.headers
        }
      )
      return HttpClientResponse.fromWeb(request, web)
    })
  )

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
 * @category conversions
 */
export const fromHttpClientError = (error: HttpClientError.HttpClientError): WebSearchError.RequestFailed => {
  if (error._tag === "RequestError" && error.cause instanceof WebSearchError.RequestFailed) return error.cause
  const where = `${error.request.method} ${TransportError.describe(error.request.url)}`
  if (error._tag === "ResponseError") {
    return WebSearchError.requestFailed("network", `${where}: the response could not be read (${error.reason})`)
  }
  return WebSearchError.requestFailed("network", `${where}: the request failed (${error.reason})`, {
    retryable: error.reason === "Transport"
  })
}
