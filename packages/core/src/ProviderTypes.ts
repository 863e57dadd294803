/**
 * The catalogue of provider types: every composed provider module, as a user creating an instance of it needs
 * to know it (whether it needs a key, its capabilities and default endpoints, the JSON Schema of its own
 * options, the search options it applies natively). `ProviderRegistry.types()` lists them; the server answers
 * `GET /v1/provider-types` with it.
 *
 * @since 0.2.0
 */
import * as JSONSchema from "effect/JSONSchema"
import * as Schema from "effect/Schema"
import * as Capability from "./Capability.js"
import type { AnyProviderDriver } from "./ProviderDriver.js"
import { ProviderId } from "./ProviderId.js"
import { SearchOption } from "./SearchOptions.js"

/**
 * One provider type of the catalogue.
 *
 * @since 0.2.0
 * @category schemas
 */
export const ProviderType = Schema.Struct({
  id: ProviderId,
  name: Schema.String,
  /** The provider's kind: a remote API, an MCP server, or local code. */
  type: Schema.Literal("api", "mcp", "local"),
  /** Whether calls need an API key (`optional`: works keyless with lower limits). */
  credentials: Schema.Literal("required", "optional", "none"),
  capabilities: Schema.Array(Schema.Struct({ feature: Capability.Capability, apiHost: Schema.NullOr(Schema.String) })),
  /**
   * The JSON Schema (draft-07) of the type's own options, the fields of an instance beyond the common ones, in
   * their written (encoded) form; null for a type that takes none.
   */
  optionsSchema: Schema.NullOr(Schema.Unknown),
  /** The search options the type applies natively (`includeDomains`/`excludeDomains` work on every type). */
  searchOptions: Schema.Array(SearchOption)
}).annotations({ identifier: "ProviderType" })

/**
 * @since 0.2.0
 * @category models
 */
export type ProviderType = typeof ProviderType.Type

const optionsSchemaOf = (driver: AnyProviderDriver): unknown => {
  if (driver.options === undefined) return null
  try {
    return JSONSchema.make(driver.options)
  } catch {
    // A custom type's schema may hold something JSON Schema cannot say (a declared class without an annotation):
    // the catalogue still lists the type, with the schema that accepts any options (the type's own decoding
    // still judges them when an instance is used).
    return {}
  }
}

/**
 * The catalogue entry of a composed driver.
 *
 * @since 0.2.0
 * @category constructors
 */
export const fromDriver = (driver: AnyProviderDriver): ProviderType => ({
  id: driver.preset.id,
  name: driver.preset.name,
  type: driver.preset.type,
  credentials: driver.preset.credentials,
  capabilities: driver.preset.capabilities.map((c) => ({ feature: c.feature, apiHost: c.apiHost ?? null })),
  optionsSchema: optionsSchemaOf(driver),
  searchOptions: driver.searchOptions ?? []
})
