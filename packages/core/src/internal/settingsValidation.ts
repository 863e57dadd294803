/**
 * Checking a settings document: decoding it by the `SettingsInput` schema (every issue, unknown keys refused), then
 * the rules that need the whole document (basic auth in pairs, fallback chains against the defaults, the URL
 * blacklist and allowlist compiled, user-set endpoints under the document's own URL policy). Every problem is
 * collected, so one load failure names them all.
 */
import * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Blacklist from "./blacklist.js"
import * as SettingsInput from "./settingsInput.js"
import * as OutboundProxy from "../OutboundProxy.js"
import * as UrlPolicy from "../UrlPolicy.js"
import * as WebSearchError from "../WebSearchError.js"
import * as ParseIssues from "./parseIssues.js"

/** The `Unavailable/invalid_config` error of settings that cannot load. */
export const invalid = (message: string): WebSearchError.Unavailable =>
  WebSearchError.unavailable("invalid_config", `invalid settings: ${message}`)

/** The same error listing problems and where the settings came from. */
export const invalidFrom = (problems: ReadonlyArray<string>, source: string): WebSearchError.Unavailable =>
  invalid(`${problems.join("; ")} (from ${source})`)

const decodeEither = Schema.decodeUnknownEither(SettingsInput.SettingsInput, {
  errors: "all",
  onExcessProperty: "error"
})

/** Decodes a document; the failure is one sentence naming every field at fault. */
export const decode = (input: unknown): Either.Either<typeof SettingsInput.SettingsInput.Type, string> =>
  Either.mapLeft(decodeEither(input), (error: ParseResult.ParseError) => ParseIssues.format(error, "settings"))

/** What the whole-document rules compile on the way: the URL filter and the URL policy. */
export interface Checked {
  readonly filter: Blacklist.UrlFilter
  readonly urlPolicy: UrlPolicy.UrlPolicy
}

/** Applies the whole-document rules to a decoded document. */
export const check = (
  input: typeof SettingsInput.SettingsInput.Type
): Either.Either<Checked, ReadonlyArray<string>> => {
  const problems: Array<string> = []
  const entries = [
    ...Object.entries(input.providers ?? {}).map(([id, override]) => [`providers.${id}`, override] as const),
    ...Object.entries(input.instances ?? {}).map(([id, override]) => [`instances.${id}`, override] as const)
  ]
  for (const [field, override] of entries) {
    if ((override.basicAuthUsername === undefined) !== (override.basicAuthPassword === undefined)) {
      problems.push(`${field}: basicAuthUsername and basicAuthPassword go together`)
    }
  }
  for (const capability of ["searchKeywords", "fetchUrls"] as const) {
    const chain = input.fallbacks?.[capability] ?? []
    if (chain.length > 0 && input.defaults?.[capability] === null) {
      problems.push(`fallbacks.${capability}: a fallback chain needs a default for ${capability}`)
    }
    chain.forEach((id, index) => {
      if (id === input.defaults?.[capability] || chain.indexOf(id) !== index) {
        problems.push(`fallbacks.${capability}.${index}: ${id} already comes earlier in the chain`)
      }
    })
  }
  // With a fused default, a request naming no provider never reaches the single default's fallback chain.
  if ((input.fusion?.searchKeywords?.length ?? 0) > 0 && (input.fallbacks?.searchKeywords?.length ?? 0) > 0) {
    problems.push(
      "fusion.searchKeywords: a fused default leaves fallbacks.searchKeywords unused; set one of them, not both"
    )
  }
  const blacklist = Blacklist.compile(input.blacklist ?? [])
  const allowlist = Blacklist.compile(input.allowlist ?? [])
  for (const [field, compiled] of [
    ["blacklist", blacklist],
    ["allowlist", allowlist]
  ] as const) {
    if (Either.isLeft(compiled)) {
      for (const entry of compiled.left) problems.push(`${field}.${entry.index}: ${entry.message}`)
    }
  }
  const urlPolicy = UrlPolicy.make(input.urlPolicy)
  for (const problem of urlPolicy.problems) problems.push(`urlPolicy.${problem.field}: ${problem.message}`)
  // An endpoint (or outbound proxy) the user set is a URL like any fetched page (DESIGN §4); the presets' own hosts
  // are trusted.
  for (const [field, override] of entries) problems.push(...checkUserUrls(urlPolicy, field, override))
  if (problems.length > 0 || Either.isLeft(blacklist) || Either.isLeft(allowlist)) return Either.left(problems)
  return Either.right({ filter: { blacklist: blacklist.right, allowlist: allowlist.right }, urlPolicy })
}

/**
 * The URL policy over an override's user-set URLs (each capability's endpoint, the outbound proxy), as problems
 * naming the field under `field`. Used for the settings' providers and instances and for stored instances.
 */
export const checkUserUrls = (
  policy: UrlPolicy.UrlPolicy,
  field: string,
  override: Pick<SettingsInput.ProviderOverride, "capabilities" | "proxyUrl">
): ReadonlyArray<string> => {
  const problems: Array<string> = []
  for (const [feature, capability] of Object.entries(override.capabilities ?? {})) {
    if (capability?.apiHost === undefined) continue
    const checked = UrlPolicy.checkUrl(policy, capability.apiHost)
    if (Either.isLeft(checked)) problems.push(`${field}.capabilities.${feature}.apiHost: ${checked.left.message}`)
  }
  if (override.proxyUrl !== undefined && URL.canParse(override.proxyUrl.trim())) {
    // A proxy's user name and password are its own business (the policy refuses credentials in fetched URLs): the
    // policy judges its host (at any port, see OutboundProxy.check), and its message never shows the user part.
    const checked = OutboundProxy.check(policy, { field: `${field}.proxyUrl`, url: override.proxyUrl })
    if (Either.isLeft(checked)) problems.push(checked.left.message)
  }
  return problems
}
