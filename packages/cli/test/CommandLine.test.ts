/**
 * The command line of issue 21, as a user meets it: the binary as a process against a local origin that counts its
 * requests. Per-command help, completions, standard input, bare domains, per-input refusals and exit codes, the
 * terminal look (colour, NO_COLOR, wrapping, the closing line), Ctrl-C, configuration discovery, the persistent
 * cache and `doctor`.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { createServer, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { bundleModule } from "./support/bundleModule.js"
import * as DuckDuckGo from "./support/duckduckgoStandIn.js"
import { websearch } from "./support/process.js"

const words = (n: number) =>
  Array.from({ length: n }, (_, i) => `word${i} layers describe how services are built for programs`).join(" ")

const page = (title: string) =>
  `<html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${words(12)}</p><p>Second paragraph of ${title} with enough text to be read as an article body.</p></article></body></html>`

let server: Server
let origin = ""
let hostPort = ""
const hits: Array<string> = []
const hanging: Array<ServerResponse> = []

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = request.url ?? ""
    hits.push(url)
    if (url.startsWith("/slow")) {
      // Never answers: the command is interrupted (Ctrl-C) or times out.
      hanging.push(response)
      return
    }
    if (DuckDuckGo.answer(request, response)) return
    if (url.startsWith("/missing")) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not here")
      return
    }
    if (url.startsWith("/escape")) {
      response
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(page("Escape \u001b]0;owned\u0007 title"))
      return
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(`Page ${url.slice(1)}`))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  hostPort = `127.0.0.1:${(server.address() as AddressInfo).port}`
  origin = `http://${hostPort}`
})

afterAll(async () => {
  for (const response of hanging) response.destroy()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

/** The one JSON object of `--json`, with the fields these tests read. */
interface Answer {
  readonly ok: boolean
  readonly response: {
    readonly results: ReadonlyArray<{ readonly title: string }>
    readonly failures: ReadonlyArray<Record<string, unknown>>
    readonly lines: ReadonlyArray<Record<string, unknown>>
  }
  readonly error: Record<string, unknown>
  readonly failures: ReadonlyArray<{ readonly input: string }>
}

const json = (stdout: string): Answer => {
  const lines = stdout.trim().split("\n")
  expect(lines).toHaveLength(1)
  return JSON.parse(lines[0]) as Answer
}

const tempDir = () => mkdtempSync(join(tmpdir(), "websearch-cli-21-"))

const allow = ["--allow-host", "127.0.0.1"]

describe("websearch help and completions", { timeout: 120_000 }, () => {
  it("each command has its own help, with only its options; help COMMAND is the same text", async () => {
    const fetchHelp = await websearch(["fetch", "--help"])
    const searchHelp = await websearch(["search", "--help"])
    const overview = await websearch(["--help"])
    expect(fetchHelp.code).toBe(0)
    expect(fetchHelp.stdout).toContain("websearch fetch")
    expect(fetchHelp.stdout).toContain("--render never|auto|always")
    expect(fetchHelp.stdout).not.toContain("--max-results")
    expect(searchHelp.stdout).toContain("--max-results N")
    expect(searchHelp.stdout).not.toContain("--render")
    expect(fetchHelp.stdout).not.toBe(overview.stdout)
    expect((await websearch(["help", "fetch"])).stdout).toBe(fetchHelp.stdout)
    // Not a terminal: no styles in the help either.
    expect(fetchHelp.stdout).not.toContain("\u001b[")
  })

  it.each([
    ["bash", "complete -F"],
    ["zsh", "#compdef websearch"],
    ["fish", "complete -c websearch"]
  ])("completions %s prints a script that knows the commands and their options", async (shell, marker) => {
    const { code, stdout } = await websearch(["completions", shell])
    expect(code).toBe(0)
    expect(stdout).toContain(marker)
    for (const word of ["fetch", "search", "doctor", "allow-host", "max-results"]) expect(stdout).toContain(word)
  })

  it("an unknown shell is a usage error", async () => {
    const { code, stderr } = await websearch(["completions", "tcsh"])
    expect(code).toBe(2)
    expect(stderr).toContain("bash, fish or zsh")
  })
})

describe("websearch inputs and exit codes", { timeout: 120_000 }, () => {
  it("'-' reads URLs from standard input, one per line, blank lines skipped", async () => {
    hits.length = 0
    const ran = await websearch(["fetch", "-", "--json", ...allow], {}, 90_000, {
      stdin: `${origin}/one\n\n  ${origin}/two  \n`
    })
    expect(ran.code).toBe(0)
    const out = json(ran.stdout)
    expect(out.response.results.map((r) => r.title).sort()).toEqual(["Page one", "Page two"])
    expect(hits.sort()).toEqual(["/one", "/two"])
  })

  it("a bare domain means https", async () => {
    // The local origin speaks plain HTTP, so the https attempt fails: its input shows the scheme that was added.
    const ran = await websearch(["fetch", `${hostPort}/page`, "--json", ...allow])
    expect(ran.code).toBe(1)
    expect(json(ran.stdout).failures.map((f) => f.input)).toEqual([`https://${hostPort}/page`])
  })

  it("invalid URLs among valid ones are per-input failures: exit 0, the good page printed, a closing line", async () => {
    hits.length = 0
    const ran = await websearch(["fetch", `${origin}/good`, "ftp://example.com/file", `${origin}/missing`, ...allow])
    expect(ran.code).toBe(0)
    expect(ran.stdout).toContain("Page good")
    expect(ran.stderr.trim().split("\n").at(-1)).toBe(
      `2 of 3 failed: ftp://example.com/file (invalid_input), ${origin}/missing (http_404)`
    )
    expect(hits.sort()).toEqual(["/good", "/missing"])
    const structured = await websearch(["fetch", `${origin}/good`, "ftp://example.com/file", "--json", ...allow])
    expect(structured.code).toBe(0)
    expect(json(structured.stdout).response.failures).toEqual([
      expect.objectContaining({ input: "ftp://example.com/file", _tag: "RequestFailed", reason: "invalid_input" })
    ])
  })

  it("exit codes: no valid input 2, --max-results 100 is 2, every input failed 1", async () => {
    const none = await websearch(["fetch", "ftp://a.example/", "http://"])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain("no input can be sent")
    const tooMany = await websearch(["search", "x", "--max-results", "100"])
    expect(tooMany.code).toBe(2)
    expect(tooMany.stderr).toContain("--max-results takes a whole number from 1 to 50")
    const failed = await websearch(["fetch", `${origin}/missing`, ...allow])
    expect(failed.code).toBe(1)
    // One reason per message: the reason once, no "all 1 input failed" wrapper repeating it.
    expect(failed.stderr.split("\n")[0]).toBe(
      `error: ${origin}/missing: RequestFailed/http_404: HTTP 404 from ${origin}: not found`
    )
  })

  it("--timeout bounds each call, --timeout 0 is a usage error", async () => {
    const timed = await websearch(["fetch", `${origin}/slow-timeout`, "--timeout", "1", "--json", ...allow])
    expect(timed.code).toBe(1)
    expect(json(timed.stdout).error).toMatchObject({ reason: "timeout" })
    expect((await websearch(["fetch", `${origin}/a`, "--timeout", "0"])).code).toBe(2)
  })

  it("Ctrl-C prints what was already fetched, then exits 130", async () => {
    const ran = await websearch(["fetch", `${origin}/fast`, `${origin}/slow-interrupt`, ...allow], {}, 90_000, {
      interruptWhenStderrHas: "/fast: 1 result"
    })
    expect(ran.code).toBe(130)
    expect(ran.stdout).toContain("Page fast")
    expect(ran.stderr).toContain("Aborted/interrupted")
  })
})

describe("websearch search options", { timeout: 120_000 }, () => {
  it("--time-range, --include-domain, --exclude-domain, --language, --country, --safe-search, --topic reach the request", async () => {
    const module = await bundleModule("optionsEchoModule")
    const ran = await websearch(
      [
        "search",
        "effect",
        "--provider",
        "searxng",
        "--time-range",
        "week",
        "--include-domain",
        "a.example",
        "--include-domain",
        "b.example",
        "--exclude-domain",
        "c.example",
        "--language",
        "DE",
        "--country",
        "at",
        "--safe-search",
        "strict",
        "--topic",
        "news",
        "--json",
        "--allow-host",
        "127.0.0.1:9"
      ],
      // The echo never calls its endpoint; it only has to have one.
      { WEBSEARCH_PROVIDER_MODULES: module, SEARXNG_API_HOST: "http://127.0.0.1:9" }
    )
    expect(ran.code).toBe(0)
    const echoed = JSON.parse((json(ran.stdout).response.results[0] as unknown as { content: string }).content)
    expect(echoed).toEqual({
      timeRange: "week",
      includeDomains: ["a.example", "b.example"],
      excludeDomains: ["c.example"],
      language: "de",
      country: "AT",
      safeSearch: "strict",
      topic: "news"
    })
    // Without the flags the request carries no option.
    const plain = await websearch(
      ["search", "effect", "--provider", "searxng", "--json", "--allow-host", "127.0.0.1:9"],
      {
        WEBSEARCH_PROVIDER_MODULES: module,
        SEARXNG_API_HOST: "http://127.0.0.1:9"
      }
    )
    expect(JSON.parse((json(plain.stdout).response.results[0] as unknown as { content: string }).content)).toEqual({})
  })

  it("--provider given twice fuses the search over both; on another command it is a usage error", async () => {
    const module = await bundleModule("optionsEchoModule")
    const ran = await websearch(
      ["search", "alpha", "--provider", "duckduckgo", "--provider", "searxng", "--json", "--allow-host", hostPort],
      { WEBSEARCH_PROVIDER_MODULES: module, SEARXNG_API_HOST: origin, DUCKDUCKGO_API_HOST: origin }
    )
    expect(ran.code).toBe(0)
    const response = json(ran.stdout).response as unknown as { providerId: string; providerIds: Array<string> }
    expect(response.providerId).toBe("fusion")
    expect(response.providerIds).toEqual(["duckduckgo", "searxng"])
    const human = await websearch(
      ["search", "alpha", "--provider", "duckduckgo", "--provider", "searxng", "--allow-host", hostPort],
      { WEBSEARCH_PROVIDER_MODULES: module, SEARXNG_API_HOST: origin, DUCKDUCKGO_API_HOST: origin }
    )
    expect(human.stdout).toMatch(/^\[1\] .* \((duckduckgo|searxng)(, (duckduckgo|searxng))?\)$/m)
    const misplaced = await websearch(["fetch", "https://a.example/", "--provider", "fetch", "--provider", "jina"])
    expect(misplaced.code).toBe(2)
    expect(misplaced.stderr).toContain("--provider is given once here")
  })

  it.each([
    [["--time-range", "fortnight"], "--time-range takes day, week, month or year"],
    [["--language", "deu"], "--language takes a two-letter"],
    [["--country", "1"], "--country takes a two-letter"],
    [["--safe-search", "on"], "--safe-search takes off, moderate or strict"],
    [["--topic", "sports"], "--topic takes general or news"]
  ])("a malformed %j is a usage error naming the flag", async (flags, fragment) => {
    const ran = await websearch(["search", "x", ...flags])
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain(fragment)
  })

  it("the search options are search's: on fetch they are misplaced", async () => {
    const ran = await websearch(["fetch", "https://a.example/", "--time-range", "week"])
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain('--time-range does not apply to "fetch"')
  })
})

describe("websearch output on a terminal", { timeout: 120_000 }, () => {
  it("colour only when asked for on a terminal (FORCE_COLOR here) and never with NO_COLOR; remote escapes stay inert", async () => {
    const plain = await websearch(["fetch", `${origin}/escape`, ...allow])
    expect(plain.stdout).not.toContain("\u001b")
    const coloured = await websearch(["fetch", `${origin}/escape`, ...allow], { FORCE_COLOR: "1" })
    expect(coloured.stdout).toContain("\u001b[1m[1]\u001b[0m")
    // Our styles only: the page's own OSC shows as control pictures.
    expect(coloured.stdout).toContain("␛]0;owned␇")
    expect(coloured.stdout).not.toContain("\u001b]")
    const noColour = await websearch(["fetch", `${origin}/escape`, ...allow], { FORCE_COLOR: "1", NO_COLOR: "1" })
    expect(noColour.stdout).not.toContain("\u001b")
  })

  it("wraps to COLUMNS, groups search results per keyword with numbering across the groups", async () => {
    const fetched = await websearch(["fetch", `${origin}/wide`, ...allow], { COLUMNS: "40" })
    const long = fetched.stdout.split("\n").filter((line) => [...line].length > 40 && line.includes(" "))
    expect(long).toEqual([])
    const searched = await websearch(["search", "alpha", "beta", "--max-results", "2", "--allow-host", hostPort], {
      DUCKDUCKGO_API_HOST: origin
    })
    expect(searched.code).toBe(0)
    const lines = searched.stdout.split("\n")
    expect(lines[0]).toBe("alpha")
    expect(lines).toContain("beta")
    expect(lines.filter((line) => /^\[\d\] /.test(line)).map((line) => line.slice(0, 3))).toEqual([
      "[1]",
      "[2]",
      "[3]",
      "[4]"
    ])
  })

  it("--format markdown prints headings and links; --quiet prints no progress and no closing line", async () => {
    const markdown = await websearch(["fetch", `${origin}/md`, "--format", "markdown", ...allow])
    expect(markdown.stdout.startsWith("## [1] Page md\n\n<http://")).toBe(true)
    const quiet = await websearch(["fetch", `${origin}/q`, `${origin}/missing`, "--quiet", ...allow])
    expect(quiet.code).toBe(0)
    expect(quiet.stdout).toContain("Page q")
    expect(quiet.stderr).toBe("")
    expect((await websearch(["fetch", `${origin}/q`, "--format", "json", ...allow])).stdout).toMatch(/^\{"ok":true/)
  })

  it("hints name the flag: --allow-host for a refused host", async () => {
    const refused = await websearch(["fetch", `${origin}/page`])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("--allow-host")
    expect(refused.stderr).not.toContain("urlPolicy")
  })
})

describe("websearch configuration, cache and doctor", { timeout: 180_000 }, () => {
  it("finds $XDG_CONFIG_HOME/websearch/config.json; WEBSEARCH_CONFIG and --config win over it", async () => {
    const xdg = tempDir()
    mkdirSync(join(xdg, "websearch"))
    const found = join(xdg, "websearch", "config.json")
    writeFileSync(found, JSON.stringify({ defaults: { searchKeywords: "brave" } }))
    const env = { XDG_CONFIG_HOME: xdg }
    expect(json((await websearch(["search", "x", "--json"], env)).stdout).error).toMatchObject({ providerId: "brave" })
    expect((await websearch(["config", "path"], env)).stdout).toBe(`${found}\n`)
    const other = join(tempDir(), "other.json")
    writeFileSync(other, JSON.stringify({ defaults: { searchKeywords: "exa" } }))
    const third = join(tempDir(), "third.json")
    writeFileSync(third, JSON.stringify({ defaults: { searchKeywords: "tavily" } }))
    const byVariable = await websearch(["search", "x", "--json"], { ...env, WEBSEARCH_CONFIG: other })
    expect(json(byVariable.stdout).error).toMatchObject({ providerId: "exa" })
    const byFlag = await websearch(["search", "x", "--json", "--config", third], { ...env, WEBSEARCH_CONFIG: other })
    expect(json(byFlag.stdout).error).toMatchObject({ providerId: "tavily" })
    expect((await websearch(["config", "path"], { ...env, WEBSEARCH_CONFIG: other })).stdout).toBe(`${other}\n`)
  })

  it("config init writes a commented file that loads, and never overwrites it", async () => {
    const xdg = tempDir()
    const env = { XDG_CONFIG_HOME: xdg }
    const target = join(xdg, "websearch", "config.json")
    const first = await websearch(["config", "init"], env)
    expect(first.code).toBe(0)
    expect(first.stdout).toBe(`${target}\n`)
    const written = readFileSync(target, "utf8")
    expect(written).toContain("// websearch settings")
    expect((await websearch(["providers", "--json"], env)).code).toBe(0)
    writeFileSync(target, `${written}\n`)
    const second = await websearch(["config", "init"], env)
    expect(second.code).toBe(1)
    expect(second.stderr).toContain("already exists")
    expect(readFileSync(target, "utf8")).toBe(`${written}\n`)
  })

  it("the persistent cache answers a repeated fetch locally; --no-cache goes to the origin", async () => {
    const cache = tempDir()
    const config = join(tempDir(), "config.json")
    writeFileSync(config, JSON.stringify({ cache: { persistent: true } }))
    const env = { XDG_CACHE_HOME: cache, WEBSEARCH_CONFIG: config }
    hits.length = 0
    const first = await websearch(["fetch", `${origin}/cached`, ...allow], env)
    const second = await websearch(["fetch", `${origin}/cached`, ...allow], env)
    expect(first.code).toBe(0)
    expect(second.stdout).toBe(first.stdout)
    expect(hits).toEqual(["/cached"])
    expect(existsSync(join(cache, "websearch"))).toBe(true)
    // Pages and the URLs asked for are private to the user.
    expect(statSync(join(cache, "websearch")).mode & 0o777).toBe(0o700)
    await websearch(["fetch", `${origin}/cached`, "--no-cache", ...allow], env)
    expect(hits).toEqual(["/cached", "/cached"])
    // Off by default: without the setting every run reaches the origin.
    await websearch(["fetch", `${origin}/cached`, ...allow], { XDG_CACHE_HOME: cache })
    expect(hits).toHaveLength(3)
  })

  it("--max-length and --start-index print a page in parts that join to the whole; the cut says how to read on", async () => {
    const cache = tempDir()
    const config = join(tempDir(), "config.json")
    writeFileSync(config, JSON.stringify({ cache: { persistent: true } }))
    const env = { XDG_CACHE_HOME: cache, WEBSEARCH_CONFIG: config }
    const url = `${origin}/parts`
    hits.length = 0
    type Part = { readonly content: string; readonly totalLength?: number; readonly nextStartIndex?: number }
    const part = async (flags: ReadonlyArray<string>) => {
      const ran = await websearch(["fetch", url, "--json", ...flags, ...allow], env)
      expect(ran.code).toBe(0)
      return (json(ran.stdout).response.results as unknown as ReadonlyArray<Part>)[0]
    }
    const whole = await part([])
    expect(whole.nextStartIndex).toBeUndefined()
    const first = await part(["--max-length", "60"])
    expect(first.content.length).toBeLessThanOrEqual(60)
    expect(first.totalLength).toBe(whole.content.length)
    expect(first.nextStartIndex).toBe(first.content.length)
    const rest = await part(["--start-index", String(first.nextStartIndex)])
    expect(first.content + rest.content).toBe(whole.content)
    expect(rest.nextStartIndex).toBeUndefined()
    // Human output names the numbers and the flag that reads on.
    const human = await websearch(["fetch", url, "--max-length", "60", ...allow], env)
    expect(human.stdout).toContain(
      `[cut at character ${first.nextStartIndex} of ${whole.content.length}; read on with --start-index ${first.nextStartIndex}]`
    )
    // With the persistent cache, every part after the first came from it.
    expect(hits).toEqual(["/parts"])
    for (const bad of [
      ["--max-length", "1"],
      ["--start-index", "2000000000"],
      ["--max-length", "lots"]
    ]) {
      const refused = await websearch(["fetch", url, ...bad, ...allow], env)
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain(bad[0])
    }
  })

  const doctorConfig = () => {
    const config = join(tempDir(), "config.json")
    writeFileSync(
      config,
      JSON.stringify({ defaults: { fetchUrls: null, research: null, mapSite: null, crawlSite: null } })
    )
    return config
  }

  it("doctor on a healthy setup: one ok line per check, exit 0", async () => {
    const ran = await websearch(["doctor", "--allow-host", hostPort], {
      WEBSEARCH_CONFIG: doctorConfig(),
      DUCKDUCKGO_API_HOST: origin
    })
    expect(ran.code).toBe(0)
    const lines = ran.stdout.trim().split("\n")
    expect(lines[0]).toMatch(/^ok +config: \/.*config\.json \(WEBSEARCH_CONFIG\)$/)
    expect(lines).toContain(lines.find((line) => /^ok +duckduckgo searchKeywords: \d+ result/.test(line)))
    expect(lines.some((line) => /^(ok|skipped) +chromium: /.test(line))).toBe(true)
    expect(lines.some((line) => /^skipped +cache: /.test(line))).toBe(true)
    expect(lines.some((line) => line.startsWith("broken"))).toBe(false)
  })

  it("doctor on a broken setup: the broken provider and a broken file each say so, exit 1", async () => {
    const down = await websearch(["doctor", "--allow-host", "127.0.0.1:9"], {
      WEBSEARCH_CONFIG: doctorConfig(),
      DUCKDUCKGO_API_HOST: "http://127.0.0.1:9"
    })
    expect(down.code).toBe(1)
    expect(down.stdout).toMatch(/^broken +duckduckgo searchKeywords: RequestFailed\/network/m)
    const bad = join(tempDir(), "bad.json")
    writeFileSync(bad, JSON.stringify({ maxResults: 0 }))
    const invalid = await websearch(["doctor", "--json"], { WEBSEARCH_CONFIG: bad })
    expect(invalid.code).toBe(1)
    expect(json(invalid.stdout).response.lines[0]).toMatchObject({ subject: "config", status: "broken" })
  })
})
