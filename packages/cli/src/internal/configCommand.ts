/**
 * `websearch config path` prints the settings file a command would use (and how it was found); `websearch config
 * init` writes the commented starting file at the default location, or at `--config FILE`, and never overwrites a
 * file that is already there.
 */
import * as Effect from "effect/Effect"
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import type * as Cli from "./cli.js"
import * as ConfigFile from "./configFile.js"
import type * as Io from "./io.js"
import * as Render from "./render.js"

const describe = (located: ConfigFile.Located): string => {
  switch (located.from) {
    case "--config":
      return "given with --config"
    case "WEBSEARCH_CONFIG":
      return "named by WEBSEARCH_CONFIG"
    case "XDG_CONFIG_HOME":
      return "found at the default location"
    case "none":
      return `no settings file: the defaults and the environment apply (\`websearch config init\` writes one at ${located.defaultPath})`
  }
}

/** Runs `config path` or `config init`; returns the exit code. */
export const run = (command: Extract<Cli.Command, { _tag: "ConfigPath" | "ConfigInit" }>, io: Io.Io) =>
  Effect.sync(() => {
    const located = ConfigFile.locate(command.config, io.env)
    if (command._tag === "ConfigPath") {
      if (command.json) io.stdout(`${Render.jsonSuccess({ ...located, path: located.path ?? null })}\n`)
      else if (located.path === undefined) io.stderr(`${Render.terminalText(describe(located))}\n`)
      else io.stdout(`${Render.terminalText(located.path)}\n`)
      if (!command.json && located.path !== undefined) io.stderr(`${describe(located)}\n`)
      return 0
    }
    // `init` writes where `--config` points, else where discovery looks by default (never WEBSEARCH_CONFIG's file
    // implicitly: the variable names a file to read).
    const target = command.config ?? located.defaultPath
    try {
      mkdirSync(dirname(target), { recursive: true })
      // "wx": fails when the file exists, in one step (no check-then-write race).
      writeFileSync(target, ConfigFile.template, { flag: "wx", mode: 0o600 })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      const message =
        code === "EEXIST"
          ? `${target} already exists; it is left as it is (edit it, or remove it first)`
          : `cannot write ${target}: ${code ?? "error"}`
      if (command.json) {
        io.stdout(
          `${JSON.stringify({ ok: false, error: { _tag: "Unavailable", reason: "invalid_config", message, retryable: false }, failures: [] })}\n`
        )
      } else io.stderr(`websearch: ${Render.terminalText(message)}\n`)
      return 1
    }
    if (command.json) io.stdout(`${Render.jsonSuccess({ path: target, written: true })}\n`)
    else io.stdout(`${Render.terminalText(target)}\n`)
    return 0
  })
