/**
 * A pace for the bytes of big bodies, shared by every request of one transport. Reading, decoding and extracting
 * a body costs CPU in proportion to its size, and a decompression bomb decodes the transport's whole cap from a
 * few KiB on the wire: without a bound, a client asking for a few big bodies in a loop takes the process's cores
 * from every other request (in `bench/hostile`, ordinary fetches' p99 went 1.7–1.9 times slower with them). Past
 * its first `freeBytes`, each body's bytes are booked on one clock at `bytesPerSecond` and wait their turn, so
 * the big bodies of all requests together read at that rate, in arrival order, while a body under `freeBytes`
 * never waits.
 */

/** The bytes of each body read at full speed: 1 MiB (a large HTML page; ordinary pages are far smaller). */
export const freeBytes = 1024 * 1024

/** The default rate of the bytes past `freeBytes`, all bodies together: 32 MiB a second. */
export const defaultBytesPerSecond = 32 * 1024 * 1024

/** A transport's pace. */
export interface BodyPace {
  /**
   * Books `bytes` more of a body that has now read `total` bytes (those included): how long to wait before reading
   * on, in ms; 0 while the body is within `freeBytes`.
   */
  readonly delay: (total: number, bytes: number) => number
}

/** A pace at `bytesPerSecond` on the clock `now` (ms); `undefined` (no pace) for `Infinity`. */
export const make = (bytesPerSecond: number, now: () => number = () => performance.now()): BodyPace | undefined => {
  if (bytesPerSecond === Infinity) return undefined
  // When the bytes booked so far will have been read, ms on `now`'s clock.
  let booked = 0
  return {
    delay: (total, bytes) => {
      const over = Math.min(bytes, total - freeBytes)
      if (over <= 0) return 0
      const at = now()
      booked = Math.max(at, booked) + (over / bytesPerSecond) * 1000
      return booked - at
    }
  }
}
