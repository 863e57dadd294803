/**
 * Benchmarks that measure peak memory run each side in a child process of its own, so one side's heap cannot
 * inflate the other's figure. The child is the benchmark file itself, bundled by esbuild into one ES module that
 * plain node runs (no tsx loader in the measured process), and it prints its figures as one JSON line.
 */
import { execFile } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as esbuild from "esbuild"

/**
 * Bundles the benchmark module at `entry` (its `import.meta.url`) into `dir/name`. `external` packages stay
 * imports, resolved from where `dir` lies.
 */
export const bundleSelf = async (
  entry: string,
  dir: string,
  name: string,
  external: ReadonlyArray<string> = []
): Promise<string> => {
  const outfile = join(dir, name)
  await esbuild.build({
    entryPoints: [fileURLToPath(entry)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    // The workspace packages' sources, as tests and benchmarks use them (no dist build needed).
    conditions: ["@websearch/source"],
    target: "node20",
    logLevel: "warning",
    external: [...external],
    // Some dependencies are CommonJS and call require() for Node built-ins.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);'
    }
  })
  return outfile
}

/** Runs the bundled script with `args` and parses the JSON it prints. */
export const runChild = <A>(script: string, args: ReadonlyArray<string>, timeoutMs = 0): Promise<A> =>
  new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [script, ...args],
      { encoding: "utf8", maxBuffer: 1024 * 1024, timeout: timeoutMs },
      (error, stdout, stderr) => {
        if (error !== null) return reject(new Error(`child ${args.join(" ")} failed: ${stderr || error.message}`))
        resolve(JSON.parse(stdout) as A)
      }
    )
  })
