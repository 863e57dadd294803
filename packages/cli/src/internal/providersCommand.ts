/**
 * Runs `websearch providers list|add|remove|set-key|test|rotate-key` against the local provider store
 * (`@websearch/node/ProviderStoreSql` configured by the environment: `WEBSEARCH_PROVIDER_STORE`,
 * `WEBSEARCH_PROVIDER_STORE_KEY`) or a server's `/v1/workspaces/{workspace}/providers` routes. What is printed of an
 * instance is its view: keys counted, never shown. `set-key` reads the keys from standard input, one per line.
 */
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import type * as ProviderStore from "@websearch/core/ProviderStore"
import * as ProviderStoreRules from "@websearch/core/internal/providerStoreRules"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type * as Cli from "./cli.js"
import type * as Io from "./io.js"
import * as Render from "./render.js"
import type * as ProvidersArgs from "./providersArgs.js"

type Command = Extract<Cli.Command, { _tag: "ProvidersManage" }>

const encodeView = Schema.encodeSync(ProviderInstance.InstanceView)
const decodeViews = Schema.decodeUnknownEither(Schema.Array(ProviderInstance.InstanceView))
const decodeView = Schema.decodeUnknownEither(ProviderInstance.InstanceView)
const decodeError = Schema.decodeUnknownEither(WebSearchError.WebSearchError)

/** The environment as `Config` reads it (the store's variables, XDG_DATA_HOME, HOME). */
export const withEnv = (env: Readonly<Record<string, string | undefined>>) =>
  Effect.withConfigProvider(
    ConfigProvider.fromMap(
      new Map(Object.entries(env).flatMap(([key, value]) => (value === undefined ? [] : [[key, value] as const])))
    )
  )

/** The local store, opened for one command. */
const local = <A>(
  env: Readonly<Record<string, string | undefined>>,
  use: (store: ProviderStore.ProviderStore.Service) => Effect.Effect<A, ProviderStore.StoreError>
): Effect.Effect<A, ProviderStore.StoreError> =>
  Effect.scoped(
    Effect.gen(function* () {
      const ProviderStoreSql = yield* Effect.promise(() => import("@websearch/node/ProviderStoreSql"))
      return yield* use(yield* ProviderStoreSql.makeConfig())
    })
  ).pipe(withEnv(env))

/** A workspace's instances in the local store, for `providers test` (the check runs with them nameable). */
export const localInstances = (
  env: Readonly<Record<string, string | undefined>>,
  workspace: ProviderInstance.WorkspaceId
): Effect.Effect<ReadonlyArray<ProviderInstance.ProviderInstance>, ProviderStore.StoreError> =>
  local(env, (store) => store.list(workspace))

// --- the server's API -----------------------------------------------------------------------------------------------

const call = (
  target: Extract<ProvidersArgs.Target, { _tag: "Server" }>,
  method: string,
  path: string,
  body?: unknown
): Effect.Effect<unknown, WebSearchError.WebSearchError> =>
  Effect.gen(function* () {
    const url = new URL(path, target.url)
    const response = yield* Effect.tryPromise({
      try: (signal) =>
        fetch(url, {
          method,
          signal,
          // Every call carries the token, and set-key the keys: a redirect is reported, never followed.
          redirect: "manual",
          headers: {
            authorization: `Bearer ${target.token}`,
            accept: "application/json",
            ...(body === undefined ? {} : { "content-type": "application/json" })
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        }),
      // The message names the server, never the token (it is only in a header).
      catch: () =>
        WebSearchError.unavailable("store_unavailable", `the server at ${target.url.origin} cannot be reached`)
    })
    if (response.status >= 300 && response.status <= 399) {
      const location = response.headers.get("location")
      const where = location !== null && URL.canParse(location, url) ? ` to ${new URL(location, url).origin}` : ""
      return yield* Effect.fail(
        WebSearchError.requestFailed(
          "redirect_rejected",
          `the server at ${target.url.origin} answered ${method} ${url.pathname} with a redirect (HTTP ` +
            `${response.status})${where}: not followed, since the request carries the token` +
            `${body === undefined ? "" : " and its body"}; give --server the URL the server answers at`,
          { retryable: false }
        )
      )
    }
    const text = yield* Effect.tryPromise({
      try: () => response.text(),
      catch: () =>
        WebSearchError.unavailable("store_unavailable", `the server at ${target.url.origin} broke off its answer`)
    })
    let json: unknown = undefined
    try {
      json = text === "" ? undefined : JSON.parse(text)
    } catch {
      json = undefined
    }
    if (response.ok) return json
    // The server answers its errors as websearch errors; anything else is said with its status.
    const error = decodeError(json)
    return yield* Effect.fail(
      Either.isRight(error)
        ? WebSearchError.scrub(error.right, [target.token])
        : WebSearchError.requestFailed(
            response.status === 404 ? "not_found" : response.status === 409 ? "conflict" : "invalid_input",
            `the server answered ${method} ${url.pathname} with HTTP ${response.status}`
          )
    )
  }).pipe(
    // A server that never answers (or never ends its answer) does not hold the command forever.
    Effect.timeoutFail({
      duration: "30 seconds",
      onTimeout: () =>
        WebSearchError.unavailable("store_unavailable", `the server at ${target.url.origin} did not answer within 30s`)
    })
  )

const invalidAnswer = (what: string) =>
  WebSearchError.responseInvalid("parse_failed", `the server's answer is not ${what}`)

const viewFrom = (json: unknown) =>
  Either.match(decodeView(json), {
    onLeft: () => Effect.fail(invalidAnswer("a provider instance")),
    onRight: Effect.succeed
  })

// --- reading keys ---------------------------------------------------------------------------------------------------

/** What `set-key` says at a terminal; `hidden` when what is typed is not echoed. */
const prompt = (hidden: boolean) =>
  `websearch: type or paste the API key (several: one per line${hidden ? "; not shown" : ""}), then Ctrl-D\n`

/** Standard input as typed: read without echo on a terminal that offers it. */
const keyText = (io: Io.Io): Either.Either<string, WebSearchError.RequestFailed | WebSearchError.Aborted> => {
  if (io.stdinIsTTY === true && io.stdinSecret !== undefined) {
    const input = io.stdinSecret(prompt(true))
    switch (input._tag) {
      case "Text":
        return Either.right(input.text)
      case "Interrupted":
        return Either.left(WebSearchError.aborted("set-key was interrupted by the user; no key was set"))
      case "Failed":
        return Either.left(
          WebSearchError.requestFailed("invalid_input", `set-key could not read the terminal: ${input.message}`)
        )
    }
  }
  if (io.stdin === undefined) {
    return Either.left(WebSearchError.requestFailed("invalid_input", "set-key reads the key from standard input"))
  }
  if (io.stdinIsTTY === true) io.stderr(prompt(false))
  return Either.right(io.stdin())
}

const keysFrom = (
  io: Io.Io
): Either.Either<ReadonlyArray<Redacted.Redacted<string>>, WebSearchError.RequestFailed | WebSearchError.Aborted> => {
  const text = keyText(io)
  if (Either.isLeft(text)) return Either.left(text.left)
  const keys = text.right
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
  if (keys.length === 0) {
    return Either.left(
      WebSearchError.requestFailed(
        "invalid_input",
        "set-key reads the API key from standard input (one per line), and none was given: " +
          "websearch providers set-key ID < keyfile"
      )
    )
  }
  const decoded = Schema.decodeUnknownEither(ProviderInstance.InstanceCredentials)({ apiKeys: keys })
  if (Either.isLeft(decoded)) {
    return Either.left(
      WebSearchError.requestFailed("invalid_input", "an API key holds a control character or is too long for a header")
    )
  }
  return Either.right(keys.map(Redacted.make))
}

// --- output ---------------------------------------------------------------------------------------------------------

const line = (view: ProviderInstance.InstanceView): string =>
  Render.terminalText(
    [
      view.id,
      view.type,
      view.name === undefined ? "-" : JSON.stringify(view.name),
      `${view.credentials.apiKeys} key(s)${view.credentials.basicAuthPassword ? ", basic-auth password" : ""}`,
      `revision ${view.revision}`
    ].join("  ")
  )

const printed = (command: Command, io: Io.Io, value: unknown, human: string): number => {
  io.stdout(command.json ? `${Render.jsonSuccess(value)}\n` : human)
  return 0
}

const viewOut = (command: Command, io: Io.Io, view: ProviderInstance.InstanceView, verb: string) =>
  printed(command, io, encodeView(view), `${verb} ${line(view)}\n`)

/** Runs the action; the exit code. */
export const run = (
  command: Command,
  io: Io.Io,
  /** Refuses an instance the composed registry could not use (a local add is judged before it is stored). */
  judge: (instance: ProviderInstance.ProviderInstance) => Effect.Effect<void, WebSearchError.WebSearchError>
): Effect.Effect<number> => {
  const { action, target, workspace } = command.manage
  const base = `/v1/workspaces/${workspace}/providers`
  const instance = (id: string) => `${base}/${id}`
  const program: Effect.Effect<number, WebSearchError.WebSearchError> = Effect.gen(function* () {
    switch (action._tag) {
      case "list": {
        const views =
          target._tag === "Local"
            ? (yield* local(io.env, (store) => store.list(workspace))).map((i) => ProviderInstance.view(i))
            : yield* Effect.flatMap(call(target, "GET", base), (json) =>
                Either.match(decodeViews(json), {
                  onLeft: () => Effect.fail(invalidAnswer("a list of provider instances")),
                  onRight: Effect.succeed
                })
              )
        const human =
          views.length === 0
            ? `workspace "${workspace}" has no provider instances\n`
            : views.map((view) => `${line(view)}\n`).join("")
        return printed(
          command,
          io,
          views.map((view) => encodeView(view)),
          human
        )
      }
      case "add": {
        const input = {
          id: action.id,
          type: action.type,
          ...(action.name === undefined ? {} : { name: action.name }),
          settings: action.settings,
          credentials: {}
        }
        if (target._tag === "Local") yield* Effect.flatMap(ProviderStoreRules.newInstance(workspace, input), judge)
        const view =
          target._tag === "Local"
            ? ProviderInstance.view(yield* local(io.env, (store) => store.create(workspace, input)))
            : yield* Effect.flatMap(call(target, "POST", base, input), viewFrom)
        return viewOut(command, io, view, "added")
      }
      case "remove": {
        if (target._tag === "Local") yield* local(io.env, (store) => store.remove(workspace, action.id))
        else yield* call(target, "DELETE", instance(action.id))
        return printed(command, io, { workspace, id: action.id, removed: true }, `removed ${action.id}\n`)
      }
      case "set-key": {
        const keys = yield* keysFrom(io)
        const view =
          target._tag === "Local"
            ? ProviderInstance.view(
                yield* local(io.env, (store) =>
                  Effect.flatMap(store.get(workspace, action.id), (found) =>
                    // The basic-auth password is kept: set-key changes the keys only.
                    store.setCredentials(workspace, action.id, {
                      apiKeys: keys,
                      ...Option.match(found, {
                        onNone: () => ({}),
                        onSome: (i) =>
                          i.credentials.basicAuthPassword === undefined
                            ? {}
                            : { basicAuthPassword: i.credentials.basicAuthPassword }
                      })
                    })
                  )
                )
              )
            : yield* Effect.flatMap(
                call(target, "PUT", `${instance(action.id)}/credentials`, { apiKeys: keys.map(Redacted.value) }),
                (json) =>
                  json === undefined
                    ? Effect.flatMap(call(target, "GET", instance(action.id)), viewFrom)
                    : viewFrom(json)
              )
        return viewOut(command, io, view, "keys set:")
      }
      case "test": {
        // The local test runs as `check` does, with the workspace's instances (Main); here only the server's.
        if (target._tag === "Local") return yield* Effect.dieMessage("the local test runs through Main's check")
        const answer = yield* call(target, "POST", `${instance(action.id)}/test`)
        const ok = typeof answer === "object" && answer !== null && (answer as { ok?: unknown }).ok === true
        io.stdout(command.json ? `${Render.jsonSuccess(answer)}\n` : `${JSON.stringify(answer, null, 2)}\n`)
        return ok ? 0 : 1
      }
      case "rotate-key": {
        const ProviderStoreSql = yield* Effect.promise(() => import("@websearch/node/ProviderStoreSql"))
        const rotated = yield* ProviderStoreSql.rotateKeyConfig().pipe(withEnv(io.env))
        return printed(command, io, { rotated }, `re-encrypted ${rotated} instance(s) under the current key\n`)
      }
    }
  })
  const errLook = Render.look({ isTTY: io.stderrIsTTY }, io.env)
  return program.pipe(
    Effect.catchAll((error) =>
      Effect.sync(() => {
        if (command.json) io.stdout(`${Render.jsonFailure(error)}\n`)
        else io.stderr(Render.error(error, { look: errLook }))
        // As every command: Ctrl-C (at the key prompt) exits 130.
        return error._tag === "Aborted" ? 130 : 1
      })
    )
  )
}
