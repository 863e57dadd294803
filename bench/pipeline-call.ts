/**
 * Per-call cost of the core pipeline: one `searchKeywords({ keywords: ["effect"] })` through a ManagedRuntime
 * with an in-memory driver answering 10 results, in milliseconds per call (sequential calls, after a warm-up).
 *
 *   node --conditions=@websearch/source --import tsx bench/pipeline-call.ts [seconds] [keywords]
 *
 * Also the Effect operations the runtime steps through per call (counted by a supervisor over a few calls): a
 * figure no other process on the machine disturbs, which the CPU time per call follows.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as RuntimeFlags from "effect/RuntimeFlags"
import * as RuntimeFlagsPatch from "effect/RuntimeFlagsPatch"
import * as Supervisor from "effect/Supervisor"
import * as ProviderRegistry from "../packages/core/src/ProviderRegistry.js"
import * as SearchKeywords from "../packages/core/src/SearchKeywords.js"
import * as Settings from "../packages/core/src/Settings.js"
import * as WebSearch from "../packages/core/src/WebSearch.js"
import * as Tavily from "../packages/providers/src/Tavily.js"

const seconds = Number(process.argv[2] ?? 3)
const count = Number(process.argv[3] ?? 1)
const answers = Array.from({ length: 10 }, (_, i) => ({
  title: `Result ${i + 1} about effect typescript`,
  url: `https://site${i}.example.com/articles/${i + 1}`,
  content: `Effect is a TypeScript library for building robust programs. Paragraph ${i + 1} `.repeat(4)
}))
const driver = { preset: Tavily.preset, searchKeywords: () => Effect.succeed(answers) }
const runtime = ManagedRuntime.make(
  WebSearch.layer(ProviderRegistry.register(driver)).pipe(
    Layer.provideMerge(
      Settings.layer({
        defaults: { searchKeywords: "tavily" },
        providers: { tavily: { apiKeys: ["bench-key"], rateLimit: { limit: 1_000_000, window: "1 second" } } }
      })
    )
  )
)
const keywords = count === 1 ? ["effect"] : Array.from({ length: count }, (_, i) => `keyword ${i}`)
const run = () => runtime.runPromise(SearchKeywords.searchKeywords({ keywords }))

// Wall time per call, and this process's CPU time per call: on a shared machine the CPU figure is the steadier.
const measure = async (ms: number) => {
  let calls = 0
  const cpu = process.cpuUsage()
  const start = performance.now()
  let now = start
  while (now - start < ms) {
    await run()
    calls++
    now = performance.now()
  }
  const used = process.cpuUsage(cpu)
  return { wall: (now - start) / calls, cpu: (used.user + used.system) / 1000 / calls }
}

await measure(2500)
const rounds = [1, 2, 3, 4, 5].map(() => 0)
const results: Array<{ wall: number; cpu: number }> = []
for (const _ of rounds) results.push(await measure((seconds * 1000) / rounds.length))
const best = (pick: (r: { wall: number; cpu: number }) => number) => Math.min(...results.map(pick)).toFixed(4)
console.log(
  `pipeline ${count} keyword(s) x 10 results: best ${best((r) => r.wall)} ms/call wall, ${best((r) => r.cpu)} ms/call CPU ` +
    `(wall rounds ${results.map((r) => r.wall.toFixed(3)).join(", ")})`
)
class OpCounter extends Supervisor.AbstractSupervisor<void> {
  ops = 0
  readonly value = Effect.void
  override onEffect() {
    this.ops++
  }
}
const counter = new OpCounter()
const counted = Effect.supervised(
  Effect.withRuntimeFlagsPatch(
    SearchKeywords.searchKeywords({ keywords }),
    RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision)
  ),
  counter
)
const countedCalls = 20
for (let i = 0; i < countedCalls; i++) await runtime.runPromise(counted)
console.log(`Effect operations per call: ${(counter.ops / countedCalls).toFixed(0)}`)
await runtime.dispose()
