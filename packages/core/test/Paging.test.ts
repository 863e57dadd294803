import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as TestClock from "effect/TestClock"
import * as FetchUrls from "../src/FetchUrls.js"
import * as PageStore from "../src/PageStore.js"
import * as Paging from "../src/internal/paging.js"
import * as PostProcessing from "../src/internal/postProcessing.js"
import * as ResultCache from "../src/ResultCache.js"
import * as WebSearchRequest from "../src/WebSearchRequest.js"
import type { WebSearchResponse, WebSearchResult } from "../src/WebSearchResponse.js"
import * as Drivers from "./support/drivers.js"
import * as Stores from "./support/stores.js"

// Content with surrogate pairs in it (emoji, astral CJK) as well as ASCII, BMP text and lone surrogates.
const content = FastCheck.oneof(
  FastCheck.fullUnicodeString({ maxLength: 300 }),
  FastCheck.array(FastCheck.constantFrom("a", " ", "é", "😀", "𠀋", "\ud800", "\udc00", "\n"), { maxLength: 300 }).map(
    (parts) => parts.join("")
  )
)
const maxLength = FastCheck.integer({ min: Paging.minMaxLength, max: 400 })

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff
const splitsPair = (text: string, at: number) =>
  at > 0 && at < text.length && isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at))

/** Every page of a content read from 0 through each `nextStartIndex`. */
const readAll = (text: string, length: number) => {
  const pages: Array<ReturnType<typeof Paging.apply<{ content: string }>>> = []
  let startIndex = 0
  for (;;) {
    const served = Paging.apply({ content: text }, { startIndex, maxLength: length })
    pages.push(served)
    if (served.nextStartIndex === undefined) return pages
    if (served.nextStartIndex <= startIndex) throw new Error("no progress")
    startIndex = served.nextStartIndex
  }
}

describe("Paging", () => {
  it.prop(
    "pages read on cover the content exactly once, each within maxLength, never splitting a surrogate pair",
    [content, maxLength],
    ([text, length]) => {
      const pages = readAll(text, length)
      expect(pages.map((p) => p.content).join("")).toBe(text)
      let at = 0
      for (const served of pages) {
        expect(served.content.length).toBeLessThanOrEqual(length)
        expect(splitsPair(text, at)).toBe(false)
        at += served.content.length
        expect(splitsPair(text, at)).toBe(false)
      }
    }
  )

  it.prop(
    "nextStartIndex is absent exactly on the last page; totalLength is on every part and never on a whole content",
    [content, maxLength],
    ([text, length]) => {
      const pages = readAll(text, length)
      pages.forEach((served, index) => {
        const last = index === pages.length - 1
        expect(served.nextStartIndex === undefined).toBe(last)
        expect(served.totalLength).toBe(pages.length === 1 ? undefined : text.length)
      })
    }
  )

  it.prop(
    "any startIndex: a page never splits a pair, is a slice of the content, and past the end is empty",
    [content, maxLength, FastCheck.integer({ min: 0, max: 400 })],
    ([text, length, startIndex]) => {
      const served = Paging.page(text, { startIndex, maxLength: length })
      expect(text.slice(served.start, served.end)).toBe(served.content)
      expect(splitsPair(text, served.start) || splitsPair(text, served.end)).toBe(false)
      expect(served.start === startIndex || served.start === startIndex - 1 || startIndex >= text.length).toBe(true)
      if (startIndex >= text.length)
        expect(served).toEqual({ content: "", start: text.length, end: text.length, totalLength: text.length })
      else expect(served.content.length).toBeGreaterThan(0)
      const result = Paging.apply({ content: text }, { startIndex, maxLength: length })
      expect(Paging.startOf(result)).toBe(result.totalLength === undefined ? 0 : served.start)
    }
  )

  it.effect("the request's maxLength and startIndex are validated, naming the field", () =>
    Effect.gen(function* () {
      const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
        [{ maxLength: 1 }, "maxLength"],
        [{ maxLength: 200_001 }, "maxLength"],
        [{ maxLength: 2.5 }, "maxLength"],
        [{ maxLength: "100" }, "maxLength"],
        [{ startIndex: -1 }, "startIndex"],
        [{ startIndex: 0.5 }, "startIndex"],
        [{ startIndex: Paging.maxStartIndex + 1 }, "startIndex"]
      ]
      for (const [fields, field] of cases) {
        const error = yield* Effect.flip(
          WebSearchRequest.normalizeFetchUrls({ urls: ["https://a.example/"], ...fields })
        )
        expect([error._tag, error.reason]).toEqual(["RequestFailed", "invalid_input"])
        expect(error.message).toContain(field)
      }
      const ok = yield* WebSearchRequest.normalizeFetchUrls({ urls: ["https://a.example/"], startIndex: 10 })
      expect(ok.paging).toEqual({ startIndex: 10, maxLength: Paging.maxMaxLength })
      const none = yield* WebSearchRequest.normalizeFetchUrls({ urls: ["https://a.example/"] })
      expect(none.paging).toBeUndefined()
    })
  )
})

describe("fetchUrls in pages", () => {
  const long = Array.from({ length: 5000 }, (_, i) => `w${i}${i % 97 === 0 ? "😀" : ""}`).join(" ")
  const page = { title: "Long", content: long, url: "https://long.example/" }

  const readOn = (maxLength: number) =>
    Effect.gen(function* () {
      const parts: Array<string> = []
      let startIndex: number | undefined = 0
      while (startIndex !== undefined) {
        const response: WebSearchResponse = yield* FetchUrls.fetchUrls({ urls: [page.url], maxLength, startIndex })
        const result: WebSearchResult = response.results[0]
        expect(result.content.length).toBeLessThanOrEqual(maxLength)
        if (result.nextStartIndex !== undefined) expect(result.totalLength).toBe(long.length)
        parts.push(result.content)
        startIndex = result.nextStartIndex
      }
      return parts
    })

  it.effect("a page read in pages is fetched once (the page store) and the pages join to the whole", () => {
    const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.results([page]) })
    return Effect.gen(function* () {
      const parts = yield* readOn(3000)
      expect(parts.length).toBeGreaterThan(5)
      expect(parts.join("")).toBe(long)
      expect(local.recorder.calls.length).toBe(1)
      // A read from 0 fetches afresh.
      const again = yield* FetchUrls.fetchUrls({ urls: [page.url], maxLength: 3000 })
      expect(again.results[0].nextStartIndex).toBe(parts[0].length)
      expect(local.recorder.calls.length).toBe(2)
      // The unpaged page is the whole content, with no paging fields.
      const whole = yield* FetchUrls.fetchUrls({ urls: [page.url] })
      expect(whole.results[0].content).toBe(long)
      expect(whole.results[0].totalLength).toBeUndefined()
    }).pipe(Effect.provide(Drivers.layer([local])))
  })

  it.effect("with a result cache for fetches, reading on is served from the cache", () => {
    const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.results([page]) })
    const store = Stores.cacheStore()
    return Effect.gen(function* () {
      const [parts, stats] = yield* ResultCache.track(readOn(4000))
      expect(parts.join("")).toBe(long)
      expect(local.recorder.calls.length).toBe(1)
      expect(stats.misses).toBe(1)
      expect(stats.hits).toBe(parts.length - 1)
    }).pipe(Effect.provide(Drivers.layer([local], {}, undefined, [ResultCache.layer(store)])))
  })

  it.effect("a read past the end is empty, with the total length and no nextStartIndex", () => {
    const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.results([page]) })
    return Effect.gen(function* () {
      const response = yield* FetchUrls.fetchUrls({ urls: [page.url], startIndex: long.length + 5 })
      expect(response.results[0].content).toBe("")
      expect(response.results[0].totalLength).toBe(long.length)
      expect(response.results[0].nextStartIndex).toBeUndefined()
    }).pipe(Effect.provide(Drivers.layer([local])))
  })

  it.effect("a page longer than the hard cap is paged, not cut, when the request names no window", () => {
    const huge = "x".repeat(Paging.maxMaxLength + 1234)
    const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.results([{ ...page, content: huge }]) })
    return Effect.gen(function* () {
      const first = (yield* FetchUrls.fetchUrls({ urls: [page.url] })).results[0]
      expect(first.content.length).toBe(Paging.maxMaxLength)
      expect([first.totalLength, first.nextStartIndex]).toEqual([huge.length, Paging.maxMaxLength])
      const rest = (yield* FetchUrls.fetchUrls({ urls: [page.url], startIndex: first.nextStartIndex })).results[0]
      expect(rest.content.length).toBe(1234)
      expect(rest.nextStartIndex).toBeUndefined()
      expect(local.recorder.calls.length).toBe(1)
    }).pipe(Effect.provide(Drivers.layer([local])))
  })

  it.effect("a page the content budget cuts says where it continues, and reading on covers what was cut", () => {
    const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.results([page]) })
    return Effect.gen(function* () {
      const parts: Array<string> = []
      let startIndex: number | undefined = 0
      while (startIndex !== undefined) {
        const response: WebSearchResponse = yield* FetchUrls.fetchUrls({
          urls: [page.url],
          maxLength: 9000,
          startIndex
        })
        const result: WebSearchResult = response.results[0]
        expect(result.content.length).toBeLessThanOrEqual(2500)
        parts.push(result.content)
        startIndex = result.nextStartIndex
      }
      expect(parts.join("")).toBe(long)
      expect(local.recorder.calls.length).toBe(1)
    }).pipe(Effect.provide(Drivers.layer([local], { budget: { method: "cutoff", unit: "chars", limit: 2500 } })))
  })

  it.effect("results cut by the budget outside fetchUrls carry no paging fields", () =>
    Effect.gen(function* () {
      const result = (yield* PostProcessing.run([{ ...page, sourceInput: "q" }], {
        query: "q",
        budget: { method: "cutoff", unit: "chars", limit: 100 },
        compression: { method: "none" }
      }))[0]
      expect(result.content.length).toBeLessThanOrEqual(100)
      expect(result.nextStartIndex).toBeUndefined()
      const paged = (yield* PostProcessing.run([{ ...page, sourceInput: "q" }], {
        query: "q",
        budget: { method: "cutoff", unit: "chars", limit: 100 },
        compression: { method: "none" },
        continuable: true
      }))[0]
      expect([paged.totalLength, paged.nextStartIndex]).toEqual([long.length, paged.content.length])
    })
  )
})

describe("PageStore", () => {
  const result = (n: number) => [{ title: "t", url: "https://a.example/", content: "x".repeat(n) }]

  it.effect("is bounded in entries and bytes, least recently used out first, and entries expire", () =>
    Effect.gen(function* () {
      const store = yield* PageStore.make({ maxEntries: 2, maxBytes: 10_000, timeToLive: "1 minute" })
      yield* store.set("a", result(100))
      yield* store.set("b", result(100))
      expect(Option.isSome(yield* store.get("a"))).toBe(true) // a is now the most recently used
      yield* store.set("c", result(100))
      expect(Option.isNone(yield* store.get("b"))).toBe(true)
      expect(store.size().entries).toBe(2)
      yield* store.set("big", result(4800)) // 9.6 KB: a and c no longer fit beside it
      expect(store.size().bytes).toBeLessThanOrEqual(10_000)
      expect(Option.isSome(yield* store.get("big"))).toBe(true)
      yield* store.set("huge", result(6000)) // larger than the whole store: not kept
      expect(Option.isNone(yield* store.get("huge"))).toBe(true)
      yield* TestClock.adjust("61 seconds")
      expect(Option.isNone(yield* store.get("big"))).toBe(true)
      expect(store.size()).toEqual({ entries: 0, bytes: 0 })
    })
  )
})
