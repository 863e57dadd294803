/**
 * Core's `PageType` (the result field every surface shows) and the extractor's (what it decides) are one list: a
 * type the extractor gains must be added to the contract, or results would carry a value their schema refuses.
 */
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import * as CorePageType from "@websearch/core/PageType"
import * as Schema from "effect/Schema"
import * as PageType from "../src/PageType.js"

describe("PageType contract", () => {
  it("core's literal list and the extractor's PageType are the same type and the same list, in the same order", () => {
    expectTypeOf<CorePageType.PageType>().toEqualTypeOf<PageType.PageType>()
    expect([...CorePageType.PageType.literals]).toEqual([...PageType.pageTypes])
    for (const type of PageType.pageTypes) expect(Schema.is(CorePageType.PageType)(type)).toBe(true)
    expect(Schema.is(CorePageType.PageType)("recipe")).toBe(false)
  })
})
