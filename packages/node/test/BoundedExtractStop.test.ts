import { describe, expect, it } from "@effect/vitest"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Fetch from "../src/Fetch.js"
import * as BoundedExtract from "../src/internal/boundedExtract.js"
import * as ExtractPool from "../src/internal/extractPool.js"
import * as LocalServer from "./support/localServer.js"

// A stop lasts as long as the process (the extractor's state may be left mid-update), so it has a file of its own.

const paragraphs = (count: number) =>
  Array.from({ length: count }, (_, i) => `Paragraph ${i}: a program names the services it needs, a layer builds them.`)

const job = (title: string, count: number): ExtractPool.Job => ({
  body: new TextEncoder().encode(LocalServer.articlePage(title, paragraphs(count))),
  contentType: "text/html; charset=utf-8",
  url: "http://127.0.0.1/page",
  maxChars: undefined
})

// Workers started from TypeScript sources load the extractor through tsx, which takes seconds on a busy machine.
describe("a page that outlasts the time limit on the calling thread", { timeout: 120_000 }, () => {
  it.scopedLive("is stopped and read on a worker, and so is every later page", () =>
    Effect.gen(function* () {
      const big = LocalServer.articlePage("Slow Page", paragraphs(500))
      const small = LocalServer.articlePage("Small Page", paragraphs(5))
      expect(big.length).toBeLessThan(Fetch.defaultWorkerThreshold)
      const server = yield* LocalServer.start({ "/slow": LocalServer.html(big), "/small": LocalServer.html(small) })
      const logged: Array<string> = []
      const logger = Logger.make(({ message }) => logged.push(String(message)))
      // One millisecond is less than any extraction of a 50 KB page takes.
      const live = WebSearch.layer(Fetch.layerWith({ workers: { size: 1, inlineMillis: 1 } })).pipe(
        Layer.provideMerge(
          Settings.layer({ urlPolicy: { allowHosts: ["127.0.0.1"] }, timeouts: { fetchUrls: 110_000 } })
        )
      )
      const fetchOne = (path: string) =>
        FetchUrls.fetchUrls({ urls: [server.url(path)] }).pipe(
          Effect.provide(live),
          Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
          Logger.withMinimumLogLevel(LogLevel.Debug)
        )
      const slow = yield* fetchOne("/slow")
      expect(slow.failures).toEqual([])
      expect(slow.results[0].title).toBe("Slow Page")
      expect(slow.results[0].content).toContain("Paragraph 499:")
      expect(logged.some((line) => line.includes("took over 1 ms on the calling thread"))).toBe(true)
      expect(logged.some((line) => line.includes(`bytes of ${server.url("/slow")} on a worker thread`))).toBe(true)
      // From now on nothing is tried on the calling thread, however small or patient.
      const later = job("Later", 5)
      const pooled: Array<ExtractPool.Job> = []
      const document = yield* BoundedExtract.extract(later, { maxBytes: 1 << 20, maxMillis: 60_000 }, (sent) =>
        Effect.suspend(() => (pooled.push(sent), ExtractPool.inline(sent)))
      )
      expect(pooled).toEqual([later])
      expect(document.title).toBe("Later")
      const again = yield* fetchOne("/small")
      expect(again.results[0].title).toBe("Small Page")
      expect(logged.some((line) => line.includes(`bytes of ${server.url("/small")} on a worker thread`))).toBe(true)
    })
  )
})
