/**
 * Reading a settings file: within bounds, and parsed as JSON with errors that never quote the file. Reading is
 * bounded because the path comes from the environment (`WEBSEARCH_CONFIG`) and may name
 * anything: `/dev/zero` or a FIFO never ends, and a file nested a hundred thousand levels deep overflows the
 * stack of every recursive walk after `JSON.parse` (the schema decoder, `merge`). So at most `maxBytes` are read
 * (one more byte says the file is too large), and the nesting is measured on the text before it is parsed.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type * as SettingsInput from "./settingsInput.js"
import type * as WebSearchError from "../WebSearchError.js"
import * as SettingsValidation from "./settingsValidation.js"

/** The largest settings file read: a real one is a few KiB. */
export const maxBytes = 1024 * 1024

/** The deepest nesting of objects and arrays accepted: the schema itself nests five levels. */
export const maxDepth = 32

/**
 * Reads the file as text: at most `maxBytes` (a longer file, or an endless device, fails after `maxBytes + 1`
 * bytes), nested at most `maxDepth` levels. Fails with a sentence naming the file.
 */
export const readText: (path: string) => Effect.Effect<string, string, FileSystem.FileSystem> = Effect.fnUntraced(
  function* (path) {
    const fs = yield* FileSystem.FileSystem
    const chunks = yield* fs.stream(path, { bytesToRead: FileSystem.Size(maxBytes + 1) }).pipe(
      Stream.runCollect,
      Effect.mapError((error) => `cannot read settings file ${path}: ${error.message}`)
    )
    const total = Chunk.reduce(chunks, 0, (sum, chunk) => sum + chunk.length)
    if (total > maxBytes)
      return yield* Effect.fail(`settings file ${path} is larger than ${maxBytes / 1024 / 1024} MiB`)
    const bytes = new Uint8Array(total)
    let offset = 0
    for (const chunk of chunks) {
      bytes.set(chunk, offset)
      offset += chunk.length
    }
    const text = new TextDecoder().decode(bytes)
    const line = tooDeepAt(text)
    if (line === undefined) return text
    return yield* Effect.fail(
      `settings file ${path} nests objects or arrays more than ${maxDepth} levels deep (at line ${line})`
    )
  }
)

/**
 * The line where JSON text first nests deeper than `maxDepth`, if it does: one pass, brackets inside strings
 * ignored. Malformed text is left for `JSON.parse` to report.
 */
export const tooDeepAt = (text: string): number | undefined => {
  let depth = 0
  let line = 1
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (char === 10) line++
    if (inString) {
      if (char === 92)
        i++ // a backslash escapes the next character (never a newline in valid JSON)
      else if (char === 34) inString = false
    } else if (char === 34) inString = true
    else if (char === 123 || char === 91) {
      depth++
      if (depth > maxDepth) return line
    } else if (char === 125 || char === 93) depth--
  }
  return undefined
}

/** Reads and parses a JSON settings file; fails with `Unavailable/invalid_config` naming the file. */
export const read: (
  path: string
) => Effect.Effect<SettingsInput.SettingsInput, WebSearchError.Unavailable, FileSystem.FileSystem> = Effect.fnUntraced(
  function* (path) {
    const text = yield* Effect.mapError(readText(path), SettingsValidation.invalid)
    return yield* Effect.try({
      try: () => JSON.parse(text) as SettingsInput.SettingsInput,
      catch: (error) =>
        SettingsValidation.invalid(`settings file ${path} is not valid JSON: ${jsonProblem(text, error)}`)
    })
  }
)

// V8's message quotes the text around an unexpected token, which may be an API key: only the kind of problem and
// where it is (line and column) are kept.
const jsonProblem = (text: string, error: unknown): string => {
  const message = error instanceof Error ? error.message : ""
  const kind = message
    .split('"')[0]
    .replace(/ in JSON at position \d+.*$/s, "")
    .replace(/[,.\s]+$/, "")
    .slice(0, 60)
  const position = /at position (\d+)/.exec(message)
  if (position === null) return kind
  const before = text.slice(0, Number(position[1]))
  const line = before.split("\n").length
  return `${kind} at line ${line}, column ${before.length - before.lastIndexOf("\n")}`
}
