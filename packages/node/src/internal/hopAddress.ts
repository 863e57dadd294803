/**
 * Where one hop goes: its URL checked by the policy, its host name resolved once and every answer checked, and
 * the one address the hop may dial. A redirect's refusals say which redirect it was.
 */
import * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import dns from "node:dns"
import * as net from "node:net"
import type * as TransportModel from "./transportModel.js"
import * as TransportError from "./transportError.js"

/** The default resolver: `dns.promises.lookup(host, { all: true, verbatim: true })`. */
export const defaultLookup: TransportModel.Lookup = (hostname) =>
  // Read `dns.promises.lookup` at call time: a test guard may have replaced it.
  dns.promises.lookup(hostname, { all: true, verbatim: true })

/** The policy check of one hop's URL; `from` is the URL that redirected here, if any. */
export const check = (
  policy: UrlPolicy.UrlPolicy,
  url: string,
  hop: number,
  from: string | undefined
): Effect.Effect<UrlPolicy.CheckedUrl, WebSearchError.RequestFailed> => {
  const result = UrlPolicy.checkUrl(policy, url)
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

/** What resolving a hop needs. */
export interface ResolveOptions {
  readonly policy: UrlPolicy.UrlPolicy
  readonly lookup: TransportModel.Lookup
  readonly maxBodyBytes: number
}

/**
 * Resolves once, checks every answer, returns the address to dial. `method` names the request in messages (a
 * connection that is not one request's, as `ProxyHttpClient`'s, says `dial`).
 */
export const resolve = (
  options: ResolveOptions,
  checked: UrlPolicy.CheckedUrl,
  method: TransportModel.Method | "dial",
  hop: number
): Effect.Effect<string, WebSearchError.RequestFailed> => {
  const ctx = { method, url: checked.url, hop, maxBodyBytes: options.maxBodyBytes }
  const redirectNote = hop > 0 ? ` (redirect ${hop})` : ""
  const refused = (what: string) =>
    WebSearchError.requestFailed(
      "dns_failed",
      `${method} ${TransportError.describe(checked.url)}${redirectNote}: ${what}`
    )
  const verify = (address: string) =>
    Either.match(UrlPolicy.checkAddress(options.policy, checked, address), {
      onRight: () => Effect.void,
      onLeft: (error) =>
        // The refusal never says what the name resolved to (its reader may be whoever set the URL); the operator
        // finds the address and its class on the lookup's span.
        Effect.zipRight(
          Effect.annotateCurrentSpan({
            "websearch.refused.address": address,
            "websearch.refused.class": UrlPolicy.classifyAddress(address) ?? "not an IP address"
          }),
          Effect.fail(
            hop > 0 ? WebSearchError.annotate(error, { message: `${error.message}${redirectNote}` }, false) : error
          )
        )
    })
  if (checked.literal) {
    return Effect.as(verify(checked.host), checked.host)
  }
  return Effect.try({ try: () => options.lookup(checked.host), catch: (e) => e }).pipe(
    Effect.flatMap((answer) =>
      Effect.isEffect(answer) ? answer : Effect.tryPromise({ try: () => answer, catch: (e) => e })
    ),
    Effect.mapError((e) => {
      const mapped = TransportError.fromUnknown(e, ctx)
      return mapped.reason === "dns_failed" ? mapped : refused("the host name did not resolve")
    }),
    Effect.flatMap((answers) => {
      if (answers.length === 0) return Effect.fail(refused("the host name has no addresses"))
      // Every answer must pass, not just the one we dial: a mixed answer is a rebinding attempt or a
      // misconfiguration, and either way the host is not safely public.
      return Effect.flatMap(
        Effect.forEach(answers, (a) => verify(a.address), { discard: true }),
        () => {
          // A zone-scoped address (fe80::1%eth0) cannot be written in a URL; it only passes when allowlisted.
          const dialable = answers.find((a) => !a.address.includes("%") && net.isIP(a.address) !== 0)
          return dialable === undefined
            ? Effect.fail(refused("no address can be dialled"))
            : Effect.succeed(dialable.address)
        }
      )
    }),
    Effect.withSpan("websearch.transport.lookup", {
      captureStackTrace: false,
      attributes: { "url.host": checked.url.host, "websearch.hop": hop }
    })
  )
}
