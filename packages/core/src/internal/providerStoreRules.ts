/**
 * The rules every provider store applies, whatever holds the instances (memory, PostgreSQL): the create and update
 * schemas and their decoders, the size limit, the update check that keeps credentials from following a moved
 * endpoint, and the errors a store fails with. The memory store and `@websearch/node/ProviderStoreSql` share them,
 * so both refuse the same inputs with the same words.
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 *
 * @since 0.2.0
 */
import * as Clock from "effect/Clock"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as ProviderId from "../ProviderId.js"
import {
  hasCredentials,
  InstanceCredentials,
  InstanceId,
  InstanceSettings,
  movedDestinations,
  type ProviderInstance,
  type WorkspaceId
} from "../ProviderInstance.js"
import * as WebSearchError from "../WebSearchError.js"
import * as ParseIssues from "./parseIssues.js"

/** What creates an instance (`ProviderStore.CreateInstance`). */
export const CreateInstance = Schema.Struct({
  id: InstanceId,
  type: ProviderId.ProviderId,
  name: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
  settings: Schema.optionalWith(InstanceSettings, { default: () => ({}) }),
  credentials: Schema.optionalWith(InstanceCredentials, { default: () => ({}) })
}).annotations({ identifier: "CreateInstance" })

/** @see ProviderStore.CreateInstance */
export type CreateInstance = typeof CreateInstance.Type

/** What changes an instance (`ProviderStore.UpdateInstance`). */
export const UpdateInstance = Schema.Struct({
  name: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
  settings: Schema.optional(InstanceSettings),
  credentials: Schema.optional(InstanceCredentials),
  revision: Schema.optional(Schema.Int.pipe(Schema.positive()))
}).annotations({ identifier: "UpdateInstance" })

/** @see ProviderStore.UpdateInstance */
export type UpdateInstance = typeof UpdateInstance.Type

/**
 * The `RequestFailed/not_found` error for an instance a workspace does not have.
 */
export const notFound = (workspace: WorkspaceId, id: InstanceId): WebSearchError.RequestFailed =>
  WebSearchError.requestFailed("not_found", `workspace "${workspace}" has no provider instance "${id}"`)

/**
 * The `RequestFailed/conflict` error for an instance that exists already.
 */
export const exists = (workspace: WorkspaceId, id: InstanceId): WebSearchError.RequestFailed =>
  WebSearchError.requestFailed("conflict", `workspace "${workspace}" already has a provider instance "${id}"`)

/**
 * The `RequestFailed/conflict` error for an update at a revision that is no longer the instance's.
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
 * The most bytes of JSON one instance's settings, and its credentials, may take: 16 KiB each, room for every
 * endpoint, engine list and option a provider has, and for 64 long keys. Every call of a workspace reads its
 * instances, so an instance's size is a cost to every request, not only to its own.
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
 */
export const decodeCreateInstance: (input: unknown) => Effect.Effect<CreateInstance, WebSearchError.RequestFailed> =
  decoder(CreateInstance, "provider instance", (input) => input)

/**
 * Decodes an `UpdateInstance` like `decodeCreateInstance`.
 */
export const decodeUpdateInstance: (input: unknown) => Effect.Effect<UpdateInstance, WebSearchError.RequestFailed> =
  decoder(UpdateInstance, "provider instance update", (input) => input)

/**
 * Decodes `InstanceCredentials` like `decodeCreateInstance`.
 */
export const decodeCredentials: (input: unknown) => Effect.Effect<InstanceCredentials, WebSearchError.RequestFailed> =
  decoder(InstanceCredentials, "credentials", (credentials) => ({ credentials }))
