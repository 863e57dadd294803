import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as ContentKind from "../src/internal/contentKind.js"
import * as ExtractCore from "../src/internal/extractCore.js"
import * as ExtractPlain from "../src/internal/extractPlain.js"

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

// The metadata a plain body has none of, and its page type (`other`: nothing in text, markdown or JSON tells kinds apart).
const none = {
  byline: undefined,
  publishedTime: undefined,
  siteName: undefined,
  lang: undefined,
  excerpt: undefined,
  pageType: "other"
} as const

describe("ExtractPlain", () => {
  it("gives each plain kind its document: JSON pretty-printed, markdown with its title, text as it is (trailing spaces trimmed)", () => {
    const cases: ReadonlyArray<readonly [string, string | undefined, string, ExtractPlain.Document]> = [
      [
        '{"a":[1,{"b":null}]}',
        "application/json",
        url,
        {
          kind: "json",
          ...none,
          title: "",
          markdown: '```json\n{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ]\n}\n```'
        }
      ],
      // Servers label all kinds of things JSON: what does not parse is kept as text.
      ["{not json", "application/json", url, { kind: "text", ...none, title: "", markdown: "{not json" }],
      [
        "---\ntitle: Front\n---\n# Heading\n\nBody text.",
        "text/markdown",
        url,
        { kind: "markdown", ...none, title: "Front", markdown: "# Heading\n\nBody text." }
      ],
      [
        "# Heading\n\nBody text.",
        "text/plain",
        `${url}.md`,
        { kind: "markdown", ...none, title: "Heading", markdown: "# Heading\n\nBody text." }
      ],
      [
        "caf\u00e9 \u{1F600} text  \n\n\n\nmore",
        undefined,
        url,
        { kind: "text", ...none, title: "", markdown: "caf\u00e9 \u{1F600} text\n\n\n\nmore" }
      ]
    ]
    for (const [text, contentType, at, expected] of cases) {
      expect(ExtractPlain.extractSync({ body: utf8(text), contentType, url: at })).toEqual(Either.right(expected))
    }
  })

  it("cuts at maxChars without splitting a surrogate pair", () => {
    const result = ExtractPlain.extractSync(
      { body: utf8("ab\u{1F600}cd"), contentType: "text/plain", url },
      { maxChars: 3 }
    )
    expect(result).toEqual(Either.right({ kind: "text", ...none, title: "", markdown: "ab" }))
  })

  it.prop(
    "never throws; a document is of a plain kind, within maxChars and not blank, and ExtractCore gives the same",
    [plainBody, FastCheck.option(FastCheck.integer({ min: 0, max: 500 }))],
    ([[text, contentType], maxChars]) => {
      const input = { body: utf8(text), contentType, url }
      const options = maxChars === null ? undefined : { maxChars }
      expect(ExtractPlain.isPlain(ContentKind.classify(contentType, input.body, url))).toBe(true)
      const result = ExtractPlain.extractSync(input, options)
      if (Either.isRight(result)) {
        expect(ExtractPlain.isPlain(result.right.kind)).toBe(true)
        expect(result.right.markdown.trim()).not.toBe("")
        if (maxChars !== null) expect(result.right.markdown.length).toBeLessThanOrEqual(maxChars)
      } else {
        expect(result.left.reason).toBe("empty_content")
      }
      expect(result).toEqual(ExtractCore.extractSync(input, options))
    },
    { fastCheck: { numRuns: 300 } }
  )

  it("refuses HTML, XML, PDF and binary bodies, naming the extractor that reads them", () => {
    for (const [body, contentType, says] of [
      [utf8("<html><body><p>Words.</p></body></html>"), "text/html", "ExtractCore reads html"],
      [utf8("<?xml version='1.0'?><a>b</a>"), "application/xml", "ExtractCore reads xml"],
      [utf8("%PDF-1.4\n"), "application/pdf", "ExtractCore reads pdf"],
      [new Uint8Array([0, 1, 2, 255, 0]), "image/png", "neither text, markdown nor JSON"]
    ] as const) {
      const kind = ContentKind.classify(contentType, body, url)
      expect(ExtractPlain.isPlain(kind)).toBe(false)
      const result = ExtractPlain.extractSync({ body, contentType, url })
      expect(Either.isLeft(result) && result.left.reason).toBe("unsupported_content_type")
      expect(Either.isLeft(result) && result.left.message).toContain(says)
    }
  })

  it("a 64 KiB run of spaces as text is empty_content", () => {
    // The hostile page of issue 16: 64 KiB of spaces as text/plain is empty, not a hang.
    const result = ExtractPlain.extractSync({ body: utf8(" ".repeat(65_527)), contentType: "text/plain", url })
    expect(Either.isLeft(result) && result.left.reason).toBe("empty_content")
  })
})
