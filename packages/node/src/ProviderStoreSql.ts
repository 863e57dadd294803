/**
 * The provider store (`@websearch/core/ProviderStore`) in a SQL database: a SQLite file by default (embedded,
 * nothing to run), or a PostgreSQL server that several replicas share. The schema is created on first start
 * and migrated in numbered steps (`websearch_provider_migrations`). Settings and credentials are encrypted at
 * rest with AES-256-GCM under a key from configuration, each value bound to its workspace, instance and field;
 * a value is decrypted only to be handed to the provider that uses it, never returned by an API, a log or an
 * error. Every change bumps a per-workspace counter in the same transaction, so `revision(workspace)` sees other
 * replicas' changes, and updates at a revision are race-free.
 *
 * Rotating the key: start every replica with the new key in `WEBSEARCH_PROVIDER_STORE_KEY` and the old one in
 * `WEBSEARCH_PROVIDER_STORE_PREVIOUS_KEYS` (rows under either key are read; new values are written under the
 * new one), run `rotateKey` once (`websearch providers rotate-key`), then drop the previous key.
 *
 * @since 0.2.0
 */
import * as ConfigText from "@websearch/core/internal/configText"
import * as ProviderStore from "@websearch/core/ProviderStore"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { homedir } from "node:os"
import { join } from "node:path"
import * as Migrations from "./internal/providerStoreMigrations.js"
import * as StoreKeys from "./internal/providerStoreKeys.js"
import type * as StoreRows from "./internal/providerStoreRows.js"
import * as Store from "./internal/providerStoreSql.js"
import * as SecretBox from "./internal/secretBox.js"
import * as SqlDatabase from "./internal/sqlDatabase.js"

/**
 * Where the store is and how it encrypts.
 *
 * @since 0.2.0
 * @category models
 */
export interface Options {
  /**
   * A SQLite file path or `file:` URL (created with its directory when missing), or a `postgres://` /
   * `postgresql://` URL (a secret when it carries a password).
   */
  readonly url: string | Redacted.Redacted<string>
  /** The encryption key: the base64 of exactly 32 random bytes (`generateKey()`, `openssl rand -base64 32`). */
  readonly encryptionKey: Redacted.Redacted<string>
  /** Keys that values may still be encrypted under (read, never written), while a rotation is under way. */
  readonly previousKeys?: ReadonlyArray<Redacted.Redacted<string>> | undefined
  /**
   * The longest a store operation may take (connecting included) before it fails
   * `Unavailable/store_unavailable`, so a database that hangs never holds a request. Default 5 seconds.
   */
  readonly timeout?: Duration.DurationInput | undefined
}

/**
 * The environment variable naming the store: a SQLite file path or a `postgres://` URL.
 *
 * @since 0.2.0
 * @category constants
 */
export const urlVariable = "WEBSEARCH_PROVIDER_STORE"

/**
 * The environment variable holding the encryption key.
 *
 * @since 0.2.0
 * @category constants
 */
export const keyVariable = "WEBSEARCH_PROVIDER_STORE_KEY"

/**
 * The environment variable holding previous encryption keys, comma-separated.
 */
const previousKeysVariable = "WEBSEARCH_PROVIDER_STORE_PREVIOUS_KEYS"

/** The names options are given under in messages. */
interface Names {
  readonly url: string
  readonly key: string
  readonly previousKeys: string
}

const optionNames: Names = { url: "url", key: "encryptionKey", previousKeys: "previousKeys" }
const variableNames: Names = { url: urlVariable, key: keyVariable, previousKeys: previousKeysVariable }

interface Opened {
  readonly context: StoreRows.Context
  readonly names: Names
}

const prepare = (options: Options, names: Names): Either.Either<Opened, WebSearchError.Unavailable> =>
  Either.gen(function* () {
    const target = yield* SqlDatabase.parse(
      names.url,
      Redacted.isRedacted(options.url) ? options.url : Redacted.make(options.url)
    )
    const current = yield* SecretBox.parseKey(names.key, options.encryptionKey)
    const previous = yield* Either.all(
      (options.previousKeys ?? []).map((key, index) =>
        SecretBox.parseKey(`${names.previousKeys} (item ${index + 1})`, key)
      )
    )
    const timeout = Duration.decode(options.timeout ?? "5 seconds")
    return { context: { target, timeout, keys: SecretBox.keyring(current, previous) }, names }
  })

// Creates or migrates the schema, then checks the keys against the values stored (`checkKeys`). Two replicas
// starting together on an empty PostgreSQL may race to create the migrations table; the loser tries once more and
// finds the schema in place.
const migrate = ({ context, names }: Opened) =>
  SqlDatabase.bounded(
    context.target,
    context.timeout,
    Effect.gen(function* () {
      yield* SqlDatabase.configure(context.target, context.timeout)
      yield* Effect.retry(Migrations.migrate, { times: 1 }).pipe(
        Effect.catchTag("MigrationError", (error) =>
          Effect.fail(
            WebSearchError.unavailable(
              "store_unavailable",
              `the provider store at ${context.target.display} could not be migrated: ${error.message}`
            )
          )
        )
      )
      yield* SqlDatabase.configure(context.target, context.timeout)
      const found = yield* Migrations.recorded
      if (found > Migrations.latest) {
        return yield* Effect.fail(
          WebSearchError.unavailable(
            "store_unavailable",
            `the provider store at ${context.target.display} has schema ${found}, newer than this version of ` +
              `websearch knows (${Migrations.latest}): upgrade websearch`
          )
        )
      }
      yield* StoreKeys.checkKeys(context, names)
    })
  )

const connect = Effect.fnUntraced(function* (opened: Opened) {
  const { context } = opened
  const client = yield* SqlDatabase.bounded(
    context.target,
    context.timeout,
    Layer.build(SqlDatabase.client(context.target, context.timeout))
  )
  yield* Effect.provide(migrate(opened), client)
  return client
})

/**
 * Opens the store for the life of the scope: connects, creates or migrates the schema, checks the keys against the
 * values stored, and gives its operations. A bad option fails `Unavailable/invalid_config` naming it (never echoing
 * a key), as does a store holding values under a key that is neither `encryptionKey` nor one of `previousKeys`
 * (naming the key ids and how many instances use each: it was written under another key, and would fail every
 * instance under it); a database that cannot be reached or migrated fails `Unavailable/store_unavailable`. A value
 * that does not open (damaged, or moved to another row) fails only its instance (`unreadable`).
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (
  options: Options
): Effect.Effect<ProviderStore.ProviderStore.Service, WebSearchError.Unavailable, Scope.Scope> =>
  openWith(options, optionNames)

const openWith = Effect.fnUntraced(function* (options: Options, names: Names) {
  const opened = yield* prepare(options, names)
  const client = yield* connect(opened)
  return yield* Effect.provide(Store.make(opened.context), client)
})

const rotateWith = (options: Options, names: Names) =>
  Effect.scoped(
    Effect.gen(function* () {
      const opened = yield* prepare(options, names)
      const client = yield* connect(opened)
      return yield* Effect.provide(StoreKeys.rotate(opened.context), client)
    })
  )

/**
 * The store as a layer.
 *
 * @example
 * ```ts
 * import * as ProviderStore from "@websearch/core/ProviderStore"
 * import * as ProviderStoreSql from "@websearch/node/ProviderStoreSql"
 * import * as Effect from "effect/Effect"
 * import * as Redacted from "effect/Redacted"
 *
 * const Store = ProviderStoreSql.layer({
 *   url: "/var/lib/websearch/providers.db", // or Redacted.make("postgres://websearch:secret@db:5432/websearch")
 *   encryptionKey: Redacted.make(process.env.WEBSEARCH_PROVIDER_STORE_KEY ?? "")
 * })
 *
 * export const program = Effect.gen(function* () {
 *   const store = yield* ProviderStore.ProviderStore
 *   yield* store.create("acme", { id: "production-bing", type: "bing", settings: {}, credentials: {} })
 *   yield* store.setCredentials("acme", "production-bing", { apiKeys: [Redacted.make("bing-key")] })
 *   return yield* store.list("acme")
 * }).pipe(Effect.provide(Store))
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<ProviderStore.ProviderStore, WebSearchError.Unavailable> =>
  Layer.scoped(ProviderStore.ProviderStore, make(options))

/**
 * The default store file: `websearch/websearch-providers.db` under `$XDG_DATA_HOME`, else `~/.local/share`.
 */
const defaultUrl: Config.Config<string> = Config.map(
  Config.all([ConfigText.optionalString("XDG_DATA_HOME"), ConfigText.optionalString("HOME")]),
  ([xdg, home]) => {
    const base = Option.filter(xdg, (path) => path.startsWith("/")).pipe(
      Option.getOrElse(() => join(Option.getOrElse(home, homedir), ".local", "share"))
    )
    return join(base, "websearch", "websearch-providers.db")
  }
)

/**
 * What `optionsConfig` reads: the store's options, each optional (a missing key is refused with its variable's
 * name, a missing URL means `defaultUrl`).
 *
 * @since 0.2.0
 * @category models
 */
export interface ConfigOptions {
  readonly url?: string | Redacted.Redacted<string> | undefined
  readonly encryptionKey?: Redacted.Redacted<string> | undefined
  readonly previousKeys?: ReadonlyArray<Redacted.Redacted<string>> | undefined
  readonly timeout?: Duration.DurationInput | undefined
}

/**
 * The store's settings from the environment (or the application's `ConfigProvider`): `WEBSEARCH_PROVIDER_STORE`,
 * `WEBSEARCH_PROVIDER_STORE_KEY` and `WEBSEARCH_PROVIDER_STORE_PREVIOUS_KEYS` (comma-separated).
 *
 * @since 0.2.0
 * @category constructors
 */
export const config: Config.Config<ConfigOptions> = Config.map(
  Config.all({
    url: ConfigText.optionalSecret(urlVariable),
    key: ConfigText.optionalSecret(keyVariable),
    previous: ConfigText.optionalSecretList(previousKeysVariable)
  }),
  ({ key, previous, url }) => ({
    ...(Option.isSome(url) ? { url: url.value } : {}),
    ...(Option.isSome(key) ? { encryptionKey: key.value } : {}),
    ...(Option.isSome(previous) ? { previousKeys: previous.value } : {})
  })
)

/**
 * The store's options as `config` (or the application's own `Config`) gives them: `WEBSEARCH_PROVIDER_STORE`
 * (default `defaultUrl`), `WEBSEARCH_PROVIDER_STORE_KEY` (required) and `WEBSEARCH_PROVIDER_STORE_PREVIOUS_KEYS`
 * (comma-separated). A missing or bad value fails `Unavailable/invalid_config` naming the variable (the options
 * are checked here, so `layer`, `make` and `rotateKey` given them find nothing wrong).
 *
 * @since 0.2.0
 * @category constructors
 */
export const optionsConfig = (
  configured: Config.Config<ConfigOptions> = config
): Effect.Effect<Options, WebSearchError.Unavailable> =>
  Effect.gen(function* () {
    const { encryptionKey, previousKeys, timeout, url } = yield* configured
    if (encryptionKey === undefined) {
      return yield* Effect.fail(
        WebSearchError.unavailable(
          "invalid_config",
          `${keyVariable} is not set: the provider store encrypts keys under it (the base64 of 32 random bytes, ` +
            "e.g. `openssl rand -base64 32`)"
        )
      )
    }
    const options: Options = {
      url: url ?? (yield* defaultUrl),
      encryptionKey,
      previousKeys: previousKeys ?? [],
      ...(timeout === undefined ? {} : { timeout })
    }
    yield* prepare(options, variableNames)
    return options
  }).pipe(
    Effect.catchTag("ConfigError", (error) =>
      Effect.fail(WebSearchError.unavailable("invalid_config", `invalid provider store configuration: ${error}`))
    )
  )

/**
 * The store configured by the environment (see `optionsConfig`), with messages naming the variables.
 *
 * @since 0.2.0
 * @category layers
 */
export const layerConfig = (
  configured: Config.Config<ConfigOptions> = config
): Layer.Layer<ProviderStore.ProviderStore, WebSearchError.Unavailable> =>
  Layer.scoped(ProviderStore.ProviderStore, makeConfig(configured))

/**
 * Opens the store configured by the environment (see `optionsConfig`), as `make` does; its messages name the
 * variables (a store holding values under a key that is neither `WEBSEARCH_PROVIDER_STORE_KEY` nor one of
 * `WEBSEARCH_PROVIDER_STORE_PREVIOUS_KEYS` refuses to open, saying so).
 *
 * @since 0.2.0
 * @category constructors
 */
export const makeConfig = (
  configured: Config.Config<ConfigOptions> = config
): Effect.Effect<ProviderStore.ProviderStore.Service, WebSearchError.Unavailable, Scope.Scope> =>
  Effect.flatMap(optionsConfig(configured), (options) => openWith(options, variableNames))

/**
 * `rotateKey` on the store configured by the environment (`websearch providers rotate-key`), its messages naming
 * the variables.
 *
 * @since 0.2.0
 * @category constructors
 */
export const rotateKeyConfig = (
  configured: Config.Config<ConfigOptions> = config
): Effect.Effect<number, WebSearchError.Unavailable> =>
  Effect.flatMap(optionsConfig(configured), (options) => rotateWith(options, variableNames))

/**
 * Re-encrypts under `encryptionKey` every value encrypted under one of `previousKeys`, and says how many
 * instances it rewrote. Revisions do not change (the instances are the same). Run it once every replica reads
 * the new key; afterwards the previous keys can be dropped. A value under a key that is in neither fails
 * `Unavailable/store_unavailable` naming the instance and the key id.
 *
 * @since 0.2.0
 * @category constructors
 */
export const rotateKey = (options: Options): Effect.Effect<number, WebSearchError.Unavailable> =>
  rotateWith(options, optionNames)

/**
 * A new random encryption key (the base64 of 32 bytes from the system's CSPRNG).
 *
 * @since 0.2.0
 * @category constructors
 */
export const generateKey = (): Redacted.Redacted<string> => SecretBox.generate()
