/**
 * MCP sessions over streamable HTTP: `initialize` opens a session whose id the server sends in `Mcp-Session-Id`,
 * and the client sends it back on every request, so the tools can keep one toolkit session (its source ids) per
 * client. Each POST is its own RPC client; the registry maps it to its session while it runs. Bounded: past
 * `maxSessions` the oldest session ends (its client gets 404 and initialises again).
 */
import * as Context from "effect/Context"

/** The header that carries the session id, lower-cased as Node gives request headers. */
export const header = "mcp-session-id"

/** Most sessions kept open at once. */
export const maxSessions = 1000

/** What the tools read: the session of the RPC client a tool call came from, when it has one. */
export class McpSessions extends Context.Tag("@websearch/ai/internal/McpSessions")<
  McpSessions,
  {
    readonly sessionOf: (clientId: number) => string | undefined
    /** Called with a session's id when it ends, so what the tools keep for it can go too. */
    readonly onClose: (listener: (session: string) => void) => void
  }
>() {}

export const makeRegistry = () => {
  // A Set iterates in insertion order: the first is the oldest.
  const open = new Set<string>()
  const byClient = new Map<number, string>()
  const listeners: Array<(session: string) => void> = []
  const close = (session: string): boolean => {
    if (!open.delete(session)) return false
    for (const listener of listeners) listener(session)
    return true
  }
  return {
    open: (): string => {
      const session = crypto.randomUUID()
      open.add(session)
      if (open.size > maxSessions) close(open.values().next().value as string)
      return session
    },
    has: (session: string): boolean => open.has(session),
    close,
    bind: (clientId: number, session: string) => void byClient.set(clientId, session),
    unbind: (clientId: number) => void byClient.delete(clientId),
    sessionOf: (clientId: number): string | undefined => byClient.get(clientId),
    onClose: (listener: (session: string) => void) => void listeners.push(listener)
  }
}
