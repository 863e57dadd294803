/**
 * The application-wide part of a settings document read from the environment (or any `ConfigProvider`), as one
 * `Config`: the default, fallback and fused providers, the URL policy's allowlists, result limits, concurrency and
 * the cache's TTLs. A malformed variable fails with `Unavailable/invalid_config` naming it; the per-provider
 * variables are read later, for the composed providers (see `resolution/environment`).
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Capability from "../Capability.js"
import type * as SettingsInput from "./settingsInput.js"
import type * as WebSearchError from "../WebSearchError.js"
import * as ConfigText from "./configText.js"
import * as UrlPolicy from "../UrlPolicy.js"
import * as SettingsValidation from "./settingsValidation.js"

// `none` says "no default", as `null` does in a file.
const defaultProvider = (capability: Capability.Capability): Config.Config<Option.Option<string | null>> =>
  Config.map(
    ConfigText.optionalString(`WEBSEARCH_DEFAULT_${Capability.toEnvName(capability)}_PROVIDER`),
    Option.map((id) => (id === "none" ? null : id))
  )

const fallbackChain = (capability: Capability.ListCapability): Config.Config<Option.Option<Array<string>>> =>
  ConfigText.optionalList(`WEBSEARCH_FALLBACK_${Capability.toEnvName(capability)}_PROVIDERS`)

const cacheTtl = (name: string): Config.Config<Option.Option<string>> =>
  ConfigText.optionalString(`WEBSEARCH_CACHE_${name}_TTL`)

// An allowlist of the URL policy, checked entry by entry as the settings' own `urlPolicy` is; a problem is named by
// the variable and the entry.
const allowList = (name: string, field: "allowHosts" | "allowCidrs"): Config.Config<Option.Option<Array<string>>> =>
  Config.mapOrFail(
    ConfigText.optionalList(name),
    (entries): Either.Either<Option.Option<Array<string>>, ConfigError.ConfigError> => {
      if (Option.isNone(entries)) return Either.right(entries)
      const problems = UrlPolicy.make({ [field]: entries.value }).problems.map((problem) => {
        const index = Number(problem.field.slice(field.length + 1))
        return `"${entries.value[index]}" (entry ${index + 1}): ${problem.message}`
      })
      return problems.length === 0
        ? Either.right(entries)
        : Either.left(ConfigError.InvalidData([name], problems.join("; ")))
    }
  )

/** The variables, each optional; values are kept as written and decoded with the rest of the document. */
export const variables = Config.all({
  defaults: Config.all({
    searchKeywords: defaultProvider("searchKeywords"),
    fetchUrls: defaultProvider("fetchUrls"),
    research: defaultProvider("research"),
    mapSite: defaultProvider("mapSite"),
    crawlSite: defaultProvider("crawlSite")
  }),
  fallbacks: Config.all({ searchKeywords: fallbackChain("searchKeywords"), fetchUrls: fallbackChain("fetchUrls") }),
  fusion: Config.all({
    searchKeywords: ConfigText.optionalList(`WEBSEARCH_FUSION_${Capability.toEnvName("searchKeywords")}_PROVIDERS`)
  }),
  urlPolicy: Config.all({
    allowHosts: allowList("WEBSEARCH_ALLOW_HOSTS", "allowHosts"),
    allowCidrs: allowList("WEBSEARCH_ALLOW_CIDRS", "allowCidrs")
  }),
  maxResults: Config.option(Config.integer("WEBSEARCH_MAX_RESULTS")),
  concurrency: Config.option(Config.integer("WEBSEARCH_CONCURRENCY")),
  cache: Config.all({
    searchKeywords: cacheTtl(Capability.toEnvName("searchKeywords")),
    fetchUrls: cacheTtl(Capability.toEnvName("fetchUrls")),
    failures: cacheTtl("FAILURES")
  })
})

// The fields that were set, or nothing when none was: a document names only what the environment gave.
const section = <R extends { readonly [key: string]: Option.Option<unknown> }>(fields: R) => {
  const set = ConfigText.setFields(fields)
  return Object.keys(set).length === 0 ? undefined : set
}

const field = <K extends string, A>(key: K, value: A | undefined): { [P in K]?: A } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: A }

/** The variables as one settings document. */
export const config: Config.Config<SettingsInput.SettingsInput> = Config.map(variables, (read) => ({
  ...field("defaults", section(read.defaults)),
  ...field("fallbacks", section(read.fallbacks)),
  ...field("fusion", section(read.fusion)),
  ...field("urlPolicy", section(read.urlPolicy)),
  ...field("maxResults", Option.getOrUndefined(read.maxResults)),
  ...field("concurrency", Option.getOrUndefined(read.concurrency)),
  ...field("cache", section(read.cache))
}))

/**
 * Reads a settings document from `source`; a malformed value fails with `Unavailable/invalid_config` naming it
 * (every malformed one: `Config` collects them).
 */
export const readFrom = (
  source: Config.Config<SettingsInput.SettingsInput>
): Effect.Effect<SettingsInput.SettingsInput, WebSearchError.Unavailable> =>
  Effect.mapError(source, (error) => SettingsValidation.invalidFrom(ConfigText.problems(error), "environment"))

/** Reads the variables into a settings document. */
export const read: Effect.Effect<SettingsInput.SettingsInput, WebSearchError.Unavailable> = readFrom(config)
