/**
 * The command lines answered before the command tree is loaded: `websearch`, `--help`, `-h` and `--version`
 * (each with or without `--json`). They are what people type first, so the binary answers them from this module
 * alone, and `Main` answers them the same way.
 */
import { version } from "./version.js"
import * as Overview from "./overview.js"

/** The exit code and stdout of a command line answered here, or undefined for every other. */
export const answer = (argv: ReadonlyArray<string>): { readonly code: number; readonly stdout: string } | undefined => {
  const json = argv.includes("--json")
  const rest = argv.filter((token) => token !== "--json")
  if (rest.length === 0 || (rest.length === 1 && (rest[0] === "--help" || rest[0] === "-h"))) {
    return {
      code: 0,
      stdout: json ? `${JSON.stringify({ ok: true, response: { usage: Overview.text } })}\n` : Overview.text
    }
  }
  if (rest.length === 1 && rest[0] === "--version") {
    return {
      code: 0,
      stdout: json ? `${JSON.stringify({ ok: true, response: { version: version() } })}\n` : `${version()}\n`
    }
  }
  return undefined
}
