// `npm run docs`: the API reference of every package, from its JSDoc, with @effect/docgen (as the Effect monorepo
// does). docgen parses each package's src (internal/ excluded, see its docgen.json), fails on an export without
// @since, type-checks every @example against the packages' sources and runs it with tsx; then this script gathers
// each package's docs/modules into docs/<package>/ at the root. All of docs/ is generated and git-ignored.
//
//   npm run docs                    every package
//   npm run docs -- core server     only these (folder names under packages/)
//
// Examples import `@websearch/*` by package name: the `@websearch/source` condition (customConditions in
// docgen.json for tsc, NODE_OPTIONS below for tsx) resolves them to the workspace's src, so nothing is built first
// and nothing is fetched.
import { spawnSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const root = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")
const bin = Path.join(root, "node_modules", ".bin")
const wanted = process.argv.slice(2)

const packages = readdirSync(Path.join(root, "packages"))
  .filter((dir) => existsSync(Path.join(root, "packages", dir, "docgen.json")))
  .filter((dir) => wanted.length === 0 || wanted.includes(dir))
  .sort()
const unknown = wanted.filter((dir) => !packages.includes(dir))
if (unknown.length > 0) {
  console.error(`docs: no packages/<name>/docgen.json for: ${unknown.join(", ")}`)
  process.exit(2)
}

const env = {
  ...process.env,
  // docgen starts `tsc` and `tsx` by name.
  PATH: `${bin}${Path.delimiter}${process.env.PATH ?? ""}`,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --conditions=@websearch/source`.trim()
}

const failed = []
for (const dir of packages) {
  const cwd = Path.join(root, "packages", dir)
  console.log(`--- docgen ${dir}`)
  const run = spawnSync(Path.join(bin, "docgen"), [], { cwd, env, stdio: "inherit" })
  if (run.status !== 0) failed.push(dir)
}
if (failed.length > 0) {
  console.error(`docs: docgen failed for ${failed.join(", ")}`)
  process.exit(1)
}

// docs/<package>/: the package's module pages under a page named for the package (just-the-docs' parent/child
// navigation: docgen names the parent "Modules", one per package, so each becomes the package's name).
const out = Path.join(root, "docs")
mkdirSync(out, { recursive: true })
for (const [i, dir] of packages.entries()) {
  const { name } = JSON.parse(readFileSync(Path.join(root, "packages", dir, "package.json"), "utf8"))
  const dest = Path.join(out, dir)
  rmSync(dest, { recursive: true, force: true })
  cpSync(Path.join(root, "packages", dir, "docs", "modules"), dest, { recursive: true })
  for (const file of readdirSync(dest, { recursive: true })) {
    const path = Path.join(dest, String(file))
    if (!path.endsWith(".md")) continue
    writeFileSync(path, readFileSync(path, "utf8").replace(/^parent: Modules$/m, `parent: "${name}"`))
  }
  writeFileSync(
    Path.join(dest, "index.md"),
    `---\ntitle: "${name}"\nhas_children: true\npermalink: /docs/${dir}\nnav_order: ${i + 2}\n---\n`
  )
}
console.log(`docs: ${packages.length} package(s) into docs/`)
