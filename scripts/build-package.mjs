// `npm run build` / `prepack` of one workspace package (run from its folder): a clean dist from its sources, so
// a tarball never ships a module whose source was removed. tsc writes ESM .js, .d.ts, declaration maps and source
// maps (tsconfig.src.json, building the packages it references when they are stale); the CLI also bundles.
import { spawnSync } from "node:child_process"
import { existsSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { pathToFileURL } from "node:url"

const pkg = process.cwd()
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc")

rmSync(`${pkg}/dist`, { recursive: true, force: true })
// tsc -b judges a project up to date from its build info, which must go with the outputs it describes.
rmSync(`${pkg}/build/tsbuildinfo/src.tsbuildinfo`, { force: true })
const built = spawnSync(process.execPath, [tsc, "-b", "tsconfig.src.json"], { stdio: "inherit" })
if (built.status !== 0) process.exit(built.status ?? 1)

if (existsSync(`${pkg}/scripts/bundle.mjs`)) {
  const { bundle } = await import(pathToFileURL(`${pkg}/scripts/bundle.mjs`).href)
  await bundle()
}
