// The consumer test: packs every workspace package (`npm pack`, which runs each package's prepack build), installs
// the tarballs with registry dependencies only into a new project outside the repository, and uses them as a user
// would — a plain Node program (app.mjs), tsc under strict settings (consumer.ts), the installed `websearch` bin
// (--help, fetch, provider modules, one of them on ProviderHttp, MCP over stdio to the official SDK client) — under
// each Node binary given.
//
//   node test-consumer/run.mjs [--node PATH]... [--json FILE] [--keep]
//
// --node: run the checks under this Node binary (repeatable; default: the Node running this script). Packing and
// installing happen once, with the npm on PATH. --json: also write {passed, failed, figures} to FILE. --keep: leave
// the temporary project in place. Prints `ok`/`not ok` per check, the figures, and `N passed, N failed`.
import { spawn, spawnSync } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
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
mkdirSync(tarballs)
mkdirSync(project)

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
    "consumer.ts",
    "tsconfig.nodenext.json",
    "tsconfig.bundler.json"
  ]) {
    copyFileSync(join(here, file), join(project, file))
  }
  await check("npm install of the tarballs with registry dependencies only", async () => {
    const result = await run(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        ...packed.map((pkg) => join(tarballs, pkg.filename)),
        // What a consumer adds beside them: the peers it imports itself, the MCP client, a compiler.
        "effect@^3.22.0",
        "@effect/platform@^0.97.1",
        "@effect/platform-node@^0.108.0",
        "@effect/ai@^0.37.0",
        `@modelcontextprotocol/sdk@^${version("@modelcontextprotocol/sdk")}`,
        `typescript@~${version("typescript")}`,
        "@types/node@^20.19.0",
        // @effect/platform-node's declarations import "ws"; under skipLibCheck: false its types must be present.
        "@types/ws@^8"
      ],
      { cwd: project, timeoutMs: 900_000 }
    )
    assert(result.code === 0, `exit ${result.code}: ${clip(result.stderr)}`)
    figures.installSeconds = Math.round(result.ms / 100) / 10
    const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8"))
    const ours = Object.entries(lock.packages).filter(([path]) => path.includes("node_modules/@websearch/"))
    const elsewhere = ours.filter(([, entry]) => !String(entry.resolved ?? "").startsWith("file:"))
    assert(
      ours.length === 7,
      `expected the 7 @websearch packages in the lock, found ${ours.map(([p]) => p).join(", ")}`
    )
    assert(elsewhere.length === 0, `resolved from elsewhere than the tarballs: ${elsewhere.map(([p]) => p).join(", ")}`)
  })
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
        const manifest = JSON.parse(readFileSync(join(project, "node_modules", pkg.name, "package.json"), "utf8"))
        walk(pkg.name, manifest.exports, [])
      }
      assert(bad.length === 0, bad.join(", "))
    }
  )

  // --- under each Node ---------------------------------------------------------------------------------------------
  const bin = join(project, "node_modules", ".bin", "websearch")
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
        at(`tsc --noEmit -p ${config} (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes)`),
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
      const result = await run(node, ["mcp-client.mjs", pageUrl], { cwd: project, env, timeoutMs: 180_000 })
      assert(result.code === 0, `exit ${result.code}: ${clip(result.stderr)}`)
      const out = lastJsonLine(result.stdout)
      assert(
        JSON.stringify(out.tools) === JSON.stringify(["web_search", "web_fetch", "web_research"]),
        `tools ${out.tools}`
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
