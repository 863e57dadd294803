// The public exports of the packages: every subpath of each package.json `exports` (a `./*` pattern stands for
// each src/*.ts it matches; a subpath mapped to null is not public, nor is `./internal/*`: core and extract publish
// internal modules there for the sibling packages, marked @internal and left out of the docs, as Effect's own
// `internal` paths are not API) → its source module →
// the names that module exports, as the TypeScript checker sees them (so `export *` and re-exports count right).
// The `.` barrel only re-exports the other subpaths as namespaces (`export * as X`), so it adds nothing of its own:
// counting its namespaces would count every module twice. A name exported under several subpaths counts once per
// subpath: each is a door a user may open.
//
//   node scripts/exports.mjs          print each package's count and the total
//   node scripts/exports.mjs --list   print every export as `package/subpath: name`, sorted (for an API diff)
//   node scripts/exports.mjs --check  `npm run lint`: the counts, and fail when the total is above the limit
//
// The limit (issue 37) was 600: a new export pays for itself by another's leaving, or lives in `internal/`. Issue 38
// added two capabilities and crawl jobs, whose contract is public by nature (the MapSite, CrawlSite and CrawlJobs
// services, their requests and answers, the driver methods a provider implements, the Redis engine, the tools for
// models): 44 exports, every helper of theirs kept in `internal/`. The limit is the count after it; the rule stands.
import { existsSync, readdirSync, readFileSync } from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

/** The most public exports the packages may have together (issue 37: 1,017 before it). */
const LIMIT = 644

const root = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")
const packagesDir = Path.join(root, "packages")
const listing = process.argv.includes("--list")
const checking = process.argv.includes("--check")

/** The source file a target of `exports` points to under the `@websearch/source` condition. */
const sourceOf = (target) => {
  if (target === null) return null
  if (typeof target === "string") return target.endsWith(".ts") ? target : null
  return sourceOf(target["@websearch/source"] ?? null)
}

/** Each public subpath of one package with the source module it resolves to. */
const subpaths = (dir) => {
  const { name, exports } = JSON.parse(readFileSync(Path.join(dir, "package.json"), "utf8"))
  const entries = []
  for (const [subpath, target] of Object.entries(exports)) {
    const source = sourceOf(target)
    if (source === null || subpath === "." || subpath.startsWith("./internal/")) continue
    if (!subpath.includes("*")) {
      entries.push({ subpath: `${name}/${subpath.slice(2)}`, file: Path.join(dir, source) })
      continue
    }
    // A pattern: every file the `*` can stand for, minus the subpaths another key maps elsewhere (null).
    const [before, after] = source.split("*")
    const folder = Path.join(dir, before.slice(0, before.lastIndexOf("/") + 1))
    const prefix = before.slice(before.lastIndexOf("/") + 1)
    const excluded = Object.entries(exports)
      .filter(([key, value]) => value === null && key.endsWith("/*"))
      .map(([key]) => key.slice(2, -1))
    for (const file of readdirSync(folder).sort()) {
      if (!file.startsWith(prefix) || !file.endsWith(after) || file.endsWith(".d.ts")) continue
      const stem = file.slice(prefix.length, file.length - after.length)
      const key = subpath.replace("*", stem).slice(2)
      if (stem === "index" || excluded.some((path) => key.startsWith(path))) continue
      entries.push({ subpath: `${name}/${key}`, file: Path.join(folder, file) })
    }
  }
  return entries
}

const packages = readdirSync(packagesDir)
  .filter((dir) => existsSync(Path.join(packagesDir, dir, "package.json")))
  .sort()
  .map((dir) => ({ dir: Path.join(packagesDir, dir), entries: subpaths(Path.join(packagesDir, dir)) }))

const config = ts.getParsedCommandLineOfConfigFile(
  Path.join(root, "tsconfig.base.json"),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
    }
  }
)
const program = ts.createProgram({
  rootNames: packages.flatMap(({ entries }) => entries.map((entry) => entry.file)),
  options: { ...config.options, noEmit: true, composite: false, incremental: false }
})
const checker = program.getTypeChecker()

const lines = []
const counts = []
for (const { dir, entries } of packages) {
  let count = 0
  for (const { subpath, file } of entries) {
    const source = program.getSourceFile(file)
    const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source)
    if (symbol === undefined) continue
    const names = checker.getExportsOfModule(symbol).map((exported) => exported.getName())
    count += names.length
    for (const name of names.sort()) lines.push(`${subpath}: ${name}`)
  }
  counts.push({ name: JSON.parse(readFileSync(Path.join(dir, "package.json"), "utf8")).name, count })
}

if (listing) {
  process.stdout.write(lines.sort().join("\n") + "\n")
} else {
  const total = counts.reduce((sum, { count }) => sum + count, 0)
  const width = Math.max(...counts.map(({ name }) => name.length))
  for (const { name, count } of counts) process.stdout.write(`${name.padEnd(width)}  ${String(count).padStart(5)}\n`)
  process.stdout.write(`${"total".padEnd(width)}  ${String(total).padStart(5)}  (at most ${LIMIT})\n`)
  if (checking && total > LIMIT) {
    process.stderr.write(`exports: ${total} public exports, more than ${LIMIT}: keep new helpers in internal/\n`)
    process.exitCode = 1
  }
}
