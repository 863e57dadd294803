/**
 * The proxy of one hop of the safe transport: the transport's own `proxy` option, else the proxy of the provider
 * call in progress (`OutboundProxy.CallProxy`), else the environment's for the hop's target unless `NO_PROXY`
 * sends it direct. Each is checked by the URL policy (`proxyRoute`) before anything is dialled; a refusal names
 * the setting it came from and the request, never the proxy's credentials.
 */
import type * as OutboundProxy from "@websearch/core/OutboundProxy"
import type * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as ProxyRoute from "./proxyRoute.js"

/** The proxy of the provider call in progress, as the core reference holds it. */
export type CallProxy = OutboundProxy.CallProxy.Service

export interface HopProxy {
  /** The checked proxy for a hop to `target` (`undefined`: direct); `where` prefixes a refusal. */
  readonly forHop: (
    callProxy: CallProxy,
    target: URL,
    where: string
  ) => Effect.Effect<ProxyRoute.Proxy | undefined, WebSearchError.RequestFailed>
}

export const make = (options: {
  readonly policy: UrlPolicy.UrlPolicy
  readonly proxy: string | undefined
  readonly env: Readonly<Record<string, string | undefined>> | undefined
}): HopProxy => {
  const explicit =
    options.proxy === undefined ? undefined : ProxyRoute.check(options.policy, { field: "proxy", url: options.proxy })
  const environment = options.env === undefined ? ProxyRoute.direct : ProxyRoute.fromEnv(options.env)
  const source = (callProxy: CallProxy, target: URL): ProxyRoute.Source | undefined =>
    Option.match(callProxy, {
      onSome: (proxy) => ({ field: proxy.field, url: Redacted.value(proxy.url) }),
      onNone: () => ProxyRoute.forTarget(environment, target)
    })
  return {
    forHop: (callProxy, target, where) => {
      const chosen =
        explicit ??
        Option.match(Option.fromNullable(source(callProxy, target)), {
          onNone: () => Either.right(undefined),
          onSome: (found) => ProxyRoute.check(options.policy, found)
        })
      return Either.match(chosen, {
        onRight: (proxy) => Effect.succeed(proxy),
        onLeft: (error) => Effect.fail(WebSearchError.annotate(error, { message: `${where}: ${error.message}` }, false))
      })
    }
  }
}
