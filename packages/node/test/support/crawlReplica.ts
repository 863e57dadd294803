/**
 * One replica process of the crawl scale-out test, bundled by the test and run with `node`: the capability
 * services with a provider of its own that reads the test's loopback site over HTTP (`HttpClient`, one page per
 * `crawlPage`), `CrawlJobsRedis` on the test's Redis and prefix, and a small control server on loopback through
 * which the test starts a crawl (`POST /start`) and reads one (`GET /status/{id}?offset&limit`). It prints
 * `READY <port>` when it serves, and runs until it is killed.
 *
 * Environment: `REDIS_PORT`, `CRAWL_PREFIX`, `CRAWL_WORKERS`, `CRAWL_CLAIM_IDLE_MS`.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as CrawlJobs from "@websearch/core/CrawlJobs"
import * as Preset from "@websearch/core/Preset"
import type { CrawledPage, ProviderDriver } from "@websearch/core/ProviderDriver"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import * as CrawlJobsRedis from "../../src/CrawlJobsRedis.js"

const env = (name: string): string => {
  const value = process.env[name]
  if (value === undefined) throw new Error(`${name} is not set`)
  return value
}

// The test's own site: its links are `href="..."` attributes, read with a pattern linear in the page.
const hrefs = (html: string, base: string): Array<string> =>
  Array.from(html.matchAll(/href="([^"]{1,2000})"/g), (match) => new URL(match[1]!, base).href)

const loopSite: ProviderDriver = {
  preset: Preset.make({
    id: "loopsite",
    name: "Loopback site",
    type: "local",
    credentials: "none",
    capabilities: [{ feature: "crawlSite" }]
  }),
  crawlPage: (url) =>
    Effect.gen(function* () {
      const client = yield* HttpClient.HttpClient
      // The site tells the replicas apart by this header (the test kills one while it has pages in flight).
      const response = yield* client.get(url, { headers: { "x-replica": String(process.pid) } })
      if (response.status !== 200) {
        return yield* Effect.fail(WebSearchError.requestFailed("http_status", `${url} answered ${response.status}`))
      }
      const html = yield* response.text
      const page: CrawledPage = {
        result: { title: `Page ${new URL(url).pathname}`, content: html, url },
        links: hrefs(html, url)
      }
      return page
    }).pipe(
      Effect.scoped,
      Effect.catchTags({
        RequestError: (error) => Effect.fail(WebSearchError.requestFailed("network", error.message)),
        ResponseError: (error) => Effect.fail(WebSearchError.requestFailed("network", error.message))
      }),
      Effect.provide(NodeHttpClient.layerUndici)
    )
}

const Live = CrawlJobsRedis.layer(
  { host: "127.0.0.1", port: Number(env("REDIS_PORT")) },
  {
    prefix: env("CRAWL_PREFIX"),
    workers: Number(env("CRAWL_WORKERS")),
    claimIdle: Number(env("CRAWL_CLAIM_IDLE_MS"))
  }
).pipe(
  Layer.provideMerge(WebSearch.layer(ProviderRegistry.register(loopSite))),
  Layer.provideMerge(Settings.layer({ defaults: { crawlSite: "loopsite" }, urlPolicy: { allowHosts: ["127.0.0.1"] } }))
)

const encodeJob = Schema.encodeSync(CrawlJobs.CrawlJob)

const program = Effect.gen(function* () {
  const jobs = yield* CrawlJobs.CrawlJobs
  const answer = (effect: Effect.Effect<CrawlJobs.CrawlJob, WebSearchError.WebSearchError>) =>
    Effect.runPromise(
      effect.pipe(
        Effect.map((job) => ({ status: 200, body: encodeJob(job) as unknown })),
        Effect.catchAll((error) =>
          Effect.succeed({ status: 400, body: { reason: error.reason, message: error.message } })
        )
      )
    )
  const server = createServer((request, response) => {
    let body = ""
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1")
      const reply =
        request.method === "POST" && url.pathname === "/start"
          ? answer(jobs.start("acme", JSON.parse(body)))
          : answer(
              jobs.status("acme", url.pathname.slice("/status/".length), {
                offset: url.searchParams.get("offset") ?? undefined,
                limit: url.searchParams.get("limit") ?? undefined
              })
            )
      void reply.then(({ body, status }) => {
        response.writeHead(status, { "content-type": "application/json" })
        response.end(JSON.stringify(body))
      })
    })
  })
  yield* Effect.async<void>((resume) => {
    server.listen(0, "127.0.0.1", () => resume(Effect.void))
  })
  process.stdout.write(`READY ${(server.address() as AddressInfo).port}\n`)
  return yield* Effect.never
})

Effect.runFork(Effect.provide(program, Live))
