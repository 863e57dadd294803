/**
 * Where provider instances are kept, per workspace: a service with list, get, create, update, remove and a
 * write-only credentials setter. `@websearch/node`'s SQL stores (SQLite by default, PostgreSQL when configured)
 * keep them in a database with secrets encrypted at rest; `memory` keeps them in this process, for tests and
 * single-process embedding. A change is seen by the next call that reads the store; `revision` tells a reader
 * cheaply whether anything in a workspace changed since it last looked.
 *
 * @since 0.2.0
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as ParseIssues from "./internal/parseIssues.js"
import * as ProviderId from "./ProviderId.js"
import {
  hasCredentials,
  InstanceCredentials,
  InstanceId,
  InstanceSettings,
  movedDestinations,
  type ProviderInstance,
  type WorkspaceId
} from "./ProviderInstance.js"
import * as WebSearchError from "./WebSearchError.js"

/**
 * What creates an instance.
 *
 * @since 0.2.0
 * @category schemas
 */
export const CreateInstance = Schema.Struct({
  id: InstanceId,
  type: ProviderId.ProviderId,
  name: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
  settings: Schema.optionalWith(InstanceSettings, { default: () => ({}) }),
  credentials: Schema.optionalWith(InstanceCredentials, { default: () => ({}) })
}).annotations({ identifier: "CreateInstance" })

/**
 * @since 0.2.0
 * @category models
 */
export type CreateInstance = typeof CreateInstance.Type

/**
 * What changes an instance: a new name and settings (replacing the old ones whole), optionally only if the
 * instance is still at `revision` (else `RequestFailed/conflict`). Credentials change through `setCredentials`, or
 * here (`credentials`, replacing them whole in the same change): settings that send the credentials somewhere else
 * (an endpoint, the proxy) must come with them (see `checkUpdate`).
 *
 * @since 0.2.0
 * @category schemas
 */
export const UpdateInstance = Schema.Struct({
  name: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
  settings: Schema.optional(InstanceSettings),
  credentials: Schema.optional(InstanceCredentials),
  revision: Schema.optional(Schema.Int.pipe(Schema.positive()))
}).annotations({ identifier: "UpdateInstance" })

/**
 * @since 0.2.0
 * @category models
 */
export type UpdateInstance = typeof UpdateInstance.Type

/**
 * The provider store.
 *
 * @since 0.2.0
 * @category services
 */
export class ProviderStore extends Context.Tag("@websearch/core/ProviderStore")<
  ProviderStore,
  ProviderStore.Service
>() {}

/**
 * @since 0.2.0
 * @category models
 */
export declare namespace ProviderStore {
  /**
   * A store's operations. A store that cannot be reached fails `Unavailable/store_unavailable`; an instance that
   * is not there fails `RequestFailed/not_found`; one created twice, or updated at a stale revision, fails
   * `RequestFailed/conflict`. Errors never carry a credential.
   *
   * @since 0.2.0
   * @category models
   */
  export interface Service {
    /**
     * The workspace's instances, by id. One the store holds but cannot read (a key it was not given) is listed with
     * `unreadable` saying why, so only the calls naming it fail.
     */
    readonly list: (workspace: WorkspaceId) => Effect.Effect<ReadonlyArray<ProviderInstance>, StoreError>
    /**
     * How many instances the workspace holds, unreadable ones included, without reading (or decrypting) any.
     *
     * @since 0.2.0
     */
    readonly count: (workspace: WorkspaceId) => Effect.Effect<number, StoreError>
    readonly get: (workspace: WorkspaceId, id: InstanceId) => Effect.Effect<Option.Option<ProviderInstance>, StoreError>
    readonly create: (workspace: WorkspaceId, input: CreateInstance) => Effect.Effect<ProviderInstance, StoreError>
    /**
     * Changes an instance. New settings that send its credentials somewhere else must come with credentials (see
     * `checkUpdate`, judged against the instance at the revision the store changes), else
     * `RequestFailed/invalid_input`.
     */
    readonly update: (
      workspace: WorkspaceId,
      id: InstanceId,
      input: UpdateInstance
    ) => Effect.Effect<ProviderInstance, StoreError>
    /** Removes an instance; `RequestFailed/not_found` when there was none. */
    readonly remove: (workspace: WorkspaceId, id: InstanceId) => Effect.Effect<void, StoreError>
    /** Replaces an instance's credentials whole (an empty object clears them). */
    readonly setCredentials: (
      workspace: WorkspaceId,
      id: InstanceId,
      credentials: InstanceCredentials
    ) => Effect.Effect<ProviderInstance, StoreError>
    /**
     * A number that changes whenever anything in the workspace changes (across replicas, for a shared database):
     * a reader that cached the workspace's instances compares it before reusing them.
     */
    readonly revision: (workspace: WorkspaceId) => Effect.Effect<number, StoreError>
  }
}

/**
 * The errors a store gives.
 *
 * @since 0.2.0
 * @category errors
 */
export type StoreError = WebSearchError.Unavailable | WebSearchError.RequestFailed

/**
 * The `RequestFailed/not_found` error for an instance a workspace does not have.
 *
 * @since 0.2.0
 * @category errors
 */
export const notFound = (workspace: WorkspaceId, id: InstanceId): WebSearchError.RequestFailed =>
  WebSearchError.requestFailed("not_found", `workspace "${workspace}" has no provider instance "${id}"`)

/**
 * The `RequestFailed/conflict` error for an instance that exists already.
 *
 * @since 0.2.0
 * @category errors
 */
export const exists = (workspace: WorkspaceId, id: InstanceId): WebSearchError.RequestFailed =>
  WebSearchError.requestFailed("conflict", `workspace "${workspace}" already has a provider instance "${id}"`)

/**
 * The `RequestFailed/conflict` error for an update at a revision that is no longer the instance's.
 *
 * @since 0.2.0
 * @category errors
 */
export const staleRevision = (id: InstanceId, given: number, current: number): WebSearchError.RequestFailed =>
  WebSearchError.requestFailed(
    "conflict",
    `provider instance "${id}" is at revision ${current}, not ${given}: read it again and retry`
  )

/**
 * Refuses an update that would send an instance's credentials somewhere else without saying so: when new settings
 * move an endpoint or the proxy (`ProviderInstance.movedDestinations`) of an instance that holds credentials, the
 * update must give the credentials again (`credentials`: the ones for the new place, or `{}` for none), or a key
 * meant for one host would go to another. An instance the store could not read (`unreadable`) takes new settings
 * only with new credentials and the reverse, which write it whole again. `RequestFailed/invalid_input` naming the
 * fields. Stores check this against the instance they change, at the revision they change it.
 *
 * @since 0.2.0
 * @category guards
 */
export const checkUpdate = (
  current: ProviderInstance,
  input: UpdateInstance
): Either.Either<void, WebSearchError.RequestFailed> => {
  if (current.unreadable !== undefined) {
    // A new name alone leaves the sealed fields as they are.
    return (input.settings === undefined) === (input.credentials === undefined)
      ? Either.void
      : Either.left(
          WebSearchError.requestFailed(
            "invalid_input",
            `provider instance "${current.id}" could not be read (${current.unreadable}): give both settings and ` +
              "credentials to write it again, or remove it",
            { retryable: false }
          )
        )
  }
  if (input.settings === undefined || input.credentials !== undefined || !hasCredentials(current.credentials)) {
    return Either.void
  }
  const moved = movedDestinations(current.settings, input.settings)
  return moved.length === 0
    ? Either.void
    : Either.left(
        WebSearchError.requestFailed(
          "invalid_input",
          `${moved.join(", ")}: the change sends provider instance "${current.id}"'s credentials somewhere else; ` +
            'give them again in the same request ("credentials": the keys for the new place, or {} for none)',
          { retryable: false }
        )
      )
}

/**
 * The instance a create stores: revision 1, created and updated now. For stores, and for a caller that judges an
 * instance (`ProviderRegistry.checkInstance`) before creating it.
 *
 * @since 0.2.0
 * @category constructors
 */
export const newInstance = (
  workspace: WorkspaceId,
  input: Pick<CreateInstance, "id" | "type" | "name" | "settings" | "credentials">
): Effect.Effect<ProviderInstance> =>
  Effect.map(Clock.currentTimeMillis, (millis) => {
    const at = DateTime.unsafeMake(millis)
    return {
      workspace,
      id: input.id,
      type: input.type,
      ...(input.name === undefined ? {} : { name: input.name }),
      settings: input.settings,
      credentials: input.credentials,
      revision: 1,
      createdAt: at,
      updatedAt: at
    }
  })

/**
 * A store in this process's memory: for tests and for an application that manages instances itself. Nothing
 * survives the process.
 *
 * @since 0.2.0
 * @category constructors
 */
export const memory: Effect.Effect<ProviderStore.Service> = Effect.sync(() => {
  const workspaces = new Map<WorkspaceId, Map<InstanceId, ProviderInstance>>()
  const revisions = new Map<WorkspaceId, number>()
  const of = (workspace: WorkspaceId): Map<InstanceId, ProviderInstance> => {
    let found = workspaces.get(workspace)
    if (found === undefined) {
      found = new Map()
      workspaces.set(workspace, found)
    }
    return found
  }
  const bump = (workspace: WorkspaceId) => revisions.set(workspace, (revisions.get(workspace) ?? 0) + 1)
  const now = Effect.map(Clock.currentTimeMillis, (millis) => DateTime.unsafeMake(millis))
  const change = Effect.fnUntraced(function* (
    workspace: WorkspaceId,
    id: InstanceId,
    patch: (instance: ProviderInstance) => Effect.Effect<Partial<ProviderInstance>, StoreError>
  ) {
    const instance = of(workspace).get(id)
    if (instance === undefined) return yield* Effect.fail(notFound(workspace, id))
    const changed = yield* patch(instance)
    const next: ProviderInstance = { ...instance, ...changed, revision: instance.revision + 1, updatedAt: yield* now }
    of(workspace).set(id, next)
    bump(workspace)
    return next
  })
  return {
    // Reads never make a workspace's map: asking about any number of workspaces keeps memory where it was.
    list: (workspace) =>
      Effect.sync(() =>
        Array.from(workspaces.get(workspace)?.values() ?? []).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      ),
    count: (workspace) => Effect.sync(() => workspaces.get(workspace)?.size ?? 0),
    get: (workspace, id) => Effect.sync(() => Option.fromNullable(workspaces.get(workspace)?.get(id))),
    create: (workspace, input) =>
      Effect.gen(function* () {
        yield* checkSize(input)
        if (of(workspace).has(input.id)) return yield* Effect.fail(exists(workspace, input.id))
        const instance = yield* newInstance(workspace, input)
        of(workspace).set(input.id, instance)
        bump(workspace)
        return instance
      }),
    update: (workspace, id, input) =>
      change(workspace, id, (instance) =>
        input.revision !== undefined && input.revision !== instance.revision
          ? Effect.fail(staleRevision(id, input.revision, instance.revision))
          : Either.match(
              Either.flatMap(checkSize(input), () => checkUpdate(instance, input)),
              {
                onLeft: Effect.fail,
                onRight: () =>
                  Effect.succeed({
                    ...(input.name === undefined ? {} : { name: input.name }),
                    ...(input.settings === undefined ? {} : { settings: input.settings }),
                    ...(input.credentials === undefined ? {} : { credentials: input.credentials })
                  })
              }
            )
      ),
    remove: (workspace, id) =>
      Effect.suspend(() => {
        if (!of(workspace).delete(id)) return Effect.fail(notFound(workspace, id))
        bump(workspace)
        return Effect.void
      }),
    setCredentials: (workspace, id, credentials) =>
      change(workspace, id, () => Effect.as(checkSize({ credentials }), { credentials })),
    revision: (workspace) => Effect.sync(() => revisions.get(workspace) ?? 0)
  }
})

/**
 * The in-memory store as a Layer.
 *
 * @since 0.2.0
 * @category layers
 */
export const layerMemory: Layer.Layer<ProviderStore> = Layer.effect(ProviderStore, memory)

/**
 * The most bytes of JSON one instance's settings, and its credentials, may take: 16 KiB each, room for every
 * endpoint, engine list and option a provider has, and for 64 long keys. Every call of a workspace reads its
 * instances, so an instance's size is a cost to every request, not only to its own.
 *
 * @since 0.2.0
 * @category constants
 */
export const maxFieldBytes = 16 * 1024

const jsonBytes = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).length

// The credentials as they are stored: the secrets themselves (a Redacted writes itself as a placeholder).
const plainCredentials = (credentials: InstanceCredentials) => ({
  apiKeys: credentials.apiKeys?.map(Redacted.value),
  basicAuthPassword:
    credentials.basicAuthPassword === undefined ? undefined : Redacted.value(credentials.basicAuthPassword)
})

/**
 * Refuses an instance's settings or credentials over `maxFieldBytes` of JSON, naming the field, its size and the
 * bound (`RequestFailed/invalid_input`, never quoting the value). The decoders check it, and so do the stores.
 *
 * @since 0.2.0
 * @category guards
 */
export const checkSize = (input: {
  readonly settings?: InstanceSettings | undefined
  readonly credentials?: InstanceCredentials | undefined
}): Either.Either<void, WebSearchError.RequestFailed> => {
  for (const field of ["settings", "credentials"] as const) {
    if (input[field] === undefined) continue
    const bytes = jsonBytes(
      input.credentials !== undefined && field === "credentials" ? plainCredentials(input.credentials) : input[field]
    )
    if (bytes > maxFieldBytes) {
      return Either.left(
        WebSearchError.requestFailed(
          "invalid_input",
          `${field}: ${bytes} bytes of JSON; an instance's ${field} may take at most ${maxFieldBytes}`,
          { retryable: false }
        )
      )
    }
  }
  return Either.void
}

const decoder = <A, I>(
  schema: Schema.Schema<A, I>,
  what: string,
  fields: (decoded: A) => Parameters<typeof checkSize>[0]
) => {
  const decode = Schema.decodeUnknownEither(schema, { onExcessProperty: "error", errors: "all" })
  return (input: unknown): Effect.Effect<A, WebSearchError.RequestFailed> =>
    typeof input !== "object" || input === null || Array.isArray(input)
      ? Effect.fail(WebSearchError.requestFailed("invalid_input", `invalid ${what}: not a JSON object`))
      : Either.match(decode(input), {
          onLeft: (error) =>
            Effect.fail(
              WebSearchError.requestFailed(
                "invalid_input",
                `invalid ${what}: ${ParseIssues.formatRequest(error, what)}`
              )
            ),
          onRight: (decoded) =>
            Either.match(checkSize(fields(decoded)), {
              onLeft: (error) =>
                Effect.fail(WebSearchError.annotate(error, { message: `invalid ${what}: ${error.message}` }, false)),
              onRight: () => Effect.succeed(decoded)
            })
        })
}

/**
 * Decodes a `CreateInstance` from what a caller sent (a JSON body, a CLI's flags), failing with
 * `RequestFailed/invalid_input` naming every field at fault (unknown fields too), never quoting a key.
 *
 * @since 0.2.0
 * @category encoding
 */
export const decodeCreateInstance: (input: unknown) => Effect.Effect<CreateInstance, WebSearchError.RequestFailed> =
  decoder(CreateInstance, "provider instance", (input) => input)

/**
 * Decodes an `UpdateInstance` like `decodeCreateInstance`.
 *
 * @since 0.2.0
 * @category encoding
 */
export const decodeUpdateInstance: (input: unknown) => Effect.Effect<UpdateInstance, WebSearchError.RequestFailed> =
  decoder(UpdateInstance, "provider instance update", (input) => input)

/**
 * Decodes `InstanceCredentials` like `decodeCreateInstance`.
 *
 * @since 0.2.0
 * @category encoding
 */
export const decodeCredentials: (input: unknown) => Effect.Effect<InstanceCredentials, WebSearchError.RequestFailed> =
  decoder(InstanceCredentials, "credentials", (credentials) => ({ credentials }))
