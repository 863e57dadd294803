/**
 * The command line grammar of `websearch`: sub-commands, options and the usage text. Parsing is pure and
 * returns a typed usage error instead of throwing, so `Main` can answer with exit code 2.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as Either from "effect/Either"
import { parseArgs } from "node:util"

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
}

/**
 * A parsed command line.
 *
 * @since 0.1.0
 * @category models
 */
export type Command = Data.TaggedEnum<{
  Help: { readonly topic: string | undefined; readonly json: boolean }
  Version: { readonly json: boolean }
  Search: CommonOptions & { readonly keywords: ReadonlyArray<string>; readonly maxResults: number | undefined }
  Fetch: CommonOptions & { readonly urls: ReadonlyArray<string> }
  Research: CommonOptions & { readonly query: string; readonly domains: ReadonlyArray<string> }
  Providers: CommonOptions
  Check: CommonOptions & { readonly providerId: string }
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
 * The usage text printed by `--help`.
 *
 * @since 0.1.0
 * @category constants
 */
export const usage = `websearch — web search, page fetching and provider checks

Usage:
  websearch search KEYWORD...   search the web, one query per argument
  websearch fetch URL...        fetch the content of http(s) URLs
  websearch research BRIEF      research one brief with a hosted provider (--domain to restrict)
  websearch providers           list providers, their capabilities, endpoints and defaults
  websearch check ID            run every capability of a provider once and report each

Options:
  --provider ID       use this provider instead of the capability's default
  --max-results N     results per keyword, 1-50 (search)
  --domain DOMAIN     restrict research to a domain; repeatable (research)
  --config FILE       JSON settings file (environment variables are laid over it)
  --json              print exactly one JSON object to stdout: {"ok":true,"response":...} or
                      {"ok":false,"error":{...},"failures":[...]}
  --verbose           log provider calls and failures to stderr
  -h, --help          show this help
  --version           print the version

Without configuration, search uses DuckDuckGo and fetch uses the local fetcher.
Settings from the environment: <PROVIDER>_API_KEY (comma-separated keys rotate), <PROVIDER>_API_HOST,
WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER, WEBSEARCH_DEFAULT_FETCH_URLS_PROVIDER, WEBSEARCH_CONFIG (a file).

Exit codes: 0 success, 1 the request failed, 2 usage error, 130 interrupted.
`

const options = {
  json: { type: "boolean" },
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  config: { type: "string" },
  provider: { type: "string" },
  "max-results": { type: "string" },
  domain: { type: "string", multiple: true }
} as const

const commands = new Set(["search", "fetch", "research", "providers", "check", "help"])

/**
 * Parses `argv` (without the node and script paths).
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (argv: ReadonlyArray<string>): Either.Either<Command, UsageError> => {
  const json = argv.includes("--json")
  const fail = (message: string) => Either.left(new UsageError({ message, json }))
  let parsed
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
  } catch (error) {
    return fail((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ""))
  }
  const { values, positionals } = parsed
  const [name, ...rest] = positionals
  if (values.version === true) return Either.right(Command.Version({ json }))
  if (values.help === true || name === undefined || name === "help") {
    return Either.right(Command.Help({ topic: name === "help" ? rest[0] : name, json }))
  }
  if (!commands.has(name))
    return fail(`unknown command "${name}" (commands: search, fetch, research, providers, check)`)
  const common: CommonOptions = {
    json,
    verbose: values.verbose === true,
    config: values.config,
    provider: values.provider
  }
  const only = (allowed: ReadonlyArray<string>) => {
    const given = [values["max-results"] !== undefined ? "--max-results" : undefined]
      .concat(values.domain !== undefined ? ["--domain"] : [])
      .filter((o): o is string => o !== undefined && !allowed.includes(o))
    return given.length > 0 ? `${given.join(", ")} does not apply to "${name}"` : undefined
  }
  switch (name) {
    case "search": {
      const misplaced = only(["--max-results"])
      if (misplaced !== undefined) return fail(misplaced)
      if (rest.length === 0) return fail("search needs at least one KEYWORD")
      const raw = values["max-results"]
      if (raw !== undefined && !/^\d+$/.test(raw)) return fail(`--max-results takes a whole number, not "${raw}"`)
      return Either.right(
        Command.Search({ ...common, keywords: rest, maxResults: raw === undefined ? undefined : Number(raw) })
      )
    }
    case "fetch": {
      const misplaced = only([])
      if (misplaced !== undefined) return fail(misplaced)
      if (rest.length === 0) return fail("fetch needs at least one URL")
      return Either.right(Command.Fetch({ ...common, urls: rest }))
    }
    case "research": {
      const misplaced = only(["--domain"])
      if (misplaced !== undefined) return fail(misplaced)
      if (rest.length === 0) return fail("research needs a BRIEF (quote it)")
      return Either.right(Command.Research({ ...common, query: rest.join(" "), domains: values.domain ?? [] }))
    }
    case "providers": {
      const misplaced = only([])
      if (misplaced !== undefined) return fail(misplaced)
      if (rest.length > 0) return fail(`providers takes no arguments (got ${rest.join(" ")})`)
      return Either.right(Command.Providers(common))
    }
    default: {
      const misplaced = only([])
      if (misplaced !== undefined) return fail(misplaced)
      if (rest.length !== 1) return fail("check needs exactly one provider ID")
      return Either.right(Command.Check({ ...common, providerId: rest[0] }))
    }
  }
}
