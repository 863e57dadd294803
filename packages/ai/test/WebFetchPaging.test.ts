/**
 * `web_fetch` pages by default: each item gets at most the toolkit's `maxLength` characters; a part that continues
 * ends with the line that reads on (id and startIndex), the last part says it is the end, a start past the end says
 * so; items of one call may start at different offsets; and the page is fetched once for the whole read.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ToolOutput from "../src/ToolOutput.js"
import * as WebSearchToolkit from "../src/WebSearchToolkit.js"
import { drivers, live, searchResults } from "./support/fixtures.js"

const url = "https://long.example/page"
const content = Array.from({ length: 3000 }, (_, i) => `word${i}`).join(" ")

const session = (options?: WebSearchToolkit.Options) => {
  const { drivers: list, recorded } = drivers({ fetch: { [url]: { title: "Long", url, content } } })
  return { recorded, layer: WebSearchToolkit.layer(options).pipe(Layer.provide(live(list))) }
}

const fetchOutput = (params: unknown) =>
  Effect.flatMap(WebSearchToolkit.toolkit, (tk) => tk.handle("web_fetch", params as never)).pipe(
    Effect.map((r) => {
      expect(r.isFailure).toBe(false)
      return r.result as ToolOutput.FetchOutput
    })
  )

describe("web_fetch in parts", () => {
  it.effect("the default page size is 8,000 characters; the notice gives the id and the next startIndex", () => {
    const { layer, recorded } = session()
    return Effect.gen(function* () {
      const first = (yield* fetchOutput({ items: [{ url }] })).items[0]
      expect(WebSearchToolkit.defaultMaxLength).toBe(8000)
      expect(ToolOutput.unfenced(first.content!).length).toBeLessThanOrEqual(8000)
      expect([first.totalLength, first.nextStartIndex]).toEqual([content.length, 8000])
      expect(first.notice).toBe(
        `… [cut at 8,000 of ${content.length.toLocaleString("en-US")} characters; to read on, call web_fetch with items: [{"url": "w1", "startIndex": 8000}]]`
      )
      const output = yield* fetchOutput({ items: [{ url }] })
      const rendered = ToolOutput.renderFetch(output)
      expect(rendered).toContain(`\n${first.notice}\n`)
      expect(output.nextSteps).toContain("1 of 1 pages continue")
      // Reading on by id, to the end, joins to the page; the page was fetched for the first call and the repeat.
      const parts = [ToolOutput.unfenced(first.content!)]
      let next = first.nextStartIndex
      let last: ToolOutput.FetchItem = first
      while (next !== undefined) {
        last = (yield* fetchOutput({ items: [{ url: "w1", startIndex: next }] })).items[0]
        parts.push(ToolOutput.unfenced(last.content!))
        next = last.nextStartIndex
      }
      expect(parts.join("")).toBe(content)
      // The repeat of the first part was served from the session's store, and says so.
      expect(output.items[0].alreadyRead).toBe(true)
      expect(rendered).toContain("Already read in this session")
      expect(last.notice).toBe(
        `[end of the page: characters ${(content.length - parts.at(-1)!.length).toLocaleString("en-US")} to ${content.length.toLocaleString("en-US")} of ${content.length.toLocaleString("en-US")}]`
      )
      // One fetch for the whole read: the repeat came from the session, the parts after it from the page store.
      expect(recorded.fetched).toEqual([url])
    }).pipe(Effect.provide(layer))
  })

  it.effect(
    "a start past the end says so; one call may read two parts of a page; the same part twice is skipped",
    () => {
      const { layer } = session({ maxLength: 1000 })
      return Effect.gen(function* () {
        const past = (yield* fetchOutput({ items: [{ url, startIndex: content.length + 10 }] })).items[0]
        expect(past.status).toBe("success")
        // Issue 36: the index asked for, the page's length and the last start that reads any.
        expect(past.notice).toBe(
          `[startIndex ${content.length + 10} is past the end: the page has ${content.length.toLocaleString("en-US")} characters (the last startIndex that reads any is ${content.length - 1}); there is nothing more to read]`
        )
        expect(past.nextStartIndex).toBeUndefined()
        const output = yield* fetchOutput({
          items: [{ url }, { url, startIndex: 1000 }, { url: `${url}#again`, startIndex: 1000 }]
        })
        expect(output.items.map((i) => i.status)).toEqual(["success", "success", "skipped"])
        expect(output.items.map((i) => i.nextStartIndex)).toEqual([1000, 2000, undefined])
        expect(output.items[2].skipped).toBe("same page as item 2")
      }).pipe(Effect.provide(layer))
    }
  )

  it.effect("a page that fits is whole, with no notice", () => {
    const { layer } = session({ maxLength: 200_000 })
    return Effect.gen(function* () {
      const item = (yield* fetchOutput({ items: [{ url }] })).items[0]
      expect(ToolOutput.unfenced(item.content!)).toBe(content)
      expect([item.totalLength, item.nextStartIndex, item.notice]).toEqual([undefined, undefined, undefined])
    }).pipe(Effect.provide(layer))
  })

  it.effect("a search result whose page this session read says so, by its id", () => {
    const { drivers: list } = drivers({ search: { long: [{ ...searchResults("long")[0], url }] } })
    const layer = WebSearchToolkit.layer().pipe(Layer.provide(live(list)))
    return Effect.gen(function* () {
      const tk = yield* WebSearchToolkit.toolkit
      const search = () =>
        Effect.map(tk.handle("web_search", { keywords: ["long"] } as never), (r) => r.result as ToolOutput.SearchOutput)
      expect((yield* search()).sources[0].read).toBeUndefined()
      yield* fetchOutput({ items: [{ url: "w1" }] })
      const after = yield* search()
      expect(after.sources[0]).toMatchObject({ id: "w1", read: true })
      expect(ToolOutput.renderSearch(after)).toContain('Already read in this session: web_fetch with "w1"')
    }).pipe(Effect.provide(layer))
  })
})
