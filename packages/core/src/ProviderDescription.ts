/**
 * What is known of one composed provider that is safe to show: its kind, capabilities and endpoints, how many
 * keys are configured (a count, never a key) and which capabilities it is the default for. One shape for the
 * registry's listing (`ProviderRegistry.describe`), the CLI's `providers` command and the server's
 * `GET /v1/providers`.
 *
 * @since 0.2.0
 */
import * as Schema from "effect/Schema"
import * as Capability from "./Capability.js"
import type { ResolvedProvider } from "./ProviderConfig.js"
import type { ProviderId } from "./ProviderId.js"

/**
 * One provider's description.
 *
 * @since 0.2.0
 * @category schemas
 */
export const ProviderDescription = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  type: Schema.String,
  credentials: Schema.String,
  apiKeys: Schema.Number,
  capabilities: Schema.Array(Schema.Struct({ feature: Capability.Capability, apiHost: Schema.NullOr(Schema.String) })),
  defaultFor: Schema.Array(Capability.Capability),
  /** For a provider instance: the composed provider type it configures. */
  instanceOf: Schema.optional(Schema.String)
}).annotations({ identifier: "ProviderDescription" })

/**
 * @since 0.2.0
 * @category models
 */
export type ProviderDescription = typeof ProviderDescription.Type

/**
 * Describes a resolved provider, given the default provider of each capability.
 *
 * @since 0.2.0
 * @category constructors
 */
export const fromProvider = (
  provider: ResolvedProvider,
  defaults: { readonly [C in Capability.Capability]: ProviderId | null }
): ProviderDescription => ({
  id: provider.id,
  name: provider.name,
  type: provider.type,
  credentials: provider.credentials,
  apiKeys: provider.apiKeys.length,
  capabilities: provider.capabilities.map((c) => ({ feature: c.feature, apiHost: c.apiHost ?? null })),
  defaultFor: Capability.all.filter((c) => defaults[c] === provider.id),
  ...(provider.instanceOf === undefined ? {} : { instanceOf: provider.instanceOf })
})
