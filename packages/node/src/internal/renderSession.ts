/**
 * One rendered page's network: the handler every request of the page's browser context is routed to.
 *
 * Chromium never fetches anything itself. Each request (document, frame, script, XHR/fetch, worker script, form
 * post, navigation) is refused here or fetched by the safe transport, which checks the URL policy, resolves once,
 * checks every answer, dials the checked address, follows and re-checks redirects and caps the body; the answer is
 * handed to Chromium with `route.fulfill`. A response is never handed over as a redirect: Chromium follows a
 * fulfilled redirect without routing the next request, which would let it fetch on its own.
 *
 * Per page there is a byte budget (everything fetched, the document included) and a request cap; images, media
 * and fonts are not fetched at all, since the extracted text does not need them. Requests the transport refuses
 * are recorded (scheme and host only: paths and queries can carry tokens) so callers and tests can see them.
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import type { Request as PageRequest, Route } from "playwright-core"
import type * as SafeTransport from "../SafeTransport.js"
import * as TransportError from "./transportError.js"

/** A request of the page that was not fetched, and why. */
export interface Blocked {
  /** Scheme, host and port only. */
  readonly url: string
  readonly resourceType: string
  /** A `RequestFailed` reason of the transport, or `scheme`, `method`, `request_cap`, `budget`, `websocket`. */
  readonly reason: string
}

/** How many refused requests a page records; later ones are refused all the same. */
export const maxBlocked = 100

/** Resource types never fetched: the extracted text does not need them, and skipping them saves the budget. */
export const skippedResourceTypes: ReadonlySet<string> = new Set(["image", "media", "font"])

const methods: ReadonlySet<string> = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

/** The playwright `route.abort` code for a transport failure: what the page's script sees as the network error. */
export const abortCode = (reason: string): string => {
  switch (reason) {
    case "dns_failed":
      return "namenotresolved"
    case "timeout":
      return "timedout"
    case "network":
      return "connectionfailed"
    case "tls_failed":
    case "too_large":
      return "failed"
    default:
      // ssrf_rejected, redirect_rejected, invalid_input, and the renderer's own refusals.
      return "blockedbyclient"
  }
}

// Chromium's own hop-by-hop and framing headers; the transport sets Host, Accept-Encoding and the length itself.
const droppedRequestHeaders: ReadonlySet<string> = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "accept-encoding",
  "proxy-authorization",
  "proxy-connection"
])

/** The headers of a page's request as the transport should send them. */
export const requestHeaders = (
  headers: Readonly<Record<string, string>>,
  userAgent: string | undefined
): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (lower.startsWith(":") || droppedRequestHeaders.has(lower)) continue
    out[lower] = value
  }
  if (userAgent !== undefined) out["user-agent"] = userAgent
  return out
}

// `location` is dropped so Chromium never follows anything on its own (see the module comment); the body was
// decoded by the transport, so its coding and length no longer apply; alt-svc would advertise QUIC.
const droppedResponseHeaders: ReadonlySet<string> = new Set([
  "location",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "alt-svc"
])

/** The headers of a transport response as Chromium gets them. */
export const responseHeaders = (headers: Readonly<Record<string, string>>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (!droppedResponseHeaders.has(lower)) out[lower] = value
  }
  return out
}

/** A status Chromium will not treat as a redirect to follow. */
export const fulfilStatus = (status: number): number =>
  status >= 300 && status <= 399 && status !== 304 ? 200 : status

const withoutFragment = (url: string): string => {
  try {
    const parsed = new URL(url)
    parsed.hash = ""
    return parsed.href
  } catch {
    return url
  }
}

const isMainFrameNavigation = (request: PageRequest): boolean => {
  try {
    return request.isNavigationRequest() && request.frame().parentFrame() === null
  } catch {
    // Requests of service workers have no frame; service workers are blocked anyway.
    return false
  }
}

/** The state of one page's network, read by the renderer while it waits and when it snapshots. */
export interface Session {
  /** The route handler (`context.route("**\/*", session.handle)`). */
  readonly handle: (route: Route) => Promise<void>
  /** Requests being fetched right now. */
  readonly inflight: () => number
  /** `performance.now()` of the last request that started or finished. */
  readonly lastActivity: () => number
  /** The byte budget was exceeded: the page fails `too_large`. */
  readonly overBudget: () => boolean
  /** Why the last main-frame navigation that failed was refused or failed. */
  readonly mainFailure: () => WebSearchError.RequestFailed | undefined
  readonly requests: () => number
  readonly bytes: () => number
  readonly blocked: () => ReadonlyArray<Blocked>
  /** Refuses a WebSocket the page opened (routed by `context.routeWebSocket`) and records it. */
  readonly refuseWebSocket: (url: string) => void
  /** Counts as network activity: the quiet period starts again. */
  readonly touch: () => void
  /** Refuses every later request and interrupts the fetches in flight. */
  readonly close: () => void
}

/**
 * @param document the top-level document, already fetched through the transport: the first main-frame navigation
 * to its URL is answered with it instead of fetching it again.
 */
export const make = (options: {
  readonly transport: SafeTransport.SafeTransport.Service
  readonly runtime: Runtime.Runtime<never>
  readonly document: SafeTransport.Response
  readonly userAgent: string | undefined
  readonly maxBytes: number
  readonly maxRequests: number
}): Session => {
  const { transport, runtime, maxBytes, maxRequests } = options
  const controller = new AbortController()
  let pendingDocument: SafeTransport.Response | undefined = options.document
  const documentUrl = withoutFragment(options.document.url)
  let inflight = 0
  let lastActivity = performance.now()
  let requests = 0
  let bytes = 0
  let overBudget = false
  let closed = false
  let mainFailure: WebSearchError.RequestFailed | undefined
  const blocked: Array<Blocked> = []
  // A page that keeps asking for refused URLs must not grow this list for as long as it runs.
  const record = (entry: Blocked) => {
    if (blocked.length < maxBlocked) blocked.push(entry)
  }

  const refuse = (route: Route, request: PageRequest, reason: string, main: boolean) => {
    record({ url: TransportError.describe(request.url()), resourceType: request.resourceType(), reason })
    if (main) {
      // A navigation the page started itself (a script, a meta refresh) that we refused.
      mainFailure = WebSearchError.requestFailed(
        reason === "budget" || reason === "request_cap" ? "too_large" : "redirect_rejected",
        `the page navigated to ${TransportError.describe(request.url())}, which was refused (${reason})`
      )
    }
    return route.abort(abortCode(reason)).catch(() => undefined)
  }

  const fetch = (request: PageRequest): Promise<Exit.Exit<SafeTransport.Response, WebSearchError.RequestFailed>> =>
    request.allHeaders().then((headers) => {
      const body = request.postDataBuffer()
      return Runtime.runPromiseExit(runtime)(
        transport.request({
          url: request.url(),
          method: request.method() as SafeTransport.Method,
          headers: requestHeaders(headers, options.userAgent),
          body: body === null ? undefined : new Uint8Array(body)
        }),
        { signal: controller.signal }
      )
    })

  const handle = async (route: Route): Promise<void> => {
    const request = route.request()
    const main = isMainFrameNavigation(request)
    if (closed) return route.abort("aborted").catch(() => undefined)
    let protocol: string
    try {
      protocol = new URL(request.url()).protocol
    } catch {
      protocol = ""
    }
    if (protocol !== "http:" && protocol !== "https:") return refuse(route, request, "scheme", main)
    if (!methods.has(request.method())) return refuse(route, request, "method", main)
    if (skippedResourceTypes.has(request.resourceType())) {
      return route.abort("blockedbyclient").catch(() => undefined)
    }
    if (overBudget) return refuse(route, request, "budget", main)
    if (requests >= maxRequests) return refuse(route, request, "request_cap", main)
    requests++
    inflight++
    lastActivity = performance.now()
    try {
      let response: SafeTransport.Response
      const cached = pendingDocument
      if (
        main &&
        cached !== undefined &&
        request.method() === "GET" &&
        withoutFragment(request.url()) === documentUrl
      ) {
        pendingDocument = undefined
        response = cached
      } else {
        const exit = await fetch(request)
        if (Exit.isFailure(exit)) {
          const failure = Cause.failureOption(exit.cause)
          if (Option.isNone(failure)) return await route.abort("aborted").catch(() => undefined)
          const error = failure.value
          record({
            url: TransportError.describe(request.url()),
            resourceType: request.resourceType(),
            reason: error.reason
          })
          if (main) mainFailure = error
          return await route.abort(abortCode(error.reason)).catch(() => undefined)
        }
        response = exit.value
      }
      bytes += response.body.byteLength
      if (bytes > maxBytes) {
        overBudget = true
        return await refuse(route, request, "budget", main)
      }
      if (closed) return await route.abort("aborted").catch(() => undefined)
      await route
        .fulfill({
          status: fulfilStatus(response.status),
          headers: responseHeaders(response.headers),
          body: Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength)
        })
        .catch(() => undefined)
    } catch {
      // The page or its context went away while we fetched.
      await route.abort("failed").catch(() => undefined)
    } finally {
      inflight--
      lastActivity = performance.now()
    }
  }

  return {
    handle,
    inflight: () => inflight,
    lastActivity: () => lastActivity,
    overBudget: () => overBudget,
    mainFailure: () => mainFailure,
    requests: () => requests,
    bytes: () => bytes,
    blocked: () => blocked,
    refuseWebSocket: (url) => {
      lastActivity = performance.now()
      record({ url: TransportError.describe(url), resourceType: "websocket", reason: "websocket" })
    },
    touch: () => {
      lastActivity = performance.now()
    },
    close: () => {
      closed = true
      controller.abort()
    }
  }
}

/**
 * Waits until no request has been in flight for `idleMs`, or until `deadline` (`performance.now()` time). The wait
 * always lasts one quiet period: requests a script started may still be on their way to the route handler.
 */
export const settle = (session: Session, idleMs: number, deadline: number): Effect.Effect<void> =>
  Effect.zipRight(
    Effect.sync(session.touch),
    Effect.suspend(function loop(): Effect.Effect<void> {
      const now = performance.now()
      if (now >= deadline) return Effect.void
      if (session.inflight() === 0 && now - session.lastActivity() >= idleMs) return Effect.void
      return Effect.zipRight(Effect.sleep(Math.max(10, Math.min(50, deadline - now))), Effect.suspend(loop))
    })
  )
