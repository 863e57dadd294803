import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import * as ExtractPool from "../src/internal/extractPool.js"
import * as LocalServer from "./support/localServer.js"
import * as Resolutions from "./support/resolutions.js"
import { readdirSync, readFileSync } from "node:fs"
import { getPriority } from "node:os"

const encoder = new TextEncoder()

const page = (title: string, count: number): ExtractPool.Job => ({
  body: encoder.encode(
    LocalServer.articlePage(
      title,
      Array.from({ length: count }, (_, i) => `Paragraph ${i} explains how layers and fibers fit together here.`)
    )
  ),
  contentType: "text/html; charset=utf-8",
  url: "http://127.0.0.1/page",
  maxChars: undefined
})

/** A thread's nice value, from Linux's /proc (field 19 of its stat). */
const niceOf = (task: string) =>
  Number(readFileSync(`/proc/self/task/${task}/stat`, "utf8").split(") ")[1]!.split(" ")[16])

// Workers started from TypeScript sources load the extractor through tsx, which takes seconds on a busy machine.
describe("extraction worker pool", { timeout: 120_000 }, () => {
  it.live("starts no worker until the first job, reuses it, and terminates it when its scope closes", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const pool = yield* ExtractPool.make({ size: 2, entry: ExtractPool.defaultEntry() }).pipe(Scope.extend(scope))
      expect(pool.size()).toBe(0)
      const first = yield* pool.extract(page("First", 50))
      expect(first.title).toBe("First")
      expect(first.markdown).toContain("Paragraph 49 explains")
      expect(pool.size()).toBe(1)
      const second = yield* pool.extract(page("Second", 50))
      expect(second.title).toBe("Second")
      expect(pool.size()).toBe(1)
      yield* Scope.close(scope, Exit.void)
      expect(pool.size()).toBe(0)
    })
  )

  it.live("gives the same document as extraction on the calling thread", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const pool = yield* ExtractPool.make({ size: 1, entry: ExtractPool.defaultEntry() })
        const job = page("Same", 400)
        const pooled = yield* pool.extract(job)
        const inline = yield* ExtractPool.inline(job)
        expect(pooled).toEqual(inline)
      })
    )
  )

  it.live("never runs more workers than its size", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const pool = yield* ExtractPool.make({ size: 2, entry: ExtractPool.defaultEntry() })
        let most = 0
        const titles = yield* Effect.forEach(
          ["a", "b", "c", "d", "e"],
          (title) =>
            pool.extract(page(title, 100)).pipe(
              Effect.tap(() =>
                Effect.sync(() => {
                  most = Math.max(most, pool.size())
                })
              ),
              Effect.map((document) => document.title)
            ),
          { concurrency: "unbounded" }
        )
        expect(titles).toEqual(["a", "b", "c", "d", "e"])
        expect(most).toBeLessThanOrEqual(2)
        expect(pool.size()).toBeLessThanOrEqual(2)
      })
    )
  )

  // Linux keeps a nice value per thread: the workers run below the main thread, so a core contended by hostile
  // pages still serves the event loop (health checks, pings) first. Read from /proc, which only Linux has.
  it.live("on Linux the workers run at a lower priority than the main thread, which keeps its own", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const before = process.platform === "linux" ? niceOf(String(process.pid)) : getPriority()
        const pool = yield* ExtractPool.make({ size: 2, entry: ExtractPool.defaultEntry() })
        yield* Effect.forEach(["a", "b"], (title) => pool.extract(page(title, 400)), { concurrency: 2 })
        expect(getPriority()).toBe(before)
        if (process.platform !== "linux") return
        expect(niceOf(String(process.pid))).toBe(before)
        const lowered = readdirSync("/proc/self/task").filter((task) => niceOf(task) === Math.min(19, before + 10))
        expect(lowered.length).toBe(pool.size())
      })
    )
  )

  it.live("heavy pages run on workers of their own at the lowest priority, beside the ordinary ones", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const before = process.platform === "linux" ? niceOf(String(process.pid)) : getPriority()
        const pool = yield* ExtractPool.make({ size: 2, entry: ExtractPool.defaultEntry() })
        // 16 000 paragraphs: about 1.1 MiB of HTML, over the heavy threshold; 400 paragraphs are ordinary.
        const big = page("Big", 16_000)
        expect(big.body.length).toBeGreaterThanOrEqual(ExtractPool.heavyBytes)
        expect(ExtractPool.isHeavy(big)).toBe(true)
        expect(ExtractPool.isHeavy(page("Small", 400))).toBe(false)
        const titles = yield* Effect.forEach([big, page("Small", 400)], (job) => pool.extract(job), {
          concurrency: 2
        }).pipe(Effect.map((documents) => documents.map((document) => document.title)))
        expect(titles).toEqual(["Big", "Small"])
        // Two workers, one per lane, though either could have run both pages one after the other.
        expect(pool.size()).toBe(2)
        // The next heavy page reuses the heavy worker.
        yield* pool.extract(big)
        expect(pool.size()).toBe(2)
        // Under a nice of 9 or more, both lanes sit at 19 and cannot be told apart.
        if (process.platform !== "linux" || before + 10 >= 19) return
        const nice = readdirSync("/proc/self/task").map(niceOf)
        // At least: an earlier test's workers, terminated without waiting, may still be listed at +10.
        expect(nice.filter((value) => value === Math.min(19, before + 10)).length).toBeGreaterThanOrEqual(1)
        expect(nice.filter((value) => value === 19).length).toBe(1)
      })
    )
  )

  it.live("a typed failure in the worker comes back as the same ResponseInvalid reason", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const pool = yield* ExtractPool.make({ size: 1, entry: ExtractPool.defaultEntry() })
        const error = yield* Effect.flip(
          pool.extract({
            body: Uint8Array.from([0, 1, 2, 3, 255]),
            contentType: "image/gif",
            url: "http://x/",
            maxChars: undefined
          })
        )
        expect(error).toMatchObject({ _tag: "ResponseInvalid", reason: "unsupported_content_type" })
        // The worker survives a typed failure and serves the next job.
        expect(pool.size()).toBe(1)
        expect((yield* pool.extract(page("After", 10))).title).toBe("After")
      })
    )
  )

  it.live("a throw inside the worker's extractor stays a defect (a bug of ours), not an unreadable page", () =>
    Effect.scoped(
      Effect.gen(function* () {
        // A worker that loads, then answers every job as extractWorker does when the extractor throws.
        const source = [
          `import { parentPort } from "node:worker_threads"`,
          `parentPort.on("message", () => parentPort.postMessage({ _tag: "Defect", message: "boom" }))`,
          `parentPort.postMessage({ _tag: "Ready" })`
        ].join("\n")
        const pool = yield* ExtractPool.make({
          size: 1,
          entry: { url: new URL(`data:text/javascript,${encodeURIComponent(source)}`), execArgv: [] }
        })
        const exit = yield* Effect.exit(pool.extract({ ...page("Defect", 5), url: "http://127.0.0.1/secret?key=1" }))
        expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
        const defect = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
        expect(defect).toBeInstanceOf(ExtractPool.ExtractorDefect)
        expect((defect as Error).message).toContain("boom")
        // Named by scheme and host only, like every transport message.
        expect((defect as Error).message).not.toContain("secret")
        // The worker that threw is not reused.
        expect(pool.size()).toBe(0)
      })
    )
  )

  it.live("interrupting a job terminates its worker at once; the next job gets a fresh one", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const pool = yield* ExtractPool.make({ size: 1, entry: ExtractPool.defaultEntry() })
        // Several seconds of extraction: interruption must not wait for it.
        const fiber = yield* Effect.fork(pool.extract(page("Huge", 40_000)))
        yield* Effect.sleep("300 millis")
        expect(pool.size()).toBe(1)
        const started = performance.now()
        yield* Fiber.interrupt(fiber)
        expect(performance.now() - started).toBeLessThan(1000)
        expect(pool.size()).toBe(0)
        expect((yield* pool.extract(page("Next", 10))).title).toBe("Next")
        expect(pool.size()).toBe(1)
      })
    )
  )

  it.live("when workers cannot start here, extraction falls back to the calling thread", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const pool = yield* ExtractPool.make({
          size: 1,
          entry: { url: new URL("./no-such-worker.mjs", import.meta.url), execArgv: [] }
        })
        const document = yield* pool.extract(page("Fallback", 20))
        expect(document.title).toBe("Fallback")
        expect(pool.size()).toBe(0)
        // An entry Node refuses outright (the Worker constructor throws) falls back the same way.
        const refused = yield* ExtractPool.make({
          size: 1,
          entry: { url: new URL("ftp://127.0.0.1/extractWorker.mjs"), execArgv: [] }
        })
        expect((yield* refused.extract(page("Refused entry", 20))).title).toBe("Refused entry")
        expect(refused.size()).toBe(0)
      })
    )
  )

  it.live("a worker idle for idleMillis exits, and the next job starts a fresh one", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const pool = yield* ExtractPool.make({ size: 2, entry: ExtractPool.defaultEntry(), idleMillis: 200 })
        expect((yield* pool.extract(page("Before", 10))).title).toBe("Before")
        expect(pool.size()).toBe(1)
        // Without retirement the worker stays forever: the wait below then times out and the test fails.
        yield* Effect.sync(() => pool.size()).pipe(
          Effect.repeat({ until: (size) => size === 0, schedule: Schedule.spaced("50 millis") }),
          Effect.timeoutFail({ duration: "60 seconds", onTimeout: () => new Error("the idle worker never exited") })
        )
        expect((yield* pool.extract(page("After", 10))).title).toBe("After")
        expect(pool.size()).toBe(1)
      })
    )
  )

  it.live("a worker is never retired while it runs a job, however short the idle period", () =>
    Effect.scoped(
      Effect.gen(function* () {
        // Retirement due at once: a job handed to a parked worker must still find it alive and finish.
        const pool = yield* ExtractPool.make({ size: 1, entry: ExtractPool.defaultEntry(), idleMillis: 0 })
        const titles = yield* Effect.forEach(["a", "b", "c", "d"], (title) =>
          Effect.map(pool.extract(page(title, 2000)), (document) => document.title)
        )
        expect(titles).toEqual(["a", "b", "c", "d"])
      })
    )
  )

  it("has at least two workers by default, so one slow page never holds the only one", () => {
    expect(ExtractPool.defaultSize()).toBeGreaterThanOrEqual(2)
  })

  it.live("takes turns across groups: one group's backlog does not delay another group's job", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const pool = yield* ExtractPool.make({ size: 1, entry: ExtractPool.defaultEntry() })
        yield* pool.extract(page("Warm", 5))
        const finished: Array<string> = []
        const run = (title: string, group: string, count: number) =>
          Effect.fork(
            Effect.tap(pool.extract({ ...page(title, count), group }), () => Effect.sync(() => finished.push(title)))
          )
        // Group a queues three big pages, then group b one small one.
        const fibers = [yield* run("a1", "a", 3000)]
        yield* Effect.sleep("20 millis")
        fibers.push(yield* run("a2", "a", 3000), yield* run("a3", "a", 3000))
        yield* Effect.sleep("20 millis")
        fibers.push(yield* run("b1", "b", 5))
        yield* Fiber.joinAll(fibers)
        // First come, first served would finish b1 last; b had no turn yet, so it goes right after a1.
        expect(finished).toEqual(["a1", "b1", "a2", "a3"])
      })
    )
  )

  it("a worker's entry loads neither effect's Effect nor Schema (the extractor core without WebSearchError)", () => {
    // Importing the worker's entry (what each worker thread loads) must request none of effect/Effect, effect/Schema
    // and WebSearchError, and importing the pool (which does use them) must, which shows the hook sees the
    // requests. Each cost a worker heap it never used: 19.3 MiB live at start before, 12.4 after.
    const seen = Resolutions.run(
      `["effect/Effect", "effect/Schema", "@websearch/core/WebSearchError"].includes(specifier)`,
      `await import(${Resolutions.source("src/internal/extractWorker.ts")})
      const worker = resolved()
      await import(${Resolutions.source("src/internal/extractPool.ts")})
      console.log(JSON.stringify({ worker, pool: resolved() }))`
    )
    expect(seen.stderr).toBe("")
    const printed = seen.printed as { worker: string; pool: string }
    expect(printed.worker).toBe("")
    expect(printed.pool).toContain("effect/Effect")
    expect(printed.pool).toContain("@websearch/core/WebSearchError")
  })

  it("loads the DOM extractor on the calling thread only for a job that needs it", () => {
    // The pool's module must import without linkedom (the extractor's DOM), and so must an inline JSON, text or
    // markdown job (ExtractPlain): compiling the DOM extractor stalled a server's event loop mid-request when a
    // small hostile text page arrived. An inline HTML job must load it, which shows the hook sees it.
    const seen = Resolutions.run(
      `specifier === "linkedom"`,
      `const ExtractPool = await import(${Resolutions.source("src/internal/extractPool.ts")})
      const { runPromise } = await import("effect/Effect")
      const imported = resolved()
      const job = (body, contentType) => ({ body: new TextEncoder().encode(body), contentType, url: "http://x/", maxChars: undefined })
      const kinds = []
      for (const [body, type] of [['{"a": "b"}', "application/json"], ["some text", "text/plain"], ["# T\\n\\nbody", "text/markdown"]]) {
        kinds.push((await runPromise(ExtractPool.inline(job(body, type)))).kind)
      }
      const plain = resolved()
      const html = await runPromise(ExtractPool.inline(job("<p>Some words to read in a page.</p>", "text/html")))
      console.log(JSON.stringify({ imported, plain, kinds, extracted: resolved(), kind: html.kind }))`
    )
    expect(seen.stderr).toBe("")
    const printed = seen.printed as {
      imported: string
      plain: string
      kinds: Array<string>
      extracted: string
      kind: string
    }
    expect(printed.imported).toBe("")
    expect(printed.plain).toBe("")
    expect(printed.kinds).toEqual(["json", "text", "markdown"])
    expect(printed.extracted).toContain("linkedom")
    expect(printed.kind).toBe("html")
  })
})
