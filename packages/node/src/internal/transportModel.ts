/**
 * The shapes the safe transport's parts share (requests, responses, the resolver), declared apart from
 * `SafeTransport.ts` so its parts can use them without importing the module that assembles them.
 */
import type * as WebSearchError from "@websearch/core/WebSearchError"
import type * as Effect from "effect/Effect"

/** One answer of a resolver. */
export interface LookupAddress {
  readonly address: string
  readonly family: number
}

/**
 * A resolver: every address a host name resolves to. The transport calls it once per hop and checks every answer.
 * Failures should carry a Node DNS `code` (`ENOTFOUND`, `EAI_AGAIN`) so they map to `dns_failed`.
 */
export type Lookup = (
  hostname: string
) => Effect.Effect<ReadonlyArray<LookupAddress>, unknown> | Promise<ReadonlyArray<LookupAddress>>

/** The methods the transport sends. */
export type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS"

/** The methods the transport sends, for checking a method named by someone else. */
export const methods: ReadonlySet<string> = new Set<Method>([
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS"
])

export interface Request {
  readonly url: string
  readonly method?: Method | undefined
  /** Header names are case-insensitive; `host` is always derived from the URL. */
  readonly headers?: Record<string, string> | undefined
  readonly body?: Uint8Array | string | undefined
  /**
   * Checked before each redirect is followed, with the absolute URL it leads to: an error refuses the redirect
   * (nothing is sent to that URL), e.g. a crawl's `redirect_rejected` for a redirect off its site. Every hop
   * still passes the URL policy and the address checks whatever this says.
   */
  readonly checkRedirect?: ((target: string) => WebSearchError.RequestFailed | undefined) | undefined
}

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

/** What the transport service offers. */
export interface Transport {
  /** Sends a request, following redirects; fails only with `RequestFailed`. Non-2xx statuses succeed. */
  readonly request: (request: Request) => Effect.Effect<Response, WebSearchError.RequestFailed>
}
