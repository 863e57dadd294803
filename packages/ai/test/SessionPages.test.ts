/**
 * The page store of MCP sessions: parts and read URLs, least recently used out first, bounded per session and
 * across sessions; when the shared bound is reached, the owner (token) holding the most gives up its oldest part
 * first, so one token filling the store cannot empty another's sessions.
 */
import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as SessionPages from "../src/internal/sessionPages.js"

const page = (url: string, chars: number) => ({ title: "", url, content: "x".repeat(chars), sourceInput: "" })

const store = (maxSessionBytes: number, maxBytes: number, maxSessionEntries = 1000) =>
  SessionPages.make({ maxSessionBytes, maxBytes, maxSessionEntries })

describe("the session page store", () => {
  it("a session keeps its parts and read URLs up to its bound, least recently used out first", () => {
    const pages = store(3 * 1100, 1_000_000)
    const session = pages.open("s1", "token:a")
    session.set("a", page("u", 500))
    session.set("b", page("u", 500))
    session.set("c", page("u", 500))
    // a is used again: b is now the oldest, and goes when d needs room.
    expect(session.get("a")?.content).toHaveLength(500)
    session.set("d", page("u", 500))
    expect(["a", "b", "c", "d"].map((k) => session.get(k) !== undefined)).toEqual([true, false, true, true])
    session.markRead("https://read.example/")
    expect(session.wasRead("https://read.example/")).toBe(true)
    expect(pages.size().bytes).toBeLessThanOrEqual(3 * 1100)
    // A part larger than the session's bound is not kept, and evicts nothing.
    session.set("huge", page("u", 2000))
    expect(session.get("huge")).toBeUndefined()
    expect(session.get("d")).toBeDefined()
  })

  it("past the shared bound, the token holding the most loses its oldest parts, not another token's", () => {
    const pages = store(100_000, 30_000)
    const small = pages.open("small", "token:small")
    small.set("mine", page("u", 2000))
    // Another token fills the store from many sessions.
    for (let s = 0; s < 10; s++) {
      const heavy = pages.open(`heavy-${s}`, "token:heavy")
      for (let p = 0; p < 5; p++) heavy.set(`p${p}`, page("u", 2000))
    }
    expect(pages.size().bytes).toBeLessThanOrEqual(30_000)
    expect(small.get("mine")?.content).toHaveLength(2000)
  })

  it("a dropped session's view keeps nothing and reads nothing", () => {
    const pages = store(100_000, 1_000_000)
    const session = pages.open("s", "token:a")
    session.set("k", page("u", 10))
    pages.drop("s")
    expect(session.get("k")).toBeUndefined()
    session.set("k2", page("u", 10))
    expect(pages.size()).toEqual({ bytes: 0, sessions: 0 })
  })

  it("a kept part is a copy: what a session holds is what it counts", () => {
    const pages = store(100_000, 1_000_000)
    const session = pages.open("s", "token:a")
    const whole = "abcdefghij".repeat(10_000)
    session.set("k", { ...page("https://a.example/", 0), content: whole.slice(100, 200) })
    expect(session.get("k")?.content).toBe(whole.slice(100, 200))
    // Two a code unit, for the part, the URL and the key, and an entry's overhead.
    expect(pages.size().bytes).toBe(64 + 2 * (100 + "https://a.example/".length + "k".length))
  })

  it.prop(
    "after any writes by any sessions, every session and the whole store are within their bounds",
    [
      FastCheck.array(FastCheck.tuple(FastCheck.integer({ min: 0, max: 5 }), FastCheck.nat(20), FastCheck.nat(3000)), {
        maxLength: 150
      })
    ],
    ([writes]) => {
      const pages = store(8000, 20_000, 6)
      const views = Array.from({ length: 6 }, (_, i) => pages.open(`s${i}`, `token:${i % 3}`))
      for (const [session, key, chars] of writes) {
        views[session].set(`k${key}`, page("u", chars))
        expect(pages.size().bytes).toBeLessThanOrEqual(20_000)
      }
    }
  )
})
