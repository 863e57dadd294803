import { afterAll, describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as HiddenInput from "../src/internal/hiddenInput.js"

const dir = mkdtempSync(join(tmpdir(), "websearch-hidden-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Reads `typed` as the terminal would deliver it (here from a file), recording the raw-mode switches. */
const readTyped = (typed: string) => {
  const path = join(dir, "typed")
  writeFileSync(path, typed)
  const fd = openSync(path, "r")
  const modes: Array<boolean> = []
  const written: Array<string> = []
  try {
    const outcome = HiddenInput.read({ fd, setRawMode: (raw) => modes.push(raw) }, (t) => written.push(t), "key? ")
    return { outcome, modes, written }
  } finally {
    closeSync(fd)
  }
}

type Key =
  { readonly _tag: "Char"; readonly char: string } | { readonly _tag: "Backspace" } | { readonly _tag: "Enter" }

const key: FastCheck.Arbitrary<Key> = FastCheck.oneof(
  FastCheck.oneof(
    FastCheck.constantFrom("a", "Z", "0", "-", "é", "鍵", "🔑"),
    FastCheck.string({ minLength: 1, maxLength: 1 }).filter((c) => c.charCodeAt(0) >= 0x20 && c !== "\x7f")
  ).map((char) => ({ _tag: "Char", char }) as const),
  FastCheck.constant({ _tag: "Backspace" } as const),
  FastCheck.constant({ _tag: "Enter" } as const)
)

/** What a line editor makes of the keys: Backspace takes the last character of the line back, Enter ends it. */
const model = (keys: ReadonlyArray<Key>): string => {
  const out: Array<string> = []
  for (const k of keys) {
    if (k._tag === "Char") out.push(k.char)
    else if (k._tag === "Enter") out.push("\n")
    else if (out.length > 0 && out[out.length - 1] !== "\n") out.pop()
  }
  return out.join("")
}

const typedOf = (keys: ReadonlyArray<Key>, enter: string): string =>
  keys.map((k) => (k._tag === "Char" ? k.char : k._tag === "Enter" ? enter : "\x7f")).join("")

describe("HiddenInput.read", () => {
  it.prop(
    "gives what a line editor would, for any keys typed, with raw mode on while reading and off after",
    [FastCheck.array(key, { maxLength: 40 }), FastCheck.constantFrom("\r", "\n")],
    ([keys, enter]) => {
      const { modes, outcome, written } = readTyped(`${typedOf(keys, enter)}\x04ignored after Ctrl-D`)
      expect(outcome).toEqual({ _tag: "Text", text: model(keys) })
      expect(modes).toEqual([true, false])
      // The prompt, once raw mode is on, and the line break that ends the prompt's line: never the input.
      expect(written).toEqual(["key? ", "\n"])
    }
  )

  it("Ctrl-C gives up; the end of input ends it as Ctrl-D does; Backspace stops at the line's start", () => {
    expect(readTyped("secret\x03more").outcome).toEqual({ _tag: "Interrupted" })
    expect(readTyped("abc").outcome).toEqual({ _tag: "Text", text: "abc" })
    expect(readTyped("a\r\x7f\x7fb\x04").outcome).toEqual({ _tag: "Text", text: "a\nb" })
    expect(readTyped("\x08\x08ok\x04").outcome).toEqual({ _tag: "Text", text: "ok" })
  })

  it("a descriptor that cannot be read is a failure with its message, and raw mode is turned off", () => {
    const modes: Array<boolean> = []
    const outcome = HiddenInput.read({ fd: 987_654, setRawMode: (raw) => modes.push(raw) }, () => {}, "")
    expect(outcome._tag).toBe("Failed")
    expect(modes).toEqual([true, false])
  })
})
