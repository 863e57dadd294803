/**
 * `web_fetch`'s plan: each item's id resolved to its URL, the URL checked, and an item asking for a part of a page an
 * earlier item asks for skipped (the same page from another offset is another part, not a duplicate).
 */
import { normalizeUrlForDedupe } from "@websearch/core/internal/postProcessing"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as WebSearchRequest from "@websearch/core/WebSearchRequest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ResultIds from "./resultIds.js"

/** An item as `web_fetch` is given it. */
export interface Item {
  readonly url: string
  readonly startIndex?: number | undefined
  readonly prompt?: string | undefined
}

/** What becomes of one item: fetched, refused (with why), or skipped as a duplicate of an earlier one. */
export type Planned =
  | {
      readonly _tag: "Fetch"
      readonly item: number
      readonly input: string
      readonly url: string
      readonly startIndex: number
      readonly prompt?: string | undefined
    }
  | {
      readonly _tag: "Failed"
      readonly item: number
      readonly input: string
      readonly error: WebSearchError.RequestFailed
    }
  | {
      readonly _tag: "Skipped"
      readonly item: number
      readonly input: string
      readonly url: string
      readonly note: string
    }

const invalidItem = (input: string, message: string) =>
  WebSearchError.requestFailed("invalid_input", message, { capability: "fetchUrls", input })

/** An item that is fetched. */
export type Fetch = Extract<Planned, { _tag: "Fetch" }>

/** The plan of `items`, in their order, numbered from 1. */
export const plan: (ids: ResultIds.ResultIds, items: ReadonlyArray<Item>) => Effect.Effect<Array<Planned>> =
  Effect.fnUntraced(function* (ids, items) {
    const seen = new Map<string, number>()
    const planned: Array<Planned> = []
    for (const [index, entry] of items.entries()) {
      const item = index + 1
      const input = entry.url
      let raw = entry.url.trim()
      if (ResultIds.isId(raw)) {
        const found = yield* ids.lookup(raw)
        if (Option.isNone(found)) {
          planned.push({
            _tag: "Failed",
            item,
            input,
            error: invalidItem(
              input,
              `"${raw}" is not a source id of this session: use a URL, or an id shown by web_search or web_fetch`
            )
          })
          continue
        }
        raw = found.value
      }
      const parsed = WebSearchRequest.normalizeUrl(raw)
      if (Either.isLeft(parsed)) {
        planned.push({ _tag: "Failed", item, input, error: invalidItem(input, parsed.left) })
        continue
      }
      const startIndex = entry.startIndex ?? 0
      // The same page from another offset is another part of it, not a duplicate.
      const key = `${startIndex} ${normalizeUrlForDedupe(parsed.right)}`
      const first = seen.get(key)
      if (first !== undefined) {
        planned.push({ _tag: "Skipped", item, input, url: parsed.right, note: `same page as item ${first}` })
        continue
      }
      seen.set(key, item)
      planned.push({ _tag: "Fetch", item, input, url: parsed.right, startIndex, prompt: entry.prompt })
    }
    return planned
  })
