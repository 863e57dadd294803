/**
 * The command tree of `websearch` on `@effect/cli`: which options each command takes, with their help. Options are
 * declared once in `flags` (one row each: name, whether it takes a value, the commands it applies to, its help), so
 * a new flag is one row here and one field where `Cli` builds the request. Values are taken as text and checked by
 * `Cli`, which words every usage error the same way for every flag.
 */
import * as Args from "@effect/cli/Args"
import * as Descriptor from "@effect/cli/CommandDescriptor"
import * as Options from "@effect/cli/Options"

/** The sub-commands, as typed on the command line. */
export const commandNames = [
  "search",
  "fetch",
  "map",
  "crawl",
  "research",
  "providers",
  "check",
  "mcp",
  "serve",
  "config",
  "doctor",
  "completions",
  "help"
] as const

export type CommandName = (typeof commandNames)[number]

/** One option: `value` says whether it takes an argument, `repeat` whether it may be given more than once. */
export interface Flag {
  readonly name: string
  readonly value?: string | undefined
  readonly repeat?: boolean | undefined
  readonly alias?: string | undefined
  readonly commands: ReadonlyArray<CommandName> | "all"
  readonly help: string
}

const requests: ReadonlyArray<CommandName> = ["search", "fetch", "research"]
const lists: ReadonlyArray<CommandName> = ["search", "fetch"]
const sites: ReadonlyArray<CommandName> = ["map", "crawl"]

/** Every option of every command. The order is the order of the help. */
export const flags: ReadonlyArray<Flag> = [
  { name: "max-results", value: "N", commands: ["search"], help: "results per keyword, 1-50" },
  {
    name: "max-length",
    value: "N",
    commands: ["fetch", "crawl"],
    help:
      "characters of each page to print, 2-200000; fetch reads the rest with --start-index, crawl cuts each " +
      "page's content there"
  },
  {
    name: "start-index",
    value: "N",
    commands: ["fetch"],
    help: "character offset to start each page at (the offset a cut page names)"
  },
  { name: "search", value: "TERM", commands: ["map"], help: "rank the URLs by this term, best first" },
  { name: "limit", value: "N", commands: ["map"], help: "most URLs to list, 1-5000 (default 100)" },
  { name: "max-pages", value: "N", commands: ["crawl"], help: "most pages to read, 1-10000 (default 10)" },
  {
    name: "max-depth",
    value: "D",
    commands: ["crawl"],
    help: "most links away from the start URL, 0-10 (default 2; 0 reads the start page only)"
  },
  {
    name: "include",
    value: "PATTERN",
    repeat: true,
    commands: sites,
    help: "only URLs whose path matches, e.g. /docs/ or /blog/*.html$ (starts with /; * any run, $ the end); repeatable"
  },
  {
    name: "exclude",
    value: "PATTERN",
    repeat: true,
    commands: sites,
    help: "no URL whose path matches (as --include); repeatable"
  },
  { name: "include-subdomains", commands: sites, help: "count the start host's subdomains as the site too" },
  {
    name: "from-map",
    commands: ["crawl"],
    help: "start from the site's map too (its sitemaps, feeds and the start page's links), as depth 1"
  },
  { name: "concurrency", value: "N", commands: ["crawl"], help: "pages in flight per host, 1-16 (default 2)" },
  {
    name: "delay",
    value: "MS",
    commands: ["crawl"],
    help: "milliseconds between two requests to a host, 0-60000 (default 100)"
  },
  { name: "time-range", value: "day|week|month|year", commands: ["search"], help: "only results from this period" },
  {
    name: "include-domain",
    value: "DOMAIN",
    repeat: true,
    commands: ["search"],
    help: "only results from this domain; repeatable (up to 20)"
  },
  {
    name: "exclude-domain",
    value: "DOMAIN",
    repeat: true,
    commands: ["search"],
    help: "no results from this domain; repeatable (up to 20)"
  },
  { name: "language", value: "CODE", commands: ["search"], help: "results in this language (ISO 639-1: de, en)" },
  { name: "country", value: "CODE", commands: ["search"], help: "results for this country (ISO 3166-1: DE, US)" },
  { name: "safe-search", value: "off|moderate|strict", commands: ["search"], help: "filter adult content" },
  { name: "topic", value: "general|news", commands: ["search"], help: "the kind of results (news: recent articles)" },
  {
    name: "allow-domain",
    value: "DOMAIN",
    repeat: true,
    commands: ["research"],
    help: "restrict research to this domain; repeatable"
  },
  { name: "domain", value: "DOMAIN", repeat: true, commands: ["research"], help: "alias of --allow-domain" },
  {
    name: "render",
    value: "never|auto|always",
    commands: ["fetch", "mcp", "serve"],
    help:
      "render pages that need JavaScript in the system Chromium: auto (pages with little or no text, JavaScript " +
      "shells, browser checks), always (every HTML page) or never (the default; env FETCH_RENDER)"
  },
  {
    name: "format",
    value: "text|markdown|json",
    commands: requests,
    help: "how results are printed: text (the default), markdown, or json (the same as --json)"
  },
  {
    name: "quiet",
    alias: "q",
    commands: [...requests, ...sites],
    help: "print the results only: no progress lines, no closing summary (errors still go to stderr)"
  },
  {
    name: "timeout",
    value: "SECONDS",
    commands: requests,
    help: "give each provider call at most this long, 1-3600 seconds (over the settings' timeouts)"
  },
  {
    name: "no-cache",
    commands: lists,
    help: "neither read nor write the persistent cache (settings cache.persistent) for this run"
  },
  { name: "http", value: "PORT", commands: ["mcp"], help: "serve MCP over streamable HTTP on this port, not stdio" },
  { name: "port", value: "N", commands: ["serve"], help: "port to listen on, default 8080 (0 picks a free one)" },
  { name: "host", value: "HOST", commands: ["serve", "mcp"], help: "address to bind, default 127.0.0.1" },
  {
    name: "insecure-no-auth",
    commands: ["serve"],
    help: "serve without bearer tokens (only on a trusted network)"
  },
  {
    name: "provider",
    value: "ID",
    repeat: true,
    commands: "all",
    help:
      "use this provider instead of the capability's default (providers: show only this one); search takes it " +
      "2 to 5 times for a fused search over those providers"
  },
  {
    name: "allow-host",
    value: "HOST",
    repeat: true,
    commands: "all",
    help: "let fetching and provider endpoints reach this host although it is not public; repeatable"
  },
  {
    name: "allow-cidr",
    value: "CIDR",
    repeat: true,
    commands: "all",
    help: "let fetching reach addresses in this range (e.g. 198.18.0.0/15); repeatable"
  },
  {
    name: "config",
    value: "FILE",
    commands: "all",
    help:
      "JSON settings file; else WEBSEARCH_CONFIG, else $XDG_CONFIG_HOME/websearch/config.json when it exists " +
      "(environment variables are laid over it)"
  },
  {
    name: "json",
    // Not mcp: over stdio its stdout carries the protocol, over HTTP it prints nothing but the listening line.
    commands: commandNames.filter((name) => name !== "mcp"),
    help:
      'print exactly one JSON object to stdout: {"ok":true,"response":...} or {"ok":false,"error":{...},...} ' +
      "(crawl: one object per event, a line each, then the CrawlDone line)"
  },
  { name: "verbose", commands: "all", help: "log provider calls and failures to stderr" },
  {
    name: "workspace",
    value: "WORKSPACE",
    commands: ["providers"],
    help: 'providers ACTION: the workspace of the instances, default "default"'
  },
  {
    name: "type",
    value: "TYPE",
    commands: ["providers"],
    help: "providers add: the provider type (bing, searxng, ...)"
  },
  { name: "name", value: "NAME", commands: ["providers"], help: "providers add: a display name" },
  {
    name: "settings",
    value: "JSON",
    commands: ["providers"],
    help: "providers add: the instance's settings as JSON (endpoints, engines, options; never keys)"
  },
  {
    name: "server",
    value: "URL",
    commands: ["providers"],
    help: "providers ACTION: manage the instances on this websearch server instead of the local store"
  },
  { name: "token", value: "TOKEN", commands: ["providers"], help: "providers ACTION with --server: an admin token" }
]

/** The options of one command. */
export const flagsOf = (command: CommandName): ReadonlyArray<Flag> =>
  flags.filter((flag) => flag.commands === "all" || flag.commands.includes(command))

/** The flag a command-line token names (`--name`, `--name=value`, `-q`), if any. */
export const flagOf = (token: string): Flag | undefined => {
  if (token.startsWith("--")) {
    const equals = token.indexOf("=")
    const name = token.slice(2, equals === -1 ? undefined : equals)
    return flags.find((flag) => flag.name === name)
  }
  return token.length === 2 && token.startsWith("-") ? flags.find((flag) => flag.alias === token[1]) : undefined
}

const named = <A>(flag: Flag, base: Options.Options<A>): Options.Options<A> =>
  Options.withDescription(flag.alias === undefined ? base : Options.withAlias(base, flag.alias), flag.help)

const option = (flag: Flag): Options.Options<unknown> => {
  if (flag.value === undefined) return named(flag, Options.boolean(flag.name))
  const described = named(flag, Options.text(flag.name).pipe(Options.withPseudoName(flag.value)))
  return flag.repeat === true ? Options.repeated(described) : Options.optional(described)
}

/** The parsed option values of a command: booleans, optional texts and repeated texts, by flag name. */
export type Values = Readonly<Record<string, unknown>>

const optionsOf = (command: CommandName) =>
  Options.all(Object.fromEntries(flagsOf(command).map((flag) => [flag.name, option(flag)])))

const make = (name: CommandName, description: string, args?: Args.Args<ReadonlyArray<string>>) =>
  Descriptor.make(name, optionsOf(name), args ?? Args.none).pipe(Descriptor.withDescription(description))

const texts = (name: string, description: string) =>
  Args.text({ name }).pipe(Args.withDescription(description), Args.repeated)

/** The descriptions shown by `websearch COMMAND --help` and in the overview. */
export const descriptions: Record<CommandName, string> = {
  search: "search the web, one query per KEYWORD ('-' reads keywords from standard input, one per line)",
  fetch:
    "fetch the content of http(s) URLs; a bare domain means https ('-' reads URLs from standard input, one per line)",
  map: "list the URLs of a site without reading its pages: its sitemaps, feeds and the start page's links",
  crawl:
    "read the pages of a site breadth-first from URL, printing each as it arrives (Ctrl-C keeps what arrived; " +
    "--json: one JSON object per line, then the summary)",
  research: "research one BRIEF with a hosted provider (--allow-domain to restrict)",
  providers:
    "list providers, their capabilities, endpoints and defaults; with an ACTION, manage provider instances in the " +
    "local store (WEBSEARCH_PROVIDER_STORE, WEBSEARCH_PROVIDER_STORE_KEY) or on a server (--server): list, add ID " +
    "--type TYPE, remove ID, set-key ID (the key on standard input), test ID, rotate-key",
  check: "run every capability of a provider once and report each",
  mcp:
    "serve the web_search, web_fetch, web_research, web_map and web_crawl tools over MCP (stdio, or HTTP with " +
    "--http); research, map and crawl only when a provider for them is configured",
  serve: "serve the HTTP API (POST /v1/search, /v1/fetch, /v1/research, ...)",
  config: "config path: print the settings file in use; config init: write a commented starting file",
  doctor: "check every configured provider, the stores, Chromium and the settings file; exit 1 when one is broken",
  completions: "print a completion script for bash, fish or zsh",
  help: "show the help of a command"
}

const subcommands = [
  make("search", descriptions.search, texts("KEYWORD", "a query; '-' reads queries from standard input")),
  make("fetch", descriptions.fetch, texts("URL", "an http(s) URL or a bare domain; '-' reads standard input")),
  make("map", descriptions.map, texts("URL", "the site's start URL (http or https; a bare domain means https)")),
  make("crawl", descriptions.crawl, texts("URL", "the start URL (http or https; a bare domain means https)")),
  make("research", descriptions.research, texts("BRIEF", "what to research (the words are joined)")),
  make(
    "providers",
    descriptions.providers,
    texts("ACTION", "list, add ID, remove ID, set-key ID, test ID or rotate-key; none lists the composed providers")
  ),
  make("check", descriptions.check, texts("ID", "a provider id, as `websearch providers` lists them")),
  make("mcp", descriptions.mcp),
  make("serve", descriptions.serve),
  make("config", descriptions.config, texts("ACTION", "path or init")),
  make("doctor", descriptions.doctor),
  make("completions", descriptions.completions, texts("SHELL", "bash, fish or zsh")),
  make("help", descriptions.help, texts("COMMAND", "a command name"))
] as const

/** The whole tree: `websearch` and its sub-commands. */
export const root = Descriptor.make("websearch").pipe(
  Descriptor.withDescription("web search, page fetching and provider checks"),
  Descriptor.withSubcommands(
    subcommands.map((command, index) => [commandNames[index], command] as const) as unknown as [
      readonly [CommandName, Descriptor.Command<unknown>],
      ...Array<readonly [CommandName, Descriptor.Command<unknown>]>
    ]
  )
)

/** What `Descriptor.parse` returns for a user-defined command line. */
export interface Parsed {
  readonly name: string
  readonly subcommand: {
    readonly _tag: "Some" | "None"
    readonly value?: readonly [CommandName, { readonly options: Values; readonly args: ReadonlyArray<string> }]
  }
}
