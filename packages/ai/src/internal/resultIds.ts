/**
 * Short result ids: every source a toolkit session shows a model gets an id (`w1`, `w2`, …) that stays the same
 * for that URL for the whole session, so the model can cite a source or read it with `web_fetch` without
 * copying a long URL. A session is one `ResultIds` instance (one toolkit Layer, one MCP server).
 *
 * @internal Used by the toolkit only, not part of the public API: it may change in any release.
 *
 * @since 0.1.0
 */
import { normalizeUrlForDedupe } from "@websearch/core/internal/postProcessing"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { flat } from "./flatString.js"

/**
 * The ids of a session: which id each URL has, which URL each id names, and the next number. Ids are never
 * reused: when the session forgets its oldest ids (see `maxIds`), their numbers stay retired.
 *
 * @since 0.1.0
 * @category models
 */
export interface State {
  /** Dedupe key of a URL (`normalizeUrlForDedupe`) -> its id. */
  readonly byKey: ReadonlyMap<string, string>
  /** Id -> the URL it was first assigned for. */
  readonly byId: ReadonlyMap<string, string>
  readonly next: number
  /**
   * The characters of the URLs `byId` holds (counted when absent).
   *
   * @since 0.2.0
   */
  readonly chars?: number | undefined
}

/**
 * A session with no ids yet.
 *
 * @since 0.1.0
 * @category constructors
 */
export const empty: State = { byKey: new Map(), byId: new Map(), next: 1, chars: 0 }

/**
 * Most ids a session remembers by default; past it the oldest are forgotten, so a long-running MCP server does
 * not grow without bound.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultMaxIds = 10_000

/**
 * Most characters of URLs a session remembers by default (about 4 MB): a provider's URLs can be of any length, so
 * the ids are bounded in size as well as in number; past it the oldest are forgotten.
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultMaxChars = 2_000_000

const idPattern = /^w([1-9][0-9]{0,8})$/

/**
 * Whether a string has the shape of a result id (`w` and a positive number).
 *
 * @since 0.1.0
 * @category guards
 */
export const isId = (s: string): boolean => idPattern.test(s.trim())

/**
 * Assigns ids to URLs, in order: a URL already known (same dedupe key) keeps its id, a new one gets the next
 * number. Pure: returns the ids and the new state. The state keeps flat copies of the URLs (a URL sliced from a
 * larger text would keep all of it alive) and at most `maxIds` of them and `maxChars` of their characters.
 *
 * @since 0.1.0
 * @category combinators
 */
export const assign = (
  state: State,
  urls: ReadonlyArray<string>,
  maxIds: number = defaultMaxIds,
  maxChars: number = defaultMaxChars
): readonly [ReadonlyArray<string>, State] => {
  const byKey = new Map(state.byKey)
  const byId = new Map(state.byId)
  let next = state.next
  let chars = state.chars ?? Array.from(byId.values()).reduce((sum, url) => sum + url.length, 0)
  const ids = urls.map((url) => {
    const key = normalizeUrlForDedupe(url)
    const known = byKey.get(key)
    if (known !== undefined) return known
    const id = `w${next++}`
    byKey.set(flat(key), id)
    byId.set(id, flat(url))
    chars += url.length
    return id
  })
  // Maps iterate in insertion order, so the first entries are the oldest ids.
  while (byId.size > Math.max(1, maxIds) || (byId.size > 1 && chars > maxChars)) {
    const [oldest, url] = byId.entries().next().value as [string, string]
    byId.delete(oldest)
    chars -= url.length
    const key = normalizeUrlForDedupe(url)
    if (byKey.get(key) === oldest) byKey.delete(key)
  }
  return [ids, { byKey, byId, next, chars }]
}

/**
 * The URL an id names in this state, if the session knows it.
 *
 * @since 0.1.0
 * @category accessors
 */
export const lookup = (state: State, id: string): Option.Option<string> =>
  Option.fromNullable(state.byId.get(id.trim()))

/**
 * A session's ids, held in a `Ref`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ResultIds {
  /** Assigns (or returns the existing) ids of these URLs, in order. */
  readonly assign: (urls: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>
  /** The URL an id names, if this session assigned it and still remembers it. */
  readonly lookup: (id: string) => Effect.Effect<Option.Option<string>>
}

/**
 * Makes a fresh session.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options?: {
  readonly maxIds?: number | undefined
  /** @since 0.2.0 */
  readonly maxChars?: number | undefined
}): Effect.Effect<ResultIds> =>
  Effect.map(Ref.make(empty), (ref) => ({
    assign: (urls) =>
      Ref.modify(ref, (state) =>
        assign(state, urls, options?.maxIds ?? defaultMaxIds, options?.maxChars ?? defaultMaxChars)
      ),
    lookup: (id) => Effect.map(Ref.get(ref), (state) => lookup(state, id))
  }))
