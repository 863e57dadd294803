import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Support from "./support/server.js"

// A long page with surrogate pairs in it, so a page boundary could split one if paging were careless.
const long = Array.from({ length: 3000 }, (_, i) => `word${i}${i % 50 === 0 ? "😀" : ""}`).join(" ")

const settings = {
  defaults: { searchKeywords: "tavily", fetchUrls: "tavily", research: null },
  providers: { tavily: { apiKeys: [Support.canaryKey] } }
} as const

const json = (response: Response) => Effect.promise(() => response.json() as Promise<Record<string, unknown>>)

describe("POST /v1/fetch in pages", () => {
  it.scoped("maxLength and startIndex page a long page; reading on costs no second provider call", () =>
    Effect.gen(function* () {
      const { driver, recorder } = Support.driver("tavily", {
        fetchUrls: (url) => Effect.succeed({ title: "Long", content: long, url })
      })
      const base = yield* Support.start({ tokens: [Support.token] }, Support.live([driver], settings))
      const parts: Array<string> = []
      let startIndex: number | undefined = 0
      while (startIndex !== undefined) {
        const response: Response = yield* Effect.promise(() =>
          Support.post(`${base}/v1/fetch`, { urls: ["https://long.example/"], maxLength: 5000, startIndex })
        )
        expect(response.status).toBe(200)
        const result = ((yield* json(response)).results as Array<Record<string, unknown>>)[0]
        const content = result.content as string
        expect(content.length).toBeLessThanOrEqual(5000)
        parts.push(content)
        startIndex = result.nextStartIndex as number | undefined
        if (startIndex !== undefined) expect(result.totalLength).toBe(long.length)
      }
      expect(parts.length).toBeGreaterThan(3)
      expect(parts.join("")).toBe(long)
      expect(recorder.calls.length).toBe(1)
    })
  )

  it.scoped("an invalid maxLength is a 400 naming the field", () =>
    Effect.gen(function* () {
      const { driver } = Support.driver("tavily", {
        fetchUrls: (url) => Effect.succeed({ title: "Long", content: long, url })
      })
      const base = yield* Support.start({ tokens: [Support.token] }, Support.live([driver], settings))
      const response = yield* Effect.promise(() =>
        Support.post(`${base}/v1/fetch`, { urls: ["https://long.example/"], maxLength: 0 })
      )
      expect(response.status).toBe(400)
      expect(JSON.stringify(yield* json(response))).toContain("maxLength")
    })
  )
})
