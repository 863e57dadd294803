/**
 * Following redirects: the request's headers as first sent, and for each redirect the next hop's request. A 303
 * (and a 301 or 302 after a POST) becomes a GET without its body headers; credentials are dropped when the
 * redirect leaves the origin; one redirect more than allowed, a Location that is not a URL or a scheme other than
 * http(s) is `RequestFailed/redirect_rejected`, and so is whatever the request's own `checkRedirect` refuses. Each
 * hop's URL and addresses are checked again by the caller.
 */
import type * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as CappedBody from "./cappedBody.js"
import type * as HopExchange from "./hopExchange.js"
import type * as TransportModel from "./transportModel.js"
import * as TransportError from "./transportError.js"

const credentialHeaders = ["authorization", "cookie", "proxy-authorization"]
const bodyHeaders = ["content-type", "content-length", "content-encoding", "content-language", "content-location"]
const droppedHeaders = new Set(["host", "connection", "transfer-encoding", "keep-alive", "upgrade", "te", "trailer"])

const sameOrigin = (a: string, b: string) => {
  try {
    return new URL(a).origin === new URL(b).origin
  } catch {
    return false
  }
}

/** One hop sent: its checked URL and how it ended. */
export interface HopResult {
  readonly checked: UrlPolicy.CheckedUrl
  readonly outcome: HopExchange.Outcome
}

/** What following needs: the limits, the defaults of the first request, and one hop. */
export interface FollowOptions {
  readonly maxRedirects: number
  readonly userAgent: string
  readonly decompress: boolean
  /** Checks, resolves and sends one hop; `from` is the URL that redirected here. */
  readonly hop: (
    current: HopExchange.Current,
    hop: number,
    from: string | undefined
  ) => Effect.Effect<HopResult, WebSearchError.RequestFailed>
}

/** The request's headers as sent on the first hop: lower-case names, hop-by-hop ones dropped, defaults added. */
const firstHeaders = (request: TransportModel.Request, options: FollowOptions): Record<string, string> => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    const lower = name.toLowerCase()
    if (!droppedHeaders.has(lower)) headers[lower] = value
  }
  if (headers["user-agent"] === undefined) headers["user-agent"] = options.userAgent
  if (options.decompress && headers["accept-encoding"] === undefined) {
    headers["accept-encoding"] = CappedBody.acceptEncoding
  }
  return headers
}

/** The request of the hop a redirect leads to, or why it is refused. */
const next = (
  current: HopExchange.Current,
  checked: UrlPolicy.CheckedUrl,
  outcome: { readonly status: number; readonly location: string },
  hop: number
): Effect.Effect<HopExchange.Current, WebSearchError.RequestFailed> => {
  const from = TransportError.describe(checked.url)
  let target: URL
  try {
    target = new URL(outcome.location, checked.url)
  } catch {
    return Effect.fail(
      WebSearchError.requestFailed(
        "redirect_rejected",
        `redirect ${hop + 1} from ${from}: the Location header is not a URL`
      )
    )
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    return Effect.fail(
      WebSearchError.requestFailed(
        "redirect_rejected",
        `redirect ${hop + 1} from ${from}: the scheme ${target.protocol} is not allowed`
      )
    )
  }
  const toGet =
    (outcome.status === 303 && current.method !== "HEAD") ||
    ((outcome.status === 301 || outcome.status === 302) && current.method === "POST")
  const headers = { ...current.headers }
  if (toGet) for (const name of bodyHeaders) delete headers[name]
  if (!sameOrigin(checked.url.href, target.href)) for (const name of credentialHeaders) delete headers[name]
  return Effect.succeed({
    url: target.href,
    method: toGet ? "GET" : current.method,
    headers,
    body: toGet ? undefined : current.body
  })
}

/** Sends `request` and follows its redirects to the final answer. */
export const follow = (
  request: TransportModel.Request,
  method: TransportModel.Method,
  options: FollowOptions
): Effect.Effect<TransportModel.Response, WebSearchError.RequestFailed> =>
  Effect.gen(function* () {
    let current: HopExchange.Current = {
      url: request.url,
      method,
      headers: firstHeaders(request, options),
      body: request.body
    }
    const redirects: Array<string> = []
    let previous: string | undefined = undefined
    for (let hop = 0; ; hop++) {
      const sent: HopResult = yield* options.hop(current, hop, previous)
      const { checked, outcome } = sent
      if (outcome._tag === "Done") {
        return {
          url: checked.url.href,
          status: outcome.status,
          headers: outcome.headers,
          body: outcome.body,
          redirects
        } satisfies TransportModel.Response
      }
      if (hop >= options.maxRedirects) {
        return yield* WebSearchError.requestFailed(
          "redirect_rejected",
          `${current.method} ${TransportError.describe(request.url)}: more than ${options.maxRedirects} redirects`,
          { retryable: false }
        )
      }
      current = yield* next(current, checked, outcome, hop)
      const refused = request.checkRedirect?.(current.url)
      if (refused !== undefined) return yield* refused
      redirects.push(current.url)
      previous = checked.url.href
    }
  })
