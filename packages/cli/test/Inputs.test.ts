import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Inputs from "../src/internal/inputs.js"

const host = FastCheck.domain()
const path = FastCheck.webPath()

describe("command-line inputs", () => {
  it.prop(
    "a bare domain (host and path, no scheme) means https; a URL with a scheme is kept",
    [host, path],
    ([h, p]) => {
      expect(Inputs.withScheme(`${h}${p}`)).toBe(`https://${h}${p}`)
      expect(Inputs.withScheme(`http://${h}${p}`)).toBe(`http://${h}${p}`)
    }
  )

  it.prop(
    "every input is either sent or refused with its own failure, in order, never both and never dropped",
    [FastCheck.array(FastCheck.oneof(FastCheck.webUrl(), host, FastCheck.string({ maxLength: 30 })), { maxLength: 8 })],
    ([raw]) => {
      const prepared = Inputs.prepareUrls(raw)
      expect(prepared.inputs.length + prepared.refused.length).toBe(raw.length)
      for (const failure of prepared.refused) {
        expect(failure).toMatchObject({ _tag: "RequestFailed", reason: "invalid_input" })
        expect(raw).toContain(failure.input)
      }
    }
  )

  it.prop(
    "'-' is replaced by standard input's non-blank lines, trimmed, once however many '-' there are",
    [FastCheck.array(FastCheck.string({ maxLength: 12 }), { maxLength: 6 }), FastCheck.nat({ max: 3 })],
    ([lines, dashes]) => {
      const args = ["first", ...Array.from({ length: dashes }, () => "-")]
      const expanded = Inputs.expandStdin(args, () => lines.join("\n"))
      const expected = lines
        .flatMap((line) => line.split("\n"))
        .map((line) => line.trim())
        .filter((line) => line.length > 0)
      expect(expanded).toEqual(["first", ...(dashes > 0 ? expected : [])])
    }
  )
})
