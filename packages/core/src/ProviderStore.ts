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
import * as Rules from "./internal/providerStoreRules.js"
import type { InstanceCredentials, InstanceId, ProviderInstance, WorkspaceId } from "./ProviderInstance.js"
import type * as WebSearchError from "./WebSearchError.js"

/**
 * What creates an instance.
 *
 * @since 0.2.0
 * @category schemas
 */
export const CreateInstance = Rules.CreateInstance

/**
 * @since 0.2.0
 * @category models
 */
export type CreateInstance = Rules.CreateInstance

/**
 * What changes an instance: a new name and settings (replacing the old ones whole), optionally only if the
 * instance is still at `revision` (else `RequestFailed/conflict`). Credentials change through `setCredentials`, or
 * here (`credentials`, replacing them whole in the same change): settings that send the credentials somewhere else
 * (an endpoint, the proxy) must come with them.
 *
 * @since 0.2.0
 * @category schemas
 */
export const UpdateInstance = Rules.UpdateInstance

/**
 * @since 0.2.0
 * @category models
 */
export type UpdateInstance = Rules.UpdateInstance

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
     * Changes an instance. New settings that send its credentials somewhere else must come with credentials (judged
     * against the instance at the revision the store changes), else `RequestFailed/invalid_input`.
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
    if (instance === undefined) return yield* Effect.fail(Rules.notFound(workspace, id))
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
        yield* Rules.checkSize(input)
        if (of(workspace).has(input.id)) return yield* Effect.fail(Rules.exists(workspace, input.id))
        const instance = yield* Rules.newInstance(workspace, input)
        of(workspace).set(input.id, instance)
        bump(workspace)
        return instance
      }),
    update: (workspace, id, input) =>
      change(workspace, id, (instance) =>
        input.revision !== undefined && input.revision !== instance.revision
          ? Effect.fail(Rules.staleRevision(id, input.revision, instance.revision))
          : Either.match(
              Either.flatMap(Rules.checkSize(input), () => Rules.checkUpdate(instance, input)),
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
        if (!of(workspace).delete(id)) return Effect.fail(Rules.notFound(workspace, id))
        bump(workspace)
        return Effect.void
      }),
    setCredentials: (workspace, id, credentials) =>
      change(workspace, id, () => Effect.as(Rules.checkSize({ credentials }), { credentials })),
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
