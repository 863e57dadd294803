/**
 * Turns on the extraction pool's workers, shared fairly between the requests whose pages wait for one.
 */
import * as Effect from "effect/Effect"

interface Group {
  /** Its waiting ordinary jobs, then its waiting heavy ones, each in the order they came. */
  readonly light: Array<Waiter>
  readonly heavy: Array<Waiter>
  running: number
  /** When this group was last given a turn (a counter); -1 for never. */
  served: number
}

interface Waiter {
  readonly heavy: boolean
  /** When it came, to keep a group's jobs in order across its two queues. */
  readonly arrived: number
  resume: (() => void) | undefined
  group: Group | undefined
}

/**
 * Turns on the workers, shared fairly: when a worker is free, the waiting group served least recently goes next
 * (a group that never had a turn first), each group in the order its jobs came. A request that sends many slow
 * pages then delays another request's page by the jobs already running, not by its whole backlog. Heavy jobs (a
 * big body or a PDF, as the pool decides) hold at most `size - 1` turns at once (the one turn when `size` is 1), so
 * with two workers or more an ordinary page always finds one that no big page holds for a tenth of a second or
 * more; a heavy job over that share waits, and the ordinary jobs behind it, of its own request too, go past it. A
 * wait is interruptible (a job whose deadline passes while queued leaves the queue); a turn granted to a fiber
 * interrupted at that moment is given back.
 */
export const make = (size: number) => {
  const heavyCap = Math.max(1, size - 1)
  let busy = 0
  let heavyBusy = 0
  let clock = 0
  let arrivals = 0
  const groups = new Map<unknown, Group>()

  /** The queue whose head is the group's next job that may run now, or none. */
  const runnable = (group: Group): Array<Waiter> | undefined => {
    const light = group.light[0]
    const heavy = heavyBusy < heavyCap ? group.heavy[0] : undefined
    if (light !== undefined && (heavy === undefined || light.arrived < heavy.arrived)) return group.light
    return heavy === undefined ? undefined : group.heavy
  }

  const grant = (group: Group, waiter: Waiter) => {
    busy++
    if (waiter.heavy) heavyBusy++
    group.running++
    group.served = clock++
    waiter.group = group
  }

  const forget = (key: unknown, group: Group) => {
    if (group.running === 0 && group.light.length === 0 && group.heavy.length === 0) groups.delete(key)
  }

  const dispatch = () => {
    while (busy < size) {
      let next: Group | undefined
      let queue: Array<Waiter> | undefined
      for (const group of groups.values()) {
        if (next !== undefined && group.served >= next.served) continue
        const candidate = runnable(group)
        if (candidate !== undefined) {
          next = group
          queue = candidate
        }
      }
      if (next === undefined || queue === undefined) return
      const waiter = queue.shift()!
      grant(next, waiter)
      waiter.resume?.()
    }
  }

  const acquire = (key: unknown, waiter: Waiter) =>
    Effect.async<void>((resume) => {
      let group = groups.get(key)
      if (group === undefined) {
        group = { light: [], heavy: [], running: 0, served: -1 }
        groups.set(key, group)
      }
      const queue = waiter.heavy ? group.heavy : group.light
      queue.push(waiter)
      // Every waiter that could run already does, so this one goes at once when a worker is free for it.
      dispatch()
      if (waiter.group !== undefined) return resume(Effect.void)
      waiter.resume = () => resume(Effect.void)
      const queued = group
      return Effect.sync(() => {
        if (waiter.group !== undefined) return
        const at = queue.indexOf(waiter)
        if (at === -1) return
        queue.splice(at, 1)
        forget(key, queued)
      })
    })

  const release = (key: unknown, waiter: Waiter) =>
    Effect.sync(() => {
      const group = waiter.group
      if (group === undefined) return
      waiter.group = undefined
      busy--
      if (waiter.heavy) heavyBusy--
      group.running--
      forget(key, group)
      dispatch()
    })

  const withTurn = <A, E, R>(group: unknown, heavy: boolean, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.uninterruptibleMask((restore) => {
      const waiter: Waiter = { heavy, arrived: arrivals++, resume: undefined, group: undefined }
      // A job without a group is a group of its own.
      const key = group === undefined ? waiter : group
      return restore(acquire(key, waiter)).pipe(
        // Interrupted just as the turn came: give it back.
        Effect.onInterrupt(() => release(key, waiter)),
        Effect.zipRight(Effect.ensuring(restore(effect), release(key, waiter)))
      )
    })

  return { withTurn }
}
