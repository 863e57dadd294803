// The consumer test: packs every workspace package (`npm pack`, which runs each package's prepack build), installs
// them into a new project outside the repository exactly as README.md says (its `npm install` lines, with the
// tarballs in place of the @websearch packages and nothing else changed), and uses them as a user would — a plain
// Node program (app.mjs), tsc under strict settings over every ```ts block of the README (each block a module),
// the README's first example run without keys, the globally installed `websearch` bin (--help, fetch, provider
// modules, one of them on ProviderHttp, MCP over stdio to the official SDK client) — under each Node binary given.
//
//   node test-consumer/run.mjs [--node PATH]... [--json FILE] [--keep]
//
// --node: run the checks under this Node binary (repeatable; default: the Node running this script). Packing and
// installing happen once, with the npm on PATH. --json: also write {passed, failed, figures} to FILE. --keep: leave
// the temporary project in place. Prints `ok`/`not ok` per check, the figures, and `N passed, N failed`.
import { spawn, spawnSync } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { Readme } from "./readme.mjs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { delimiter, dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"

const here = dirname(fileURLToPath(import.meta.url))
const root = dirname(here)
const { values } = parseArgs({
  options: {
    node: { type: "string", multiple: true },
    json: { type: "string" },
    keep: { type: "boolean", default: false }
  }
})
const nodes = values.node?.length ? values.node : [process.execPath]

let passed = 0
let failed = 0
const figures = { tarballs: {}, nodes: {} }
const check = async (name, body) => {
  try {
    await body()
    passed++
    console.log(`ok - ${name}`)
  } catch (error) {
    failed++
    console.log(`not ok - ${name}: ${error instanceof Error ? error.message : String(error)}`)
  }
}
const assert = (condition, message) => {
  if (!condition) throw new Error(message)
}
const clip = (text, max = 600) => (text.length > max ? `${text.slice(0, max)}…` : text)

/** Runs a command to completion; never throws (the checks judge the result). */
const run = (command, args, options = {}) =>
  new Promise((resolve) => {
    const started = performance.now()
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk))
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 300_000)
    child.on("error", (error) => {
      clearTimeout(timer)
      resolve({ code: -1, stdout, stderr: String(error), ms: performance.now() - started })
    })
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr, ms: performance.now() - started })
    })
  })
const lastJsonLine = (text) => JSON.parse(text.trim().split("\n").at(-1) ?? "")
const median = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

// A page big enough (over 64 KiB) that the fetch provider extracts it on its worker thread, so the installed
// worker entry points (dist/internal/extractWorker.js, the bundle's chunks/extractWorker.mjs) are exercised.
const marker = "The consumer marker sentence is forty-two."
const paragraph = "<p>Installable packages are read through their declarations and run from their compiled modules.</p>"
const page = `<!doctype html><html lang="en"><head><title>Consumer page</title></head><body><article><h1>Consumer page</h1><p>${marker}</p>${paragraph.repeat(800)}</article></body></html>`
// A page whose text only a browser sees: its script writes the article (the CLI renders it with --render always,
// loading the playwright-core it declares as a dependency, with the system Chromium).
const rendered = "Rendered by script in Chromium."
const scripted = `<!doctype html><html><head><title>Scripted page</title></head><body><div id="app"></div><script>document.getElementById("app").innerHTML = "<article><h1>Scripted page</h1><p>" + ${JSON.stringify(rendered)} + "</p></article>"</script></body></html>`
// A JSON search API for the ProviderHttp module (provider-http-module.mjs); it records the key each call sends.
const apiKeys = []
const server = createServer((request, response) => {
  if (request.url?.startsWith("/v1/search")) {
    apiKeys.push(request.headers["x-api-key"])
    const q = new URL(request.url, "http://x").searchParams.get("q")
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ hits: [{ title: `Acme result for ${q}`, url: "https://acme.example/1", text: q }] }))
    return
  }
  response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
  response.end(request.url === "/scripted" ? scripted : page)
})
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
const pageUrl = `http://127.0.0.1:${server.address().port}/page`
const scriptedUrl = `http://127.0.0.1:${server.address().port}/scripted`

const work = mkdtempSync(join(tmpdir(), "websearch-consumer-"))
const tarballs = join(work, "tarballs")
const project = join(work, "project")
// `npm install --global` lines install here (npm_config_prefix), not into the machine's global prefix.
const globalPrefix = join(work, "global")
mkdirSync(tarballs)
mkdirSync(project)
mkdirSync(globalPrefix)
const readme = Readme.read(join(root, "README.md"))

try {
  // --- pack ------------------------------------------------------------------------------------------------------
  let packed = []
  await check("npm pack --workspaces (each prepack builds its dist)", async () => {
    const result = await run("npm", ["pack", "--workspaces", "--json", "--pack-destination", tarballs], {
      cwd: root,
      timeoutMs: 900_000
    })
    assert(result.code === 0, `exit ${result.code}: ${clip(result.stderr)}`)
    // Lifecycle output may precede the JSON document on stdout.
    packed = JSON.parse(result.stdout.slice(result.stdout.search(/^\[/m)))
    assert(packed.length === 7, `expected 7 tarballs, got ${packed.length}`)
    figures.packSeconds = Math.round(result.ms / 100) / 10
  })
  for (const pkg of packed) {
    figures.tarballs[pkg.name] = {
      packedKiB: Math.round(pkg.size / 1024),
      unpackedKiB: Math.round(pkg.unpackedSize / 1024),
      files: pkg.files.length
    }
  }
  await check("no tarball holds a test file, a tsconfig or build info", () => {
    const forbidden =
      /(^|\/)(test|tests|__tests__|fixtures)\/|\.(test|spec)\.[cm]?[jt]s$|(^|\/)tsconfig[^/]*\.json$|\.tsbuildinfo$/
    const bad = packed.flatMap((pkg) =>
      pkg.files.filter((f) => forbidden.test(f.path)).map((f) => `${pkg.name}: ${f.path}`)
    )
    assert(packed.length > 0 && bad.length === 0, bad.slice(0, 10).join(", ") || "nothing was packed")
  })
  await check("every tarball holds dist (js, d.ts, maps), README.md, LICENSE and package.json", () => {
    const missing = []
    for (const pkg of packed) {
      const paths = new Set(pkg.files.map((f) => f.path))
      const need = [
        "package.json",
        "README.md",
        "LICENSE",
        "dist/index.js",
        "dist/index.d.ts",
        "dist/index.d.ts.map",
        "dist/index.js.map"
      ]
      if (pkg.name === "@websearch/cli") {
        need.push(
          "bin/websearch.js",
          "dist/websearch.mjs",
          "dist/chunks/extractWorker.mjs",
          "dist/chunks/pdf.worker.mjs"
        )
      }
      if (pkg.name === "@websearch/node") need.push("dist/internal/extractWorker.js")
      for (const path of need) if (!paths.has(path)) missing.push(`${pkg.name}: ${path}`)
    }
    assert(packed.length > 0 && missing.length === 0, missing.join(", ") || "nothing was packed")
  })

  // --- install ---------------------------------------------------------------------------------------------------
  const version = (name) => JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify({ name: "websearch-consumer", private: true, type: "module" }, null, 2)}\n`
  )
  for (const file of [
    "app.mjs",
    "mcp-client.mjs",
    "provider-module.mjs",
    "provider-http-module.mjs",
    "tsconfig.nodenext.json",
    "tsconfig.bundler.json"
  ]) {
    copyFileSync(join(here, file), join(project, file))
  }
  // Every ```ts block of the README, each a module of its own (tsconfig.*.json include readme/*.ts).
  mkdirSync(join(project, "readme"))
  for (const block of readme.blocks) writeFileSync(join(project, "readme", block.file), block.code)
  const installs = readme.installs
  await check(`README.md's ${installs.length} npm install lines, verbatim but for the tarballs`, async () => {
    assert(installs.length > 0, "README.md has no npm install line")
    const started = performance.now()
    for (const line of installs) {
      const args = line.words.slice(1).map((word) => {
        const name = Readme.websearchPackage(word)
        if (name === undefined) return word
        const pkg = packed.find((p) => p.name === name)
        assert(pkg !== undefined, `README installs ${word}, which is not a workspace package`)
        return join(tarballs, pkg.filename)
      })
      const result = await run("npm", args, {
        cwd: project,
        timeoutMs: 900_000,
        env: { ...process.env, npm_config_prefix: globalPrefix, npm_config_audit: "false", npm_config_fund: "false" }
      })
      assert(
        result.code === 0,
        `\`${line.text}\` (README.md line ${line.line}): exit ${result.code}: ${clip(result.stderr)}`
      )
    }
    // What the test itself needs beside them (not the README's to say): the MCP client, a compiler, Node's types.
    const tools = await run(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--save-dev",
        `@modelcontextprotocol/sdk@^${version("@modelcontextprotocol/sdk")}`,
        `typescript@~${version("typescript")}`,
        "@types/node@^20.19.0",
        // @effect/platform-node's declarations import "ws"; under skipLibCheck: false its types must be present.
        "@types/ws@^8"
      ],
      { cwd: project, timeoutMs: 900_000 }
    )
    assert(tools.code === 0, `the test's own tools: exit ${tools.code}: ${clip(tools.stderr)}`)
    figures.installSeconds = Math.round((performance.now() - started) / 100) / 10
  })
  const globalCli = join(globalPrefix, "lib", "node_modules", "@websearch", "cli")
  await check("every @websearch package came from its tarball (the CLI globally, the others in the project)", () => {
    const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8"))
    const ours = Object.entries(lock.packages).filter(([path]) => path.includes("node_modules/@websearch/"))
    const elsewhere = ours.filter(([, entry]) => !String(entry.resolved ?? "").startsWith("file:"))
    const local = ours.map(([path]) => path.split("node_modules/").at(-1)).sort()
    const expected = packed
      .map((pkg) => pkg.name)
      .filter((name) => name !== "@websearch/cli")
      .sort()
    assert(JSON.stringify(local) === JSON.stringify(expected), `in the project: ${local.join(", ")}`)
    assert(elsewhere.length === 0, `resolved from elsewhere than the tarballs: ${elsewhere.map(([p]) => p).join(", ")}`)
    const cli = JSON.parse(readFileSync(join(globalCli, "package.json"), "utf8"))
    assert(cli.version === packed.find((pkg) => pkg.name === "@websearch/cli")?.version, `global CLI ${cli.version}`)
  })
  await check(
    "the README's lines (and each package's own README) name every peer each package declares; npm ls finds none missing",
    async () => {
      const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8"))
      const named = new Set(Object.keys(manifest.dependencies ?? {}))
      const missing = []
      for (const pkg of packed.filter((p) => p.name !== "@websearch/cli")) {
        const own = JSON.parse(readFileSync(join(project, "node_modules", pkg.name, "package.json"), "utf8"))
        for (const peer of Object.keys(own.peerDependencies ?? {})) {
          if (own.peerDependenciesMeta?.[peer]?.optional === true && !named.has(peer)) continue
          if (!named.has(peer)) missing.push(`${pkg.name} → ${peer}`)
        }
      }
      assert(missing.length === 0, `peers the README's install lines do not name: ${missing.join(", ")}`)
      // Each package's own README (its page on npm) installs it with its peers at the ranges it declares.
      for (const pkg of packed.filter((p) => p.name !== "@websearch/cli")) {
        const dir = join(project, "node_modules", pkg.name)
        const own = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
        const words = Readme.read(join(dir, "README.md")).installs[0]?.words ?? []
        for (const [peer, range] of Object.entries(own.peerDependencies ?? {})) {
          if (own.peerDependenciesMeta?.[peer]?.optional === true) continue
          const wanted = peer.startsWith("@websearch/") ? peer : `${peer}@${range}`
          if (!words.includes(wanted)) missing.push(`${pkg.name}'s README → ${wanted}`)
        }
      }
      assert(missing.length === 0, `package READMEs that do not install a peer at its range: ${missing.join(", ")}`)
      const ls = await run("npm", ["ls", "--all"], { cwd: project })
      assert(
        ls.code === 0,
        `npm ls: ${clip(
          ls.stdout
            .split("\n")
            .filter((l) => /UNMET|invalid|missing/i.test(l))
            .join("\n") || ls.stderr
        )}`
      )
    }
  )
  await check(
    "exports give types only as .d.ts and code only as dist .js (no .ts reachable without our condition)",
    () => {
      const bad = []
      const walk = (name, value, conditions) => {
        if (value === null) return
        if (typeof value === "string") {
          const viaSource = conditions.includes("@websearch/source")
          if (!viaSource && conditions.includes("types") && !value.endsWith(".d.ts"))
            bad.push(`${name} types → ${value}`)
          if (!viaSource && !conditions.includes("types") && !/^\.\/(dist\/.*\.js|package\.json)$/.test(value)) {
            bad.push(`${name} ${conditions.join("+") || "default"} → ${value}`)
          }
          return
        }
        for (const [key, inner] of Object.entries(value))
          walk(name, inner, key.startsWith(".") ? conditions : [...conditions, key])
      }
      for (const pkg of packed) {
        const installed = pkg.name === "@websearch/cli" ? globalCli : join(project, "node_modules", pkg.name)
        const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"))
        walk(pkg.name, manifest.exports, [])
      }
      assert(bad.length === 0, bad.join(", "))
    }
  )

  // --- under each Node ---------------------------------------------------------------------------------------------
  const bin = join(globalPrefix, "bin", "websearch")
  for (const node of nodes) {
    const nodeVersion = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim()
    const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ""}` }
    const at = (name) => `${name} (node ${nodeVersion})`
    const before = failed
    const measured = {}

    // One run of the program; two checks read its answer.
    const app = await run(node, ["app.mjs", pageUrl], { cwd: project, env })
    await check(at("app.mjs: a provider of its own, registered as a Layer, answers a search"), async () => {
      const result = app
      assert(result.code === 0, `exit ${result.code}: ${clip(result.stderr)}`)
      const out = lastJsonLine(result.stdout)
      assert(out.layer === undefined, `the layer failed: ${JSON.stringify(out.layer)}`)
      assert(out.search.ok, `search failed: ${JSON.stringify(out.search.error)}`)
      assert(out.search.response.providerId === "memory", `answered by ${out.search.response.providerId}`)
      assert(
        out.search.response.results[0]?.title === "Welcome: memory answer for effect layers",
        JSON.stringify(out.search.response.results)
      )
    })
    await check(
      at("app.mjs: its option is checked by its own schema, and an override needs a composed provider"),
      async () => {
        const out = lastJsonLine(app.stdout)
        assert(
          out.badOption?.reason === "invalid_config" && out.badOption.message.includes("providers.memory.greeting"),
          `bad option: ${JSON.stringify(out.badOption)}`
        )
        assert(
          out.unknownOverride?.reason === "invalid_config" &&
            out.unknownOverride.message.includes(
              "providers.mem: no composed provider has this id (composed: memory, fetch)"
            ),
          `unknown override: ${JSON.stringify(out.unknownOverride)}`
        )
      }
    )
    await check(at("app.mjs: the node Fetch provider reads a 127.0.0.1 page (worker extraction)"), async () => {
      const result = app
      assert(result.code === 0, `exit ${result.code}: ${clip(result.stderr)}`)
      const out = lastJsonLine(result.stdout)
      assert(out.layer === undefined, `the layer failed: ${JSON.stringify(out.layer)}`)
      assert(out.fetch.ok, `fetch failed: ${JSON.stringify(out.fetch.error)}`)
      const first = out.fetch.response.results[0]
      assert(first?.title === "Consumer page" && first.content.includes(marker), clip(JSON.stringify(first)))
      assert(!/level=WARN/.test(result.stderr), `warnings: ${clip(result.stderr)}`)
    })
    for (const config of ["tsconfig.nodenext.json", "tsconfig.bundler.json"]) {
      await check(
        at(
          `tsc --noEmit -p ${config}: the README's ${readme.blocks.length} ts blocks (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes)`
        ),
        async () => {
          const tsc = join(project, "node_modules", "typescript", "bin", "tsc")
          const result = await run(node, [tsc, "-p", config, "--listFiles"], { cwd: project, env })
          const listed = result.stdout.split("\n").filter((line) => line.includes("/node_modules/@websearch/"))
          const errors = result.stdout.split("\n").filter((line) => /error TS\d+/.test(line))
          assert(
            result.code === 0,
            `exit ${result.code}: ${clip(errors.join("\n") || result.stdout + result.stderr, 2000)}`
          )
          const sources = listed.filter((line) => !line.endsWith(".d.ts"))
          assert(listed.length > 0, "read no @websearch declaration")
          assert(sources.length === 0, `read sources: ${sources.slice(0, 5).join(", ")}`)
        }
      )
    }
    await check(
      at("the README's first example, compiled and run without keys, exits 0 saying what to set"),
      async () => {
        const example = readme.blocks.find((block) => block.section === "Example")
        assert(example !== undefined, "README.md has no ts block under ## Example")
        const tsc = join(project, "node_modules", "typescript", "bin", "tsc")
        const outDir = join(project, "out")
        const flags = [
          "--module",
          "NodeNext",
          "--moduleResolution",
          "NodeNext",
          "--target",
          "ES2022",
          "--types",
          "node"
        ]
        const built = await run(node, [tsc, ...flags, "--outDir", outDir, join("readme", example.file)], {
          cwd: project,
          env
        })
        assert(built.code === 0, `tsc: ${clip(built.stdout + built.stderr)}`)
        const compiled = join(outDir, example.file.replace(/\.ts$/, ".js"))
        // No provider key, no default: only what any shell has.
        const ran = await run(node, [compiled], { cwd: project, env: { PATH: env.PATH, HOME: process.env.HOME ?? "" } })
        assert(ran.code === 0, `exit ${ran.code}: ${clip(ran.stdout + ran.stderr)}`)
        assert(ran.stderr === "", `stderr: ${clip(ran.stderr)}`)
        assert(
          /^not configured: .*WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER/.test(ran.stdout),
          `stdout: ${clip(ran.stdout)}`
        )
      }
    )
    await check(at("websearch --help and --version from the installed bin"), async () => {
      const help = await run(bin, ["--help"], { cwd: project, env })
      assert(help.code === 0 && help.stdout.includes("Usage:"), `exit ${help.code}: ${clip(help.stdout + help.stderr)}`)
      const shown = await run(bin, ["--version"], { cwd: project, env })
      const expected = packed.find((pkg) => pkg.name === "@websearch/cli")?.version
      assert(shown.stdout.trim() === expected, `--version printed ${clip(shown.stdout)}, expected ${expected}`)
      // Cold start: the median of 10 runs of --help, beside the median of 10 starts of node itself.
      const samples = []
      const bare = []
      for (let i = 0; i < 10; i++) {
        samples.push((await run(bin, ["--help"], { cwd: project, env })).ms)
        bare.push((await run(node, ["-e", "0"], { cwd: project, env })).ms)
      }
      measured.helpMedianMs = Math.round(median(samples))
      measured.nodeMedianMs = Math.round(median(bare))
    })
    await check(at("websearch fetch of a loopback page (--allow-host 127.0.0.1 --json)"), async () => {
      const result = await run(bin, ["fetch", pageUrl, "--allow-host", "127.0.0.1", "--json"], { cwd: project, env })
      assert(result.code === 0, `exit ${result.code}: ${clip(result.stdout + result.stderr)}`)
      const out = JSON.parse(result.stdout)
      assert(out.ok && out.response.results[0]?.content.includes(marker), clip(result.stdout))
    })
    await check(
      at("websearch loads a plain .js provider module (WEBSEARCH_PROVIDER_MODULES) with its option"),
      async () => {
        const result = await run(bin, ["search", "layers", "--provider", "memory", "--json"], {
          cwd: project,
          env: { ...env, WEBSEARCH_PROVIDER_MODULES: "./provider-module.mjs", MEMORY_GREETING: "Bonjour" }
        })
        assert(result.code === 0, `exit ${result.code}: ${clip(result.stdout + result.stderr)}`)
        const out = JSON.parse(result.stdout)
        assert(out.ok && out.response.results[0]?.title === "Bonjour from the module: layers", clip(result.stdout))
      }
    )
    await check(
      at("websearch loads a provider module built on ProviderHttp, calling its API with the HttpClient it is given"),
      async () => {
        apiKeys.length = 0
        const result = await run(
          bin,
          ["search", "layers", "--provider", "acme", "--json", "--allow-host", "127.0.0.1"],
          {
            cwd: project,
            env: {
              ...env,
              WEBSEARCH_PROVIDER_MODULES: "./provider-http-module.mjs",
              ACME_API_KEY: "acme-key-0001",
              ACME_API_HOST: `http://127.0.0.1:${server.address().port}`
            }
          }
        )
        assert(result.code === 0, `exit ${result.code}: ${clip(result.stdout + result.stderr)}`)
        const out = JSON.parse(result.stdout)
        assert(out.ok && out.response.results[0]?.title === "Acme result for layers", clip(result.stdout))
        assert(JSON.stringify(apiKeys) === JSON.stringify(["acme-key-0001"]), `keys sent: ${JSON.stringify(apiKeys)}`)
      }
    )
    await check(at("websearch fetch --render always renders a scripted loopback page in Chromium"), async () => {
      const args = ["fetch", scriptedUrl, "--allow-host", "127.0.0.1", "--render", "always", "--json"]
      const result = await run(bin, args, { cwd: project, env, timeoutMs: 180_000 })
      assert(result.code === 0, `exit ${result.code}: ${clip(result.stdout + result.stderr)}`)
      const out = JSON.parse(result.stdout)
      assert(out.ok && out.response.results[0]?.content.includes(rendered), clip(result.stdout))
    })
    await check(at("websearch mcp over stdio answers the official MCP SDK client"), async () => {
      const entry = join(globalCli, "bin", "websearch.js")
      const result = await run(node, ["mcp-client.mjs", pageUrl, entry], { cwd: project, env, timeoutMs: 180_000 })
      assert(result.code === 0, `exit ${result.code}: ${clip(result.stderr)}`)
      const out = lastJsonLine(result.stdout)
      // No research provider is configured, so web_research is not offered; the local fetcher maps and crawls.
      assert(
        JSON.stringify(out.tools) === JSON.stringify(["web_search", "web_fetch", "web_map", "web_crawl"]),
        `tools ${out.tools}`
      )
      // The crawl of the one page (over 64 KiB of text) answers its id, title and an excerpt, never the page itself.
      const crawled = String(out.crawl?.text)
      assert(
        out.crawl?.isError === false &&
          crawled.includes(pageUrl) &&
          crawled.includes("Consumer page") &&
          crawled.length < 8_000,
        clip(JSON.stringify(out.crawl))
      )
      const item = out.structuredContent?.items?.[0]
      // The page text travels once, in the tool's text; structuredContent carries the item without a copy of it,
      // and a long page comes in parts (the item says where it continues).
      assert(
        out.isError === false &&
          item?.status === "success" &&
          item.content === undefined &&
          typeof item.nextStartIndex === "number" &&
          String(out.text).includes(marker),
        clip(JSON.stringify(out))
      )
    })
    figures.nodes[nodeVersion] = { ...measured, passed: failed === before }
  }
} finally {
  server.close()
  if (!values.keep) rmSync(work, { recursive: true, force: true })
  else console.log(`kept ${work}`)
}

console.log(`figures: ${JSON.stringify(figures)}`)
console.log(`${passed} passed, ${failed} failed`)
if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify({ passed, failed, figures })}\n`)
process.exitCode = failed === 0 ? 0 : 1
