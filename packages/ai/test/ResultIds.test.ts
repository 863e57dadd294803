import { describe, expect, it } from "@effect/vitest"
import { normalizeUrlForDedupe } from "@websearch/core/internal/postProcessing"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as ResultIds from "../src/internal/resultIds.js"

// URLs drawn from a small pool (with case and fragment variants), so duplicates are frequent.
const url = FastCheck.tuple(
  FastCheck.constantFrom("a", "b", "c", "d"),
  FastCheck.constantFrom("", "x", "y/z"),
  FastCheck.boolean(),
  FastCheck.constantFrom("", "#top", "#other")
).map(([host, path, upper, hash]) => `https://${upper ? host.toUpperCase() : host}.example/${path}${hash}`)

const urls = FastCheck.array(url, { maxLength: 30 })

describe("ResultIds", () => {
  it.prop("two URLs share an id exactly when they share a dedupe key", [urls], ([list]) => {
    const [ids] = ResultIds.assign(ResultIds.empty, list)
    for (let i = 0; i < list.length; i++) {
      for (let j = 0; j < list.length; j++) {
        const sameKey = normalizeUrlForDedupe(list[i]) === normalizeUrlForDedupe(list[j])
        expect(ids[i] === ids[j]).toBe(sameKey)
      }
    }
  })

  it.prop("ids are w1..wn in order of first appearance, n the number of distinct keys", [urls], ([list]) => {
    const [ids] = ResultIds.assign(ResultIds.empty, list)
    const firsts = [...new Set(ids)]
    expect(firsts).toEqual(firsts.map((_, i) => `w${i + 1}`))
    expect(firsts.length).toBe(new Set(list.map(normalizeUrlForDedupe)).size)
  })

  it.prop(
    "ids are stable: assigning in later calls returns the same ids and only numbers new URLs",
    [urls, urls],
    ([first, second]) => {
      const [ids1, state1] = ResultIds.assign(ResultIds.empty, first)
      const [ids2, state2] = ResultIds.assign(state1, second)
      const [again] = ResultIds.assign(state2, first)
      expect(again).toEqual(ids1)
      const known = new Map(first.map((u, i) => [normalizeUrlForDedupe(u), ids1[i]]))
      second.forEach((u, i) => {
        const before = known.get(normalizeUrlForDedupe(u))
        if (before !== undefined) expect(ids2[i]).toBe(before)
        else expect(Number(ids2[i].slice(1))).toBeGreaterThan(state1.next - 1)
      })
    }
  )

  it.prop("lookup returns the URL an id was first given for", [urls], ([list]) => {
    const [ids, state] = ResultIds.assign(ResultIds.empty, list)
    ids.forEach((id, i) => {
      const found = Option.getOrThrow(ResultIds.lookup(state, id))
      expect(normalizeUrlForDedupe(found)).toBe(normalizeUrlForDedupe(list[i]))
      expect(found).toBe(list[ids.indexOf(id)])
    })
  })

  it("a session forgets its oldest ids past maxIds and never reuses a number", () => {
    const [ids, state] = ResultIds.assign(
      ResultIds.empty,
      ["https://1.example/", "https://2.example/", "https://3.example/"],
      2
    )
    expect(ids).toEqual(["w1", "w2", "w3"])
    expect(ResultIds.lookup(state, "w1")).toEqual(Option.none())
    expect(ResultIds.lookup(state, "w3")).toEqual(Option.some("https://3.example/"))
    const [again] = ResultIds.assign(state, ["https://1.example/"], 2)
    expect(again).toEqual(["w4"])
  })

  it("isId accepts w and a positive number only", () => {
    expect(["w1", "w42", " w7 "].map(ResultIds.isId)).toEqual([true, true, true])
    expect(["w0", "w01", "W1", "w", "w1x", "https://w1.example/"].map(ResultIds.isId)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false
    ])
  })

  it.effect("a session's Ref keeps ids across calls; another session starts at w1", () =>
    Effect.gen(function* () {
      const session = yield* ResultIds.make()
      expect(yield* session.assign(["https://a.example/", "https://b.example/"])).toEqual(["w1", "w2"])
      expect(yield* session.assign(["https://b.example/#x", "https://c.example/"])).toEqual(["w2", "w3"])
      expect(yield* session.lookup("w3")).toEqual(Option.some("https://c.example/"))
      const other = yield* ResultIds.make()
      expect(yield* other.lookup("w1")).toEqual(Option.none())
      expect(yield* other.assign(["https://c.example/"])).toEqual(["w1"])
    })
  )

  it.prop(
    "a session's URLs are bounded in characters too: past maxChars the oldest go, and the count stays exact",
    [FastCheck.array(FastCheck.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 40 })],
    ([lengths]) => {
      let state = ResultIds.empty
      for (const [i, length] of lengths.entries()) {
        const url = `https://h.example/${i}/${"p".repeat(length)}`
        state = ResultIds.assign(state, [url], 1000, 2000)[1]
        const held = Array.from(state.byId.values()).reduce((sum, u) => sum + u.length, 0)
        expect(state.chars).toBe(held)
        // The newest URL is always kept; with it, the bound holds unless it alone exceeds it.
        expect(held <= 2000 || state.byId.size === 1).toBe(true)
        expect(Option.getOrUndefined(ResultIds.lookup(state, `w${i + 1}`))).toBe(url)
      }
    }
  )
})
