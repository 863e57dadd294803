/**
 * The command line of `websearch providers ACTION`: managing provider instances in the local store (SQLite by
 * default, `WEBSEARCH_PROVIDER_STORE`) or on a server (`--server URL --token TOKEN`). `websearch providers` with no
 * action still lists the composed providers. Keys never come from the command line (it is visible to every user
 * of the machine in `ps`): `set-key` reads them from standard input.
 */
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { text } from "./flagValues.js"
import type * as Grammar from "./grammar.js"

/** The actions, as typed. */
export const actions = ["list", "add", "remove", "set-key", "test", "rotate-key"] as const

export type ActionName = (typeof actions)[number]

/** Where the instances are: the local store, or a server's API. */
export type Target = { readonly _tag: "Local" } | { readonly _tag: "Server"; readonly url: URL; readonly token: string }

/** One parsed action. */
export type Action =
  | { readonly _tag: "list" }
  | {
      readonly _tag: "add"
      readonly id: string
      readonly type: string
      readonly name?: string | undefined
      readonly settings: ProviderInstance.InstanceSettings
    }
  | { readonly _tag: "remove"; readonly id: string }
  | { readonly _tag: "set-key"; readonly id: string }
  | { readonly _tag: "test"; readonly id: string }
  | { readonly _tag: "rotate-key" }

/** What `providers ACTION` runs. */
export interface Manage {
  readonly action: Action
  readonly workspace: ProviderInstance.WorkspaceId
  readonly target: Target
}

const isId = Schema.is(ProviderInstance.InstanceId)
const isWorkspace = Schema.is(ProviderInstance.WorkspaceId)
const decodeSettings = Schema.decodeUnknownEither(ProviderInstance.InstanceSettings)

const idOf = (action: string, args: ReadonlyArray<string>): Either.Either<string, string> => {
  if (args.length !== 1) return Either.left(`providers ${action} needs exactly one instance ID`)
  const id = args[0]!
  return isId(id)
    ? Either.right(id)
    : Either.left(
        `providers ${action}: "${id}" is not an instance id (1-64 characters of a-z, 0-9 and '-', starting with a letter or digit)`
      )
}

const settingsOf = (raw: string | undefined): Either.Either<ProviderInstance.InstanceSettings, string> => {
  if (raw === undefined) return Either.right({})
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    return Either.left("--settings takes a JSON object (the instance's settings), which this is not")
  }
  return Either.mapLeft(
    decodeSettings(json, { onExcessProperty: "error" }),
    (error) =>
      `--settings: ${ParseResult.ArrayFormatter.formatErrorSync(error)
        .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
        .join("; ")}`
  )
}

const targetOf = (values: Grammar.Values): Either.Either<Target, string> => {
  const server = text(values, "server")
  const token = text(values, "token")
  if (server === undefined) {
    return token === undefined ? Either.right({ _tag: "Local" }) : Either.left("--token needs --server URL")
  }
  if (!URL.canParse(server) || !/^https?:$/.test(new URL(server).protocol)) {
    return Either.left(`--server takes the server's http(s) URL, not "${server}"`)
  }
  if (token === undefined) return Either.left("--server needs --token TOKEN (an admin token of the workspace)")
  return Either.right({ _tag: "Server", url: new URL(server), token })
}

/** Reads `providers ACTION ...`; `undefined` when there is no action (the composed providers' list). */
export const parse = (
  values: Grammar.Values,
  args: ReadonlyArray<string>
): Either.Either<Manage, string> | undefined => {
  if (args.length === 0) {
    const given = ["workspace", "type", "name", "settings", "server", "token"].filter(
      (f) => text(values, f) !== undefined
    )
    return given.length === 0
      ? undefined
      : Either.left(`${given.map((f) => `--${f}`).join(", ")} need an ACTION (providers list, add, ...)`)
  }
  return Either.gen(function* () {
    const [name, ...rest] = args as [string, ...Array<string>]
    if (!(actions as ReadonlyArray<string>).includes(name)) {
      return yield* Either.left(
        `providers takes one of ${actions.join(", ")} (or nothing, to list the composed providers), not "${name}"`
      )
    }
    const workspace = text(values, "workspace") ?? ProviderInstance.defaultWorkspace
    if (!isWorkspace(workspace)) {
      return yield* Either.left(
        `--workspace: "${workspace}" is not a workspace id (1-64 characters of a-z, 0-9, '-' and '_', starting with a letter or digit)`
      )
    }
    const target = yield* targetOf(values)
    const forAdd = ["type", "name", "settings"].filter((flag) => text(values, flag) !== undefined)
    if (name !== "add" && forAdd.length > 0) {
      return yield* Either.left(`${forAdd.map((f) => `--${f}`).join(", ")} only apply to "providers add"`)
    }
    const action: Action = yield* Either.gen(function* () {
      switch (name as ActionName) {
        case "list":
          if (rest.length > 0) return yield* Either.left("providers list takes no arguments")
          return { _tag: "list" } as const
        case "rotate-key":
          if (rest.length > 0) return yield* Either.left("providers rotate-key takes no arguments")
          if (target._tag === "Server") return yield* Either.left("providers rotate-key works on the local store only")
          return { _tag: "rotate-key" } as const
        case "add": {
          const id = yield* idOf("add", rest)
          const type = text(values, "type")
          if (type === undefined) return yield* Either.left("providers add needs --type TYPE (bing, searxng, ...)")
          if (!isId(type)) return yield* Either.left(`--type: "${type}" is not a provider type id`)
          const instanceName = text(values, "name")
          if (instanceName !== undefined && instanceName.length > 200) {
            return yield* Either.left("--name takes at most 200 characters")
          }
          return {
            _tag: "add",
            id,
            type,
            name: instanceName,
            settings: yield* settingsOf(text(values, "settings"))
          } as const
        }
        case "remove":
        case "set-key":
        case "test":
          return { _tag: name as "remove" | "set-key" | "test", id: yield* idOf(name, rest) } as const
      }
    })
    return { action, workspace, target }
  })
}
