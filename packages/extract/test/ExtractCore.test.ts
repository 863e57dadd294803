import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Extract from "../src/Extract.js"
import * as ExtractCore from "../src/internal/extractCore.js"
import { makePdf } from "./support/pdf.js"

const utf8 = (s: string) => new TextEncoder().encode(s)
const url = "https://example.com/doc"

// Bodies covering each outcome: a document, each failure reason, and the PDF paths (sync refusal, async read).
const inputs: ReadonlyArray<ExtractCore.Input> = [
  {
    body: utf8("<html><body><p>Some text worth reading, long enough to keep.</p></body></html>"),
    contentType: "text/html",
    url
  },
  { body: utf8("<html><body></body></html>"), contentType: "text/html", url },
  { body: new Uint8Array([0, 1, 2, 3, 0, 255, 254, 0]), contentType: "image/png", url },
  { body: utf8('{"a": [1, 2, {"b": null}]}'), contentType: "application/json", url },
  { body: makePdf([["Hello PDF world"]], { title: "T" }), contentType: "application/pdf", url: `${url}.pdf` },
  { body: utf8("%PDF-1.4\nnot a pdf at all"), contentType: "application/pdf", url: `${url}.pdf` }
]

describe("ExtractCore", () => {
  it("gives what Extract gives, its failures as their reason and message", async () => {
    const outcomes = new Set<string>()
    for (const input of inputs) {
      for (const [core, typed] of [
        [ExtractCore.extractSync(input), Extract.extractSync(input)],
        [await ExtractCore.extractAsync(input), await Extract.extractAsync(input)]
      ] as const) {
        if (Either.isRight(typed)) {
          expect(core).toEqual(Either.right(typed.right))
          outcomes.add("ok")
        } else {
          expect(typed.left._tag).toBe("ResponseInvalid")
          expect(typed.left.input).toBe(input.url)
          expect(core).toEqual(Either.left({ reason: typed.left.reason, message: typed.left.message }))
          outcomes.add(typed.left.reason)
        }
      }
    }
    // Every path was taken: the comparison above is not vacuous.
    expect([...outcomes].sort()).toEqual(["empty_content", "ok", "parse_failed", "unsupported_content_type"])
  })
})
