/**
 * Turns on the extraction pool's workers, shared fairly between the requests whose pages wait for one.
 */
import * as Effect from "effect/Effect"

interface Group {
  readonly queue: Array<Waiter>
  running: number
  /** When this group was last given a turn (a counter); -1 for never. */
  served: number
}

interface Waiter {
  readonly heavy: boolean
  resume: (() => void) | undefined
  group: Group | undefined
}

/**
 * Turns on the workers, shared fairly: when a worker is free, the waiting group served least recently goes next
 * (a group that never had a turn first), each group in the order its jobs came. A request that sends many slow
 * pages then delays another request's page by the jobs already running, not by its whole backlog. Heavy jobs (a
 * big body or a PDF, as the pool decides) hold at most `size - 1` workers at once, so an ordinary page always finds
 * a worker that no big page holds for a tenth of a second or more; a heavy job waits for one of its own, however
 * many are idle. A wait is interruptible (a job whose deadline passes while queued leaves the queue); a turn
 * granted to a fiber interrupted at that moment is given back.
 */
export const make = (size: number) => {
  const heavyCap = Math.max(1, size - 1)
  let busy = 0
  let heavyBusy = 0
  let clock = 0
  const groups = new Map<unknown, Group>()

  const grantable = (waiter: Waiter | undefined): boolean =>
    waiter !== undefined && (!waiter.heavy || heavyBusy < heavyCap)

  const grant = (group: Group, waiter: Waiter) => {
    busy++
    if (waiter.heavy) heavyBusy++
    group.running++
    group.served = clock++
    waiter.group = group
  }

  const forget = (key: unknown, group: Group) => {
    if (group.running === 0 && group.queue.length === 0) groups.delete(key)
  }

  // Each group's jobs go in order: a group whose next job is heavy while the heavy jobs hold their share waits,
  // and the others go past it.
  const dispatch = () => {
    while (busy < size) {
      let next: Group | undefined
      for (const group of groups.values()) {
        if (grantable(group.queue[0]) && (next === undefined || group.served < next.served)) next = group
      }
      if (next === undefined) return
      const waiter = next.queue.shift()!
      grant(next, waiter)
      waiter.resume?.()
    }
  }

  const acquire = (key: unknown, waiter: Waiter) =>
    Effect.async<void>((resume) => {
      let group = groups.get(key)
      if (group === undefined) {
        group = { queue: [], running: 0, served: -1 }
        groups.set(key, group)
      }
      group.queue.push(waiter)
      // Every waiter that could run already does, so this one goes at once when a worker is free for it.
      dispatch()
      if (waiter.group !== undefined) return resume(Effect.void)
      waiter.resume = () => resume(Effect.void)
      const queued = group
      return Effect.sync(() => {
        if (waiter.group !== undefined) return
        const at = queued.queue.indexOf(waiter)
        if (at === -1) return
        queued.queue.splice(at, 1)
        forget(key, queued)
        // A heavy job leaving the head of its group's queue may let the ordinary job behind it go.
        dispatch()
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
      const waiter: Waiter = { heavy, resume: undefined, group: undefined }
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
