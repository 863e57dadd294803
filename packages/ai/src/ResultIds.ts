/**
 * Short result ids: every source a toolkit session shows a model gets an id (`w1`, `w2`, …) that stays the same
 * for that URL for the whole session, so the model can cite a source or read it with `web_fetch` without
 * copying a long URL. A session is one `ResultIds` instance (one toolkit Layer, one MCP server).
 *
 * @since 0.1.0
 */
import { normalizeUrlForDedupe } from "@websearch/core/PostProcessing"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"

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
}

/**
 * A session with no ids yet.
 *
 * @since 0.1.0
 * @category constructors
 */
export const empty: State = { byKey: new Map(), byId: new Map(), next: 1 }

/**
 * Most ids a session remembers by default; past it the oldest are forgotten, so a long-running MCP server does
 * not grow without bound.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultMaxIds = 10_000

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
 * number. Pure: returns the ids and the new state.
 *
 * @since 0.1.0
 * @category combinators
 */
export const assign = (
  state: State,
  urls: ReadonlyArray<string>,
  maxIds: number = defaultMaxIds
): readonly [ReadonlyArray<string>, State] => {
  const byKey = new Map(state.byKey)
  const byId = new Map(state.byId)
  let next = state.next
  const ids = urls.map((url) => {
    const key = normalizeUrlForDedupe(url)
    const known = byKey.get(key)
    if (known !== undefined) return known
    const id = `w${next++}`
    byKey.set(key, id)
    byId.set(id, url)
    return id
  })
  // Maps iterate in insertion order, so the first entries are the oldest ids.
  while (byId.size > Math.max(1, maxIds)) {
    const [oldest, url] = byId.entries().next().value as [string, string]
    byId.delete(oldest)
    const key = normalizeUrlForDedupe(url)
    if (byKey.get(key) === oldest) byKey.delete(key)
  }
  return [ids, { byKey, byId, next }]
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
export const make = (options?: { readonly maxIds?: number | undefined }): Effect.Effect<ResultIds> =>
  Effect.map(Ref.make(empty), (ref) => ({
    assign: (urls) => Ref.modify(ref, (state) => assign(state, urls, options?.maxIds ?? defaultMaxIds)),
    lookup: (id) => Effect.map(Ref.get(ref), (state) => lookup(state, id))
  }))
