import * as esbuild from "esbuild"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const options: esbuild.BuildOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  // The workspace packages' sources, as tests and benchmarks use them (no dist build needed).
  conditions: ["@websearch/source"],
  logLevel: "warning",
  // Some dependencies are CommonJS and call require() for Node built-ins.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);'
  }
}

/**
 * Bundles the test provider module (a SearXNG driver) to one ES module in a fresh temporary directory, as a user
 * would ship one for `WEBSEARCH_PROVIDER_MODULES`. Child processes then load plain JavaScript, without tsx.
 */
export const bundleSearxngModule = (): Promise<string> => bundleModule("searxngModule")

/** Bundles one of the test provider modules of this folder (by file name, without `.ts`) the same way. */
export const bundleModule = async (name: string): Promise<string> => {
  const outfile = join(mkdtempSync(join(tmpdir(), "websearch-provider-")), `${name}.mjs`)
  await esbuild.build({
    entryPoints: [fileURLToPath(new URL(`./${name}.ts`, import.meta.url))],
    outfile,
    ...options
  })
  return outfile
}

/** Bundles TypeScript source text (a README example) the same way, as `name.mjs`. */
export const bundleSource = async (name: string, source: string): Promise<string> => {
  const outfile = join(mkdtempSync(join(tmpdir(), "websearch-provider-")), `${name}.mjs`)
  await esbuild.build({
    stdin: { contents: source, loader: "ts", resolveDir: fileURLToPath(new URL(".", import.meta.url)) },
    outfile,
    ...options
  })
  return outfile
}
