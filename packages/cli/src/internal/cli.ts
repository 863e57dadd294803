/**
 * The command line grammar of `websearch`, on `@effect/cli`: sub-commands, their options, per-command help and
 * shell completions. Parsing is pure and returns a typed usage error instead of throwing, so `Main` can answer with
 * exit code 2.
 *
 * @since 0.1.0
 */
import * as CliConfig from "@effect/cli/CliConfig"
import * as Descriptor from "@effect/cli/CommandDescriptor"
import type * as CommandDirective from "@effect/cli/CommandDirective"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Terminal from "@effect/platform/Terminal"
import * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as CompletionScripts from "./completionScripts.js"
import { choice, flag, list, optional, parsePort, text, wholeNumber } from "./flagValues.js"
import * as Grammar from "./grammar.js"
import * as Help from "./help.js"
import * as Overview from "./overview.js"
import * as ProvidersArgs from "./providersArgs.js"
import * as SiteArgs from "./siteArgs.js"
import * as Tokens from "./tokens.js"

/**
 * How results are printed: `text` for a terminal, `markdown`, or one `json` object (`--json`).
 *
 * @since 0.2.0
 * @category models
 */
export type Format = "text" | "markdown" | "json"

/**
 * Options shared by every sub-command.
 *
 * @since 0.1.0
 * @category models
 */
export interface CommonOptions {
  readonly json: boolean
  readonly verbose: boolean
  readonly config: string | undefined
  readonly provider: string | undefined
  /** `--provider` given 2 to 5 times (search): the providers of a fused search. */
  readonly providers?: ReadonlyArray<string> | undefined
  /** Hosts added to the URL policy's allowlist (`--allow-host`), e.g. a self-hosted service. */
  readonly allowHosts: ReadonlyArray<string>
  /** CIDRs added to the URL policy's allowlist (`--allow-cidr`), e.g. a fake-IP proxy range. */
  readonly allowCidrs: ReadonlyArray<string>
  /** When the local fetcher renders pages in Chromium (`--render`; fetch, mcp, serve), over the settings. */
  readonly render?: "never" | "auto" | "always" | undefined
  /** How results are printed (`--format`; `--json` is `json`). */
  readonly format?: Format | undefined
  /** Results only: no progress lines and no closing summary (`--quiet`). */
  readonly quiet?: boolean | undefined
  /** Each provider call's time limit in milliseconds (`--timeout SECONDS`), over the settings. */
  readonly timeout?: number | undefined
  /** Bypass the persistent cache (`--no-cache`). */
  readonly noCache?: boolean | undefined
}

/**
 * The search options of `search`, as `SearchKeywordsRequest` names them; each is set only when its flag is given.
 *
 * @since 0.2.0
 * @category models
 */
export interface SearchOptions {
  readonly timeRange?: "day" | "week" | "month" | "year" | undefined
  readonly includeDomains?: ReadonlyArray<string> | undefined
  readonly excludeDomains?: ReadonlyArray<string> | undefined
  readonly language?: string | undefined
  readonly country?: string | undefined
  readonly safeSearch?: "off" | "moderate" | "strict" | undefined
  readonly topic?: "general" | "news" | undefined
}

/**
 * A parsed command line.
 *
 * @since 0.1.0
 * @category models
 */
export type Command = Data.TaggedEnum<{
  /** `text` is the help to print (ANSI styled; `Main` strips the styles when colour is off). */
  Help: { readonly topic: string | undefined; readonly json: boolean; readonly text: string }
  Version: { readonly json: boolean }
  Completions: { readonly json: boolean; readonly shell: "bash" | "fish" | "zsh" }
  Search: CommonOptions & {
    readonly keywords: ReadonlyArray<string>
    readonly maxResults: number | undefined
    /** The request's search options (`--time-range`, `--include-domain`, ...), as the request names them. */
    readonly searchOptions?: SearchOptions | undefined
  }
  Fetch: CommonOptions & {
    readonly urls: ReadonlyArray<string>
    /** `--max-length` and `--start-index`, as the request names them; each set only when its flag is given. */
    readonly paging?: { readonly maxLength?: number | undefined; readonly startIndex?: number | undefined } | undefined
  }
  /** `map URL`: the fields of a `mapSite` request the flags set. */
  Map: CommonOptions & { readonly site: SiteArgs.MapArgs }
  /** `crawl URL`: the fields of a `crawlSite` request the flags set. */
  Crawl: CommonOptions & { readonly site: SiteArgs.CrawlArgs }
  Research: CommonOptions & { readonly query: string; readonly domains: ReadonlyArray<string> }
  Providers: CommonOptions
  /** `providers ACTION`: instances in the local store or on a server. */
  ProvidersManage: CommonOptions & { readonly manage: ProvidersArgs.Manage }
  /** `workspace`: check an instance of the local store's workspace (`providers test ID`). */
  Check: CommonOptions & { readonly providerId: string; readonly workspace?: string | undefined }
  Mcp: CommonOptions & { readonly http: number | undefined; readonly host: string }
  Serve: CommonOptions & { readonly port: number; readonly host: string; readonly insecureNoAuth: boolean }
  ConfigPath: CommonOptions
  ConfigInit: CommonOptions
  Doctor: CommonOptions
}>

/**
 * Constructors of `Command`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const Command = Data.taggedEnum<Command>()

/**
 * A command line that cannot be run: unknown command or option, missing argument, malformed value.
 *
 * @since 0.1.0
 * @category errors
 */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string; readonly json: boolean }> {}

/**
 * The overview printed by `websearch --help`; `websearch COMMAND --help` prints that command's own help.
 *
 * @since 0.1.0
 * @category constants
 */
export const usage = Overview.text

// Ports are given as text; a typed usage error beats a NaN reaching the listener.

// The command line never prompts (no wizard): a terminal that is asked anything is a bug, not a hang.
const noTerminal: Terminal.Terminal = {
  columns: Effect.succeed(80),
  rows: Effect.succeed(24),
  isTTY: Effect.succeed(false),
  // Reading keys cannot fail in the Terminal contract; reaching it is a bug of this file, not of the input.
  readInput: Effect.die("websearch never prompts"),
  // A prompt for a line ends as if the user quit: the parser reports it as a usage error, not a crash.
  readLine: Effect.fail(new Terminal.QuitException()),
  display: () => Effect.void
}

// Every value is read as text, so parsing never touches the file system (a no-op one is provided).
const cliConfig = CliConfig.make({ showBuiltIns: false, showTypes: false, finalCheckBuiltIn: false })

/** The help of `websearch help COMMAND` and `websearch COMMAND --help`. */
const helpOf = (name: Grammar.CommandName): string => {
  const parsed = Effect.runSyncExit(
    Descriptor.parse(Grammar.root, ["websearch", name, "--help"], cliConfig).pipe(provideParse)
  )
  if (Exit.isSuccess(parsed) && parsed.value._tag === "BuiltIn" && parsed.value.option._tag === "ShowHelp") {
    return Help.commandHelp(parsed.value.option, cliConfig)
  }
  return usage
}

const provideParse = <A, E>(effect: Effect.Effect<A, E, FileSystem.FileSystem | Path.Path | Terminal.Terminal>) =>
  effect.pipe(
    Effect.provideService(Terminal.Terminal, noTerminal),
    Effect.provideService(FileSystem.FileSystem, FileSystem.makeNoop({})),
    Effect.provide(Path.layer)
  )

const isCommand = (word: string): word is Grammar.CommandName =>
  (Grammar.commandNames as ReadonlyArray<string>).includes(word)

const common = (values: Grammar.Values, json: boolean, fuses: boolean): Either.Either<CommonOptions, string> =>
  Either.gen(function* () {
    const render = yield* optional(text(values, "render"), (raw) =>
      choice("--render", raw, ["never", "auto", "always"] as const)
    )
    const format = yield* optional(text(values, "format"), (raw) =>
      choice("--format", raw, ["text", "markdown", "json"] as const)
    )
    const timeout = yield* optional(text(values, "timeout"), (raw) => wholeNumber("--timeout", raw, 1, 3600))
    const providers = list(values, "provider")
    // Several providers fuse a search (`providerIds`); every other command takes one.
    if (providers.length > 1 && !fuses) return yield* Either.left("--provider is given once here (search takes 2 to 5)")
    return {
      json: json || format === "json",
      verbose: flag(values, "verbose"),
      config: text(values, "config"),
      provider: providers.length === 1 ? providers[0] : undefined,
      ...(providers.length > 1 ? { providers } : {}),
      allowHosts: list(values, "allow-host"),
      allowCidrs: list(values, "allow-cidr"),
      ...(render === undefined ? {} : { render }),
      format: json ? "json" : (format ?? "text"),
      quiet: flag(values, "quiet"),
      ...(timeout === undefined ? {} : { timeout: timeout * 1000 }),
      noCache: flag(values, "no-cache")
    }
  })

// The contract's bounds (FetchUrlsRequest), so a value the request would refuse is a usage error here.
const paging = (values: Grammar.Values) =>
  Either.gen(function* () {
    const maxLength = yield* optional(text(values, "max-length"), (raw) => wholeNumber("--max-length", raw, 2, 200_000))
    const startIndex = yield* optional(text(values, "start-index"), (raw) =>
      wholeNumber("--start-index", raw, 0, 1_000_000_000)
    )
    return { ...(maxLength === undefined ? {} : { maxLength }), ...(startIndex === undefined ? {} : { startIndex }) }
  })

const code = (option: string, raw: string, kind: string): Either.Either<string, string> =>
  /^[a-z]{2}$/i.test(raw) ? Either.right(raw) : Either.left(`${option} takes a two-letter ${kind} code, not "${raw}"`)

// One line per flag: the request field it sets, read and checked. A new search option is one more line.
const searchOptions = (values: Grammar.Values): Either.Either<SearchOptions, string> =>
  Either.gen(function* () {
    const options: SearchOptions = {
      timeRange: yield* optional(text(values, "time-range"), (raw) =>
        choice("--time-range", raw, ["day", "week", "month", "year"] as const)
      ),
      includeDomains: list(values, "include-domain"),
      excludeDomains: list(values, "exclude-domain"),
      language: yield* optional(text(values, "language"), (raw) =>
        Either.map(code("--language", raw, "ISO 639-1 language"), (c) => c.toLowerCase())
      ),
      country: yield* optional(text(values, "country"), (raw) =>
        Either.map(code("--country", raw, "ISO 3166-1 country"), (c) => c.toUpperCase())
      ),
      safeSearch: yield* optional(text(values, "safe-search"), (raw) =>
        choice("--safe-search", raw, ["off", "moderate", "strict"] as const)
      ),
      topic: yield* optional(text(values, "topic"), (raw) => choice("--topic", raw, ["general", "news"] as const))
    }
    // Unset options stay out of the request, so a provider without them is never asked for them.
    return Object.fromEntries(
      Object.entries(options).filter(
        ([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0)
      )
    ) as SearchOptions
  })

const noArguments = (name: string, args: ReadonlyArray<string>): Either.Either<void, string> =>
  args.length > 0 ? Either.left(`${name} takes no arguments (got ${args.join(" ")})`) : Either.void

const build = (
  name: Grammar.CommandName,
  values: Grammar.Values,
  args: ReadonlyArray<string>,
  json: boolean
): Either.Either<Command, string> =>
  Either.gen(function* () {
    const base = yield* common(values, json, name === "search")
    switch (name) {
      case "search": {
        if (args.length === 0) return yield* Either.left("search needs at least one KEYWORD")
        const maxResults = yield* optional(text(values, "max-results"), (raw) =>
          /^\d+$/.test(raw)
            ? wholeNumber("--max-results", raw, 1, 50)
            : Either.left(`--max-results takes a whole number from 1 to 50, not "${raw}"`)
        )
        return Command.Search({ ...base, keywords: args, maxResults, searchOptions: yield* searchOptions(values) })
      }
      case "fetch":
        if (args.length === 0) return yield* Either.left("fetch needs at least one URL")
        return Command.Fetch({ ...base, urls: args, paging: yield* paging(values) })
      case "map":
        return Command.Map({ ...base, site: yield* SiteArgs.mapArgs(values, args) })
      case "crawl":
        return Command.Crawl({ ...base, site: yield* SiteArgs.crawlArgs(values, args) })
      case "research":
        if (args.length === 0) return yield* Either.left("research needs a BRIEF (quote it)")
        return Command.Research({
          ...base,
          query: args.join(" "),
          domains: [...list(values, "allow-domain"), ...list(values, "domain")]
        })
      case "mcp": {
        yield* noArguments("mcp", args)
        const host = text(values, "host")
        const http = yield* optional(text(values, "http"), (raw) => parsePort("--http", raw))
        if (host !== undefined && http === undefined) return yield* Either.left("--host needs --http PORT (mcp)")
        return Command.Mcp({ ...base, http, host: host ?? "127.0.0.1" })
      }
      case "serve": {
        yield* noArguments("serve", args)
        const port = yield* optional(text(values, "port"), (raw) => parsePort("--port", raw))
        return Command.Serve({
          ...base,
          port: port ?? 8080,
          host: text(values, "host") ?? "127.0.0.1",
          insecureNoAuth: flag(values, "insecure-no-auth")
        })
      }
      case "providers": {
        const manage = ProvidersArgs.parse(values, args)
        if (manage === undefined) return Command.Providers(base)
        const parsed = yield* manage
        // A local test is `check` with the store's instances of the workspace.
        if (parsed.action._tag === "test" && parsed.target._tag === "Local") {
          return Command.Check({ ...base, providerId: parsed.action.id, workspace: parsed.workspace })
        }
        return Command.ProvidersManage({ ...base, manage: parsed })
      }
      case "doctor":
        yield* noArguments("doctor", args)
        return Command.Doctor(base)
      case "config":
        if (args.length === 1 && args[0] === "path") return Command.ConfigPath(base)
        if (args.length === 1 && args[0] === "init") return Command.ConfigInit(base)
        return yield* Either.left("config takes one action: path or init")
      case "completions": {
        if (args.length !== 1) return yield* Either.left("completions needs one SHELL: bash, fish or zsh")
        const shell = yield* choice("completions", args[0], ["bash", "fish", "zsh"] as const)
        return Command.Completions({ json, shell })
      }
      case "check":
        if (args.length !== 1) return yield* Either.left("check needs exactly one provider ID")
        return Command.Check({ ...base, providerId: args[0] })
      case "help": {
        const topic = args[0]
        if (topic === undefined) return Command.Help({ topic, json, text: usage })
        if (!isCommand(topic)) return yield* Either.left(Tokens.unknownCommand(topic))
        return Command.Help({ topic, json, text: helpOf(topic) })
      }
    }
  })

const fromDirective = (
  directive: CommandDirective.CommandDirective<unknown>,
  name: Grammar.CommandName,
  json: boolean
): Either.Either<Command, string> => {
  if (directive._tag === "BuiltIn") {
    switch (directive.option._tag) {
      case "ShowHelp":
        return Either.right(Command.Help({ topic: name, json, text: Help.commandHelp(directive.option, cliConfig) }))
      case "ShowVersion":
        return Either.right(Command.Version({ json }))
      default:
        return Either.left(`websearch has no ${directive.option._tag} option`)
    }
  }
  if (directive.leftover.length > 0)
    return Either.left(`${name} takes no arguments (got ${Tokens.fromParser(directive.leftover).join(" ")})`)
  const parsed = directive.value as Grammar.Parsed
  const sub = parsed.subcommand.value
  if (sub === undefined) return Either.right(Command.Help({ topic: undefined, json, text: usage }))
  return build(sub[0], sub[1].options, Tokens.fromParser(sub[1].args ?? []), json)
}

/**
 * Parses `argv` (without the node and script paths).
 *
 * @since 0.1.0
 * @category encoding
 */
export const parse = (argv: ReadonlyArray<string>): Either.Either<Command, UsageError> => {
  const json = argv.includes("--json") || argv.includes("--format=json") || Tokens.hasFormatJson(argv)
  const fail = (message: string) => Either.left(new UsageError({ message, json }))
  const index = Tokens.commandIndex(argv)
  const rest = index === -1 ? argv : [...argv.slice(0, index), ...argv.slice(index + 1)]
  if (argv.includes("--version") && (index === -1 || argv[index] !== "help"))
    return Either.right(Command.Version({ json }))
  if (index === -1) {
    const unknown = Tokens.unknownOption(undefined, argv)
    return unknown === undefined ? Either.right(Command.Help({ topic: undefined, json, text: usage })) : fail(unknown)
  }
  const name = argv[index]
  if (!isCommand(name)) return fail(Tokens.unknownCommand(name))
  const refused =
    Tokens.unknownOption(name, rest) ??
    Tokens.misplacedOptions(name, rest) ??
    Tokens.switchWithValue(rest) ??
    Tokens.emptyRepeatedValue(rest)
  if (refused !== undefined) return fail(refused)
  const exit = Effect.runSyncExit(
    Descriptor.parse(Grammar.root, ["websearch", name, ...Tokens.forParser(rest)], cliConfig).pipe(provideParse)
  )
  if (Exit.isFailure(exit)) {
    const error = Option.getOrUndefined(Cause.failureOption(exit.cause))
    return fail(error === undefined ? "the command line cannot be read" : Help.plain(error.error))
  }
  return Either.mapLeft(fromDirective(exit.value, name, json), (message) => new UsageError({ message, json }))
}

/**
 * The completion script of a shell, generated from the command tree: it offers exactly the options the command line
 * accepts (not `@effect/cli`'s `--completions`, `--log-level` and `--wizard`, which websearch refuses).
 *
 * @since 0.2.0
 * @category encoding
 */
export const completions = (shell: "bash" | "fish" | "zsh"): string => {
  const generate =
    shell === "bash"
      ? Descriptor.getBashCompletions
      : shell === "fish"
        ? Descriptor.getFishCompletions
        : Descriptor.getZshCompletions
  const lines = Effect.runSync(generate(Grammar.root, "websearch"))
  return `${CompletionScripts.accepted(shell, lines).join("\n")}\n`
}

/**
 * What `websearch --help` and `websearch COMMAND --help` print: the help with its styles when colour is on, without
 * them otherwise, or one JSON object under `--json`.
 *
 * @since 0.2.0
 * @category encoding
 */
export const helpOutput = (command: Extract<Command, { _tag: "Help" }>, colour: boolean): string => {
  // Our own help text carries styles; they are removed when the output is not coloured.
  const text = command.text.replace(/\u001b\[[0-9;]*m/g, "")
  // `--json` promises exactly one JSON object on stdout, whatever else the command line asks for.
  if (command.json) return `${JSON.stringify({ ok: true, response: { usage: text } })}\n`
  return colour ? command.text : text
}
