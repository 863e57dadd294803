/**
 * Provider instances: a named configuration of a composed provider type, of a user's choosing ("production-bing",
 * "test-searxng"), with its own overrides (endpoints, engines, basic auth, model, request budget, outbound proxy,
 * the type's own options) and its own credentials. The same type may have many instances. Instances live in a
 * workspace; a request names an instance id where it named a provider id. Credentials are write-only: what is
 * shown of an instance (`InstanceView`) says how many keys it has, never what they are.
 *
 * @since 0.2.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { dual } from "effect/Function"
import * as Schema from "effect/Schema"
import * as ProviderId from "./ProviderId.js"
import * as Redaction from "./internal/redaction.js"
import * as SettingsInput from "./internal/settingsInput.js"

/**
 * An instance id: the same grammar as a provider id, since a request names either in the same field. An instance
 * may not take the id of a composed provider type.
 *
 * @since 0.2.0
 * @category schemas
 */
export const InstanceId = ProviderId.ProviderId

/**
 * @since 0.2.0
 * @category models
 */
export type InstanceId = typeof InstanceId.Type

/**
 * A workspace id: 1–64 characters of a-z, 0-9, '-' and '_', starting with a letter or digit.
 *
 * @since 0.2.0
 * @category schemas
 */
export const WorkspaceId = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9][a-z0-9_-]{0,63}$/, {
    message: () => "a workspace id is 1-64 characters of a-z, 0-9, '-' and '_', starting with a letter or digit"
  })
).annotations({ identifier: "WorkspaceId" })

/**
 * @since 0.2.0
 * @category models
 */
export type WorkspaceId = typeof WorkspaceId.Type

/**
 * The workspace of settings-declared instances and of a server without workspaces.
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultWorkspace: WorkspaceId = "default"

// The same text rules as a key in the settings file: header-safe, since keys go into headers.
const Secret = Schema.Redacted(SettingsInput.HeaderText)

const {
  apiKeys: _apiKeys,
  basicAuthPassword: _basicAuthPassword,
  ...publicFields
} = SettingsInput.CommonOverride.fields

/**
 * What an instance overrides on its type, without secrets: the common fields of a provider override but keys
 * and the basic-auth password (those are `InstanceCredentials`), plus the type's own options as written (decoded
 * by the type's schema when the instance is used, so a bad option fails naming the field).
 *
 * @since 0.2.0
 * @category schemas
 */
export const InstanceSettings = Schema.Struct({
  ...publicFields,
  options: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
}).annotations({ identifier: "InstanceSettings" })

/**
 * @since 0.2.0
 * @category models
 */
export type InstanceSettings = typeof InstanceSettings.Type

/**
 * An instance's secrets: its API keys (rotated round-robin) and its basic-auth password. Stored encrypted by
 * the SQL stores; never returned by any API.
 *
 * @since 0.2.0
 * @category schemas
 */
export const InstanceCredentials = Schema.Struct({
  apiKeys: Schema.optional(Schema.Array(Secret).pipe(Schema.maxItems(64))),
  basicAuthPassword: Schema.optional(Secret)
}).annotations({ identifier: "InstanceCredentials" })

/**
 * @since 0.2.0
 * @category models
 */
export type InstanceCredentials = typeof InstanceCredentials.Type

/**
 * What a store holds of one instance. `revision` grows by one with every change (settings or credentials), so a
 * resolved instance can be cached by `(workspace, id, revision)` and an update can say which revision it read.
 *
 * @since 0.2.0
 * @category schemas
 */
export const ProviderInstance = Schema.Struct({
  workspace: WorkspaceId,
  id: InstanceId,
  /** The composed provider type this instance configures (`bing`, `searxng`, a custom module's id). */
  type: ProviderId.ProviderId,
  name: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
  settings: InstanceSettings,
  credentials: InstanceCredentials,
  revision: Schema.Int.pipe(Schema.positive()),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc,
  /**
   * Set when the store holds the instance but could not read it (its settings or credentials are under a key the
   * store was not given, or damaged): why, naming the key's id at most. Such an instance has empty settings and no
   * credentials, and every call naming it fails `Unavailable/store_unavailable` saying so; the workspace's other
   * instances and the composed providers are not affected.
   *
   * @since 0.2.0
   */
  unreadable: Schema.optional(Schema.String)
}).annotations({ identifier: "ProviderInstance" })

/**
 * @since 0.2.0
 * @category models
 */
export type ProviderInstance = typeof ProviderInstance.Type

/**
 * What is shown of an instance: everything but its secrets, of which only counts are said.
 *
 * @since 0.2.0
 * @category schemas
 */
export const InstanceView = Schema.Struct({
  workspace: WorkspaceId,
  id: InstanceId,
  type: ProviderId.ProviderId,
  name: Schema.optional(Schema.String),
  settings: InstanceSettings,
  credentials: Schema.Struct({ apiKeys: Schema.Int, basicAuthPassword: Schema.Boolean }),
  revision: Schema.Int,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc,
  /** Why the store could not read the instance, when it could not (see `ProviderInstance.unreadable`). */
  unreadable: Schema.optional(Schema.String)
}).annotations({ identifier: "InstanceView" })

/**
 * @since 0.2.0
 * @category models
 */
export type InstanceView = typeof InstanceView.Type

// A proxy URL may carry credentials (`http://user:pass@proxy:3128`, a token as the user name): the view shows
// where the proxy is, never who logs in to it. Reading the view back into an update therefore drops them, which
// fails loudly at the proxy (407) instead of storing a placeholder as the password.
const shownProxyUrl = (url: string): string => {
  const text = url.trim()
  if (!URL.canParse(text)) return url
  const parsed = new URL(text)
  return parsed.username === "" && parsed.password === "" ? url : `${parsed.protocol}//${parsed.host}`
}

// An endpoint may carry a key in its query (`?api_key=…`): shown as the placeholder, as every URL is shown.
const shownEndpoint = (url: string): string => {
  const text = url.trim()
  if (!URL.canParse(text)) return url
  const parsed = new URL(text)
  const shown = Redaction.scrubUrl(parsed)
  return shown.href === parsed.href ? url : shown.href
}

const shownSettings = (settings: InstanceSettings): InstanceSettings => {
  const { capabilities, proxyUrl } = settings
  return {
    ...settings,
    ...(proxyUrl === undefined ? {} : { proxyUrl: shownProxyUrl(proxyUrl) }),
    ...(capabilities === undefined
      ? {}
      : {
          capabilities: Object.fromEntries(
            Object.entries(capabilities).map(([feature, override]) => [
              feature,
              override?.apiHost === undefined ? override : { ...override, apiHost: shownEndpoint(override.apiHost) }
            ])
          )
        })
  }
}

// An endpoint as a destination: without user info or credential-named query values (the view's spelling of it, read
// back, is the same place), the rest as written. Text that is not a URL is compared as it is.
const endpointDestination = (url: string | undefined): string | undefined => {
  if (url === undefined) return undefined
  const text = url.trim()
  if (!URL.canParse(text)) return text
  const shown = Redaction.scrubUrl(new URL(text))
  shown.username = ""
  shown.password = ""
  return shown.href
}

// A proxy as a destination: its scheme, host and port (its own credentials say who logs in, not where keys go).
const proxyDestination = (url: string | undefined): string | undefined => {
  if (url === undefined) return undefined
  const text = url.trim()
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`
  return URL.canParse(withScheme) ? new URL(withScheme).origin : text
}

/**
 * Where an instance's credentials are sent, by the field that says so: each capability's endpoint
 * (`settings.capabilities.<capability>.apiHost`; unset, the type's own) and the outbound proxy (`settings.proxyUrl`;
 * unset, the environment's). Endpoints compare without their user info or credential-named query values, proxies by
 * origin, so the view of an instance written back names the same places.
 */
const credentialDestinations = (settings: InstanceSettings): Readonly<Record<string, string | undefined>> => ({
  "settings.capabilities.searchKeywords.apiHost": endpointDestination(settings.capabilities?.searchKeywords?.apiHost),
  "settings.capabilities.fetchUrls.apiHost": endpointDestination(settings.capabilities?.fetchUrls?.apiHost),
  "settings.capabilities.research.apiHost": endpointDestination(settings.capabilities?.research?.apiHost),
  "settings.proxyUrl": proxyDestination(settings.proxyUrl)
})

/**
 * The fields whose change sends credentials somewhere else: where `before` and `after` differ in
 * `credentialDestinations`.
 *
 * @since 0.2.0
 * @category utils
 */
export const movedDestinations = (before: InstanceSettings, after: InstanceSettings): ReadonlyArray<string> => {
  const was = credentialDestinations(before)
  const now = credentialDestinations(after)
  return Object.keys(was).filter((field) => was[field] !== now[field])
}

/**
 * Whether an instance holds a credential (an API key or a basic-auth password).
 *
 * @since 0.2.0
 * @category guards
 */
export const hasCredentials = (credentials: InstanceCredentials): boolean =>
  (credentials.apiKeys?.length ?? 0) > 0 || credentials.basicAuthPassword !== undefined

/**
 * The view of an instance: its secrets counted, never shown (nor a proxy URL's user name and password, nor a
 * credential in an endpoint's query).
 *
 * @since 0.2.0
 * @category constructors
 */
export const view = (instance: ProviderInstance): InstanceView => ({
  workspace: instance.workspace,
  id: instance.id,
  type: instance.type,
  ...(instance.name === undefined ? {} : { name: instance.name }),
  settings: shownSettings(instance.settings),
  credentials: {
    apiKeys: instance.credentials.apiKeys?.length ?? 0,
    basicAuthPassword: instance.credentials.basicAuthPassword !== undefined
  },
  revision: instance.revision,
  createdAt: instance.createdAt,
  updatedAt: instance.updatedAt,
  ...(instance.unreadable === undefined ? {} : { unreadable: instance.unreadable })
})

/**
 * The instances a call may name beyond the composed providers and the settings' instances: a workspace's, read
 * from a `ProviderStore` by whoever serves the call (the server, per request). The provider registry looks an id
 * up here first. Empty by default.
 *
 * @since 0.2.0
 * @category services
 */
export class CallInstances extends Context.Reference<CallInstances>()("@websearch/core/CallInstances", {
  defaultValue: (): CallInstances.Service => ({ workspace: defaultWorkspace, instances: [] })
}) {}

/**
 * @since 0.2.0
 * @category models
 */
export declare namespace CallInstances {
  /**
   * A workspace and the instances it holds now.
   *
   * @since 0.2.0
   * @category models
   */
  export interface Service {
    readonly workspace: WorkspaceId
    readonly instances: ReadonlyArray<ProviderInstance>
  }
}

/**
 * Runs an effect with a workspace's instances nameable by its calls.
 *
 * @example
 * ```ts
 * import * as ProviderInstance from "@websearch/core/ProviderInstance"
 * import * as ProviderStore from "@websearch/core/ProviderStore"
 * import * as SearchKeywords from "@websearch/core/SearchKeywords"
 * import * as Effect from "effect/Effect"
 *
 * export const search = Effect.gen(function* () {
 *   const store = yield* ProviderStore.ProviderStore
 *   const instances = yield* store.list("acme")
 *   return yield* SearchKeywords.searchKeywords({ keywords: ["effect"], providerId: "production-bing" }).pipe(
 *     ProviderInstance.withInstances("acme", instances)
 *   )
 * })
 * ```
 *
 * @since 0.2.0
 * @category combinators
 */
export const withInstances: {
  (
    workspace: WorkspaceId,
    instances: ReadonlyArray<ProviderInstance>
  ): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  <A, E, R>(
    self: Effect.Effect<A, E, R>,
    workspace: WorkspaceId,
    instances: ReadonlyArray<ProviderInstance>
  ): Effect.Effect<A, E, R>
} = dual(
  3,
  <A, E, R>(
    self: Effect.Effect<A, E, R>,
    workspace: WorkspaceId,
    instances: ReadonlyArray<ProviderInstance>
  ): Effect.Effect<A, E, R> => Effect.provideService(self, CallInstances, { workspace, instances })
)
