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
import * as Schema from "effect/Schema"
import * as ParseIssues from "./internal/parseIssues.js"
import * as ProviderId from "./ProviderId.js"
import {
  InstanceCredentials,
  InstanceId,
  InstanceSettings,
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
 * instance is still at `revision` (else `RequestFailed/conflict`). Credentials change through `setCredentials`.
 *
 * @since 0.2.0
 * @category schemas
 */
export const UpdateInstance = Schema.Struct({
  name: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
  settings: Schema.optional(InstanceSettings),
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
    /** The workspace's instances, by id. */
    readonly list: (workspace: WorkspaceId) => Effect.Effect<ReadonlyArray<ProviderInstance>, StoreError>
    readonly get: (workspace: WorkspaceId, id: InstanceId) => Effect.Effect<Option.Option<ProviderInstance>, StoreError>
    readonly create: (workspace: WorkspaceId, input: CreateInstance) => Effect.Effect<ProviderInstance, StoreError>
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
  const change = (
    workspace: WorkspaceId,
    id: InstanceId,
    patch: (instance: ProviderInstance) => Effect.Effect<Partial<ProviderInstance>, StoreError>
  ) =>
    Effect.gen(function* () {
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
    get: (workspace, id) => Effect.sync(() => Option.fromNullable(workspaces.get(workspace)?.get(id))),
    create: (workspace, input) =>
      Effect.gen(function* () {
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
          : Effect.succeed({
              ...(input.name === undefined ? {} : { name: input.name }),
              ...(input.settings === undefined ? {} : { settings: input.settings })
            })
      ),
    remove: (workspace, id) =>
      Effect.suspend(() => {
        if (!of(workspace).delete(id)) return Effect.fail(notFound(workspace, id))
        bump(workspace)
        return Effect.void
      }),
    setCredentials: (workspace, id, credentials) => change(workspace, id, () => Effect.succeed({ credentials })),
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

const decoder = <A, I>(schema: Schema.Schema<A, I>, what: string) => {
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
          onRight: Effect.succeed
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
  decoder(CreateInstance, "provider instance")

/**
 * Decodes an `UpdateInstance` like `decodeCreateInstance`.
 *
 * @since 0.2.0
 * @category encoding
 */
export const decodeUpdateInstance: (input: unknown) => Effect.Effect<UpdateInstance, WebSearchError.RequestFailed> =
  decoder(UpdateInstance, "provider instance update")

/**
 * Decodes `InstanceCredentials` like `decodeCreateInstance`.
 *
 * @since 0.2.0
 * @category encoding
 */
export const decodeCredentials: (input: unknown) => Effect.Effect<InstanceCredentials, WebSearchError.RequestFailed> =
  decoder(InstanceCredentials, "credentials")
