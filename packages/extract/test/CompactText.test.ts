import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import { serialize } from "node:v8"
import * as Extract from "../src/Extract.js"
import { compact } from "../src/internal/compactText.js"

// How V8 holds a string, read from its own serializer: after the version header and any padding, a one-byte string
// is tagged `"` and a two-byte string `c`.
const oneByte = (text: string): boolean => {
  const bytes = serialize(text)
  let at = 2
  while (bytes[at] === 0) at++
  return bytes[at] === 0x22
}

const page = (text: string) =>
  new TextEncoder().encode(
    `<!doctype html><html><head><title>A page</title></head><body><main><article><h1>A page</h1>` +
      `<p>${text}</p><ul><li>one</li><li>two</li></ul><p>${text}</p></article></main></body></html>`
  )

const markdownOf = (text: string) =>
  Effect.map(
    Extract.extract({ body: page(text), contentType: "text/html; charset=utf-8", url: "https://example.com/a" }),
    (document) => document.markdown
  )

describe("CompactText", () => {
  it.prop(
    "returns a string equal to its input, whatever its characters (lone surrogates too)",
    [FastCheck.oneof(FastCheck.string(), FastCheck.string({ unit: "binary" }), FastCheck.string({ unit: "grapheme" }))],
    ([text]) => {
      expect(compact(text)).toBe(text)
    }
  )

  it.prop("holds a text of one-byte characters in a one-byte string", [FastCheck.string()], ([text]) => {
    // Made two-byte on purpose: a wide character joined, then cut off.
    const wide = `${text}\u{e000}`.slice(0, text.length)
    expect(oneByte(compact(wide))).toBe(true)
  })

  it.effect("the extractor's markdown of a Latin-1 page is one byte a character; of a wider page, as it was", () =>
    Effect.gen(function* () {
      const latin = yield* markdownOf("Plain words, and a few accents: caf\u00e9, na\u00efve, \u00fcber.")
      expect(latin).toContain("caf\u00e9")
      expect(oneByte(latin)).toBe(true)
      const wide = yield* markdownOf("Words in another script: \u65e5\u672c\u8a9e\u306e\u6587\u7ae0\u3002")
      expect(wide).toContain("\u65e5\u672c\u8a9e")
      expect(oneByte(wide)).toBe(false)
    })
  )
})
