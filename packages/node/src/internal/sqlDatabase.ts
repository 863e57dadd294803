/**
 * The provider store's database: which one a URL names (a SQLite file, or a PostgreSQL server), the @effect/sql
 * client for it (loaded on first use, so an application that never opens a store never loads a database driver),
 * how it is shown in messages (without its password), and how a driver's failure becomes the store's
 * `Unavailable/store_unavailable` within a bounded time.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { closeSync, constants, mkdirSync, openSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

/** A database the store may open. */
export type Target =
  | { readonly _tag: "Sqlite"; readonly path: string; readonly display: string }
  | {
      readonly _tag: "Postgres"
      readonly url: Redacted.Redacted<string>
      readonly display: string
      /** The URL's password, scrubbed from every message as a last line of defence. */
      readonly secrets: ReadonlyArray<string>
    }

const invalid = (name: string, message: string) => WebSearchError.unavailable("invalid_config", `${name} ${message}`)

/**
 * Reads a store URL: `postgres://` / `postgresql://` for PostgreSQL, a `file:` URL or a file path for SQLite.
 * `name` is the option or variable it came from, for messages.
 */
export const parse = (
  name: string,
  url: Redacted.Redacted<string>
): Either.Either<Target, WebSearchError.Unavailable> => {
  const text = Redacted.value(url).trim()
  if (text === "") return Either.left(invalid(name, "is empty: give a SQLite file path or a postgres:// URL"))
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase()
  if (scheme === "postgres" || scheme === "postgresql") {
    let parsed: URL
    try {
      parsed = new URL(text)
    } catch {
      return Either.left(invalid(name, "is not a valid postgres:// URL"))
    }
    let password: string
    try {
      password = decodeURIComponent(parsed.password)
    } catch {
      // Never the value: it is the password.
      return Either.left(invalid(name, "has a password that is not URL-encoded (write % as %25)"))
    }
    const shown = new URL(parsed.href)
    if (shown.password !== "") shown.password = "***"
    shown.search = ""
    return Either.right({
      _tag: "Postgres",
      url: Redacted.make(text),
      display: shown.href,
      secrets: password === "" ? [] : [password]
    })
  }
  if (scheme === "file") {
    try {
      const path = fileURLToPath(text)
      return Either.right({ _tag: "Sqlite", path, display: path })
    } catch {
      return Either.left(invalid(name, "is not a valid file: URL"))
    }
  }
  // A Windows drive letter reads as a one-letter scheme; any longer scheme is one this store does not speak.
  if (scheme !== undefined && scheme.length > 1) {
    return Either.left(
      invalid(name, `has the scheme "${scheme}:": give a SQLite file path, a file: URL or a postgres:// URL`)
    )
  }
  const path = resolve(text)
  return Either.right({ _tag: "Sqlite", path, display: path })
}

// pg reads `statement_timeout` (sent to the server, which cancels a statement running longer) and `query_timeout`
// (the client gives up on a server that stops answering) from the URL's query; a URL that sets them keeps its own.
const withTimeouts = (url: string, timeout: Duration.Duration): string => {
  const parsed = new URL(url)
  const millis = String(Math.max(1, Math.ceil(Duration.toMillis(timeout))))
  if (!parsed.searchParams.has("statement_timeout")) parsed.searchParams.set("statement_timeout", millis)
  if (!parsed.searchParams.has("query_timeout")) parsed.searchParams.set("query_timeout", millis)
  return parsed.href
}

/** The @effect/sql client for a target. */
export const client = (
  target: Target,
  timeout: Duration.Duration
): Layer.Layer<SqlClient.SqlClient, SqlError | WebSearchError.Unavailable> => {
  const loadFailed = (driver: string) => () =>
    WebSearchError.unavailable(
      "store_unavailable",
      `the provider store's ${driver} driver could not be loaded (is it installed for this platform?)`
    )
  if (target._tag === "Sqlite") {
    return Layer.unwrapEffect(
      Effect.gen(function* () {
        const module = yield* Effect.tryPromise({
          try: () => import("@effect/sql-libsql/LibsqlClient"),
          catch: loadFailed("SQLite (@effect/sql-libsql)")
        })
        // The directory is made private to this user when this creates it: the file holds the instances. So is the
        // file: created here, readable and writable by this user only, before SQLite opens it; SQLite gives its
        // journal, write-ahead log and shared-memory files the database file's permissions.
        yield* Effect.try({
          try: () => mkdirSync(dirname(target.path), { recursive: true, mode: 0o700 }),
          catch: () =>
            WebSearchError.unavailable("store_unavailable", `the directory of ${target.display} could not be created`)
        })
        yield* Effect.try({
          try: () => closeSync(openSync(target.path, constants.O_CREAT | constants.O_RDWR, 0o600)),
          catch: () =>
            WebSearchError.unavailable("store_unavailable", `${target.display} could not be created or opened`)
        })
        return module.layer({ url: pathToFileURL(target.path).href })
      })
    )
  }
  return Layer.unwrapEffect(
    Effect.map(
      Effect.tryPromise({
        try: () => import("@effect/sql-pg/PgClient"),
        catch: loadFailed("PostgreSQL (@effect/sql-pg)")
      }),
      (module) =>
        module.layer({
          url: Redacted.make(withTimeouts(Redacted.value(target.url), timeout)),
          connectTimeout: timeout,
          applicationName: "websearch-provider-store"
        })
    )
  )
}

/**
 * Sets up a SQLite connection: write-ahead logging (readers never wait for the writer; kept in the file), and
 * a busy timeout, so a statement that finds another connection writing waits for it (up to the store's bound)
 * instead of failing at once. libsql hands its connection to a transaction and opens a new one after, so this
 * runs again after the migrations' transaction. Nothing to do on PostgreSQL.
 */
export const configure = (
  target: Target,
  timeout: Duration.Duration
): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  target._tag === "Postgres"
    ? Effect.void
    : Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe("PRAGMA journal_mode = WAL")
        yield* sql.unsafe(`PRAGMA busy_timeout = ${Math.max(1, Math.ceil(Duration.toMillis(timeout)))}`)
      })

const causeText = (error: SqlError): string => {
  const cause = error.cause
  const detail = cause instanceof Error ? cause.message : typeof cause === "string" ? cause : ""
  return detail === "" || detail === error.message ? error.message : `${error.message}: ${detail}`
}

/** A driver failure as the store's error, naming the database but never a secret. */
export const failure = (target: Target, error: SqlError | WebSearchError.Unavailable): WebSearchError.Unavailable => {
  if (error._tag === "Unavailable") return error
  const made = WebSearchError.unavailable(
    "store_unavailable",
    `the provider store at ${target.display} failed: ${causeText(error)}`
  )
  return target._tag === "Postgres" ? WebSearchError.scrub(made, target.secrets) : made
}

const isSqlError = (error: { readonly _tag: string }): error is SqlError => error._tag === "SqlError"

const liveClock = Clock.make()

/**
 * Bounds an operation in time and turns driver failures into the store's error. The bound runs on a live clock
 * whatever clock the caller runs under: a database's silence is a matter of real time.
 */
export const bounded = <A, E extends { readonly _tag: string }, R>(
  target: Target,
  timeout: Duration.Duration,
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, SqlError> | WebSearchError.Unavailable, R> =>
  effect.pipe(
    Effect.timeoutFail({
      duration: timeout,
      onTimeout: () =>
        WebSearchError.unavailable(
          "store_unavailable",
          `the provider store at ${target.display} did not answer within ${Duration.format(timeout)}`
        )
    }),
    Effect.mapError((error) =>
      isSqlError(error) ? failure(target, error) : (error as Exclude<E, SqlError> | WebSearchError.Unavailable)
    ),
    Effect.withClock(liveClock)
  )
