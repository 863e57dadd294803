/**
 * websearch's crawl frontier in one process: a prepared `Plan` run breadth-first as a `Stream` of crawl events.
 *
 * - Level by level from the start URL (depth 0), then the map's URLs (depth 1, with `fromMap`) and every page's
 *   links; a link deeper than `maxDepth` is skipped as `depth`.
 * - At most `maxPages` URLs are ever queued (the start included): the memory held is the seen set and the next
 *   level, both bounded by `maxPages`, whatever the site holds. A link found past that is a `maxPages` cut.
 * - Politeness per host: at most `concurrency` pages in flight and `delay` milliseconds between two starts; a
 *   page answered 429 with a Retry-After of at most a minute pauses its host for that long and is read again once.
 * - Dedupe by normalised URL before reading, then by the URL a page ended at and its canonical link after: a page
 *   that answers for a key already read is skipped as `duplicate` and not emitted.
 * - The whole crawl runs under `timeouts.crawlSite`; reaching it is a `timeout` cut, not a failure. The crawl
 *   fails only when its start page does.
 * - The stream is backed by a small bounded queue: a slow reader slows the crawl instead of growing memory, and
 *   interrupting the stream interrupts the loop and with it every fetch in flight.
 *
 * A hosted crawler's items pass the same admission (site, patterns, URL policy, blacklist), dedupe and
 * `maxPages`, and are served with the request's window like ours.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
import * as Take from "effect/Take"
import * as SiteResponse from "../SiteResponse.js"
import * as WebSearchError from "../WebSearchError.js"
import {
  noSkips,
  type Plan,
  retryAfter,
  serveSafely,
  type SkipReason,
  startError,
  type StepOutcome
} from "./siteRun.js"

/** How a crawl runs, besides its plan. */
export interface Options {
  /** Pages in flight across all hosts. */
  readonly concurrency: number
  /** Per host: pages in flight, and milliseconds between two starts. */
  readonly politeness: { readonly concurrency: number; readonly delay: number }
  /** The whole crawl's time. */
  readonly timeout: Duration.Duration
  /** URLs to read at depth 1 besides the start page's links (the site's map, with `fromMap`). */
  readonly seeds: ReadonlyArray<string>
}

/** The most distinct skipped URLs remembered so that each is counted once; past it, every sighting counts. */
const distinctSkips = 100_000

/**
 * A 53-bit fingerprint of a text: two FNV-1a lanes (different offset bases) joined. Linear in the text; two
 * distinct URLs share one with a chance of about 1 in 2^53, which at worst counts a skip once instead of twice.
 */
const fingerprint = (text: string): number => {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ 0x5bd1e995
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    a = Math.imul(a ^ code, 0x01000193)
    b = Math.imul(b ^ code, 0x01000193)
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff)
}

type Emit = (event: SiteResponse.CrawlEvent) => Effect.Effect<void>

/** Runs a plan: its events as they happen, and always a closing `CrawlDone` unless the stream fails. */
export const run = (
  plan: Plan,
  options: Options
): Stream.Stream<SiteResponse.CrawlEvent, WebSearchError.WebSearchError> =>
  emitting((emit) => {
    const tally = new Tally(plan)
    const body =
      plan.method._tag === "Own" ? own(plan, plan.method.step, options, tally, emit) : hosted(plan, tally, emit)
    return body.pipe(
      Effect.timeoutOption(options.timeout),
      Effect.flatMap((finished) => {
        if (Option.isNone(finished)) {
          tally.cut(
            "timeout",
            `the crawl reached its timeout of ${Duration.format(options.timeout)}; the pages read are kept`
          )
        }
        return emit(tally.done())
      })
    )
  })

// A bounded queue of takes between the crawl's fiber and the stream's reader; the fiber lives in the stream's scope.
const emitting = (
  body: (emit: Emit) => Effect.Effect<void, WebSearchError.WebSearchError>
): Stream.Stream<SiteResponse.CrawlEvent, WebSearchError.WebSearchError> =>
  Stream.unwrapScoped(
    Effect.gen(function* () {
      const queue = yield* Queue.bounded<Take.Take<SiteResponse.CrawlEvent, WebSearchError.WebSearchError>>(16)
      yield* body((event) => Queue.offer(queue, Take.of(event))).pipe(
        Effect.matchCauseEffect({
          onFailure: (cause) => Queue.offer(queue, Take.failCause(cause)),
          onSuccess: () => Queue.offer(queue, Take.end)
        }),
        Effect.forkScoped
      )
      return Stream.flattenTake(Stream.fromQueue(queue))
    })
  )

/** What a crawl counted: pages, failures, skips by reason, cuts, and the keys seen and read. */
class Tally {
  pages = 0
  failed = 0
  /** URLs queued to be read, the start included. */
  queued = 1
  readonly skipped: { -readonly [K in SkipReason]: number } = { ...noSkips }
  readonly cuts: Array<SiteResponse.SiteCut> = []
  /** Keys queued or read: a link to one of them is not queued again. */
  readonly seen = new Set<string>()
  /** Keys a page already answered for (its URL, where it ended, its canonical link). */
  readonly read = new Set<string>()
  // Fingerprints, not the URLs: a link may be long, and 100,000 of them would hold their text.
  private readonly skippedKeys = new Set<number>()
  constructor(readonly plan: Plan) {}

  skip(reason: SkipReason, key: string): void {
    if (this.skippedKeys.size < distinctSkips) {
      const print = fingerprint(key)
      if (this.skippedKeys.has(print)) return
      this.skippedKeys.add(print)
    }
    this.skipped[reason]++
  }

  cut(reason: SiteResponse.SiteCut["reason"], message: string): void {
    if (!this.cuts.some((cut) => cut.reason === reason)) this.cuts.push({ reason, message })
  }

  done(): SiteResponse.CrawlDone {
    return new SiteResponse.CrawlDone({
      providerId: this.plan.providerId,
      url: this.plan.request.url,
      pages: this.pages,
      failed: this.failed,
      skipped: { ...this.skipped },
      cuts: [...this.cuts]
    })
  }
}

interface Host {
  readonly permits: Effect.Semaphore
  /** When the next request to the host may start (epoch milliseconds). */
  next: number
}

const own = (
  plan: Plan,
  step: (url: string, depth: number) => Effect.Effect<StepOutcome, WebSearchError.Aborted>,
  options: Options,
  tally: Tally,
  emit: Emit
): Effect.Effect<void, WebSearchError.WebSearchError> =>
  Effect.gen(function* () {
    const { maxDepth, maxPages } = plan.request
    const hosts = new Map<string, Host>()
    const hostOf = Effect.fnUntraced(function* (url: string) {
      const name = new URL(url).host
      const known = hosts.get(name)
      if (known !== undefined) return known
      const created: Host = { permits: yield* Effect.makeSemaphore(options.politeness.concurrency), next: 0 }
      // Another fiber may have made one meanwhile: the first one kept is everyone's.
      const kept = hosts.get(name) ?? created
      hosts.set(name, kept)
      return kept
    })
    // One start per `delay` per host, at most `concurrency` in flight on it.
    const polite = (host: Host, effect: Effect.Effect<StepOutcome, WebSearchError.Aborted>) =>
      host.permits.withPermits(1)(
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const wait = Math.max(0, host.next - now)
          host.next = Math.max(now, host.next) + options.politeness.delay
          return wait > 0 ? Effect.zipRight(Effect.sleep(Duration.millis(wait)), effect) : effect
        })
      )
    const read = Effect.fnUntraced(function* (url: string, depth: number) {
      const host = yield* hostOf(url)
      const first = yield* polite(host, step(url, depth))
      const pause = retryAfter(first)
      if (pause === undefined) return first
      yield* Effect.logDebug(`websearch's crawl pauses ${new URL(url).host} for ${pause} s (Retry-After)`)
      host.next = Math.max(host.next, (yield* Clock.currentTimeMillis) + pause * 1000)
      return yield* polite(host, step(url, depth))
    })

    let next: Array<string> = []
    // Queues the links found at `depth` that are new, on the site, kept by the patterns and within the limits.
    const admit = (links: ReadonlyArray<string>, depth: number): void => {
      for (const raw of links) {
        const admission = plan.admit(raw)
        if (admission._tag === "Skip") {
          tally.skip(admission.reason, raw)
          continue
        }
        if (tally.seen.has(admission.key)) continue
        if (depth > maxDepth) {
          tally.skip("depth", admission.key)
          continue
        }
        // Counted apart from the seen set, which also holds the keys pages answered for (redirects, canonicals).
        if (tally.queued >= maxPages) {
          tally.cut("maxPages", `the crawl queued ${maxPages} pages (maxPages); the site links to more`)
          return
        }
        tally.seen.add(admission.key)
        tally.queued++
        next.push(admission.url)
      }
    }
    const settle = (outcome: StepOutcome, depth: number): Effect.Effect<void> => {
      switch (outcome._tag) {
        case "Skipped":
          tally.skipped[outcome.reason]++
          return Effect.void
        case "Failed":
          tally.failed++
          return emit(outcome.event)
        case "Page": {
          if (outcome.keys.some((key) => tally.read.has(key))) {
            tally.skipped.duplicate++
            return Effect.void
          }
          for (const key of outcome.keys) {
            tally.read.add(key)
            tally.seen.add(key)
          }
          tally.pages++
          admit(outcome.links, depth + 1)
          return emit(outcome.event)
        }
      }
    }

    // The start page alone: the crawl as a whole fails when it does.
    tally.seen.add(plan.startKey)
    const start = yield* read(plan.request.url, 0)
    if (start._tag !== "Page") return yield* Effect.fail(startError(plan, start))
    // The map's URLs first at depth 1, in the map's order, then the start page's links.
    admit(options.seeds, 1)
    yield* settle(start, 0)
    for (let depth = 1; next.length > 0; depth++) {
      const level = next
      next = []
      yield* Effect.forEach(level, (url) => Effect.flatMap(read(url, depth), (outcome) => settle(outcome, depth)), {
        concurrency: options.concurrency,
        discard: true
      })
    }
  })

const hosted = (plan: Plan, tally: Tally, emit: Emit): Effect.Effect<void, WebSearchError.WebSearchError> => {
  if (plan.method._tag !== "Hosted") return Effect.void
  const { maxPages } = plan.request
  return Stream.runForEachWhile(plan.method.stream, (item) => {
    const admission = plan.admit(item.url)
    if (admission._tag === "Skip") {
      tally.skip(admission.reason, item.url)
      return Effect.succeed(true)
    }
    if (!plan.allowed(admission.url)) {
      tally.skip("policy", admission.key)
      return Effect.succeed(true)
    }
    if (tally.seen.has(admission.key)) {
      tally.skipped.duplicate++
      return Effect.succeed(true)
    }
    if (tally.pages + tally.failed >= maxPages) {
      tally.cut("maxPages", `the provider's crawl went past ${maxPages} pages (maxPages); the rest is left out`)
      return Effect.succeed(false)
    }
    tally.seen.add(admission.key)
    const served = item._tag === "Page" ? serveSafely(plan.serve, admission.url, item.depth, item.result) : item.error
    if (served._tag === "CrawlPage") {
      tally.pages++
      return Effect.as(emit(served), true)
    }
    tally.failed++
    const failure = WebSearchError.toInputFailure(admission.url, WebSearchError.scrub(served, plan.secrets))
    const event = new SiteResponse.CrawlFailure({
      url: admission.url,
      ...(item.depth === undefined ? {} : { depth: item.depth }),
      failure
    })
    return Effect.as(emit(event), true)
  }).pipe(
    Effect.catchAll((raw) => {
      const error = WebSearchError.scrub(raw, plan.secrets)
      // The crawl fails only when nothing came; a provider's crawl that broke off later keeps what arrived.
      if (tally.pages + tally.failed === 0 || error._tag === "Aborted") return Effect.fail(error)
      tally.cut("interrupted", `the provider's crawl ended early (${error._tag}/${error.reason}): ${error.message}`)
      return Effect.void
    })
  )
}
