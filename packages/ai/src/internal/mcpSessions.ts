/**
 * MCP sessions over streamable HTTP: `initialize` opens a session whose id the server sends in `Mcp-Session-Id`,
 * and the client sends it back on every request, so the tools can keep one toolkit session (its source ids and the
 * pages it read) per client.
 *
 * A session belongs to the caller that opened it (a token, or an address when the server has no tokens): to any
 * other caller it does not exist, and using or ending it is answered as for an unknown id. Each POST is its own RPC
 * client; the registry maps it to its caller, and to its session when it has one, while it runs.
 *
 * Bounded three ways: a session idle for `idleMillis` ends; a caller has at most `maxPerCaller` sessions, and a new
 * one ends the caller's own session used least recently (never another caller's); and past `maxSessions` in all a
 * new session is refused until one ends, since ending another caller's would let one token end everyone's.
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as SessionPages from "./sessionPages.js"

/** The header that carries the session id, lower-cased as Node gives request headers. */
export const header = "mcp-session-id"

/** Who made a request: a token (its digest's id) or an address, and the workspace of its calls. */
export interface Caller {
  readonly id: string
  readonly workspace: string
}

/** What a tool call needs to know of the RPC client it came from. */
export interface Client {
  readonly caller: Caller
  /** The session, and its view of the server's page store; none for a client that did not initialise. */
  readonly session: { readonly id: string; readonly pages: SessionPages.PartStore } | undefined
}

/** What the tools read: the caller and session of the RPC client a tool call came from. */
export class McpSessions extends Context.Tag("@websearch/ai/internal/McpSessions")<
  McpSessions,
  {
    readonly clientOf: (clientId: number) => Client | undefined
    /** Called with a session's id when it ends, so what the tools keep for it can go too. */
    readonly onClose: (listener: (session: string) => void) => void
  }
>() {}

/** The bounds of a registry. */
export interface Bounds {
  readonly maxPerCaller: number
  readonly maxSessions: number
  readonly idleMillis: number
  readonly pages: SessionPages.Bounds
}

/** The default bounds. */
export const defaults = {
  maxSessionsPerToken: 16,
  maxSessions: 4096,
  idleTimeout: Duration.minutes(30)
} as const

interface Session {
  readonly caller: Caller
  readonly pages: SessionPages.PartStore
  lastUsed: number
  inUse: number
}

export const makeRegistry = (bounds: Bounds) => {
  // Insertion order is use order: a session moves to the end when used, so the first is the least recently used.
  const open = new Map<string, Session>()
  const byCaller = new Map<string, Set<string>>()
  const byClient = new Map<number, { readonly caller: Caller; readonly session: string | undefined }>()
  const listeners: Array<(session: string) => void> = []
  const pages = SessionPages.make(bounds.pages)

  const end = (id: string): boolean => {
    const session = open.get(id)
    if (session === undefined) return false
    open.delete(id)
    const mine = byCaller.get(session.caller.id)
    mine?.delete(id)
    if (mine !== undefined && mine.size === 0) byCaller.delete(session.caller.id)
    pages.drop(id)
    // A request still running for it no longer finds it, so nothing is kept for a session already gone.
    for (const [client, bound] of byClient) {
      if (bound.session === id) byClient.set(client, { caller: bound.caller, session: undefined })
    }
    for (const listener of listeners) listener(id)
    return true
  }

  const touch = (id: string, session: Session, now: number) => {
    session.lastUsed = now
    open.delete(id)
    open.set(id, session)
    const mine = byCaller.get(session.caller.id)
    mine?.delete(id)
    mine?.add(id)
  }

  /** Ends every session idle for longer than the bound, except those with a request running. */
  const sweep = (now: number) => {
    const idle: Array<string> = []
    for (const [id, session] of open) {
      if (now - session.lastUsed < bounds.idleMillis) break
      if (session.inUse === 0) idle.push(id)
    }
    for (const id of idle) end(id)
  }

  return {
    /**
     * Opens a session for `caller`, ending its own least recently used one past its bound; none when the server
     * holds as many sessions as it may.
     */
    open: (caller: Caller, now: number): string | undefined => {
      sweep(now)
      const mine = byCaller.get(caller.id) ?? new Set<string>()
      while (mine.size >= bounds.maxPerCaller) {
        // An idle session of the caller goes before one with a request running.
        const victim = Array.from(mine).find((id) => open.get(id)?.inUse === 0) ?? mine.values().next().value!
        end(victim)
      }
      if (open.size >= bounds.maxSessions) return undefined
      const id = crypto.randomUUID()
      open.set(id, { caller, pages: pages.open(id, caller.id), lastUsed: now, inUse: 0 })
      mine.add(id)
      byCaller.set(caller.id, mine)
      return id
    },
    /** Whether `caller` has this session open: another caller's session is as unknown as one that never was. */
    owns: (id: string, caller: Caller, now: number): boolean => {
      sweep(now)
      return open.get(id)?.caller.id === caller.id
    },
    /** Ends `caller`'s session; false when it has no such session. */
    close: (id: string, caller: Caller): boolean => open.get(id)?.caller.id === caller.id && end(id),
    /** Binds an RPC client to its caller, and to a session `caller` owns, for as long as its request runs. */
    bind: (clientId: number, caller: Caller, id: string | undefined, now: number) => {
      const session = id === undefined ? undefined : open.get(id)
      const owned = session !== undefined && session.caller.id === caller.id
      if (owned) {
        session.inUse += 1
        touch(id!, session, now)
      }
      byClient.set(clientId, { caller, session: owned ? id : undefined })
    },
    unbind: (clientId: number, now: number) => {
      const bound = byClient.get(clientId)
      byClient.delete(clientId)
      const session = bound?.session === undefined ? undefined : open.get(bound.session)
      if (session !== undefined) {
        session.inUse -= 1
        touch(bound!.session!, session, now)
      }
    },
    clientOf: (clientId: number): Client | undefined => {
      const bound = byClient.get(clientId)
      if (bound === undefined) return undefined
      const session = bound.session === undefined ? undefined : open.get(bound.session)
      return {
        caller: bound.caller,
        session: session === undefined ? undefined : { id: bound.session!, pages: session.pages }
      }
    },
    sweep,
    onClose: (listener: (session: string) => void) => void listeners.push(listener),
    /** The sessions open now, and the bytes their pages hold. */
    size: () => ({ sessions: open.size, pageBytes: pages.size().bytes })
  }
}
