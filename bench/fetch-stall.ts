/**
 * Event-loop stall while the fetch provider extracts one big page: the longest delay of a 10 ms interval timer
 * during extraction on the calling thread versus on the extraction worker pool (cold: the worker starts for the
 * job; warm: it already runs). The page is ~5 MiB of article HTML, the transport's default body cap.
 *
 *   node --conditions=@websearch/source --import tsx bench/fetch-stall.ts [MiB]
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import * as ExtractPool from "../packages/node/src/internal/extractPool.js"

const mib = Number(process.argv[2] ?? 5)

const paragraph = (i: number) =>
  `<p>Paragraph ${i}: a layer describes how a service is built from other services, and a program names the ` +
  `services it needs in its type, so wiring mistakes are compile errors instead of runtime surprises.</p>`

const html = (): string => {
  const parts: Array<string> = ["<!doctype html><html><head><title>Stall</title></head><body><article><h1>Stall</h1>"]
  let size = parts[0].length
  for (let i = 0; size < mib * 1024 * 1024; i++) {
    const p = `${paragraph(i)}\n`
    parts.push(p)
    size += p.length
  }
  parts.push("</article></body></html>")
  return parts.join("")
}

interface Measured {
  readonly label: string
  readonly ms: number
  readonly maxStallMs: number
  readonly chars: number
}

/** Runs `work` while a 10 ms interval timer records how late each tick fired. */
const measure = async (label: string, work: () => Promise<string>): Promise<Measured> => {
  let last = performance.now()
  let maxStall = 0
  const timer = setInterval(() => {
    const now = performance.now()
    maxStall = Math.max(maxStall, now - last - 10)
    last = now
  }, 10)
  const started = performance.now()
  const markdown = await work()
  const ms = performance.now() - started
  // One more tick, so a stall that ends with the work is counted.
  await new Promise((resolve) => setTimeout(resolve, 20))
  clearInterval(timer)
  return { label, ms, maxStallMs: Math.max(0, maxStall), chars: markdown.length }
}

const main = async () => {
  const body = new TextEncoder().encode(html())
  const job: ExtractPool.Job = {
    body,
    contentType: "text/html; charset=utf-8",
    url: "http://127.0.0.1/stall",
    maxChars: undefined
  }
  const scope = Effect.runSync(Scope.make())
  const pool = await Effect.runPromise(
    ExtractPool.make({ size: 1, entry: ExtractPool.defaultEntry() }).pipe(Scope.extend(scope))
  )
  const run = (effect: Effect.Effect<{ readonly markdown: string }, unknown>) =>
    Effect.runPromise(Effect.map(effect, (document) => document.markdown))
  const results: Array<Measured> = []
  results.push(await measure("inline (calling thread)", () => run(ExtractPool.inline(job))))
  results.push(await measure("worker pool, cold (worker starts)", () => run(pool.extract(job))))
  results.push(await measure("worker pool, warm", () => run(pool.extract(job))))
  await Effect.runPromise(Scope.close(scope, Exit.void))
  console.log(`page: ${(body.length / 1024 / 1024).toFixed(2)} MiB of HTML, Node ${process.version}`)
  console.table(
    results.map((r) => ({
      where: r.label,
      "extraction ms": Math.round(r.ms),
      "max event-loop stall ms": Math.round(r.maxStallMs),
      "markdown chars": r.chars
    }))
  )
}

await main()
