/**
 * What `web_fetch` keeps of the pages a session read, to serve a part again without a fetch ("already read in
 * this session") and to mark search results as read: page parts and read URLs, per session, least recently used
 * out first, under a byte bound per session and one across every session of a server.
 *
 * The store holds what it counts. A part handed to it is usually a slice of the whole page (a page served in
 * parts is sliced from the page the pipeline keeps), and V8 keeps the whole parent string alive for as long as a
 * slice of it lives: an 8,000-character part of a 2 MB page held 2 MB. So every string kept is copied flat first
 * (`flatString`), and counted at two bytes a code unit, as the core page store counts.
 *
 * Across sessions, when the bound is reached, the part that goes is the oldest of the largest session of the
 * owner (token) holding the most: a token filling the store evicts its own parts first, and can push another
 * token's down only to its own share.
 */
import type { WebSearchResult } from "@websearch/core/WebSearchResponse"
import * as Context from "effect/Context"
import { flat } from "./flatString.js"

/** One session's view of the store. */
export interface PartStore {
  /** The part kept under a key, if it is still there; a hit makes it the most recently used. */
  readonly get: (key: string) => WebSearchResult | undefined
  /** Keeps a flat copy of a part under a key, evicting as the bounds say. */
  readonly set: (key: string, page: WebSearchResult) => void
  /** Remembers that a (normalised) URL was read. */
  readonly markRead: (url: string) => void
  /** Whether a (normalised) URL was read and is still remembered. */
  readonly wasRead: (url: string) => boolean
}

/** The page store of the session a toolkit is built for; without one, a toolkit keeps its own. */
export class SessionPages extends Context.Tag("@websearch/ai/internal/SessionPages")<SessionPages, PartStore>() {}

/** Bounds of a store. */
export interface Bounds {
  /** Most bytes one session keeps (two a code unit). */
  readonly maxSessionBytes: number
  /** Most bytes every session together keeps. */
  readonly maxBytes: number
  /** Most parts and read URLs one session keeps. */
  readonly maxSessionEntries: number
}

/** The bounds of a toolkit's own store and of each MCP session: about a million characters. */
export const defaultMaxSessionBytes = 2 * 1024 * 1024

/** The bound across the sessions of one MCP server. */
export const defaultMaxBytes = 64 * 1024 * 1024

/** Most entries one session keeps (the parts of 256 reads and the URLs of the pages read). */
export const defaultMaxSessionEntries = 4096

const overhead = 64

interface Entry {
  readonly page: WebSearchResult | undefined
  readonly bytes: number
}

interface Session {
  readonly owner: string
  // Insertion order is use order: the first entry is the least recently used.
  readonly entries: Map<string, Entry>
  bytes: number
}

interface Owner {
  readonly sessions: Set<string>
  bytes: number
}

const flatResult = (page: WebSearchResult): { readonly page: WebSearchResult; readonly chars: number } => {
  let chars = 0
  const copy: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(page)) {
    if (typeof value === "string") {
      chars += value.length
      copy[name] = flat(value)
    } else if (Array.isArray(value)) {
      copy[name] = value.map((item: unknown) => {
        if (typeof item !== "string") return item
        chars += item.length
        return flat(item)
      })
    } else copy[name] = value
  }
  return { page: copy as unknown as WebSearchResult, chars }
}

/** A store for the sessions of one server (or one toolkit). */
export const make = (bounds: Bounds) => {
  const sessions = new Map<string, Session>()
  const owners = new Map<string, Owner>()
  let total = 0

  const remove = (session: Session, key: string) => {
    const entry = session.entries.get(key)
    if (entry === undefined) return
    session.entries.delete(key)
    session.bytes -= entry.bytes
    const owner = owners.get(session.owner)
    if (owner !== undefined) owner.bytes -= entry.bytes
    total -= entry.bytes
  }

  const evictOldest = (session: Session) => {
    const oldest = session.entries.keys().next()
    if (!oldest.done) remove(session, oldest.value)
  }

  // The largest session of the owner holding the most: where room is made when the shared bound is reached.
  const heaviest = (): Session | undefined => {
    let owner: Owner | undefined
    for (const candidate of owners.values()) if (owner === undefined || candidate.bytes > owner.bytes) owner = candidate
    let largest: Session | undefined
    for (const id of owner?.sessions ?? []) {
      const session = sessions.get(id)
      if (session !== undefined && (largest === undefined || session.bytes > largest.bytes)) largest = session
    }
    return largest
  }

  const put = (session: Session, key: string, entry: Entry) => {
    remove(session, key)
    if (entry.bytes > bounds.maxSessionBytes || entry.bytes > bounds.maxBytes) return
    session.entries.set(key, entry)
    session.bytes += entry.bytes
    owners.get(session.owner)!.bytes += entry.bytes
    total += entry.bytes
    while (session.bytes > bounds.maxSessionBytes || session.entries.size > bounds.maxSessionEntries) {
      evictOldest(session)
    }
    while (total > bounds.maxBytes) {
      const victim = heaviest()
      if (victim === undefined || victim.entries.size === 0) break
      evictOldest(victim)
    }
  }

  const open = (id: string, owner: string) => {
    if (sessions.has(id)) return
    sessions.set(id, { owner, entries: new Map(), bytes: 0 })
    let holder = owners.get(owner)
    if (holder === undefined) {
      holder = { sessions: new Set(), bytes: 0 }
      owners.set(owner, holder)
    }
    holder.sessions.add(id)
  }

  return {
    /**
     * Opens a session owned by `owner` (a token's id) and gives its view. Once the session is dropped its view
     * keeps nothing more, so a call still running for a session that ended leaves nothing behind.
     */
    open: (id: string, owner: string): PartStore => {
      open(id, owner)
      return {
        get: (key) => {
          const session = sessions.get(id)
          const entry = session?.entries.get(`page ${key}`)
          if (session === undefined || entry?.page === undefined) return undefined
          session.entries.delete(`page ${key}`)
          session.entries.set(`page ${key}`, entry)
          return entry.page
        },
        set: (key, page) => {
          const session = sessions.get(id)
          if (session === undefined) return
          const copy = flatResult(page)
          // The key holds the page's URL too: it is counted with the part.
          put(session, `page ${flat(key)}`, { page: copy.page, bytes: overhead + 2 * (copy.chars + key.length) })
        },
        markRead: (url) => {
          const session = sessions.get(id)
          if (session !== undefined)
            put(session, `read ${flat(url)}`, { page: undefined, bytes: overhead + 2 * url.length })
        },
        wasRead: (url) => sessions.get(id)?.entries.has(`read ${url}`) === true
      }
    },
    /** Forgets a session and everything it kept. */
    drop: (id: string) => {
      const session = sessions.get(id)
      if (session === undefined) return
      for (const key of Array.from(session.entries.keys())) remove(session, key)
      sessions.delete(id)
      const owner = owners.get(session.owner)
      owner?.sessions.delete(id)
      if (owner !== undefined && owner.sessions.size === 0) owners.delete(session.owner)
    },
    /** The bytes and sessions held now. */
    size: () => ({ bytes: total, sessions: sessions.size })
  }
}

/** A store that keeps nothing: a call without a session remembers nothing for the next. */
export const none: PartStore = {
  get: () => undefined,
  set: () => undefined,
  markRead: () => undefined,
  wasRead: () => false
}
