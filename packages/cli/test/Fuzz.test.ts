/**
 * Fuzz suite of the command line in `--json` mode: generated argument vectors (every command with garbage
 * arguments, unknown flags, flags without values, repeated flags, unicode, huge arguments, hostile URLs, bad
 * settings files) run through `Main.run` in-process, and a smaller sample through the real binary as a process.
 * Every provider points at a loopback server that answers like the provider, with HTTP errors, garbage, an echo of
 * the request headers, nothing, or a reset connection. Every run must print exactly one JSON line on stdout
 * (`{ok:true,response}` or `{ok:false,error,failures}` with a known tag and reason), exit 0, 1 or 2, and never
 * print a key.
 *
 * Seeds are fixed so a failure reproduces; fast-check prints the seed and the shrunk counterexample.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Main from "../src/Main.js"
import * as FuzzServer from "./support/fuzzServer.js"
import { websearch } from "./support/process.js"

// --- Fixtures: the server, settings files, the environment ---------------------------------------------------

let server: FuzzServer.FuzzServer
let env: Record<string, string> = {}
let configs: Record<string, string> = {}

/** A key written into a settings file: it must not be printed either. */
const fileCanary = "CANARY-settings-file-0a1b2c3d4e5f"

beforeAll(async () => {
  server = await FuzzServer.start()
  env = FuzzServer.environment(server)
  const dir = mkdtempSync(join(tmpdir(), "websearch-fuzz-"))
  const file = (name: string, content: string) => {
    const path = join(dir, name)
    writeFileSync(path, content)
    return path
  }
  configs = {
    valid: file("valid.json", JSON.stringify({ maxResults: 3, concurrency: 2, blacklist: ["*.example.org"] })),
    keyed: file("keyed.json", JSON.stringify({ providers: { tavily: { apiKeys: [fileCanary] } } })),
    invalid: file("invalid.json", JSON.stringify({ maxResults: 0, providers: { nope: {} } })),
    // The syntax error is far from the key, so a parser quoting its context must not reach it.
    broken: file("broken.json", `{"providers":{"brave":{"apiKeys":["${fileCanary}"]}}, "maxResults": 3 oops }`),
    directory: dir,
    missing: join(dir, "missing.json")
  }
})

afterAll(() => server.close())

const secrets = () => [...FuzzServer.canaries, fileCanary]

// --- Arguments --------------------------------------------------------------------------------------------

// argv cannot carry NUL; everything else is fair game.
const tricky = [
  "\uD800",
  "\u202E",
  "\u200B",
  "\uFEFF",
  "\u00A0",
  "\u3000",
  "\t",
  "\n",
  "👩‍👩‍👧‍👦",
  "e\u0301",
  "עברית",
  "中文",
  "%00",
  "%2e%2e/",
  "\\",
  '"',
  "'",
  "$HOME",
  "`id`",
  "*",
  "|",
  "=",
  "-",
  "--"
]

const noNul = (s: string) => s.replaceAll("\u0000", "")

const piece = FastCheck.oneof(
  FastCheck.constantFrom(...tricky),
  FastCheck.string({ unit: "grapheme", maxLength: 6 }).map(noNul),
  FastCheck.string({ unit: "binary", maxLength: 6 }).map(noNul),
  FastCheck.stringMatching(/^[a-z0-9]{1,8}$/)
)

const argText = FastCheck.oneof(
  { arbitrary: FastCheck.array(piece, { maxLength: 8 }).map((parts) => parts.join("")), weight: 10 },
  { arbitrary: FastCheck.constantFrom("", " ", "-x", "--=", "--json=true", "-hv"), weight: 1 },
  // Over the 1000-character keyword limit, up to 100 000 characters.
  { arbitrary: FastCheck.integer({ min: 990, max: 100_000 }).map((n) => "k".repeat(n)), weight: 1 }
)

const presetIds = [
  "duckduckgo",
  "tavily",
  "exa",
  "exa-mcp",
  "searxng",
  "jina",
  "zhipu",
  "bocha",
  "querit",
  "brave",
  "serper",
  "google",
  "bing",
  "baidu",
  "ollama",
  "keenable",
  "firecrawl",
  "perplexity",
  "kagi",
  "serpapi",
  "openai"
]

// Never the local fetcher with generated URLs: it would resolve and dial them (see `localFetch` below).
const providerArg = FastCheck.oneof(
  { arbitrary: FastCheck.constantFrom(...presetIds), weight: 4 },
  { arbitrary: FastCheck.constantFrom("Not An Id", "", "nope", "../tavily", "TAVILY", "__proto__"), weight: 1 },
  { arbitrary: argText.filter((s) => s.trim() !== "fetch"), weight: 1 }
)

const urlArg = FastCheck.oneof(
  FastCheck.tuple(
    FastCheck.constantFrom("http", "https", "HTTPS", "ftp", "file", "data", "javascript", "ws"),
    FastCheck.constantFrom("://", ":", ":///"),
    FastCheck.constantFrom("", "user:pass@", "@"),
    FastCheck.constantFrom(
      "example.com",
      "ads.example.org",
      "münchen.de",
      "xn--mnchen-3ya.de",
      "localhost",
      "127.0.0.1",
      "10.0.0.1",
      "169.254.169.254",
      "[::1]",
      "[fe80::1%25eth0]",
      "[::ffff:10.0.0.1]",
      "0x7f.1",
      "2130706433",
      ""
    ),
    FastCheck.constantFrom("", ":0", ":443", ":65536", ":-1", ":x"),
    FastCheck.oneof(
      FastCheck.constantFrom("", "/", "/%2e%2e/x", "/?q=%ZZ#f"),
      argText.map((s) => `/${s}`)
    )
  ).map((parts) => parts.join("")),
  FastCheck.webUrl({ withQueryParameters: true, withFragments: true }),
  argText
)

const maxResultsArg = FastCheck.constantFrom("5", "0", "50", "51", "-1", "1e3", "ten", "", " 5", "99999999999999999999")

const domainArg = FastCheck.oneof(
  FastCheck.constantFrom("example.com", "EXAMPLE.com.", "http://x.com", "ex ample.com", "192.168.0.1", ""),
  FastCheck.domain(),
  argText
)

const configArg = FastCheck.constantFrom("valid", "keyed", "invalid", "broken", "directory", "missing")

/** One option, as the arguments it takes up. `{CONFIG:name}` is replaced by the settings file's path. */
const option: FastCheck.Arbitrary<ReadonlyArray<string>> = FastCheck.oneof(
  providerArg.map((v) => ["--provider", v]),
  maxResultsArg.map((v) => ["--max-results", v]),
  domainArg.map((v) => ["--allow-domain", v]),
  domainArg.map((v) => ["--domain", v]),
  FastCheck.oneof(FastCheck.constantFrom("10.0.0.1", "[::1]:80", "*", ""), argText).map((v) => ["--allow-host", v]),
  FastCheck.constantFrom("10.0.0.0/8", "0.0.0.0/0", "::/0", "300.1.1.1/33", "x").map((v) => ["--allow-cidr", v]),
  // Only values that never start a browser: rendering is not what is fuzzed here.
  FastCheck.constantFrom("never", "sometimes", "", "NEVER").map((v) => ["--render", v]),
  configArg.map((name) => ["--config", `{CONFIG:${name}}`]),
  FastCheck.constantFrom<ReadonlyArray<string>>(
    ["--verbose"],
    ["--bogus"],
    ["-x"],
    ["--provider"],
    ["--max-results"],
    ["--config"],
    ["--help"],
    ["-h"],
    ["--version"],
    ["--json"],
    ["--http", "80"],
    ["--port", "99999"],
    ["--host", "0.0.0.0"],
    ["--insecure-no-auth"],
    ["--provider=tavily"],
    ["--max-results=3"],
    ["--"],
    ["-"]
  )
)

const positionals = (arg: FastCheck.Arbitrary<string>, maxLength: number) =>
  FastCheck.array(arg, { maxLength }).map((items) => items.map((item): ReadonlyArray<string> => [item]))

/** Arguments that read as plain words: most generated command lines should get past the parser. */
const word = argText.filter((s) => !s.startsWith("-"))

// The options a command takes, so that most command lines reach the providers; `option` adds any other.
const searchOptions = FastCheck.oneof(
  providerArg.map((v) => ["--provider", v]),
  maxResultsArg.map((v) => ["--max-results", v])
)
const fetchOptions = providerArg.map((v) => ["--provider", v])
const researchOptions = FastCheck.oneof(
  domainArg.map((v) => ["--allow-domain", v]),
  domainArg.map((v) => ["--domain", v]),
  FastCheck.constantFrom("openai", "tavily", "nope").map((v) => ["--provider", v])
)
const commonOptions = FastCheck.oneof(
  configArg.map((name) => ["--config", `{CONFIG:${name}}`]),
  FastCheck.constantFrom<ReadonlyArray<string>>(["--verbose"], ["--json"], ["--allow-cidr", "10.0.0.0/8"])
)

const optionsOf = (own: FastCheck.Arbitrary<ReadonlyArray<string>>) =>
  FastCheck.oneof(
    { arbitrary: FastCheck.constant([]), weight: 2 },
    { arbitrary: FastCheck.array(FastCheck.oneof(own, commonOptions), { maxLength: 3 }), weight: 4 },
    { arbitrary: FastCheck.array(FastCheck.oneof(own, commonOptions, option), { maxLength: 6 }), weight: 2 }
  )

/** A command, its arguments and its options, before they are shuffled together. */
const commandLine = FastCheck.oneof(
  {
    arbitrary: FastCheck.tuple(
      FastCheck.constant("search"),
      positionals(FastCheck.oneof({ arbitrary: word, weight: 5 }, { arbitrary: argText, weight: 1 }), 25),
      optionsOf(searchOptions)
    ),
    weight: 5
  },
  {
    arbitrary: FastCheck.tuple(FastCheck.constant("fetch"), positionals(urlArg, 25), optionsOf(fetchOptions)),
    weight: 5
  },
  {
    arbitrary: FastCheck.tuple(FastCheck.constant("research"), positionals(word, 4), optionsOf(researchOptions)),
    weight: 3
  },
  {
    arbitrary: FastCheck.tuple(FastCheck.constant("providers"), positionals(providerArg, 1), optionsOf(fetchOptions)),
    weight: 1
  },
  {
    arbitrary: FastCheck.tuple(FastCheck.constant("check"), positionals(providerArg, 2), optionsOf(commonOptions)),
    weight: 2
  },
  {
    arbitrary: FastCheck.tuple(
      FastCheck.constantFrom("help", "frobnicate", ""),
      positionals(argText, 1),
      optionsOf(option)
    ),
    weight: 1
  }
)

/**
 * A generated command line: the command first (so no option swallows it and nothing else becomes the command),
 * then its arguments and options in any order, `--json` somewhere after the command.
 */
const argvTemplate: FastCheck.Arbitrary<ReadonlyArray<string>> = FastCheck.tuple(commandLine, FastCheck.nat())
  .chain(([[command, args, options], at]) =>
    FastCheck.shuffledSubarray([...args, ...options], { minLength: args.length + options.length }).map((parts) => {
      const rest = parts.flat()
      const position = at % (rest.length + 1)
      return [command, ...rest.slice(0, position), "--json", ...rest.slice(position)]
    })
  )
  .map((argv) => argv.filter((arg, index) => index > 0 || arg !== ""))

// encodeURIComponent throws on a lone surrogate.
const wellFormed = (s: string) =>
  s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")

/**
 * The local fetcher, on URLs it may reach: pages of the loopback server (allowlisted), and addresses the URL
 * policy refuses before any connection (private, link-local, a closed loopback port that is not allowlisted).
 */
const localFetch: FastCheck.Arbitrary<ReadonlyArray<string>> = FastCheck.array(
  FastCheck.oneof(
    argText.map((path) => `{ORIGIN}/page/${encodeURIComponent(wellFormed(path.slice(0, 200)))}`),
    FastCheck.constantFrom("http://10.0.0.1/", "http://[::1]:1/", "http://127.0.0.1:1/", "http://169.254.169.254/"),
    FastCheck.constantFrom("ftp://example.com/", "not a url", "")
  ),
  { minLength: 1, maxLength: 5 }
).map((urls) => ["fetch", "--provider", "fetch", "--json", ...urls])

const template = FastCheck.oneof({ arbitrary: argvTemplate, weight: 9 }, { arbitrary: localFetch, weight: 1 })

/** Fills in the server's origin, the settings files and the allowlist entry every run needs. */
const realize = ([command, ...rest]: ReadonlyArray<string>): Array<string> => [
  command,
  // The providers' endpoints live on the loopback server, which the URL policy refuses unless allowlisted. Right
  // after the command: behind a generated `--` it would be a positional argument.
  "--allow-host",
  server.hostPort,
  ...rest.map((arg) =>
    arg.replaceAll("{ORIGIN}", server.origin).replace(/^\{CONFIG:(\w+)\}$/, (_, name: string) => configs[name] ?? name)
  )
]

// --- Server modes -----------------------------------------------------------------------------------------

const mode: FastCheck.Arbitrary<FuzzServer.Mode> = FastCheck.oneof(
  { arbitrary: FastCheck.constant({ _tag: "Recorded" as const }), weight: 6 },
  {
    arbitrary: FastCheck.record({
      status: FastCheck.constantFrom(400, 401, 402, 403, 404, 408, 413, 422, 429, 500, 502, 503, 504),
      body: FastCheck.oneof(
        argText,
        FastCheck.constantFrom('{"error":{"message":"quota"}}', '{"detail":null}', "<html>down</html>", "")
      ),
      retryAfter: FastCheck.option(
        FastCheck.constantFrom("0", "1", "-1", "abc", "Wed, 21 Oct 2015 07:28:00 GMT", "99999999999"),
        { nil: undefined }
      )
    }).map(({ body, retryAfter, status }) => ({
      _tag: "Status" as const,
      status,
      body,
      ...(retryAfter === undefined ? {} : { retryAfter })
    })),
    weight: 3
  },
  {
    arbitrary: FastCheck.record({
      contentType: FastCheck.constantFrom("application/json", "text/html", "text/plain", "application/pdf", ""),
      body: FastCheck.oneof(
        argText,
        FastCheck.json({ maxDepth: 3 }),
        FastCheck.constantFrom("{", "[]", "null", '{"results":null}', '{"results":[{"url":5}]}')
      )
    }).map(({ body, contentType }) => ({ _tag: "Garbage" as const, contentType, body })),
    weight: 3
  },
  {
    arbitrary: FastCheck.constantFrom(200, 400, 401, 500).map((status) => ({ _tag: "Echo" as const, status })),
    weight: 2
  },
  { arbitrary: FastCheck.constant({ _tag: "Empty" as const }), weight: 1 },
  { arbitrary: FastCheck.constant({ _tag: "Reset" as const }), weight: 1 }
)

// --- Assertions -------------------------------------------------------------------------------------------

const reasons: Record<string, ReadonlyArray<string>> = {
  Unavailable: WebSearchError.UnavailableReason.literals,
  RequestFailed: WebSearchError.RequestFailedReason.literals,
  ResponseInvalid: WebSearchError.ResponseInvalidReason.literals,
  Aborted: WebSearchError.AbortedReason.literals,
  UsageError: ["usage"]
}

interface Printed {
  readonly ok: boolean
  readonly response?: unknown
  readonly error?: {
    readonly _tag: string
    readonly reason: string
    readonly message: string
    readonly retryable: boolean
  }
  readonly failures?: ReadonlyArray<{ readonly _tag: string; readonly reason: string; readonly input: string }>
}

/** One run's output against the `--json` contract. */
const assertJsonRun = (argv: ReadonlyArray<string>, code: number | null, stdout: string, stderr: string) => {
  const shown = JSON.stringify(argv).slice(0, 300)
  for (const secret of secrets()) {
    expect(stdout.includes(secret), `stdout leaks ${secret} for ${shown}`).toBe(false)
    expect(stderr.includes(secret), `stderr leaks ${secret} for ${shown}`).toBe(false)
  }
  expect([0, 1, 2], `exit code ${code} for ${shown}\n${stderr.slice(0, 500)}`).toContain(code)
  // Exactly one line of JSON, and nothing else.
  expect(stdout.endsWith("\n"), `stdout ${JSON.stringify(stdout.slice(0, 300))} for ${shown}`).toBe(true)
  expect(stdout.slice(0, -1).includes("\n"), `more than one line on stdout for ${shown}`).toBe(false)
  const printed = JSON.parse(stdout) as Printed
  expect(typeof printed.ok).toBe("boolean")
  if (printed.ok) {
    expect(printed).toHaveProperty("response")
    // `check` answers ok with the report, and exits 1 when a capability failed.
    const report = printed.response as { readonly ok?: unknown; readonly capabilities?: unknown }
    expect(code === 0 || (code === 1 && report.ok === false && Array.isArray(report.capabilities))).toBe(true)
    return
  }
  const error = printed.error
  expect(error, `no error object for ${shown}`).toBeDefined()
  if (error === undefined) return
  expect(Object.keys(reasons)).toContain(error._tag)
  expect(reasons[error._tag], `${error._tag}/${error.reason}`).toContain(error.reason)
  expect(typeof error.message === "string" && error.message.length > 0, `empty message for ${shown}`).toBe(true)
  expect(typeof error.retryable).toBe("boolean")
  expect(code).toBe(error._tag === "UsageError" ? 2 : 1)
  expect(Array.isArray(printed.failures)).toBe(true)
  for (const failure of printed.failures ?? []) {
    expect(reasons[failure._tag] ?? [], `failure ${failure._tag}/${failure.reason}`).toContain(failure.reason)
  }
}

const refusedDials = (): ReadonlyArray<string> =>
  (globalThis as { __websearchRefusedDials?: Array<string> }).__websearchRefusedDials ?? []

/** Runs a command line in-process with the fuzz environment; returns what it printed. */
const runInProcess = (argv: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const out = { stdout: "", stderr: "" }
    const io: Main.Io = {
      stdout: (text) => {
        out.stdout += text
      },
      stderr: (text) => {
        out.stderr += text
      },
      env
    }
    const console = yield* Effect.console
    const code = yield* Main.run(argv, io).pipe(
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
      // `--verbose` logs go to the Console service rather than `io`: captured too, so the key check covers them.
      Effect.withConsole({
        ...console,
        unsafe: {
          ...console.unsafe,
          error: (...args: ReadonlyArray<unknown>) => {
            out.stderr += `${args.map(String).join(" ")}\n`
          }
        }
      })
    )
    return { code, ...out }
  })

// --- Properties -------------------------------------------------------------------------------------------

/** Generated command lines: in-process runs (about 15 ms each on a busy 2-core machine) and real processes. */
const runs = { inProcess: 500, processes: 30 } as const

describe("fuzz: websearch --json", () => {
  it.live.prop(
    "in-process: every generated command line prints one JSON line with a known tag, exits 0/1/2, leaks no key",
    { argv: template, mode },
    ({ argv, mode }) =>
      Effect.gen(function* () {
        server.mode = mode
        const dialsBefore = refusedDials().length
        const args = realize(argv)
        const ran = yield* runInProcess(args)
        assertJsonRun(args, ran.code, ran.stdout, ran.stderr)
        // Nothing tried to leave the machine.
        expect(refusedDials().slice(dialsBefore)).toEqual([])
      }),
    { timeout: 180_000, fastCheck: { numRuns: runs.inProcess, seed: 82_001 } }
  )

  it.live.prop(
    "as a process: the same contract, and no crash exit code or signal",
    // A process takes its arguments from the operating system: no argument of 100 000 characters here.
    { argv: template.filter((argv) => argv.every((arg) => arg.length < 20_000)), mode },
    ({ argv, mode }) =>
      Effect.gen(function* () {
        server.mode = mode
        const args = realize(argv)
        const ran = yield* Effect.promise(() => websearch(args, env))
        assertJsonRun(args, ran.code, ran.stdout, ran.stderr)
        expect(ran.stderr).not.toMatch(/Unhandled|UnhandledPromiseRejection|at .*\.m?js:\d+/)
      }),
    { timeout: 300_000, fastCheck: { numRuns: runs.processes, seed: 82_002 } }
  )
})

describe("fuzz regressions: websearch --json", () => {
  it.live("--help with --json prints one JSON object with the usage", () =>
    Effect.gen(function* () {
      const ran = yield* runInProcess(["search", "x", "--json", "--help"])
      assertJsonRun(["--help"], ran.code, ran.stdout, ran.stderr)
      expect(JSON.parse(ran.stdout)).toMatchObject({
        ok: true,
        response: { usage: expect.stringContaining("websearch") }
      })
    })
  )
})
