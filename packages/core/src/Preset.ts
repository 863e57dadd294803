/**
 * Provider presets: read-only templates naming a provider, its kind, whether it needs a key, and the
 * capabilities it has with their default endpoints. Each provider module owns its preset (core names no
 * provider); a preset is data only.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Capability } from "./Capability.js"
import { ProviderId } from "./ProviderId.js"

/**
 * One capability of a preset, with the endpoint it calls by default. The endpoint belongs to the capability,
 * not the provider: Jina searches at `https://s.jina.ai` and reads at `https://r.jina.ai`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PresetCapability = Schema.Struct({
  feature: Capability,
  apiHost: Schema.optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category models
 */
export type PresetCapability = typeof PresetCapability.Type

/**
 * A provider preset.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Preset = Schema.Struct({
  id: ProviderId,
  name: Schema.String,
  type: Schema.Literal("api", "mcp", "local"),
  /** Whether calls need an API key (`optional`: works keyless with lower limits). */
  credentials: Schema.Literal("required", "optional", "none"),
  capabilities: Schema.Array(PresetCapability),
  /**
   * The request budget the provider publishes for every plan (or for its keyless tier), applied unless the user
   * sets `providers.<id>.rateLimit`. Calls over it wait up to `maxWaitMillis`, so a fanout is spread out instead
   * of failing on the provider's 429.
   */
  publishedRateLimit: Schema.optional(
    Schema.Struct({ limit: Schema.Int, windowMillis: Schema.Int, maxWaitMillis: Schema.Int })
  )
}).annotations({ identifier: "Preset" })

/**
 * @since 0.1.0
 * @category models
 */
export type Preset = typeof Preset.Type

/**
 * A preset, typed: what a provider module declares. The registry checks it against `Preset` when the
 * application's layer is built, so a malformed preset fails at start naming the provider.
 *
 * @example
 * ```ts
 * import * as Preset from "@websearch/core/Preset"
 *
 * const preset = Preset.make({
 *   id: "intranet",
 *   name: "Intranet search",
 *   type: "api",
 *   credentials: "required",
 *   capabilities: [{ feature: "searchKeywords", apiHost: "https://search.intranet.example" }]
 * })
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (preset: Preset): Preset => preset

/**
 * Whether a preset has a capability.
 *
 * @since 0.1.0
 * @category guards
 */
export const supports = (preset: Preset, capability: Capability): boolean =>
  preset.capabilities.some((c) => c.feature === capability)
