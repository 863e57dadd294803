/**
 * The implementation of the management group: a workspace's provider instances, kept by the `ProviderStore` in
 * context (optional: without one, the instance routes answer 503 naming what to configure), and the catalogue
 * of the composed provider types. A token manages only its own workspace and only as an admin: another
 * workspace's routes answer 404 whatever the token and whatever exists there (so nothing of other workspaces
 * leaks, not even whether they exist); its own workspace's routes answer 403 to a member token.
 *
 * @internal Used by the server only, not part of the public API: it may change in any release.
 *
 * @since 0.2.0
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as ProviderChecks from "@websearch/core/ProviderChecks"
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as ProviderStore from "@websearch/core/ProviderStore"
import * as ProviderStoreRules from "@websearch/core/internal/providerStoreRules"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Caller } from "./authorization.js"
import * as ErrorStatus from "../ErrorStatus.js"
import * as InstanceInput from "./instanceInput.js"
import * as ProviderTypes from "./providerTypes.js"
import * as Payload from "./payload.js"
import * as ServerConfig from "../ServerConfig.js"
import type { Management } from "../ProviderManagementApi.js"
import * as WebSearchApi from "../WebSearchApi.js"

/**
 * What the 503 of a server without a provider store says.
 *
 * @since 0.2.0
 * @category constants
 */
export const noStoreMessage =
  "provider management needs a provider store, and this server has none: set WEBSEARCH_PROVIDER_STORE_KEY (the " +
  "encryption key, base64 of 32 bytes) and optionally WEBSEARCH_PROVIDER_STORE (a SQLite file or a postgres:// " +
  "URL; default a SQLite file in the data directory), or give the server a ProviderStore layer"

const noStore = WebSearchError.unavailable("store_unavailable", noStoreMessage)

// The same answer whether or not the other workspace exists.
const otherWorkspace = (workspace: string) =>
  WebSearchError.requestFailed(
    "not_found",
    `no workspace "${workspace.slice(0, 64)}" for this token: a token manages only its own workspace`
  )

/**
 * The view of an instance as the API answers it: core's view (keys counted, never shown; a proxy shown as its
 * origin, without its credentials; a credential-named query parameter in an endpoint replaced by a placeholder).
 *
 * @since 0.2.0
 * @category constructors
 */
export const viewOf: (instance: ProviderInstance.ProviderInstance) => ProviderInstance.InstanceView =
  ProviderInstance.view

const full = (workspace: ProviderInstance.WorkspaceId) =>
  WebSearchError.requestFailed(
    "conflict",
    `workspace "${workspace}" has as many provider instances as the server allows (maxInstancesPerWorkspace); ` +
      "remove one first"
  )

// The decoders of the body endpoints' declared payloads (core's, in the library's words).
const payloads: {
  readonly [Name in "createInstance" | "updateInstance" | "setCredentials"]: Payload.Of<
    HttpApiEndpoint.HttpApiEndpoint.WithName<HttpApiGroup.HttpApiGroup.Endpoints<typeof Management>, Name>
  >
} = {
  createInstance: ProviderStoreRules.decodeCreateInstance,
  updateInstance: ProviderStoreRules.decodeUpdateInstance,
  setCredentials: ProviderStoreRules.decodeCredentials
}

/**
 * The management group.
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = HttpApiBuilder.group(WebSearchApi.WebSearchApi, "management", (handlers) =>
  Effect.gen(function* () {
    const config = yield* ServerConfig.ServerConfig
    const registry = yield* ProviderRegistry.ProviderRegistry
    const checks = yield* ProviderChecks.ProviderChecks
    const store = yield* Effect.serviceOption(ProviderStore.ProviderStore)
    // The workspace's store, for an admin token of that workspace; the checks' order is what keeps other
    // workspaces unseen (404 before anything else is looked at).
    const access = Effect.fnUntraced(function* (workspace: string) {
      const caller = yield* Caller
      if (!InstanceInput.isWorkspace(workspace) || caller.workspace !== workspace) {
        return yield* Effect.fail(otherWorkspace(workspace))
      }
      if (!caller.admin) {
        return yield* Effect.fail(
          new ErrorStatus.Forbidden({
            message: `managing workspace "${workspace}"'s provider instances needs an admin token of it`
          })
        )
      }
      if (Option.isNone(store)) return yield* Effect.fail(noStore)
      return { store: store.value, workspace }
    })
    const instance = (workspace: string, id: string) =>
      Effect.flatMap(access(workspace), (scope) =>
        InstanceInput.isInstanceId(id)
          ? Effect.succeed({ ...scope, id: id as ProviderInstance.InstanceId })
          : Effect.fail(ProviderStoreRules.notFound(scope.workspace, id.slice(0, 64)))
      )
    const existing = (
      store: ProviderStore.ProviderStore.Service,
      workspace: ProviderInstance.WorkspaceId,
      id: ProviderInstance.InstanceId
    ) =>
      Effect.flatMap(store.get(workspace, id), (found) =>
        Option.match(found, {
          onNone: () => Effect.fail(ProviderStoreRules.notFound(workspace, id)),
          onSome: Effect.succeed
        })
      )
    const payload = <A>(request: HttpServerRequest.HttpServerRequest, decode: Payload.Decoder<A>) =>
      Payload.read(request, config.maxBodyBytes, undefined, decode)
    const span =
      (name: string) =>
      <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.withSpan(effect, `websearch.server.${name}`, { captureStackTrace: false })
    return handlers
      .handle("providerTypes", () => Effect.sync(() => registry.types()))
      .handle("listInstances", ({ path }) =>
        access(path.workspace).pipe(
          Effect.flatMap(({ store, workspace }) => store.list(workspace)),
          Effect.map((instances) => instances.map(viewOf)),
          span("providers.list")
        )
      )
      .handleRaw("createInstance", ({ path, request }) =>
        access(path.workspace).pipe(
          Effect.flatMap(({ store, workspace }) =>
            payload(request, payloads.createInstance).pipe(
              Effect.tap((input) =>
                Effect.flatMap(ProviderStoreRules.newInstance(workspace, input), (instance) =>
                  ProviderTypes.check(registry, instance)
                )
              ),
              // Counted before the create (without reading any instance): concurrent creates can pass the count
              // together, so the cap can be crossed by at most the requests in flight (each of them rate-limited),
              // never without bound.
              Effect.tap(() =>
                Effect.flatMap(store.count(workspace), (count) =>
                  count < config.maxInstancesPerWorkspace ? Effect.void : Effect.fail(full(workspace))
                )
              ),
              Effect.flatMap((input) => store.create(workspace, input))
            )
          ),
          Effect.map(viewOf),
          span("providers.create")
        )
      )
      .handle("readInstance", ({ path }) =>
        instance(path.workspace, path.id).pipe(
          Effect.flatMap(({ id, store, workspace }) => existing(store, workspace, id)),
          Effect.map(viewOf),
          span("providers.read")
        )
      )
      .handleRaw(
        "updateInstance",
        Effect.fn("websearch.server.providers.update", { captureStackTrace: false })(function* ({ path, request }) {
          const { id, store, workspace } = yield* instance(path.workspace, path.id)
          const input = yield* payload(request, payloads.updateInstance)
          const current = yield* existing(store, workspace, id)
          // Settings that send the keys elsewhere need the keys again (the store judges it too, atomically).
          yield* ProviderStoreRules.checkUpdate(current, input)
          const { unreadable: _unreadable, ...readable } = current
          yield* ProviderTypes.check(registry, {
            ...(input.settings === undefined ? current : readable),
            ...(input.name === undefined ? {} : { name: input.name }),
            ...(input.settings === undefined ? {} : { settings: input.settings }),
            ...(input.credentials === undefined ? {} : { credentials: input.credentials })
          })
          return viewOf(yield* store.update(workspace, id, input))
        })
      )
      .handle("deleteInstance", ({ path }) =>
        instance(path.workspace, path.id).pipe(
          Effect.flatMap(({ id, store, workspace }) => store.remove(workspace, id)),
          span("providers.delete")
        )
      )
      .handleRaw(
        "setCredentials",
        Effect.fn("websearch.server.providers.credentials", { captureStackTrace: false })(function* ({
          path,
          request
        }) {
          const { id, store, workspace } = yield* instance(path.workspace, path.id)
          const credentials = yield* payload(request, payloads.setCredentials)
          const current = yield* existing(store, workspace, id)
          // An instance the store could not read is written again whole (PATCH with settings and credentials).
          yield* ProviderStoreRules.checkUpdate(current, { credentials })
          // A password without a user name (or the reverse) is refused here, not at the next search.
          yield* ProviderTypes.check(registry, { ...current, credentials })
          return viewOf(yield* store.setCredentials(workspace, id, credentials))
        })
      )
      .handle(
        "testInstance",
        Effect.fn("websearch.server.providers.test", { captureStackTrace: false })(function* ({ path }) {
          const { id, store, workspace } = yield* instance(path.workspace, path.id)
          // Read now, not from a cache: a test right after a change tests the change.
          const instances = yield* store.list(workspace)
          if (!instances.some((candidate) => candidate.id === id)) {
            return yield* Effect.fail(ProviderStoreRules.notFound(workspace, id))
          }
          return yield* checks.check(id).pipe(ProviderInstance.withInstances(workspace, instances))
        })
      )
  })
)
