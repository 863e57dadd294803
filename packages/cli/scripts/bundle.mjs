// Bundles the CLI into one ES module (dist/websearch.mjs). Loading one file instead of several hundred
// modules is what keeps the command's cold start low; bin/websearch.js rebuilds it when sources change.
// The fetch provider's extraction worker is a second entry point (dist/extractWorker.mjs): a worker thread
// loads its own file, which @websearch/node looks for beside the running module. PDF.js, bundled into both,
// imports its own worker module from beside itself (dist/pdf.worker.mjs), so that is a third entry point.
import * as esbuild from "esbuild"
import { mkdirSync, renameSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const fromExtract = createRequire(`${root}../extract/package.json`)

// Written to a temporary file and renamed, so concurrent starts never load a half-written bundle.
export const bundle = async () => {
  const result = await esbuild.build({
    entryPoints: {
      websearch: `${root}src/bin.ts`,
      extractWorker: `${root}../node/src/internal/extractWorker.ts`,
      "pdf.worker": fromExtract.resolve("pdfjs-dist/legacy/build/pdf.worker.mjs")
    },
    outdir: `${root}dist`,
    outExtension: { ".js": ".mjs" },
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
  // The CLI itself last: bin/websearch.js judges freshness by its time.
  const last = (file) => Number(file.path.endsWith("/websearch.mjs"))
  const files = [...result.outputFiles].sort((a, b) => last(a) - last(b))
  for (const file of files) {
    const temporary = `${file.path}.${process.pid}.tmp`
    writeFileSync(temporary, file.contents)
    renameSync(temporary, file.path)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle()
