// What a full in-memory result cache costs a server, in plain JavaScript over the built packages (`npm run build`
// first), as a user runs them. The real server (`WebSearchServer.layer` over `WebSearch.layer(Fetch.layerWith(),
// SharedStores.layerMemory())`) fetches `fetches` distinct ~30 KB articles (bench/hostile.ts's) from a page server
// in this process, one at a time; then, after full collections, it prints the heap in use, the heap committed and
// the RSS, with how many entries the cache holds. Compare budgets in fresh processes; 1024 keeps nothing (the floor):
//
//   node --expose-gc bench/support/cacheMemory.mjs [budget-bytes|default] [fetches=2600]
import { createServer } from "node:http"
import { serve } from "./benchServer.mjs"

const MiB = 1024 * 1024
const budget = process.argv[2] === undefined || process.argv[2] === "default" ? undefined : Number(process.argv[2])
const fetches = Number(process.argv[3] ?? 2600)
const token = "bench-cache-memory-token-0123456789abcdef"

// The article of bench/support/hostilePages.ts, built alike (that module is TypeScript; this file runs without tsx).
const words = (
  "effect schema layer fiber stream scope runtime service context error cause schedule queue pubsub semaphore " +
  "deferred latch ref clock random tracer span metric logger config provider resource pool"
).split(" ")
const paragraph = (seed) => {
  const out = []
  for (let i = 0; i < 90; i++) out.push(words[(seed * 31 + i * 7) % words.length])
  return `<p>${out.join(" ")}.</p>`
}
const article = (n) => {
  const body = []
  let length = -1
  for (let i = 0; length < 28 * 1024; i++) {
    const block = i % 6 === 0 ? `<h2>Section ${i / 6 + 1}</h2>` : paragraph(n + i)
    body.push(block)
    length += block.length + 1
  }
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>Article ${n}</title></head><body>` +
    `<nav><a href="/">Home</a> <a href="/about">About</a></nav><main><article><h1>Article ${n}</h1>` +
    `${body.join("\n")}</article></main><footer>Copyright example</footer></body></html>`
  )
}
const page = Buffer.from(article(1))
const pages = createServer((_, response) => {
  response.writeHead(200, { "content-type": "text/html", "content-length": page.length })
  response.end(page)
})
await new Promise((resolve) => pages.listen(0, "127.0.0.1", resolve))
const pagesPort = pages.address().port

const port = await serve({
  pagesPort,
  token,
  fetch: undefined,
  stores: budget === undefined ? undefined : { cacheMaxBytes: budget }
})
const origin = `http://127.0.0.1:${port}`

let hits = 0
for (let i = 0; i < fetches; i++) {
  const response = await fetch(`${origin}/v1/fetch`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ urls: [`http://127.0.0.1:${pagesPort}/article/${i}`] })
  })
  await response.text()
  if (response.status !== 200) throw new Error(`fetch ${i} answered ${response.status}`)
}
// Every article again, newest first: the ones still cached answer from it (a hit says so in its header).
for (let i = fetches - 1; i >= 0; i--) {
  const response = await fetch(`${origin}/v1/fetch`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ urls: [`http://127.0.0.1:${pagesPort}/article/${i}`] })
  })
  await response.text()
  if (response.headers.get("x-websearch-cache") === "hit") hits++
  else break
}
for (let i = 0; i < 5; i++) {
  globalThis.gc()
  await new Promise((resolve) => setTimeout(resolve, 50))
}
const memory = process.memoryUsage()
process.stdout.write(
  `${JSON.stringify({
    budget: budget ?? "default",
    fetches,
    cachedNewest: hits,
    heapUsedMiB: +(memory.heapUsed / MiB).toFixed(1),
    heapTotalMiB: +(memory.heapTotal / MiB).toFixed(1),
    rssMiB: +(memory.rss / MiB).toFixed(1)
  })}\n`
)
process.exit(0)
