/**
 * Issue 36, the first hour of a new user, with the binary as a process against a local origin that records what it
 * is asked: options after `-`, "did you mean", the commented settings template, reading past a page's end (the
 * command line and MCP), a page's headings nested under the result's in markdown, completion scripts that offer
 * only what the command line accepts, `doctor` without repeated log lines, and the MCP endpoint's own body limit.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import * as Either from "effect/Either"
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Cli from "../src/internal/cli.js"
import * as DuckDuckGo from "./support/duckduckgoStandIn.js"
import { websearch } from "./support/process.js"

const bin = fileURLToPath(new URL("../bin/websearch.js", import.meta.url))
const guard = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i} about layers and services`).join(" ")

// A page with its own headings at every level and a code block that holds heading-like lines.
const guide = `<html><head><title>Guide</title></head><body><article><h1>Guide</h1><p>${words(40)}</p>
<h2>Install</h2><p>${words(20)}</p><pre><code>## not a heading
# neither</code></pre><h3>Details</h3><p>${words(20)}</p><h5>Deep</h5><p>${words(8)}</p></article></body></html>`

let server: Server
let origin = ""
const hits: Array<string> = []
const queries: Array<string> = []

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = request.url ?? ""
    hits.push(url)
    if (DuckDuckGo.answer(request, response, (keyword) => queries.push(keyword))) return
    if (url.startsWith("/broken")) {
      response.writeHead(500, { "content-type": "text/plain" }).end("down")
      return
    }
    const body = url.startsWith("/guide")
      ? guide
      : `<html><head><title>Page ${url.slice(1)}</title></head><body><article><h1>Page ${url.slice(1)}</h1><p>${words(12)}</p></article></body></html>`
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const allow = ["--allow-host", "127.0.0.1"]
const tempDir = () => mkdtempSync(join(tmpdir(), "websearch-cli-36-"))

interface Answer {
  readonly ok: boolean
  readonly response: {
    readonly inputs: ReadonlyArray<string>
    readonly results: ReadonlyArray<{
      readonly title: string
      readonly sourceInput: string
      readonly content: string
      readonly totalLength?: number
    }>
    readonly failures: ReadonlyArray<{ readonly input: string; readonly reason: string; readonly message: string }>
  }
  readonly error: { readonly reason: string; readonly message: string }
  readonly failures: ReadonlyArray<{ readonly input: string; readonly reason: string; readonly message: string }>
}

const json = (stdout: string): Answer => {
  const lines = stdout.trim().split("\n")
  expect(lines).toHaveLength(1)
  return JSON.parse(lines[0]) as Answer
}

describe("'-' is one argument among the others", { timeout: 120_000 }, () => {
  it("fetch - --format markdown reads stdin's URLs and prints markdown; no option becomes an input", async () => {
    hits.length = 0
    const ran = await websearch(["fetch", "-", "--format", "markdown", ...allow], {}, 90_000, {
      stdin: `${origin}/one\n${origin}/two\n`
    })
    expect(ran.code).toBe(0)
    expect(ran.stdout).toMatch(/^## \[1\] Page (one|two)$/m)
    expect(ran.stdout).toMatch(/^## \[2\] Page (one|two)$/m)
    expect(ran.stderr).not.toContain("failed")
    expect(hits.sort()).toEqual(["/one", "/two"])
  })

  it("search - --max-results 3 --json sends the stdin keywords only, each with at most 3 results", async () => {
    queries.length = 0
    const ran = await websearch(
      ["search", "-", "--max-results", "3", "--json", ...allow],
      {
        DUCKDUCKGO_API_HOST: origin
      },
      90_000,
      { stdin: "alpha\nbeta\n" }
    )
    expect(ran.code).toBe(0)
    const out = json(ran.stdout)
    expect(out.response.inputs).toEqual(["alpha", "beta"])
    expect(queries.sort()).toEqual(["alpha", "beta"])
    for (const keyword of ["alpha", "beta"]) {
      const found = out.response.results.filter((r) => r.sourceInput === keyword)
      expect(found.length).toBeGreaterThan(0)
      expect(found.length).toBeLessThanOrEqual(3)
    }
  })

  it("-q after - is the quiet flag: no progress lines, no closing line", async () => {
    hits.length = 0
    const ran = await websearch(["fetch", "-", "-q", ...allow], {}, 90_000, {
      stdin: `${origin}/three\n${origin}/four\n`
    })
    expect(ran.code).toBe(0)
    expect(ran.stderr).toBe("")
    expect(hits.sort()).toEqual(["/four", "/three"])
  })

  it("a '-' that is an option's value stays that value", () => {
    expect(Cli.parse(["fetch", "-", "--provider", "-"])).toMatchObject({
      _tag: "Right",
      right: { _tag: "Fetch", urls: ["-"], provider: "-" }
    })
  })
})

describe("did you mean", { timeout: 120_000 }, () => {
  it("a mistyped option or command names the nearest one", async () => {
    const option = await websearch(["search", "x", "--max-result", "3"])
    expect(option.code).toBe(2)
    expect(option.stderr).toContain(
      "unknown option --max-result: did you mean --max-results? (see websearch search --help)"
    )
    const command = await websearch(["serach", "x"])
    expect(command.code).toBe(2)
    expect(command.stderr).toContain('unknown command "serach": did you mean "search"?')
    // Nothing near: no guess.
    expect((await websearch(["search", "x", "--zzzzzzzz"])).stderr).not.toContain("did you mean")
  })
})

describe("mcp's options", { timeout: 120_000 }, () => {
  it("mcp --help does not offer --json, and mcp --json is a usage error", async () => {
    const help = await websearch(["mcp", "--help"])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("--http")
    expect(help.stdout).not.toContain("--json")
    const refused = await websearch(["mcp", "--json"])
    expect(refused.code).toBe(2)
    expect(json(refused.stdout).error.message).toBe('--json does not apply to "mcp"')
  })
})

// A commented setting is one line `// "key": value,`; every other comment line is prose.
const settingLine = /^(\s*)\/\/ (".*)$/

describe("config init", { timeout: 300_000 }, () => {
  it("every commented line of the template, uncommented (all together, and each alone), gives valid settings", async () => {
    const written = join(tempDir(), "config.json")
    const init = await websearch(["config", "init", "--config", written])
    expect(init.code).toBe(0)
    const lines = readFileSync(written, "utf8").split("\n")
    const settings = lines.flatMap((line, index) => (settingLine.test(line) ? [index] : []))
    // The template offers the usual settings; none hides in a prose comment.
    expect(settings.length).toBeGreaterThanOrEqual(6)
    for (const line of lines) {
      if (line.trimStart().startsWith("//") && !settingLine.test(line)) expect(line).not.toMatch(/^\s*\/\/\s*["{}]/)
    }
    const uncommented = (which: ReadonlyArray<number>) =>
      lines.map((line, index) => (which.includes(index) ? line.replace(settingLine, "$1$2") : line)).join("\n")
    const variants = [settings, ...settings.map((index) => [index])]
    const runs = await Promise.all(
      variants.map(async (which) => {
        const file = join(tempDir(), "config.json")
        writeFileSync(file, uncommented(which))
        return { which, ran: await websearch(["providers", "--json", "--config", file]) }
      })
    )
    for (const { ran, which } of runs) {
      expect({ lines: which.map((i) => lines[i].trim()), code: ran.code, stdout: ran.stdout.slice(0, 400) }).toEqual({
        lines: which.map((i) => lines[i].trim()),
        code: 0,
        stdout: expect.stringMatching(/^\{"ok":true/)
      })
    }
  })
})

describe("settings from the environment", { timeout: 180_000 }, () => {
  interface Row {
    readonly id: string
    readonly capabilities: ReadonlyArray<{ readonly feature: string; readonly apiHost: string | null }>
  }
  const hostsOf = (stdout: string, id: string) =>
    Object.fromEntries(
      (JSON.parse(stdout) as { response: ReadonlyArray<Row> }).response
        .find((row) => row.id === id)!
        .capabilities.map((c) => [c.feature, c.apiHost])
    )

  it("<PROVIDER>_API_HOST sets every capability's endpoint, the per-capability one wins; WEBSEARCH_ALLOW_HOSTS lets it be local", async () => {
    const env = {
      TAVILY_API_KEY: "tvly-test-0001",
      TAVILY_API_HOST: origin,
      JINA_API_HOST: `${origin}/jina`,
      JINA_FETCH_URLS_API_HOST: `${origin}/reader`,
      WEBSEARCH_ALLOW_HOSTS: "127.0.0.1"
    }
    const listed = await websearch(["providers", "--json"], env)
    expect(listed.code, listed.stdout).toBe(0)
    expect(hostsOf(listed.stdout, "tavily")).toEqual({
      searchKeywords: origin,
      fetchUrls: origin,
      mapSite: origin,
      crawlSite: origin
    })
    expect(hostsOf(listed.stdout, "jina")).toEqual({ searchKeywords: `${origin}/jina`, fetchUrls: `${origin}/reader` })
    // Tavily's capabilities call the endpoint the one variable set.
    hits.length = 0
    await websearch(["search", "layers", "--provider", "tavily", "--json"], env)
    await websearch(["fetch", "https://example.com/", "--provider", "tavily", "--json"], env)
    expect(hits).toEqual(["/search", "/extract"])
    // Without the allowlist the local endpoint is refused at start, naming what allows it.
    const { WEBSEARCH_ALLOW_HOSTS: _, ...unlisted } = env
    const refused = await websearch(["providers", "--json"], unlisted)
    expect(refused.code).toBe(1)
    expect(json(refused.stdout).error).toMatchObject({ reason: "invalid_config" })
  })

  it("a malformed WEBSEARCH_ALLOW_HOSTS or WEBSEARCH_ALLOW_CIDRS entry stops the command, naming the variable", async () => {
    const ran = await websearch(["providers", "--json"], {
      WEBSEARCH_ALLOW_HOSTS: "ok.example,http://bad.example/x",
      WEBSEARCH_ALLOW_CIDRS: "10.0.0.0/99"
    })
    expect(ran.code).toBe(1)
    const error = json(ran.stdout).error
    expect(error).toMatchObject({ reason: "invalid_config" })
    expect(error.message).toContain('WEBSEARCH_ALLOW_HOSTS: "http://bad.example/x" (entry 2): ')
    expect(error.message).toContain('WEBSEARCH_ALLOW_CIDRS: "10.0.0.0/99" (entry 1): ')
  })
})

describe("reading past the end of a page", { timeout: 180_000 }, () => {
  it("fetch --start-index past the end says how long the page is and exits 1; with another page, 0", async () => {
    const url = `${origin}/paged`
    const whole = json((await websearch(["fetch", url, "--json", ...allow])).stdout).response.results[0]
    const length = whole.content.length
    expect(length).toBeGreaterThan(100)
    const human = await websearch(["fetch", url, "--start-index", "99999", ...allow])
    expect(human.code).toBe(1)
    expect(human.stdout).toBe("")
    expect(human.stderr).toContain(
      `--start-index 99999 is past the end: the page has ${length.toLocaleString("en-US")} characters ` +
        `(the last --start-index that reads any is ${length - 1})`
    )
    const structured = await websearch(["fetch", url, "--start-index", "99999", "--json", ...allow])
    expect(structured.code).toBe(1)
    expect(json(structured.stdout).error).toMatchObject({ _tag: "RequestFailed", reason: "invalid_input" })
    // A start inside one page and past the end of the other: the first is printed, the second is its failure.
    const long = `${origin}/guide`
    const mixed = await websearch(["fetch", long, url, "--start-index", String(length + 5), "--json", ...allow])
    expect(mixed.code).toBe(0)
    const out = json(mixed.stdout)
    expect(out.response.results.map((r) => r.sourceInput)).toEqual([long])
    expect(out.response.failures).toEqual([
      expect.objectContaining({ input: url, reason: "invalid_input", message: expect.stringContaining("past the end") })
    ])
  })

  it("MCP web_fetch with a startIndex past the end names the index asked for and the page's length", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", guard, bin, "mcp", ...allow],
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
      stderr: "pipe"
    })
    const client = new Client({ name: "first-hour", version: "1.0.0" })
    await client.connect(transport, { timeout: 150_000 })
    try {
      const read = (await client.callTool(
        { name: "web_fetch", arguments: { items: [{ url: `${origin}/paged`, startIndex: 99999 }] } },
        undefined,
        { timeout: 150_000 }
      )) as { readonly content: ReadonlyArray<{ readonly text?: string }> }
      const text = read.content.map((c) => c.text ?? "").join("\n")
      const notice =
        /\[startIndex 99999 is past the end: the page has ([\d,]+) characters \(the last startIndex that reads any is (\d+)\)/.exec(
          text
        )
      expect(notice, text).not.toBeNull()
      expect(Number(notice![1].replaceAll(",", ""))).toBe(Number(notice![2]) + 1)
    } finally {
      await client.close()
    }
  })
})

describe("markdown output", { timeout: 120_000 }, () => {
  it("a page's own headings sit below the result's heading, capped at ######; code blocks are left alone", async () => {
    const ran = await websearch(["fetch", `${origin}/guide`, "--format", "markdown", ...allow])
    expect(ran.code).toBe(0)
    let fenced = false
    const headings = ran.stdout.split("\n").filter((line) => {
      if (line.startsWith("```")) fenced = !fenced
      return !fenced && /^#{1,6} /.test(line)
    })
    expect(headings[0]).toBe("## [1] Guide")
    expect(headings.slice(1)).toEqual(["#### Install", "##### Details", "###### Deep"])
    expect(ran.stdout).toContain("```\n## not a heading\n# neither\n```")
  })
})

describe("completion scripts", { timeout: 120_000 }, () => {
  // The options a script offers, per command (its subcommand word, or "" at the top).
  const offered = (shell: string, script: string): Array<readonly [string, string]> => {
    const out: Array<readonly [string, string]> = []
    if (shell === "bash") {
      let command = ""
      for (const line of script.split("\n")) {
        const block = /^ {8}websearch(?:__([a-z]+))?\)$/.exec(line)
        if (block !== null) command = block[1] ?? ""
        const opts = /^\s*opts="([^"]*)"/.exec(line)
        if (opts !== null) for (const word of opts[1].split(" ")) if (word.startsWith("-")) out.push([command, word])
      }
    } else if (shell === "zsh") {
      let command = ""
      for (const line of script.split("\n")) {
        const block = /^\s*\(([a-z]+)\)$/.exec(line)
        if (block !== null) command = block[1]
        const option = /^\s*'(--?[a-z-]+)\[/.exec(line)
        if (option !== null) out.push([command, option[1]])
      }
    } else {
      for (const line of script.split("\n")) {
        const command = /__fish_seen_subcommand_from ([a-z]+)/.exec(line)?.[1] ?? ""
        const long = / -l ([a-z-]+)/.exec(line)
        if (long !== null) out.push([command, `--${long[1]}`])
      }
    }
    return out
  }

  it.each(["bash", "zsh", "fish"])("the %s script offers only options the command line accepts", async (shell) => {
    const ran = await websearch(["completions", shell])
    expect(ran.code).toBe(0)
    const options = offered(shell, ran.stdout)
    expect(options.length).toBeGreaterThan(50)
    const refused = options.filter(([command, option]) => {
      // The option with a value where it takes one; a refusal names it as unknown or misplaced.
      const parsed = Cli.parse([...(command === "" ? [] : [command]), option, "1"])
      return Either.isLeft(parsed) && /unknown option|does not apply/.test(parsed.left.message)
    })
    expect(refused).toEqual([])
    for (const builtIn of ["--completions", "--log-level", "--wizard"]) expect(ran.stdout).not.toContain(builtIn)
  })
})

describe("doctor", { timeout: 120_000 }, () => {
  it("prints its table only (no log lines repeating it) and a line for the Node version", async () => {
    const config = join(tempDir(), "config.json")
    writeFileSync(config, JSON.stringify({ defaults: { fetchUrls: null, research: null } }))
    const ran = await websearch(["doctor", ...allow], {
      WEBSEARCH_CONFIG: config,
      DUCKDUCKGO_API_HOST: `${origin}/broken`
    })
    expect(ran.code).toBe(1)
    expect(ran.stdout).toMatch(/^broken +duckduckgo searchKeywords: /m)
    expect(ran.stderr).not.toContain("level=WARN")
    expect(ran.stderr).toBe("")
    const major = Number(process.versions.node.split(".")[0])
    expect(ran.stdout).toMatch(
      major < 22
        ? /^warning node: .*past its end of life \(April 2026\).*use Node 22 or 24$/m
        : new RegExp(`^ok +node: ${process.versions.node}$`, "m")
    )
  })
})

describe("mcp --http", { timeout: 120_000 }, () => {
  // Starts `mcp --http 0`, waits for its listening line, posts a body of `bytes` bytes; returns the status.
  const postTo = (env: Record<string, string>, bytes: number) =>
    new Promise<{ readonly status: number; readonly stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", guard, bin, "mcp", "--http", "0"], {
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let stderr = ""
      let sent = false
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk
        const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1]
        if (url === undefined || sent) return
        sent = true
        const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(bytes) } })
        fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body
        }).then(
          async (response) => {
            await response.text()
            // Give a note that follows the listening line time to arrive.
            setTimeout(() => child.kill("SIGTERM"), 200)
            child.once("close", () => resolve({ status: response.status, stderr }))
          },
          (error: unknown) => {
            child.kill("SIGKILL")
            reject(error)
          }
        )
      })
      child.once("close", (code) => {
        if (!sent) reject(new Error(`mcp --http exited (${code}) before listening: ${stderr}`))
      })
    })

  it("prints its listening line; its body limit is WEBSEARCH_MCP_MAX_BODY_BYTES, not serve's variable", async () => {
    const limited = await postTo({ WEBSEARCH_MCP_MAX_BODY_BYTES: "2048" }, 4000)
    expect(limited.stderr).toMatch(/websearch mcp: listening on http:\/\/127\.0\.0\.1:\d+\/mcp/)
    expect(limited.status).toBe(413)
    // serve's variable no longer sets this endpoint's limit, and the command says so.
    const serves = await postTo({ WEBSEARCH_SERVER_MAX_BODY_BYTES: "2048" }, 4000)
    expect(serves.status).not.toBe(413)
    expect(serves.stderr).toContain(
      "WEBSEARCH_SERVER_MAX_BODY_BYTES is serve's limit; this endpoint's is WEBSEARCH_MCP_MAX_BODY_BYTES (now 1048576 bytes)"
    )
  })
})
