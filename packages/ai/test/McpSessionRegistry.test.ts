/**
 * The MCP session registry: a session belongs to the caller (token) that opened it and is invisible to any other;
 * a caller's sessions are bounded, and a caller past its bound ends its own least recently used one, never another
 * caller's; past the bound in all, a new session is refused rather than ending anyone's; a session unused for the
 * idle time ends (unless a request is running in it), and what it kept goes with it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as McpSessions from "../src/internal/mcpSessions.js"

const acme = { id: "token:acme", workspace: "acme" }
const beta = { id: "token:beta", workspace: "beta" }
const page = (url: string, content: string) => ({ title: "T", url, content, sourceInput: url })

const registry = (bounds: Partial<McpSessions.Bounds> = {}) =>
  McpSessions.makeRegistry({
    maxPerCaller: 4,
    maxSessions: 100,
    idleMillis: 60_000,
    pages: { maxSessionBytes: 100_000, maxBytes: 1_000_000, maxSessionEntries: 100 },
    ...bounds
  })

describe("the MCP session registry", () => {
  it("a session is its caller's: to another caller it is unknown, cannot be used, bound or ended", () => {
    const sessions = registry()
    const id = sessions.open(acme, 0)!
    expect(sessions.owns(id, acme, 1)).toBe(true)
    expect(sessions.owns(id, beta, 1)).toBe(false)
    expect(sessions.owns(id, { id: "token:acme-2", workspace: "acme" }, 1)).toBe(false)
    // Bound by another caller, a client gets no session (the transport answers 404 before this).
    sessions.bind(1, beta, id, 1)
    expect(sessions.clientOf(1)).toEqual({ caller: beta, session: undefined })
    expect(sessions.close(id, beta)).toBe(false)
    expect(sessions.owns(id, acme, 2)).toBe(true)
    expect(sessions.close(id, acme)).toBe(true)
    expect(sessions.owns(id, acme, 3)).toBe(false)
  })

  it("a caller past its bound ends its own least recently used session; another caller's are never ended", () => {
    const sessions = registry({ maxPerCaller: 16 })
    const ended: Array<string> = []
    sessions.onClose((id) => ended.push(id))
    const mine = Array.from({ length: 16 }, (_, i) => sessions.open(acme, i)!)
    // The first one is in use: a burst of another caller's sessions (257 initialize calls) ends none of acme's.
    sessions.bind(1, acme, mine[0], 20)
    const theirs = Array.from({ length: 257 }, (_, i) => sessions.open(beta, 100 + i)!)
    expect(mine.every((id) => sessions.owns(id, acme, 500))).toBe(true)
    expect(theirs.filter((id) => sessions.owns(id, beta, 500))).toEqual(theirs.slice(-16))
    expect(ended).toEqual(theirs.slice(0, -16))
    // acme's own burst ends its idle sessions first, oldest first; the one in use stays.
    sessions.open(acme, 600)
    expect(sessions.owns(mine[0], acme, 601)).toBe(true)
    expect(sessions.owns(mine[1], acme, 601)).toBe(false)
  })

  it("past the bound in all, a new session is refused and nobody's session is ended", () => {
    const sessions = registry({ maxSessions: 3 })
    const a = [sessions.open(acme, 0), sessions.open(acme, 1)]
    const b = sessions.open(beta, 2)
    expect(sessions.open(beta, 3)).toBeUndefined()
    expect([...a, b].every((id) => id !== undefined && sessions.size().sessions === 3)).toBe(true)
    // One ends: there is room again.
    expect(sessions.close(a[0]!, acme)).toBe(true)
    expect(sessions.open(beta, 4)).toBeDefined()
  })

  it("a session unused for the idle time ends, with what it kept; one with a request running does not", () => {
    const sessions = registry({ idleMillis: 1000 })
    const idle = sessions.open(acme, 0)!
    const busy = sessions.open(acme, 0)!
    const ended: Array<string> = []
    sessions.onClose((id) => ended.push(id))
    sessions.bind(1, acme, idle, 10)
    sessions.clientOf(1)!.session!.pages.set("k", page("https://a.example/", "x".repeat(1000)))
    sessions.unbind(1, 10)
    expect(sessions.size().pageBytes).toBeGreaterThan(2000)
    sessions.bind(2, acme, busy, 10)
    sessions.sweep(1009)
    expect(ended).toEqual([])
    sessions.sweep(1010)
    expect(ended).toEqual([idle])
    expect(sessions.size()).toEqual({ sessions: 1, pageBytes: 0 })
    // Used again, a session's idle time starts over; the running request kept `busy` open.
    sessions.unbind(2, 5000)
    sessions.sweep(5999)
    expect(sessions.owns(busy, acme, 5999)).toBe(true)
    sessions.sweep(6000)
    expect(ended).toEqual([idle, busy])
  })

  it("a session that ends is no longer found for a request still running in it, and keeps nothing more", () => {
    const sessions = registry()
    const id = sessions.open(acme, 0)!
    sessions.bind(7, acme, id, 0)
    const pages = sessions.clientOf(7)!.session!.pages
    expect(sessions.close(id, acme)).toBe(true)
    expect(sessions.clientOf(7)).toEqual({ caller: acme, session: undefined })
    pages.set("k", page("https://a.example/", "late"))
    expect(pages.get("k")).toBeUndefined()
    expect(sessions.size()).toEqual({ sessions: 0, pageBytes: 0 })
  })

  it.prop(
    "whatever the callers do, each holds at most its bound, and only its own opens or idleness end its sessions",
    [FastCheck.array(FastCheck.tuple(FastCheck.constantFrom(0, 1, 2), FastCheck.boolean()), { maxLength: 200 })],
    ([steps]) => {
      const callers = [0, 1, 2].map((i) => ({ id: `token:${i}`, workspace: `w${i}` }))
      const sessions = registry({ maxPerCaller: 3, maxSessions: 7 })
      const endedBy = new Map<string, number>()
      const ownerOf = new Map<string, number>()
      let current = -1
      sessions.onClose((id) => endedBy.set(id, current))
      for (const [index, [who, close]] of steps.entries()) {
        current = who
        if (close) {
          const mine = Array.from(ownerOf).find(([id, owner]) => owner === who && !endedBy.has(id))
          if (mine !== undefined) sessions.close(mine[0], callers[who])
        } else {
          const id = sessions.open(callers[who], index)
          if (id !== undefined) ownerOf.set(id, who)
        }
        const held = [0, 1, 2].map((c) => Array.from(ownerOf).filter(([id, o]) => o === c && !endedBy.has(id)))
        expect(held.every((list) => list.length <= 3)).toBe(true)
        expect(held.flat().length).toBeLessThanOrEqual(7)
      }
      for (const [id, by] of endedBy) expect(by).toBe(ownerOf.get(id))
    }
  )
})
