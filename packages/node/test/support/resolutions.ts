/**
 * Which modules a piece of code loads, seen from a child process: its module resolution hook appends every
 * requested specifier that `watch` (a JavaScript expression over `specifier`) accepts to a log, and the script can
 * read the log so far with `resolved()` at any point. The script reports by printing one JSON value.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface Run {
  /** What the child wrote to stderr: `""` when it ran cleanly. */
  readonly stderr: string
  /** The JSON value the script printed. */
  readonly printed: unknown
}

/** Runs `script` (module code, TypeScript sources resolvable) in a child whose resolutions `watch` selects. */
export const run = (watch: string, script: string): Run => {
  const dir = mkdtempSync(join(tmpdir(), "websearch-resolutions-"))
  const log = join(dir, "resolved")
  const hooks =
    `import { appendFileSync } from "node:fs"; let file; export const initialize = (data) => { file = data.file }; ` +
    `export const resolve = (specifier, context, next) => { if (${watch}) appendFileSync(file, specifier + "\\n"); ` +
    `return next(specifier, context) }`
  const prelude = `
    import { register } from "node:module"
    import { readFileSync, writeFileSync } from "node:fs"
    writeFileSync(${JSON.stringify(log)}, "")
    register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)}, { data: { file: ${JSON.stringify(log)} } })
    const resolved = () => readFileSync(${JSON.stringify(log)}, "utf8")
  `
  try {
    const child = spawnSync(
      process.execPath,
      ["--conditions=@websearch/source", "--import", "tsx", "--input-type=module", "-e", prelude + script],
      { encoding: "utf8", timeout: 60_000 }
    )
    return { stderr: child.stderr, printed: child.stdout.trim() === "" ? undefined : JSON.parse(child.stdout) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A module of this package's sources, as a JSON string literal for a script. */
export const source = (path: string): string => JSON.stringify(new URL(`../../${path}`, import.meta.url).href)
