/**
 * Resolution of provider instances: a settings instance (`instances.<id>`) when the application's layer is built,
 * a call's stored instance (`CallInstances`) when a call names it. Either becomes a `ResolvedProvider` of its
 * type's preset and driver, with the instance's own overrides, credentials and options (decoded by the type's
 * schema), its id and name. A stored instance is resolved once per (workspace, id, revision, creation time), in a
 * bounded cache, and a bad one fails only the calls that name it.
 */
import * as DateTime from "effect/DateTime"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type * as Capability from "../../Capability.js"
import * as Preset from "../../Preset.js"
import type { ResolvedProvider } from "../../ProviderConfig.js"
import type { AnyProviderDriver } from "../../ProviderDriver.js"
import type { ProviderId } from "../../ProviderId.js"
import * as ProviderInstance from "../../ProviderInstance.js"
import type * as Settings from "../../Settings.js"
import * as SettingsInput from "../settingsInput.js"
import type * as UrlPolicy from "../../UrlPolicy.js"
import * as WebSearchError from "../../WebSearchError.js"
import * as ParseIssues from "../parseIssues.js"
import * as Provider from "./provider.js"
import * as SettingsValidation from "../settingsValidation.js"

/** A provider that a call may name, with its driver and the key its call state is kept under. */
export interface Entry {
  readonly provider: ResolvedProvider
  readonly driver: AnyProviderDriver
  /**
   * The key of the provider's call state (result cache entries, budget, Retry-After hold-off, key rotation): its
   * id for a composed provider or a settings instance, and for a call's instance its workspace, id and revision,
   * so two workspaces' instances of one id never share state, and a changed instance starts afresh.
   */
  readonly stateKey: string
}

const instanceFields: ReadonlySet<string> = new Set(SettingsInput.instanceFields)

/** An instance's provider: its type's, with the instance's id, name, overrides and options. */
const build = (
  driver: AnyProviderDriver,
  id: string,
  name: string | undefined,
  override: SettingsInput.ProviderOverride,
  options: unknown
): ResolvedProvider => ({
  ...Provider.fromOverride(driver.preset, override, options),
  id,
  name: name ?? driver.preset.name,
  instanceOf: driver.preset.id
})

const capabilityProblems = (
  driver: AnyProviderDriver,
  field: string,
  override: Pick<SettingsInput.ProviderOverride, "capabilities">
): ReadonlyArray<string> =>
  (Object.keys(override.capabilities ?? {}) as Array<Capability.Capability>)
    .filter((feature) => !Preset.supports(driver.preset, feature))
    .map((feature) => `${field}.capabilities.${feature}: ${driver.preset.id} has no ${feature} capability`)

/** The settings' instances, resolved against the composed drivers; every problem names its field. */
export const fromSettings = (
  drivers: ReadonlyMap<ProviderId, AnyProviderDriver>,
  settings: Settings.Settings.Service
): { readonly entries: ReadonlyMap<ProviderId, Entry>; readonly problems: ReadonlyArray<string> } => {
  const composed = Array.from(drivers.keys()).join(", ") || "none"
  const entries = new Map<ProviderId, Entry>()
  const problems: Array<string> = []
  for (const [id, declared] of settings.instances) {
    const field = `instances.${id}`
    if (drivers.has(id)) {
      problems.push(`${field}: "${id}" is the id of a composed provider; give the instance an id of its own`)
      continue
    }
    const driver = drivers.get(declared.type)
    if (driver === undefined) {
      problems.push(`${field}.type: no composed provider "${declared.type}" (composed: ${composed})`)
      continue
    }
    const own = capabilityProblems(driver, field, declared)
    const rawOptions = Object.fromEntries(Object.entries(declared).filter(([key]) => !instanceFields.has(key)))
    const options = Provider.decodeOptions(driver, rawOptions, field, SettingsInput.instanceFields)
    if (own.length > 0 || Either.isLeft(options)) {
      problems.push(...own, ...(Either.isLeft(options) ? options.left : []))
      continue
    }
    entries.set(id, { provider: build(driver, id, declared.name, declared, options.right), driver, stateKey: id })
  }
  return { entries, problems }
}

const decodeSettings = Schema.decodeUnknownEither(ProviderInstance.InstanceSettings, {
  errors: "all",
  onExcessProperty: "error"
})

// Injective: a workspace id has no '/', an instance id neither '/' nor '@', a revision no '#'. The creation time
// is in it because a store numbers a deleted and re-created instance from revision 1 again: the new instance must
// not be resolved, cached or metered as the old one was.
const stateKeyOf = (workspace: string, instance: ProviderInstance.ProviderInstance) =>
  `${workspace}/${instance.id}@${instance.revision}#${DateTime.toEpochMillis(instance.createdAt)}`

/** The `Unavailable/invalid_config` of a stored instance that cannot be used, naming it and every field at fault. */
const unusable = (workspace: string, id: string, problems: ReadonlyArray<string>): WebSearchError.Unavailable =>
  WebSearchError.unavailable(
    "invalid_config",
    `the provider instance "${id}" of workspace "${workspace}" cannot be used: ${problems.join("; ")}`,
    { providerId: id }
  )

/**
 * A stored instance, resolved: its settings checked again (a hand-made `CallInstances` is not decoded by a store),
 * its type composed, its endpoints and proxy under the URL policy, its options decoded by the type's schema.
 */
export const fromStored = (
  drivers: ReadonlyMap<ProviderId, AnyProviderDriver>,
  policy: UrlPolicy.UrlPolicy,
  workspace: string,
  instance: ProviderInstance.ProviderInstance
): Either.Either<Entry, WebSearchError.Unavailable> => {
  const { id, type } = instance
  if (instance.unreadable !== undefined) {
    return Either.left(
      WebSearchError.unavailable(
        "store_unavailable",
        `the provider instance "${id}" of workspace "${workspace}" could not be read from the provider store: ` +
          `${instance.unreadable}`,
        { providerId: id }
      )
    )
  }
  if (instance.workspace !== workspace) {
    return Either.left(
      unusable(workspace, id, [`workspace: the instance belongs to workspace "${instance.workspace}"`])
    )
  }
  if (drivers.has(id)) {
    return Either.left(
      unusable(workspace, id, [`id: "${id}" is the id of a composed provider; give the instance an id of its own`])
    )
  }
  const driver = drivers.get(type)
  if (driver === undefined) {
    const composed = Array.from(drivers.keys()).join(", ") || "none"
    return Either.left(unusable(workspace, id, [`type: no composed provider "${type}" (composed: ${composed})`]))
  }
  const decoded = decodeSettings(instance.settings)
  if (Either.isLeft(decoded))
    return Either.left(unusable(workspace, id, [ParseIssues.format(decoded.left, "settings", true)]))
  const { options: rawOptions = {}, ...settings } = decoded.right
  const { apiKeys, basicAuthPassword } = instance.credentials
  const problems = [
    ...capabilityProblems(driver, "settings", settings),
    ...SettingsValidation.checkUserUrls(policy, "settings", settings)
  ]
  if (settings.basicAuthUsername === undefined && basicAuthPassword !== undefined) {
    problems.push("credentials.basicAuthPassword: a basic-auth password needs settings.basicAuthUsername")
  } else if (settings.basicAuthUsername !== undefined && basicAuthPassword === undefined) {
    problems.push("settings.basicAuthUsername: a basic-auth user name needs the credentials' basicAuthPassword")
  }
  const options = Provider.decodeOptions(driver, rawOptions, "options", ["options"])
  if (Either.isLeft(options)) problems.push(...options.left)
  if (problems.length > 0 || Either.isLeft(options)) return Either.left(unusable(workspace, id, problems))
  const override: SettingsInput.ProviderOverride = {
    ...settings,
    ...(apiKeys === undefined ? {} : { apiKeys }),
    ...(basicAuthPassword === undefined ? {} : { basicAuthPassword })
  }
  return Either.right({
    provider: build(driver, id, instance.name, override, options.right),
    driver,
    stateKey: stateKeyOf(workspace, instance)
  })
}

/** The stored instances of calls, resolved once per (workspace, id, revision, creation time). */
export interface Cache {
  /** The call instance named `id`, resolved (or why it cannot be used); none when the call holds no such instance. */
  readonly find: (
    calls: ProviderInstance.CallInstances.Service,
    id: string
  ) => Either.Either<Entry, WebSearchError.Unavailable> | undefined
}

// The instances of one `CallInstances` value by id, built once per array (a server hands the same array to every
// call until its workspace changes).
const indexes = new WeakMap<
  ReadonlyArray<ProviderInstance.ProviderInstance>,
  ReadonlyMap<string, ProviderInstance.ProviderInstance>
>()

const indexOf = (instances: ReadonlyArray<ProviderInstance.ProviderInstance>) => {
  let index = indexes.get(instances)
  if (index === undefined) {
    index = new Map(instances.map((instance) => [instance.id, instance]))
    indexes.set(instances, index)
  }
  return index
}

// What an instance is, beyond its key: a store numbers a re-created instance from revision 1 again, and its
// creation time is in milliseconds (a delete and a create in the same millisecond, or any two under a test clock,
// share it), so a cached resolution is reused only for an instance that says the same. Undefined (never cached)
// for a hand-made instance JSON cannot write.
const contentOf = (instance: ProviderInstance.ProviderInstance): string | undefined => {
  try {
    return JSON.stringify([
      instance.type,
      instance.unreadable ?? null,
      instance.name ?? null,
      instance.settings,
      instance.credentials.apiKeys?.map(Redacted.value) ?? null,
      Option.getOrNull(Option.map(Option.fromNullable(instance.credentials.basicAuthPassword), Redacted.value))
    ])
  } catch {
    return undefined
  }
}

/**
 * A cache of resolved call instances, holding at most `bound` of them: the least recently used is dropped first
 * (an old revision is never asked for again, so it ages out).
 */
export const makeCache = (
  drivers: ReadonlyMap<ProviderId, AnyProviderDriver>,
  policy: UrlPolicy.UrlPolicy,
  bound = 1024
): Cache => {
  const resolved = new Map<
    string,
    { readonly content: string; readonly entry: Either.Either<Entry, WebSearchError.Unavailable> }
  >()
  const byObject = new WeakMap<
    ProviderInstance.ProviderInstance,
    { readonly workspace: string; readonly entry: Either.Either<Entry, WebSearchError.Unavailable> }
  >()
  return {
    find: (calls, id) => {
      const instance = calls.instances.length === 0 ? undefined : indexOf(calls.instances).get(id)
      if (instance === undefined) return undefined
      // A server hands the same instance objects to every call until its workspace changes: those are known.
      const seen = byObject.get(instance)
      if (seen !== undefined && seen.workspace === calls.workspace) return seen.entry
      const key = stateKeyOf(calls.workspace, instance)
      const content = contentOf(instance)
      if (content === undefined) return fromStored(drivers, policy, calls.workspace, instance)
      const cached = resolved.get(key)
      // The most recently used last, so the instances in use are the last to be dropped.
      if (cached !== undefined) resolved.delete(key)
      else if (resolved.size >= bound) resolved.delete(resolved.keys().next().value as string)
      const entry =
        cached !== undefined && cached.content === content
          ? cached.entry
          : fromStored(drivers, policy, calls.workspace, instance)
      resolved.set(key, { content, entry })
      byObject.set(instance, { workspace: calls.workspace, entry })
      return entry
    }
  }
}
