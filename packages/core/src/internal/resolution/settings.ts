/**
 * Resolution of the composed providers against the settings, when the application's layer is built: each preset
 * checked, each override matched to a composed provider and split into the common fields and the provider's own
 * options (decoded by its schema), the environment laid over the settings when they came from it, the default
 * and fallback providers checked. Every problem is collected, so one start-up failure names them all.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Capability from "../../Capability.js"
import type * as Composition from "../../Composition.js"
import * as Preset from "../../Preset.js"
import type { ResolvedProvider } from "../../ProviderConfig.js"
import type { AnyProviderDriver } from "../../ProviderDriver.js"
import type { ProviderId } from "../../ProviderId.js"
import type * as Settings from "../../Settings.js"
import * as SettingsInput from "../settingsInput.js"
import * as UrlPolicy from "../../UrlPolicy.js"
import type * as WebSearchError from "../../WebSearchError.js"
import * as Instances from "./instances.js"
import * as ParseIssues from "../parseIssues.js"
import * as Provider from "./provider.js"
import * as Environment from "./environment.js"
import * as SettingsValidation from "../settingsValidation.js"

/** The outcome of resolution. */
export interface Resolved {
  readonly drivers: ReadonlyMap<ProviderId, AnyProviderDriver>
  readonly providers: ReadonlyMap<ProviderId, ResolvedProvider>
  /** The settings' instances, resolved (their ids are in neither map above). */
  readonly instances: ReadonlyMap<ProviderId, Instances.Entry>
  readonly defaults: { readonly [C in Capability.Capability]: ProviderId | null }
  readonly fallbacks: { readonly [C in Capability.ListCapability]: ReadonlyArray<ProviderId> }
}

const decodePreset = Schema.decodeUnknownEither(Preset.Preset, { errors: "all", onExcessProperty: "error" })
const decodeEnvironment = Schema.decodeUnknownEither(Environment.EnvironmentOverride, { errors: "all" })
const common: ReadonlySet<string> = new Set(SettingsInput.commonFields)

const splitOptions = (override: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(override).filter(([key]) => !common.has(key)))

const mergeOverride = (
  base: SettingsInput.ProviderOverride | undefined,
  overlay: SettingsInput.ProviderOverride
): SettingsInput.ProviderOverride =>
  base === undefined
    ? overlay
    : {
        ...base,
        ...overlay,
        ...(base.capabilities !== undefined || overlay.capabilities !== undefined
          ? { capabilities: { ...base.capabilities, ...overlay.capabilities } }
          : {})
      }

/** One provider's override (settings with the environment over them) and its options, or the problems. */
export interface One {
  readonly override: SettingsInput.ProviderOverride | undefined
  readonly options: unknown
  readonly problems: ReadonlyArray<string>
}

/** Resolves one provider's override and options against the settings. */
export const resolveOne: (
  driver: Pick<AnyProviderDriver, "preset" | "options" | "optionsConfig">,
  settings: Settings.Settings.Service
) => Effect.Effect<One> = Effect.fnUntraced(function* (driver, settings) {
  const id = driver.preset.id
  const problems: Array<string> = []
  let override = settings.overrides.get(id)
  let rawOptions: Record<string, unknown> = override === undefined ? {} : splitOptions(override)
  if (Option.isSome(settings.environment)) {
    const read = yield* Effect.withConfigProvider(Environment.read(driver), settings.environment.value)
    problems.push(...read.problems)
    const decoded = decodeEnvironment(read.override)
    if (Either.isLeft(decoded)) problems.push(ParseIssues.format(decoded.left, `providers.${id}`, true))
    else {
      // An endpoint from the environment is user-set like one in a file: the URL policy applies (DESIGN §4).
      const policy = UrlPolicy.fromSettings(settings)
      for (const [feature, capability] of Object.entries(decoded.right.capabilities ?? {})) {
        const checked = capability?.apiHost === undefined ? undefined : UrlPolicy.checkUrl(policy, capability.apiHost)
        if (checked !== undefined && Either.isLeft(checked)) {
          problems.push(`providers.${id}.capabilities.${feature}.apiHost: ${checked.left.message}`)
        }
      }
      override = mergeOverride(override, decoded.right)
      rawOptions = { ...rawOptions, ...splitOptions(read.options) }
    }
  }
  const decoded = Provider.decodeOptions(driver, rawOptions, `providers.${id}`)
  if (Either.isLeft(decoded)) problems.push(...decoded.left)
  const options = Either.getOrUndefined(decoded)
  return { override, options, problems }
})

/** The `Unavailable/invalid_config` error listing problems. */
export const invalid: (problems: ReadonlyArray<string>, source: string) => WebSearchError.Unavailable =
  SettingsValidation.invalidFrom

/** Resolves the contributed drivers against the settings; fails listing every problem. */
export const resolve: (
  contributions: Composition.Contributions,
  settings: Settings.Settings.Service
) => Effect.Effect<Resolved, WebSearchError.Unavailable> = Effect.fnUntraced(function* (contributions, settings) {
  const problems: Array<string> = []
  // A later registration of an id replaces an earlier one, keeping the earlier one's place.
  const drivers = new Map<ProviderId, AnyProviderDriver>()
  for (const driver of contributions.drivers) {
    const checked = decodePreset(driver.preset)
    if (Either.isLeft(checked)) {
      problems.push(`a composed provider's preset is invalid: ${ParseIssues.format(checked.left, "preset")}`)
      continue
    }
    drivers.set(driver.preset.id, driver)
  }
  const ids = Array.from(drivers.keys())
  const composed = ids.join(", ") || "none"
  for (const [id, override] of settings.overrides) {
    const driver = drivers.get(id)
    if (driver === undefined) {
      problems.push(`providers.${id}: no composed provider has this id (composed: ${composed})`)
      continue
    }
    for (const feature of Object.keys(override.capabilities ?? {}) as Array<Capability.Capability>) {
      if (!Preset.supports(driver.preset, feature)) {
        problems.push(`providers.${id}.capabilities.${feature}: ${id} has no ${feature} capability`)
      }
    }
  }
  const providers = new Map<ProviderId, ResolvedProvider>()
  for (const [id, driver] of drivers) {
    const one = yield* resolveOne(driver, settings)
    problems.push(...one.problems)
    providers.set(id, Provider.fromOverride(driver.preset, one.override, one.options))
  }
  const settingsInstances = Instances.fromSettings(drivers, settings)
  problems.push(...settingsInstances.problems)
  const instances = settingsInstances.entries
  // What defaults, fallbacks and fusion may name: a composed provider or a settings instance.
  const nameable = (id: string): Preset.Preset | undefined => drivers.get(id)?.preset ?? instances.get(id)?.provider
  const declared = Array.from(settings.instances.keys()).join(", ")
  const missing = (id: string) =>
    declared === ""
      ? `no composed provider "${id}" (composed: ${composed})`
      : `no composed provider or instance "${id}" (composed: ${composed}; instances: ${declared})`
  const defaults = {} as { [C in Capability.Capability]: ProviderId | null }
  for (const capability of Capability.all) {
    const chosen = settings.defaults[capability]
    if (chosen === null) {
      defaults[capability] = null
      continue
    }
    if (chosen !== undefined) {
      const preset = nameable(chosen)
      if (preset === undefined) {
        if (!settings.instances.has(chosen)) {
          problems.push(`defaults.${capability}: ${missing(chosen)}`)
        }
      } else if (!Preset.supports(preset, capability)) {
        problems.push(`defaults.${capability}: ${chosen} has no ${capability} capability`)
      }
      defaults[capability] = chosen
      continue
    }
    const proposals = contributions.defaults.flatMap((entry) => {
      const id = entry.defaults[capability]
      return id === undefined ? [] : [{ id, source: entry.source }]
    })
    const distinct = Array.from(new Set(proposals.map((p) => p.id)))
    if (distinct.length > 1) {
      problems.push(
        `defaults.${capability}: the composed parts propose different defaults (${proposals
          .map((p) => `${p.source}: ${p.id}`)
          .join(", ")}); choose one in defaults.${capability}`
      )
      defaults[capability] = null
    } else if (distinct.length === 1) {
      const id = distinct[0]
      const preset = nameable(id)
      if (preset === undefined || !Preset.supports(preset, capability)) {
        problems.push(
          `defaults.${capability}: ${proposals[0].source} proposes ${id}, which is not a composed ${capability} provider (composed: ${composed})`
        )
      }
      defaults[capability] = id
    } else defaults[capability] = null
  }
  for (const capability of ["searchKeywords", "fetchUrls"] as const) {
    const chain = settings.fallbacks[capability]
    if (chain.length > 0 && defaults[capability] === null) {
      problems.push(`fallbacks.${capability}: a fallback chain needs defaults.${capability}`)
    }
    chain.forEach((id, index) => {
      const preset = nameable(id)
      const field = `fallbacks.${capability}.${index}`
      if (preset === undefined) {
        if (!settings.instances.has(id)) {
          problems.push(`${field}: ${missing(id)}`)
        }
      } else if (!Preset.supports(preset, capability)) problems.push(`${field}: ${id} has no ${capability} capability`)
      else if (id === defaults[capability]) problems.push(`${field}: ${id} already comes earlier in the chain`)
    })
  }
  settings.fusion.searchKeywords.forEach((id, index) => {
    const preset = nameable(id)
    const field = `fusion.searchKeywords.${index}`
    if (preset === undefined) {
      if (!settings.instances.has(id)) {
        problems.push(`${field}: ${missing(id)}`)
      }
    } else if (!Preset.supports(preset, "searchKeywords")) {
      problems.push(`${field}: ${id} has no searchKeywords capability`)
    }
  })
  if (problems.length > 0) return yield* Effect.fail(invalid(problems, settings.source))
  return {
    drivers,
    providers,
    instances,
    defaults,
    fallbacks: settings.fallbacks
  }
})
