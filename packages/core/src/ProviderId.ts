/**
 * Provider identifiers: stable, lower-case, kebab-case names such as `tavily` or `exa-mcp`.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * A provider id: 1–64 characters of `a-z`, `0-9` and `-`, starting with a letter or digit.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ProviderId = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9][a-z0-9-]{0,63}$/, {
    message: () => "a provider id is 1-64 characters of a-z, 0-9 and '-', starting with a letter or digit"
  })
).annotations({ identifier: "ProviderId" })

/**
 * @since 0.1.0
 * @category models
 */
export type ProviderId = typeof ProviderId.Type

/**
 * The environment-variable prefix of a provider (`exa-mcp` -> `EXA_MCP`).
 *
 * @since 0.1.0
 * @category utils
 */
export const toEnvName = (id: ProviderId): string => id.replace(/-/g, "_").toUpperCase()
