// `npm run lint`: no import cycle among the packages' sources, type-only imports included (`import type` ties
// modules together as much as a value import does: the cycle is in the design either way). madge walks each
// package's src through tsconfig.base.json's resolution, so `./X.js` reaches X.ts and `@websearch/core/X` the
// workspace's source.
import madge from "madge"
import { readdirSync } from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const root = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")
const sources = readdirSync(Path.join(root, "packages")).map((pkg) => Path.join(root, "packages", pkg, "src"))

const result = await madge(sources, {
  baseDir: root,
  fileExtensions: ["ts"],
  tsConfig: Path.join(root, "tsconfig.base.json"),
  detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } }
})
const cycles = result.circular()
if (cycles.length > 0) {
  console.error(`circular: ${cycles.length} import cycle(s), type-only imports included:`)
  for (const cycle of cycles) console.error(`  ${[...cycle, cycle[0]].join(" -> ")}`)
  process.exit(1)
}
// Imports of another package (`@websearch/core/X`) are not followed: tsc's project references already refuse a cycle
// between packages.
console.log(`circular: no cycle among the ${Object.keys(result.obj()).length} modules of packages/*/src`)
