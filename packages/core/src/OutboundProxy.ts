/**
 * The outbound proxy of the provider call in progress: the capability pipelines set it around every driver call
 * from the provider's (or instance's) `proxyUrl`, and a proxy-aware `HttpClient` (`@websearch/node`'s
 * `ProxyHttpClient`, which the CLI and the server use) or the local fetcher's transport reads it per request. None
 * means the standard proxy environment (`HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY`) applies where it is enabled.
 *
 * The URL may carry credentials (`http://user:pass@proxy.corp.example:3128`): it stays `Redacted`, and whoever
 * reads it shows only its scheme, host and port. Every proxy passes the URL policy like any user-set endpoint
 * ({@link check}): one on a loopback or private address, or a local name, is refused unless `urlPolicy.allowHosts`
 * or `urlPolicy.allowCidrs` trusts it. Its port is not restricted (proxies listen on 3128 or 8080; the port rule
 * keeps fetches off internal services' ports, and the proxy's address is what is checked).
 *
 * @since 0.2.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type { ResolvedProvider } from "./ProviderConfig.js"
import * as UrlPolicy from "./UrlPolicy.js"
import * as WebSearchError from "./WebSearchError.js"

/**
 * The proxy of the call in progress, and the setting it came from (for messages: `providers.bing.proxyUrl`).
 *
 * @since 0.2.0
 * @category services
 */
export class CallProxy extends Context.Reference<CallProxy>()("@websearch/core/OutboundProxy/CallProxy", {
  defaultValue: (): CallProxy.Service => Option.none()
}) {}

/**
 * @since 0.2.0
 */
export declare namespace CallProxy {
  /**
   * The proxy URL and the setting that named it, or none.
   *
   * @since 0.2.0
   * @category models
   */
  export type Service = Option.Option<{ readonly field: string; readonly url: Redacted.Redacted<string> }>
}

/**
 * Runs a driver call with its provider's proxy (or none) as the call's proxy.
 *
 * @since 0.2.0
 * @category combinators
 */
export const withProvider =
  (provider: Pick<ResolvedProvider, "id" | "proxyUrl" | "instanceOf">) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    // Most providers have no proxy and most calls none around them: then there is nothing to change, and a
    // change of the fiber's context costs about as much as a span, once per input of every request.
    Option.isNone(provider.proxyUrl)
      ? Effect.contextWithEffect((context) =>
          Option.isNone(Context.get(context, CallProxy))
            ? effect
            : Effect.provideService(effect, CallProxy, Option.none())
        )
      : Effect.provideService(
          effect,
          CallProxy,
          Option.map(provider.proxyUrl, (url) => ({
            // An instance's proxy is named as the instance's (settings or stored), a provider's by its settings field.
            field:
              provider.instanceOf === undefined
                ? `providers.${provider.id}.proxyUrl`
                : `the proxyUrl of the provider instance "${provider.id}"`,
            url
          }))
        )

/**
 * A proxy someone configured, and where (for messages): `HTTPS_PROXY`, `providers.bing.proxyUrl`.
 *
 * @since 0.2.0
 * @category models
 */
export interface Source {
  readonly field: string
  readonly url: string
}

/**
 * A proxy that passed {@link check}: where to connect, and the `Proxy-Authorization` its credentials make.
 */
interface CheckedProxy {
  readonly field: string
  readonly protocol: "http:" | "https:"
  readonly hostname: string
  readonly port: string
  /** `scheme://host:port`, without credentials: what messages and spans may show. */
  readonly origin: string
  /** `Basic …` from the URL's user name and password, if any. */
  readonly authorization: Option.Option<Redacted.Redacted<string>>
}

// The base64 of the text's UTF-8 bytes, without Node's Buffer (core runs anywhere).
const base64 = (text: string): string => {
  let binary = ""
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

const invalid = (field: string, what: string) =>
  WebSearchError.requestFailed("invalid_input", `${field}: the proxy ${what}`, { retryable: false })

/**
 * Parses and checks a proxy URL: http(s) with a host and no path beyond `/`, and passing the URL policy (address
 * and name rules; any port) once its credentials are set aside. A value without a scheme (`proxy.example:3128`,
 * as environment variables often hold) is read as http, as curl does. Fails `RequestFailed/invalid_input` or
 * `RequestFailed/ssrf_rejected`, the message starting with the source's field and never showing the credentials.
 *
 * @since 0.2.0
 * @category guards
 */
export const check = (
  policy: UrlPolicy.UrlPolicy,
  source: Source
): Either.Either<CheckedProxy, WebSearchError.RequestFailed> => {
  const trimmed = source.url.trim()
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`
  if (!URL.canParse(text)) return Either.left(invalid(source.field, "is not a URL (http://host:port)"))
  const url = new URL(text)
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return Either.left(invalid(source.field, `uses ${url.protocol.slice(0, -1)}; only http and https proxies work`))
  }
  if (url.hostname === "") return Either.left(invalid(source.field, "has no host"))
  if ((url.pathname !== "/" && url.pathname !== "") || url.search !== "" || url.hash !== "") {
    return Either.left(invalid(source.field, `${url.protocol}//${url.host} must not have a path or a query`))
  }
  let credentials: string | undefined
  if (url.username !== "" || url.password !== "") {
    try {
      credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
    } catch {
      return Either.left(invalid(source.field, `${url.protocol}//${url.host} has credentials that are not URL-encoded`))
    }
  }
  const port = url.port === "" ? (url.protocol === "https:" ? "443" : "80") : url.port
  // Any port: the policy's port rule is for targets; the address and name rules are the proxy's.
  const anyPort: UrlPolicy.UrlPolicy = { ...policy, ports: new Set([...policy.ports, Number(port)]) }
  const checked = UrlPolicy.checkUrl(anyPort, `${url.protocol}//${url.host}/`)
  if (Either.isLeft(checked)) {
    return Either.left(
      WebSearchError.annotate(checked.left, { message: `${source.field}: ${checked.left.message}` }, false)
    )
  }
  return Either.right({
    field: source.field,
    protocol: url.protocol,
    hostname: url.hostname,
    port,
    origin: `${url.protocol}//${url.hostname}:${port}`,
    authorization:
      credentials === undefined ? Option.none() : Option.some(Redacted.make(`Basic ${base64(credentials)}`))
  })
}
