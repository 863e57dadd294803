// Bundles the CLI into one ES module (dist/websearch.mjs). Loading one file instead of several hundred
// modules is what keeps the command's cold start low; bin/websearch.js rebuilds it when sources change.
import * as esbuild from "esbuild"
import { mkdirSync, renameSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))

// Written to a temporary file and renamed, so concurrent starts never load a half-written bundle.
export const bundle = async () => {
  const result = await esbuild.build({
    entryPoints: [`${root}src/bin.ts`],
    outfile: `${root}dist/websearch.mjs`,
    write: false,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    treeShaking: true,
    legalComments: "none",
    logLevel: "warning",
    // Some dependencies are CommonJS and call require() for Node built-ins.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);'
    }
  })
  mkdirSync(`${root}dist`, { recursive: true })
  const temporary = `${root}dist/websearch.${process.pid}.tmp`
  writeFileSync(temporary, result.outputFiles[0].contents)
  renameSync(temporary, `${root}dist/websearch.mjs`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle()
