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
  /** Hosts added to the URL policy's allowlist (`--allow-host`), e.g. a self-hosted service. */
  readonly allowHosts: ReadonlyArray<string>
  /** CIDRs added to the URL policy's allowlist (`--allow-cidr`), e.g. a fake-IP proxy range. */
  readonly allowCidrs: ReadonlyArray<string>
  /** When the local fetcher renders pages in Chromium (`--render`; fetch, mcp, serve), over the settings. */
  readonly render?: "never" | "auto" | "always" | undefined
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
  Mcp: CommonOptions & { readonly http: number | undefined; readonly host: string }
  Serve: CommonOptions & { readonly port: number; readonly host: string; readonly insecureNoAuth: boolean }
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
  websearch research BRIEF      research one brief with a hosted provider (--allow-domain to restrict)
  websearch providers           list providers, their capabilities, endpoints and defaults
  websearch check ID            run every capability of a provider once and report each
  websearch mcp                 serve the web_search, web_fetch and web_research tools over MCP (stdio)
  websearch serve               serve the HTTP API (POST /v1/search, /v1/fetch, /v1/research, ...)

Options:
  --provider ID       use this provider instead of the capability's default
  --max-results N     results per keyword, 1-50 (search)
  --allow-domain D    restrict research to a domain; repeatable (research; --domain is an alias)
  --allow-host HOST   let fetching reach this host although it is not public; repeatable
  --allow-cidr CIDR   let fetching reach addresses in this range (e.g. 198.18.0.0/15); repeatable
  --render MODE       render pages that need JavaScript in the system Chromium (fetch, mcp, serve):
                      auto (pages with little or no text, JavaScript shells, browser checks), always
                      (every HTML page) or never (the default; env FETCH_RENDER)
  --http PORT         serve MCP over streamable HTTP on this port instead of stdio (mcp)
  --port N            port to listen on, default 8080 (serve)
  --host HOST         address to bind, default 127.0.0.1 (serve, mcp --http)
  --insecure-no-auth  serve without bearer tokens (serve; only on a trusted network)
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
  domain: { type: "string", multiple: true },
  "allow-domain": { type: "string", multiple: true },
  "allow-host": { type: "string", multiple: true },
  "allow-cidr": { type: "string", multiple: true },
  render: { type: "string" },
  http: { type: "string" },
  port: { type: "string" },
  host: { type: "string" },
  "insecure-no-auth": { type: "boolean" }
} as const

const commands = new Set(["search", "fetch", "research", "providers", "check", "mcp", "serve", "help"])

const commandList = "search, fetch, research, providers, check, mcp, serve"

// Ports are given as text; a typed usage error beats a NaN reaching the listener.
const parsePort = (option: string, raw: string): Either.Either<number, string> =>
  /^\d{1,5}$/.test(raw) && Number(raw) <= 65535
    ? Either.right(Number(raw))
    : Either.left(`${option} takes a port number 0-65535, not "${raw}"`)

/**
 * Parses `argv` (without the node and script paths).
 *
 * @since 0.1.0
 * @category encoding
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
  if (!commands.has(name)) return fail(`unknown command "${name}" (commands: ${commandList})`)
  const render = values.render
  if (render !== undefined && render !== "never" && render !== "auto" && render !== "always") {
    return fail(`--render takes never, auto or always, not "${render}"`)
  }
  const common: CommonOptions = {
    json,
    verbose: values.verbose === true,
    config: values.config,
    provider: values.provider,
    allowHosts: values["allow-host"] ?? [],
    allowCidrs: values["allow-cidr"] ?? [],
    ...(render === undefined ? {} : { render })
  }
  // Options that belong to some commands only; a misplaced one is a usage error rather than silently ignored.
  const specific = [
    ["--max-results", values["max-results"]],
    ["--domain", values.domain],
    ["--allow-domain", values["allow-domain"]],
    ["--http", values.http],
    ["--port", values.port],
    ["--host", values.host],
    ["--insecure-no-auth", values["insecure-no-auth"]],
    ["--render", values.render]
  ] as const
  const only = (allowed: ReadonlyArray<string>) => {
    const given = specific
      .filter(([option, value]) => value !== undefined && !allowed.includes(option))
      .map(([option]) => option)
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
      const misplaced = only(["--render"])
      if (misplaced !== undefined) return fail(misplaced)
      if (rest.length === 0) return fail("fetch needs at least one URL")
      return Either.right(Command.Fetch({ ...common, urls: rest }))
    }
    case "research": {
      const misplaced = only(["--domain", "--allow-domain"])
      if (misplaced !== undefined) return fail(misplaced)
      if (rest.length === 0) return fail("research needs a BRIEF (quote it)")
      const domains = [...(values["allow-domain"] ?? []), ...(values.domain ?? [])]
      return Either.right(Command.Research({ ...common, query: rest.join(" "), domains }))
    }
    case "mcp": {
      const misplaced = only(["--http", "--host", "--render"])
      if (misplaced !== undefined) return fail(misplaced)
      if (rest.length > 0) return fail(`mcp takes no arguments (got ${rest.join(" ")})`)
      if (values.host !== undefined && values.http === undefined) return fail("--host needs --http PORT (mcp)")
      const http = values.http === undefined ? Either.right(undefined) : parsePort("--http", values.http)
      if (Either.isLeft(http)) return fail(http.left)
      return Either.right(Command.Mcp({ ...common, http: http.right, host: values.host ?? "127.0.0.1" }))
    }
    case "serve": {
      const misplaced = only(["--port", "--host", "--insecure-no-auth", "--render"])
      if (misplaced !== undefined) return fail(misplaced)
      if (rest.length > 0) return fail(`serve takes no arguments (got ${rest.join(" ")})`)
      const port = values.port === undefined ? Either.right(8080) : parsePort("--port", values.port)
      if (Either.isLeft(port)) return fail(port.left)
      return Either.right(
        Command.Serve({
          ...common,
          port: port.right,
          host: values.host ?? "127.0.0.1",
          insecureNoAuth: values["insecure-no-auth"] === true
        })
      )
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
