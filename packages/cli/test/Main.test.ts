import { describe, expect, it } from "@effect/vitest"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Main from "../src/Main.js"
import * as Presets from "./support/presets.js"

const preset = (id: string) => {
  const found = Presets.byId.get(id)
  if (found === undefined) throw new Error(`no preset ${id}`)
  return found
}

const capture = () => {
  const out = { stdout: "", stderr: "" }
  const io: Main.Io = {
    stdout: (text) => {
      out.stdout += text
    },
    stderr: (text) => {
      out.stderr += text
    },
    env: {}
  }
  return { out, io }
}

// A keyless search driver that answers every keyword except "broken", which fails as a rate limit.
// The binary's own bundle proposes DuckDuckGo for search; a test's stand-in providers propose the same.
const searchDefault = ProviderRegistry.proposeDefaults("test bundle", { searchKeywords: "duckduckgo" })

const duckduckgoDriver = ProviderRegistry.register({
  preset: preset("duckduckgo"),
  searchKeywords: (keyword) =>
    keyword === "broken"
      ? Effect.fail(WebSearchError.requestFailed("http_429", "rate limited", { retryAfter: 30 }))
      : Effect.succeed([
          { title: `About ${keyword}`, content: `All about ${keyword}.`, url: `https://example.com/${keyword}` },
          { title: "Second", content: "more", url: `https://example.org/${keyword}` }
        ])
})

const duckduckgo = Layer.merge(duckduckgoDriver, searchDefault)

describe("Main.run", () => {
  it.effect("prints numbered human results on stdout and each input's progress, failures included, on stderr", () =>
    Effect.gen(function* () {
      const { out, io } = capture()
      const code = yield* Main.run(["search", "effect", "broken"], io, { providers: duckduckgo })
      expect(code).toBe(0)
      expect(out.stdout).toContain("[1] About effect\n    https://example.com/effect\n    All about effect.")
      expect(out.stdout).toContain("[2] Second")
      // Inputs finish in completion order, so the step numbers are checked apart from the lines.
      // The progress lines, then the closing line of the partial failure (issue 21).
      const all = out.stderr.trim().split("\n")
      expect(all.at(-1)).toBe("1 of 2 failed: broken (http_429)")
      const lines = all.slice(0, -1)
      expect(lines.map((line) => line.slice(0, 5)).sort()).toEqual(["[1/2]", "[2/2]"])
      expect(lines.map((line) => line.slice(6)).sort()).toEqual([
        "! broken: RequestFailed/http_429 (retryable): rate limited",
        "effect: 2 results"
      ])
    })
  )

  it.effect("--json prints exactly one object with the response and its failures", () =>
    Effect.gen(function* () {
      const { out, io } = capture()
      const code = yield* Main.run(["search", "effect", "broken", "--max-results", "1", "--json"], io, {
        providers: duckduckgo
      })
      expect(code).toBe(0)
      expect(out.stderr).toBe("")
      const lines = out.stdout.trim().split("\n")
      expect(lines).toHaveLength(1)
      const parsed = JSON.parse(lines[0])
      expect(parsed.ok).toBe(true)
      expect(parsed.response).toMatchObject({
        providerId: "duckduckgo",
        capability: "searchKeywords",
        inputs: ["effect", "broken"],
        results: [{ title: "About effect", sourceInput: "effect" }],
        failures: [{ input: "broken", _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 30 }]
      })
    })
  )

  it.effect("all inputs failed: exit 1, the error lists every input's failure", () =>
    Effect.gen(function* () {
      const { out, io } = capture()
      const code = yield* Main.run(["search", "broken", "--json"], io, { providers: duckduckgo })
      expect(code).toBe(1)
      const parsed = JSON.parse(out.stdout)
      expect(parsed.ok).toBe(false)
      expect(parsed.error).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryAfter: 30 })
      expect(parsed.failures).toEqual([
        expect.objectContaining({ input: "broken", _tag: "RequestFailed", reason: "http_429" })
      ])
    })
  )

  it.live("aborting the signal interrupts the in-flight driver call and reports Aborted with exit 130", () =>
    Effect.gen(function* () {
      const interrupted: Array<string> = []
      const hanging = ProviderRegistry.register({
        preset: preset("duckduckgo"),
        searchKeywords: (keyword) =>
          Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => interrupted.push(keyword))))
      })
      const { out, io } = capture()
      const controller = new AbortController()
      const fiber = yield* Effect.fork(
        Main.run(["search", "a", "b", "--json"], io, {
          providers: Layer.merge(hanging, searchDefault),
          signal: controller.signal
        })
      )
      yield* Effect.sleep("50 millis")
      controller.abort()
      const code = yield* Fiber.join(fiber)
      expect(code).toBe(130)
      expect(interrupted.sort()).toEqual(["a", "b"])
      expect(JSON.parse(out.stdout).error).toMatchObject({ _tag: "Aborted", reason: "interrupted" })
    })
  )
})
