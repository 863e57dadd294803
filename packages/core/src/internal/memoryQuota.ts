/**
 * The quota's in-memory store: token buckets and hold-offs in two maps. They are keyed by call-state key, and a
 * call instance's key names its workspace and revision, so every change to every workspace's instances makes new
 * keys. A bucket refilled to its limit is the same as no bucket, and an expired hold-off the same as none: when a
 * map has doubled since it was last swept, those are dropped, so the maps hold only what is in use (amortised
 * constant work per call).
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

interface Bucket {
  tokens: number
  refilled: number
  readonly limit: number
  readonly every: number
}

/** Below this many entries a map is never swept. */
export const minSweep = 1024

/** A memory store (the operations of `ProviderQuota.Store`), and how many entries it holds, for tests. */
export const make = () => {
  const buckets = new Map<string, Bucket>()
  const holdOffs = new Map<string, number>()
  let sweepBucketsAt = minSweep
  let sweepHoldOffsAt = minSweep
  const full = (bucket: Bucket, now: number) =>
    bucket.tokens + Math.floor((now - bucket.refilled) / bucket.every) >= bucket.limit
  const sweepBuckets = (now: number) => {
    for (const [key, bucket] of buckets) if (full(bucket, now)) buckets.delete(key)
    sweepBucketsAt = Math.max(minSweep, 2 * buckets.size)
  }
  const sweepHoldOffs = (now: number) => {
    for (const [key, until] of holdOffs) if (until <= now) holdOffs.delete(key)
    sweepHoldOffsAt = Math.max(minSweep, 2 * holdOffs.size)
  }
  return {
    synchronous: true,
    consume: ({
      key,
      limit,
      window
    }: {
      readonly key: string
      readonly limit: number
      readonly window: Duration.Duration
    }) =>
      Effect.map(Clock.currentTimeMillis, (now): Option.Option<Duration.Duration> => {
        const every = Duration.toMillis(window) / limit
        let bucket = buckets.get(key)
        if (bucket === undefined || bucket.limit !== limit || bucket.every !== every) {
          bucket = { tokens: bucket?.tokens ?? limit, refilled: bucket?.refilled ?? now, limit, every }
          if (buckets.size >= sweepBucketsAt) sweepBuckets(now)
        }
        const back = Math.floor((now - bucket.refilled) / every)
        if (back > 0) {
          bucket.tokens = Math.min(limit, bucket.tokens + back)
          bucket.refilled = bucket.tokens === limit ? now : bucket.refilled + back * every
        }
        buckets.set(key, bucket)
        if (bucket.tokens === 0) return Option.some(Duration.millis(bucket.refilled + every - now))
        bucket.tokens -= 1
        return Option.none()
      }),
    holdOffUntil: (key: string) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const until = holdOffs.get(key)
        if (until === undefined || until > now) return Option.fromNullable(until)
        holdOffs.delete(key)
        return Option.none<number>()
      }),
    setHoldOff: (key: string, until: number) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.sync(() => {
          if (!holdOffs.has(key) && holdOffs.size >= sweepHoldOffsAt) sweepHoldOffs(now)
          holdOffs.set(key, until)
        })
      ),
    size: () => ({ buckets: buckets.size, holdOffs: holdOffs.size })
  }
}
