import { describe, expect, it } from "@effect/vitest"
import * as McpSessions from "../src/internal/mcpSessions.js"

describe("the MCP session registry", () => {
  it("past its bound it ends the session used least recently, not the oldest one still in use", () => {
    const registry = McpSessions.makeRegistry()
    const ended: Array<string> = []
    registry.onClose((session) => ended.push(session))
    const first = registry.open()
    const second = registry.open()
    for (let i = 2; i < McpSessions.maxSessions; i++) registry.open()
    // The first session is in use (a request bound to it): a burst of new sessions ends the idle second one.
    registry.bind(1, first)
    registry.unbind(1)
    registry.open()
    expect(registry.has(first)).toBe(true)
    expect(registry.has(second)).toBe(false)
    expect(ended).toEqual([second])
  })

  it("a session that ends is no longer found for a request still running in it", () => {
    const registry = McpSessions.makeRegistry()
    const session = registry.open()
    registry.bind(7, session)
    expect(registry.sessionOf(7)).toBe(session)
    expect(registry.close(session)).toBe(true)
    // What the tools would build for it now is not kept under an id that already ended.
    expect(registry.sessionOf(7)).toBeUndefined()
    expect(registry.close(session)).toBe(false)
  })
})
