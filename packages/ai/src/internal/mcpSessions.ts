/**
 * MCP sessions over streamable HTTP: `initialize` opens a session whose id the server sends in `Mcp-Session-Id`,
 * and the client sends it back on every request, so the tools can keep one toolkit session (its source ids) per
 * client. Each POST is its own RPC client; the registry maps it to its session while it runs. Bounded: past
 * `maxSessions` the session used least recently ends (its client gets 404 and initialises again), so a burst of
 * new sessions cannot end the ones in use before idle ones.
 */
import * as Context from "effect/Context"

/** The header that carries the session id, lower-cased as Node gives request headers. */
export const header = "mcp-session-id"

/** Most sessions kept open at once. */
export const maxSessions = 256

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
    // A request still running for it no longer finds it, so nothing is kept for a session already gone.
    for (const [client, bound] of byClient) if (bound === session) byClient.delete(client)
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
    bind: (clientId: number, session: string) => {
      // Used now: it moves to the newest end, the last to be ended for room.
      if (open.delete(session)) open.add(session)
      byClient.set(clientId, session)
    },
    unbind: (clientId: number) => void byClient.delete(clientId),
    sessionOf: (clientId: number): string | undefined => byClient.get(clientId),
    onClose: (listener: (session: string) => void) => void listeners.push(listener)
  }
}
