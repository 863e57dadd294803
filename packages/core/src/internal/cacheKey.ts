/**
 * The result cache's key: everything that decides the answer of one driver call, JSON-encoded as one array so
 * calls that differ in any part never share an entry. Parts added later (search options, workspace, variant) are
 * appended only when set, so the keys of calls without them stay those written before they existed.
 */
import * as Option from "effect/Option"
import type { ListCapability } from "../Capability.js"
import { defaultWorkspace } from "../ProviderInstance.js"
import { SearchOption, type SearchOptions } from "../SearchOptions.js"

/** Everything that decides the answer of one driver call (`ResultCache.Request`). */
export interface Request {
  readonly providerId: string
  /**
   * Where the provider's answers are scoped beyond its id: a call instance's workspace, id and revision, so two
   * workspaces' instances of one id never share an entry and a changed instance is never served its old
   * answers. None for a composed provider or a settings instance.
   *
   * @since 0.2.0
   */
  readonly scope?: string | undefined
  readonly capability: ListCapability
  readonly input: string
  /** Only search answers depend on it; a fetch returns one page whatever the count. */
  readonly maxResults: number
  readonly apiHost: Option.Option<string>
  readonly engines: ReadonlyArray<string>
  /** The search options the call ran with (a search with other options is another answer). */
  readonly searchOptions?: SearchOptions | undefined
  /**
   * The workspace the call was made for (`ProviderInstance.CallInstances`): entries of two workspaces never meet,
   * so one tenant never gets an answer another tenant's request put there, nor learns from a hit what another read.
   * None (or the default workspace) for a call outside any workspace: a library or command-line call.
   *
   * @since 0.2.0
   */
  readonly workspace?: string | undefined
  /**
   * A digest of what else in the provider's configuration can change its answers: its own options
   * such as a search engine id, the basic-auth user, the model, the proxy, the type an instance configures. A
   * digest, so no secret (a proxy's password) is ever part of a key. None when there is nothing of the sort.
   *
   * @since 0.2.0
   */
  readonly variant?: string | undefined
}

/** An input as its key sees it: keywords NFC-normalised and whitespace-collapsed, URLs parsed without fragment. */
export const normalizeInput = (capability: ListCapability, input: string): string => {
  if (capability === "fetchUrls") {
    const trimmed = input.trim()
    if (!URL.canParse(trimmed)) return trimmed
    const url = new URL(trimmed)
    url.hash = ""
    return url.href
  }
  return input.normalize("NFC").trim().replace(/\s+/gu, " ")
}

/** The key of a driver call. */
export const key = (request: Request): string =>
  JSON.stringify([
    "v1",
    request.capability,
    // A scoped id is an array where an unscoped one is a string, so the two never meet.
    request.scope === undefined ? request.providerId : [request.providerId, request.scope],
    Option.getOrNull(request.apiHost),
    request.engines,
    request.capability === "searchKeywords" ? request.maxResults : null,
    normalizeInput(request.capability, request.input),
    // Appended only when set, so the keys of searches without options are those written before options existed.
    ...(request.searchOptions !== undefined && Object.keys(request.searchOptions).length > 0
      ? [optionsKey(request.searchOptions)]
      : []),
    // Likewise: an object where the options are an array, so the two never meet; absent outside a workspace and
    // for a plain configuration, whose keys stay those written before workspaces existed.
    ...(scoped(request) ? [{ workspace: scopedWorkspace(request) ?? null, variant: request.variant ?? null }] : [])
  ])

// The default workspace is where every call outside a server runs: it keeps the unscoped keys.
const scopedWorkspace = (request: Request): string | undefined =>
  request.workspace === undefined || request.workspace === defaultWorkspace ? undefined : request.workspace

const scoped = (request: Request): boolean => scopedWorkspace(request) !== undefined || request.variant !== undefined

// The options in one fixed order, domain lists sorted: the same options written differently share an entry.
const optionsKey = (options: SearchOptions) =>
  SearchOption.literals.map((name) => {
    const value = options[name]
    return Array.isArray(value) ? [...value].sort() : (value ?? null)
  })
