/**
 * The one reading of an HTTP `Retry-After` header (RFC 9110 §10.2.3) for every transport and provider: how many
 * whole seconds to wait, from delta-seconds or an HTTP date, capped at a day so a hostile or broken server
 * cannot park a caller for weeks. Time comes from the caller (or Effect's `Clock`), so tests move it by hand.
 *
 * @example
 * ```ts
 * import * as RetryAfter from "@websearch/core/internal/retryAfter"
 *
 * RetryAfter.parse("120", Date.now()) // 120
 * RetryAfter.parse("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("Wed, 21 Oct 2015 07:27:00 GMT")) // 60
 * RetryAfter.parse("soon", Date.now()) // undefined
 * ```
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 *
 * @since 0.2.0
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"

/**
 * The longest wait a `Retry-After` can ask for, in seconds (one day); longer values are cut to it.
 *
 * @since 0.2.0
 * @category constants
 */
export const maxSeconds = 86_400

// An HTTP date is 29 characters; anything much longer is not one, and is not handed to `Date.parse`.
const maxLength = 64

const deltaSeconds = /^\d+(?:\.\d+)?$/

// Every HTTP date form names its month; `Date.parse` alone also takes "-5" or "2" as dates.
const monthName = /[A-Za-z]{3}/

/**
 * Whole seconds to wait (rounded up, at most `maxSeconds`, never negative), or `undefined` when the value is
 * missing, empty or neither delta-seconds nor a date. A fractional delta (sent by some providers, though the RFC
 * allows only digits) is rounded up rather than refused. `nowMillis` is the current time, for a date.
 *
 * @since 0.2.0
 * @category encoding
 */
export const parse = (value: string | undefined, nowMillis: number): number | undefined => {
  if (value === undefined) return undefined
  const raw = value.trim()
  if (raw === "" || raw.length > maxLength) return undefined
  if (deltaSeconds.test(raw)) return Math.min(maxSeconds, Math.ceil(Number(raw)))
  const at = monthName.test(raw) ? Date.parse(raw) : Number.NaN
  if (Number.isNaN(at)) return undefined
  return Math.min(maxSeconds, Math.max(0, Math.ceil((at - nowMillis) / 1000)))
}

/**
 * `parse` against Effect's `Clock`.
 *
 * @since 0.2.0
 * @category encoding
 */
export const seconds = (value: string | undefined): Effect.Effect<number | undefined> =>
  Effect.map(Clock.currentTimeMillis, (now) => parse(value, now))

/**
 * `parse` of the `retry-after` entry of a lower-cased header record (as `@effect/platform` and undici give them).
 *
 * @since 0.2.0
 * @category encoding
 */
export const fromHeaders = (
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>,
  nowMillis: number
): number | undefined => {
  const value = headers["retry-after"]
  return parse(typeof value === "string" ? value : value?.[0], nowMillis)
}
