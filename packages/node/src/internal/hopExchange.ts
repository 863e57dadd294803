/**
 * One HTTP exchange of a hop with the address its host was pinned to: the origin dialled IS the checked address
 * (Host header and TLS SNI keep the name), the pin is held only while the request is in flight, and the body is
 * read capped (see `cappedBody`). A redirect answer is drained, not read, and handed back to be followed.
 */
import type * as UrlPolicy from "@websearch/core/UrlPolicy"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as net from "node:net"
import type { Agent, Dispatcher } from "undici"
import type * as BodyPace from "./bodyPace.js"
import * as CappedBody from "./cappedBody.js"
import type * as PinnedConnector from "./connector.js"
import type * as TransportModel from "./transportModel.js"
import * as TransportError from "./transportError.js"

/** The request of one hop (redirects change the URL, and may change the method and drop headers and body). */
export interface Current {
  readonly url: string
  readonly method: TransportModel.Method
  readonly headers: Record<string, string>
  readonly body: Uint8Array | string | undefined
}

/** How a hop ended: a redirect to follow, or the final answer. */
export type Outcome =
  | { readonly _tag: "Redirect"; readonly status: number; readonly location: string }
  | {
      readonly _tag: "Done"
      readonly status: number
      readonly headers: Record<string, string>
      readonly body: Uint8Array
    }

/** The statuses followed when they carry a Location. */
export const redirectStatuses: ReadonlySet<number> = new Set([301, 302, 303, 307, 308])

// A redirect's own body is read this far at most, so its connection can be reused.
const redirectDrainBytes = 64 * 1024

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

/** What an exchange needs: the pool whose connector only dials pinned addresses, and the body rules. */
export interface ExchangeOptions {
  readonly agent: Agent
  readonly pins: PinnedConnector.Pins
  readonly maxBodyBytes: number
  readonly decompress: boolean
  /** The pace of big bodies' bytes (see `bodyPace`); none reads at full speed. */
  readonly pace?: BodyPace.BodyPace | undefined
  /** The proxy the agent tunnels through, if any: only its origin is recorded. */
  readonly proxy?: { readonly origin: string } | undefined
}

/** Sends `current` to `address` (the checked answer for `checked`'s host) and reads the answer. */
export const send = (
  options: ExchangeOptions,
  checked: UrlPolicy.CheckedUrl,
  address: string,
  current: Current,
  hop: number
): Effect.Effect<Outcome, WebSearchError.RequestFailed> => {
  const url = checked.url
  const pinned = urlHostname(address)
  const origin = `${url.protocol}//${pinned}:${checked.port}`
  // The URL parser's spelling of the address, without brackets: what undici hands the connector.
  const pinKey = URL.canParse(origin) ? new URL(origin).hostname.replace(/^\[|\]$/g, "") : address
  const headers: Record<string, string> = { ...current.headers, host: url.host }
  const servername = checked.literal ? undefined : stripTrailingDot(url.hostname)
  const ctx = { method: current.method, url, hop, maxBodyBytes: options.maxBodyBytes }
  const exchange = (signal: AbortSignal): Promise<Outcome> =>
    options.agent
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
      .then(async (response): Promise<Outcome> => {
        const status = response.statusCode
        const responseHeaders = flattenHeaders(response.headers)
        const location = responseHeaders["location"]
        if (redirectStatuses.has(status) && location !== undefined) {
          await response.body.dump({ limit: redirectDrainBytes }).catch(() => undefined)
          return { _tag: "Redirect", status, location }
        }
        const body = await CappedBody.read(response, responseHeaders, {
          method: current.method,
          maxBodyBytes: options.maxBodyBytes,
          decompress: options.decompress,
          signal,
          pace: options.pace
        })
        return { _tag: "Done", status, headers: responseHeaders, body }
      })
  return Effect.acquireUseRelease(
    Effect.sync(() => options.pins.pin(pinKey)),
    () =>
      Effect.tryPromise({
        try: exchange,
        catch: (error) => TransportError.fromUnknown(error, ctx)
      }),
    (release) => Effect.sync(release)
  ).pipe(
    Effect.tap((outcome) => Effect.annotateCurrentSpan("http.response.status_code", outcome.status)),
    Effect.withSpan("websearch.transport.hop", {
      captureStackTrace: false,
      attributes: {
        "url.host": url.host,
        "url.scheme": url.protocol.slice(0, -1),
        "http.request.method": current.method,
        "network.peer.address": address,
        "websearch.hop": hop,
        ...(options.proxy === undefined ? {} : { "websearch.proxy": options.proxy.origin })
      }
    })
  )
}
