// The server child of bench/hostile.ts, in plain JavaScript so it runs as a user runs the library: plain node over
// the packages' built `dist` (no tsx loader, no source condition). `HOSTILE_SOURCES=1` makes bench/hostile.ts run
// it over the sources instead (`--conditions=@websearch/source --import tsx`), for a profile of the TypeScript.
//
//   node bench/support/hostileServer.mjs <pages-port> <token>
//
// It watches its own event loop (`monitorEventLoopDelay`, 10 ms resolution) and RSS and reports both over IPC.
import { readFileSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { serve } from "./benchServer.mjs"

const KiB = 1024
const MiB = 1024 * KiB
const pagesPort = Number(process.argv[2])
const token = process.argv[3]

const send = (message) => process.send(message)
const loop = monitorEventLoopDelay({ resolution: 10 })
loop.enable()
let sampled = 0
/** The main thread's own share at the sample with the highest RSS: its V8 heap, and memory outside any heap. */
let atPeak = { heapMiB: 0, externalMiB: 0, arrayBuffersMiB: 0 }
const sample = () => {
  const rss = process.memoryUsage.rss()
  if (rss <= sampled) return
  sampled = rss
  const usage = process.memoryUsage()
  atPeak = {
    heapMiB: usage.heapTotal / MiB,
    externalMiB: usage.external / MiB,
    arrayBuffersMiB: usage.arrayBuffers / MiB
  }
}
setInterval(sample, 20).unref()
// Every late tick of a 10 ms timer is a stretch the loop ran no timers. On an overloaded machine most of such a
// stretch is the main thread waiting for a CPU, not running: the kernel's per-thread counters
// (/proc/self/task/<pid>/schedstat: ns on a CPU, ns runnable in a run queue) split each stretch into the two, so
// the report gives the longest stretch the thread spent running our code apart from the machine's noise.
// HOSTILE_GAPS=file also writes every stretch over 30 ms (its end in µs on the clock of a CPU profile's samples)
// and the phases' starts, to line a profile's samples up with them.
const gapsFile = process.env.HOSTILE_GAPS
const schedstat = `/proc/self/task/${process.pid}/schedstat`
const readSched = () => {
  try {
    const [run, wait] = readFileSync(schedstat, "latin1").split(" ")
    return { run: Number(run), wait: Number(wait) }
  } catch {
    return { run: NaN, wait: NaN }
  }
}
const gaps = []
const phases = []
/** The stretch with the most own CPU since the reset: its length, own CPU and run-queue wait, ms. */
let worst = { ms: 0, runMs: 0, waitMs: 0 }
{
  const now = () => Number(process.hrtime.bigint() / 1000n)
  let last = now()
  let lastSched = readSched()
  setInterval(() => {
    const at = now()
    const sched = readSched()
    const ms = (at - last) / 1000 - 10
    if (ms > 10) {
      const gap = {
        endUs: at,
        ms,
        runMs: (sched.run - lastSched.run) / 1e6,
        waitMs: (sched.wait - lastSched.wait) / 1e6
      }
      if (!(gap.runMs <= worst.runMs)) worst = { ms: gap.ms, runMs: gap.runMs, waitMs: gap.waitMs }
      if (gapsFile !== undefined && ms > 30) gaps.push(gap)
    }
    last = at
    lastSched = sched
  }, 10).unref()
}
if (gapsFile !== undefined) {
  process.on("disconnect", () => writeFileSync(gapsFile, JSON.stringify({ phases, gaps })))
}
process.on("message", (message) => {
  if (message.type === "reset") {
    phases.push(Number(process.hrtime.bigint() / 1000n))
    worst = { ms: 0, runMs: 0, waitMs: 0 }
    loop.reset()
    sampled = 0
    sample()
  } else if (message.type === "report") {
    sample()
    send({
      type: "report",
      report: {
        loopMaxMs: loop.max / 1e6,
        loopP99Ms: loop.percentile(99) / 1e6,
        longestOwn: worst,
        loadAverage: loadavg()[0],
        sampledRssMiB: sampled / MiB,
        atPeak,
        maxRssMiB: process.resourceUsage().maxRSS / KiB
      }
    })
  }
})

process.on("disconnect", () => process.exit(0))

// HOSTILE_WORKERS=n sets the extraction pool's size (default: the library's own), to see what each worker costs.
const workers = process.env.HOSTILE_WORKERS === undefined ? undefined : { size: Number(process.env.HOSTILE_WORKERS) }
// HOSTILE_PACE=n sets the transport's pace of big bodies (`largeBodyBytesPerSecond`, bytes a second; `Infinity`
// for none), to see what the pace buys.
const pace = process.env.HOSTILE_PACE === undefined ? undefined : Number(process.env.HOSTILE_PACE)
// HOSTILE_CACHE_BYTES=n sets the in-memory result cache's byte budget, to see what the cache holds at the peak.
const cacheOptions =
  process.env.HOSTILE_CACHE_BYTES === undefined ? undefined : { cacheMaxBytes: Number(process.env.HOSTILE_CACHE_BYTES) }
const port = await serve({
  pagesPort,
  token,
  fetch: workers === undefined && pace === undefined ? undefined : { workers, largeBodyBytesPerSecond: pace },
  stores: cacheOptions
})
send({
  type: "ready",
  port,
  idleRssMiB: process.memoryUsage.rss() / MiB
})
