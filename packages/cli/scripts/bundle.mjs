// Bundles the CLI (dist/websearch.mjs plus chunks). Loading a few files instead of several hundred modules is
// what keeps the command's cold start low. bin/websearch.js only loads the bundle; inside the workspace
// `npm run websearch` (scripts/dev.mjs) and the CLI's tests (vitest globalSetup) call bundleIfStale first, and
// `prepack` builds it for the tarball. The bundle is built from sources (the `@websearch/source` condition), so
// it needs no tsc build, and it inlines every dependency except playwright-core (see `external`).
// The fetch provider's extraction worker is a second entry point (dist/chunks/extractWorker.mjs): a worker thread
// loads its own file, which @websearch/node looks for beside the running module. PDF.js imports its own worker
// module from beside itself (dist/chunks/pdf.worker.mjs), so that is a third entry point.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const fromExtract = createRequire(`${root}../extract/package.json`)
const { version } = createRequire(import.meta.url)("../package.json")
const { version: serverVersion } = createRequire(import.meta.url)("../../server/package.json")

/** Routes `undici` (the bare package, from any module) to the part of it the CLI uses (see undiciCore.mjs). */
const undiciCore = {
  name: "undici-core",
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: fileURLToPath(new URL("undiciCore.mjs", import.meta.url)) }))
  }
}

/** Routes linkedom's import of cssomnom's parser to a module that requires it on first use (see lazyCssParse.cjs). */
const lazyCssParse = {
  name: "lazy-css-parse",
  setup(build) {
    const shim = fileURLToPath(new URL("lazyCssParse.cjs", import.meta.url))
    build.onResolve({ filter: /^cssomnom\/parse$/ }, (args) => (args.importer === shim ? undefined : { path: shim }))
  }
}

/** esbuild's options for the bundle (the CLI's test of what each command loads builds with them too). */
export const options = () => ({
  entryPoints: {
    websearch: `${root}src/bin.ts`,
    // Beside the chunks that start them: both are looked up relative to the module that spawns them.
    "chunks/extractWorker": `${root}../node/src/internal/extractWorker.ts`,
    "chunks/pdf.worker": fromExtract.resolve("pdfjs-dist/legacy/build/pdf.worker.mjs")
  },
  outdir: `${root}dist`,
  // The workspace packages' sources, so a fresh clone bundles without building their dist first.
  conditions: ["@websearch/source"],
  // Code behind dynamic imports (providers, the MCP and HTTP servers) goes to chunks loaded on first use, so
  // `--help` and `--version` parse only the command line's own code.
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  outExtension: { ".js": ".mjs" },
  write: false,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  treeShaking: true,
  // Less text to read and compile at every start (about 8% of a fetch's CPU); names are kept, so stack traces and
  // `Function.name` read as in the sources.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  logLevel: "warning",
  define: {
    __WEBSEARCH_VERSION__: JSON.stringify(version),
    __WEBSEARCH_SERVER_VERSION__: JSON.stringify(serverVersion)
  },
  // `undici` is its dispatchers only (undiciCore.mjs), not the whole index; cssomnom's parser loads on first use.
  plugins: [undiciCore, lazyCssParse],
  // playwright-core finds its own files (protocol, injected scripts) beside itself, so it stays a package that
  // the renderer imports on first use from node_modules; it drives the system Chromium and downloads nothing.
  external: ["playwright-core"],
  // Some dependencies are CommonJS and call require() for Node built-ins.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);'
  }
})

// Written to a temporary file and renamed, so concurrent starts never load a half-written bundle.
export const bundle = async () => {
  // Loaded here, not at the top, so the freshness check in bundleIfStale costs no esbuild start.
  const esbuild = await import("esbuild")
  const result = await esbuild.build(options())
  mkdirSync(`${root}dist/chunks`, { recursive: true })
  // The CLI itself last: bundleIfStale judges freshness by its time.
  const last = (file) => Number(file.path.endsWith("/websearch.mjs"))
  const files = [...result.outputFiles].sort((a, b) => last(a) - last(b))
  for (const file of files) {
    const temporary = `${file.path}.${process.pid}.tmp`
    writeFileSync(temporary, file.contents)
    renameSync(temporary, file.path)
  }
  // Chunk names carry a content hash, so every rebuild leaves the previous chunks behind. They are removed once
  // they are old enough that no process started from the previous bundle can still be loading them.
  const current = new Set(files.map((file) => file.path))
  for (const name of readdirSync(`${root}dist/chunks`)) {
    const path = `${root}dist/chunks/${name}`
    if (!current.has(path) && Date.now() - statSync(path).mtimeMs > 10 * 60_000) rmSync(path, { force: true })
  }
}

const packagesDir = `${root}../`

/** The newest modification time of any workspace package's sources or package.json. */
const newestSource = () => {
  let newest = 0
  const walk = (dir) => {
    let entries
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      const path = `${dir}/${entry.name}`
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs)
    }
  }
  for (const pkg of readdirSync(packagesDir)) {
    walk(`${packagesDir}${pkg}/src`)
    try {
      newest = Math.max(newest, statSync(`${packagesDir}${pkg}/package.json`).mtimeMs)
    } catch {
      // not a package folder
    }
  }
  return newest
}

const bundleTime = () => {
  try {
    return statSync(`${root}dist/websearch.mjs`).mtimeMs
  } catch {
    return -1
  }
}

/** Rebuilds the bundle when it is missing or older than any workspace source (a workspace convenience only). */
export const bundleIfStale = async () => {
  if (bundleTime() < newestSource()) await bundle()
}

/** The CLI project's vitest globalSetup: its tests spawn bin/websearch.js, which only loads the bundle. */
export const setup = bundleIfStale

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--if-stale")) await bundleIfStale()
  else await bundle()
}
