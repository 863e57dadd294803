/**
 * A workspace's provider instances for the requests of its tokens, read from the `ProviderStore` and kept per
 * workspace until the store's revision of the workspace changes. A request costs one `revision` call; the list
 * is read again only after a change (by this server or another replica of a shared database), so a key set
 * through the API is used by the very next search.
 */
import type * as ProviderInstance from "@websearch/core/ProviderInstance"
import type * as ProviderStore from "@websearch/core/ProviderStore"
import * as Effect from "effect/Effect"

interface Entry {
  readonly revision: number
  readonly instances: ReadonlyArray<ProviderInstance.ProviderInstance>
}

/** The instances of a workspace now, cached by the workspace's revision. */
export type Current = (
  workspace: ProviderInstance.WorkspaceId
) => Effect.Effect<ReadonlyArray<ProviderInstance.ProviderInstance>, ProviderStore.StoreError>

/**
 * The cache of one server. It holds one entry per workspace a token of this server belongs to, so its size is
 * bounded by the configured tokens.
 */
export const make = (store: ProviderStore.ProviderStore.Service): Current => {
  const cache = new Map<ProviderInstance.WorkspaceId, Entry>()
  return (workspace) =>
    Effect.flatMap(store.revision(workspace), (revision) => {
      const cached = cache.get(workspace)
      if (cached !== undefined && cached.revision === revision) return Effect.succeed(cached.instances)
      // The revision is read before the list: a change between the two (or a slower request storing an older
      // pair last) leaves an entry whose revision is not the store's, which the next request reads again; an
      // entry never claims a revision newer than its instances.
      return Effect.tap(store.list(workspace), (instances) => {
        cache.set(workspace, { revision, instances })
      })
    })
}
