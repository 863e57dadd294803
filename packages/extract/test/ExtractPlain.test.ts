import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as ContentKind from "../src/ContentKind.js"
import * as ExtractCore from "../src/ExtractCore.js"
import * as ExtractPlain from "../src/ExtractPlain.js"

const url = "https://example.com/doc"
const utf8 = (s: string) => new TextEncoder().encode(s)

// Bodies of the three plain kinds, written as what servers send: any text, JSON values (and JSON that does not
// parse), markdown with and without front matter.
const plainBody = FastCheck.oneof(
  FastCheck.tuple(FastCheck.string({ maxLength: 400 }), FastCheck.constant("text/plain; charset=utf-8")),
  FastCheck.tuple(
    FastCheck.oneof(FastCheck.json({ maxDepth: 4 }), FastCheck.string({ maxLength: 100 })),
    FastCheck.constant("application/json")
  ),
  FastCheck.tuple(
    FastCheck.tuple(FastCheck.boolean(), FastCheck.string({ maxLength: 40 }), FastCheck.string({ maxLength: 300 })).map(
      ([front, title, body]) => (front ? `---\ntitle: ${title}\n---\n${body}` : `# ${title}\n\n${body}`)
    ),
    FastCheck.constant("text/markdown")
  )
)

describe("ExtractPlain", () => {
  it.prop(
    "gives the document (or failure) ExtractCore gives for text, markdown and JSON bodies",
    [plainBody, FastCheck.option(FastCheck.integer({ min: 0, max: 500 }))],
    ([[text, contentType], maxChars]) => {
      const input = { body: utf8(text), contentType, url }
      const options = maxChars === null ? undefined : { maxChars }
      expect(ExtractPlain.isPlain(ContentKind.classify(contentType, input.body, url))).toBe(true)
      expect(ExtractPlain.extractSync(input, options)).toEqual(ExtractCore.extractSync(input, options))
    },
    { fastCheck: { numRuns: 300 } }
  )

  it("refuses HTML, XML, PDF and binary bodies, naming the extractor that reads them", () => {
    for (const [body, contentType] of [
      [utf8("<html><body><p>Words.</p></body></html>"), "text/html"],
      [utf8("<?xml version='1.0'?><a>b</a>"), "application/xml"],
      [utf8("%PDF-1.4\n"), "application/pdf"],
      [new Uint8Array([0, 1, 2, 255, 0]), "image/png"]
    ] as const) {
      const kind = ContentKind.classify(contentType, body, url)
      expect(ExtractPlain.isPlain(kind)).toBe(false)
      const result = ExtractPlain.extractSync({ body, contentType, url })
      expect(Either.isLeft(result) && result.left.reason).toBe("unsupported_content_type")
      expect(Either.isLeft(result) && result.left.message).toContain("ExtractCore")
    }
  })

  it("a 64 KiB run of spaces as text is empty_content", () => {
    // The hostile page of issue 16: 64 KiB of spaces as text/plain is empty, not a hang.
    const result = ExtractPlain.extractSync({ body: utf8(" ".repeat(65_527)), contentType: "text/plain", url })
    expect(Either.isLeft(result) && result.left.reason).toBe("empty_content")
  })
})
