/**
 * The catalogue of provider types (the composed provider modules an instance may configure) and the checks of a
 * new or changed instance against its type: a known type, an id that is not a type's, options the type's schema
 * accepts. The store keeps whatever it is given; these checks are what make a bad instance fail when it is
 * written, naming the field, rather than at its first search.
 */
import type * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import type * as ProviderStore from "@websearch/core/ProviderStore"
import type * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as JSONSchema from "effect/JSONSchema"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { ProviderType } from "../ProviderManagementApi.js"
import * as InstanceInput from "./instanceInput.js"

const invalid = (message: string) => WebSearchError.requestFailed("invalid_input", message)

// A schema with no JSON Schema form (a declared type without its annotation) is described by its absence of
// constraints rather than failing the whole catalogue.
const jsonSchemaOf = (schema: Schema.Schema.Any): Record<string, unknown> => {
  try {
    return JSONSchema.make(schema) as unknown as Record<string, unknown>
  } catch {
    return { description: "options this server cannot describe as JSON Schema; see the provider's documentation" }
  }
}

/** The composed provider types, in composition order. */
export const catalogue = (registry: ProviderRegistry.ProviderRegistry.Service): ReadonlyArray<ProviderType> =>
  registry.ids().flatMap((id) =>
    Option.match(registry.get(id), {
      onNone: () => [],
      onSome: (driver): Array<ProviderType> =>
        // An instance the settings declare is listed by its id too, but its driver's preset is its type's.
        driver.preset.id !== id
          ? []
          : [
              {
                id,
                name: driver.preset.name,
                type: driver.preset.type,
                credentials: driver.preset.credentials,
                capabilities: driver.preset.capabilities.map((c) => ({
                  feature: c.feature,
                  apiHost: c.apiHost ?? null
                })),
                ...(driver.options === undefined ? {} : { options: jsonSchemaOf(driver.options) }),
                searchOptions: driver.searchOptions ?? []
              }
            ]
    })
  )

/** Whether the settings' options suit the type: decoded by its schema, unknown fields refused. */
export const checkOptions = (
  registry: ProviderRegistry.ProviderRegistry.Service,
  type: string,
  settings: ProviderInstance.InstanceSettings
): Effect.Effect<void, WebSearchError.RequestFailed> => {
  const driver = registry.get(type)
  const options = settings.options
  if (Option.isNone(driver)) return Effect.void
  const schema = driver.value.options
  if (schema === undefined) {
    return options === undefined || Object.keys(options).length === 0
      ? Effect.void
      : Effect.fail(invalid(`invalid provider instance: settings.options: the type "${type}" takes no options`))
  }
  return Either.match(Schema.decodeUnknownEither(schema, { onExcessProperty: "error", errors: "all" })(options ?? {}), {
    onLeft: (error) =>
      Effect.fail(invalid(`invalid provider instance: ${InstanceInput.describe(error, "settings.options")}`)),
    onRight: () => Effect.void
  })
}

/** The checks of a new instance: a composed type, an id that is no type's, options the type accepts. */
export const checkCreate = (
  registry: ProviderRegistry.ProviderRegistry.Service,
  types: ReadonlyArray<ProviderType>,
  input: ProviderStore.CreateInstance
): Effect.Effect<void, WebSearchError.RequestFailed> => {
  if (!types.some((type) => type.id === input.type)) {
    return Effect.fail(
      invalid(
        `invalid provider instance: type: no provider type "${input.type}" (the types are: ${types.map((type) => type.id).join(", ") || "none"})`
      )
    )
  }
  if (registry.providers.has(input.id)) {
    return Effect.fail(
      invalid(`invalid provider instance: id: "${input.id}" is the id of a provider; choose another id`)
    )
  }
  return checkOptions(registry, input.type, input.settings)
}
