/**
 * The proxy environment (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY` and their lower-case forms) read through the
 * current `ConfigProvider` (the process's environment by default), its proxies checked by the URL policy when a
 * Layer is built, so a malformed or refused one fails the application at start, naming the variable.
 */
import * as ConfigText from "@websearch/core/internal/configText"
import type * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as NoProxy from "./noProxy.js"
import * as ProxyRoute from "./proxyRoute.js"

/** The variables, as a record (unset ones `undefined`). */
export type Variables = Readonly<Record<string, string | undefined>>

const configProblem = (message: string) => WebSearchError.unavailable("invalid_config", message)

const variables = Config.all(
  Object.fromEntries(
    ProxyRoute.variables.map((name) => [name, Config.map(ConfigText.optionalString(name), Option.getOrUndefined)])
  ) as Record<(typeof ProxyRoute.variables)[number], Config.Config<string | undefined>>
)

/** Reads the variables. */
export const read: Effect.Effect<Variables, WebSearchError.Unavailable> = Effect.mapError(variables, (error) =>
  configProblem(`the proxy environment could not be read: ${ConfigText.problems(error).join("; ")}`)
)

/** Fails `Unavailable/invalid_config` naming the variable when a proxy of `env` is malformed or refused. */
export const validate = (
  policy: UrlPolicy.UrlPolicy,
  env: Variables
): Effect.Effect<void, WebSearchError.Unavailable> => {
  const environment = ProxyRoute.fromEnv(env)
  for (const source of [environment.http, environment.https]) {
    if (source === undefined) continue
    const checked = ProxyRoute.check(policy, source)
    if (Either.isLeft(checked)) return Effect.fail(configProblem(checked.left.message))
  }
  // The variable read is the one `fromEnv` reads: the first of no_proxy, NO_PROXY that is set and not blank.
  const name = (env.no_proxy?.trim() ?? "") !== "" ? "no_proxy" : "NO_PROXY"
  const skipped = NoProxy.unreadable(env[name])
  return skipped.length === 0
    ? Effect.void
    : Effect.logWarning(
        `${name}: ignored ${skipped.map((entry) => JSON.stringify(entry.slice(0, 80))).join(", ")} (not a host name, ` +
          "address, CIDR block or host:port); hosts they were meant to cover are reached through the proxy"
      )
}
