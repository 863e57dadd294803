import { describe, expect, it } from "@effect/vitest"
import type { WebSearchResponse } from "@websearch/core/WebSearchResponse"
import * as FastCheck from "effect/FastCheck"
import * as Render from "../src/internal/render.js"

// Everything a terminal may act on: C0 but \n and \t, DEL, C1 (0x80-0x9f: 8-bit CSI, OSC, ...) and bidi controls.
const isControl = (code: number): boolean =>
  (code < 0x20 && code !== 0x0a && code !== 0x09) ||
  (code >= 0x7f && code <= 0x9f) ||
  code === 0x061c ||
  code === 0x200e ||
  code === 0x200f ||
  (code >= 0x202a && code <= 0x202e) ||
  (code >= 0x2066 && code <= 0x2069)

const controlsIn = (text: string): Array<number> =>
  Array.from(text, (c) => c.charCodeAt(0)).filter((code) => isControl(code))

// Hostile text: escape sequences real terminals act on, mixed with any control, bidi character and plain text.
const hostile = FastCheck.array(
  FastCheck.oneof(
    FastCheck.constantFrom(
      "\u001b]0;pwned\u0007",
      "\u001b[2J\u001b[H",
      "\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\",
      "\u009b31m",
      "\u009d0;title\u009c",
      "\u202eevil\u202c",
      "\r",
      "\n",
      "\t"
    ),
    FastCheck.integer({ min: 0, max: 0x9f }).map((code) => String.fromCharCode(code)),
    FastCheck.constantFrom(0x061c, 0x200e, 0x200f, 0x202a, 0x202d, 0x2066, 0x2069).map((c) => String.fromCharCode(c)),
    FastCheck.string()
  ),
  { maxLength: 20 }
).map((parts) => parts.join(""))

const searchResponse = (title: string, url: string, content: string): WebSearchResponse =>
  ({
    capability: "searchKeywords",
    providerId: "searxng",
    inputs: ["q"],
    results: [{ title, url, content, sourceInput: "q" }],
    failures: []
  }) as unknown as WebSearchResponse

describe("Render", () => {
  it.prop("terminalText leaves no control or bidi character but newline and tab", [hostile], ([text]) => {
    expect(controlsIn(Render.terminalText(text))).toEqual([])
  })

  it.prop("terminalText keeps every other character and every line", [hostile], ([text]) => {
    const safe = Render.terminalText(text)
    expect(safe.split("\n")).toHaveLength(text.split("\n").length)
    const kept = Array.from(text).filter((c) => !isControl(c.charCodeAt(0)) || c === "\n" || c === "\t")
    expect(Array.from(safe).filter((c) => !/[\u2400-\u2421\ufffd]/.test(c))).toEqual(
      kept.filter((c) => !/[\u2400-\u2421\ufffd]/.test(c))
    )
  })

  it("shows an escape sequence as inert control pictures", () => {
    expect(Render.terminalText("a\u001b]0;pwned\u0007b\u009b2J\u202ec\r\n")).toBe("a␛]0;pwned␇b\ufffd2Jc␍\n")
  })

  it.prop(
    "human output of a hostile result has no control character, and the title and URL stay on their lines",
    [hostile, hostile, hostile],
    ([title, url, content]) => {
      const out = Render.response(searchResponse(title, url, content))
      expect(controlsIn(out)).toEqual([])
      // Title, URL, snippet (when there is one) and the final newline.
      expect(out.split("\n")).toHaveLength(content.length > 0 ? 4 : 3)
    }
  )

  it.prop("--json output keeps the data and has no raw control or bidi character", [hostile], ([text]) => {
    const line = Render.jsonSuccess({ title: text })
    expect(controlsIn(line)).toEqual([])
    expect(JSON.parse(line)).toEqual({ ok: true, response: { title: text } })
  })

  it("a result the content budget cut says where and of how many characters, in text and markdown", () => {
    const cut = (capability: "searchKeywords" | "fetchUrls") =>
      ({
        capability,
        providerId: "searxng",
        inputs: ["q"],
        results: [{ title: "T", url: "https://a.example/", content: "abc", sourceInput: "q", lengthBeforeCut: 12_345 }],
        failures: []
      }) as unknown as WebSearchResponse
    for (const capability of ["searchKeywords", "fetchUrls"] as const) {
      for (const format of ["text", "markdown"] as const) {
        expect(Render.response(cut(capability), { format })).toContain("… [cut at 3 of 12,345 characters]")
      }
    }
  })
})
