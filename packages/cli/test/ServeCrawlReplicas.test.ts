/**
 * Two `websearch serve` processes with the same `REDIS_URL` and key prefix crawl one loopback site through the
 * HTTP API with the local fetch provider, and one is killed (SIGKILL) mid-crawl: the job started on the killed
 * replica completes on the survivor, which answers its status; every page is stored once, and fetched once but for
 * the pages the killed replica had claimed and not settled, which the survivor takes over (`XAUTOCLAIM`) and
 * fetches again, once.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import * as RedisServer from "../../../test-support/redisServer.js"

const bin = fileURLToPath(new URL("../bin/websearch.js", import.meta.url))
const guard = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))

const token = "cli-crawl-replica-token-0123456789"
const workers = 3
/** The site: `/` links to `/p/1..4`, `/p/N` to `/p/4N+1..4N+4`, up to `size` pages, each answered after `latency`. */
const size = 150
const latency = 50

interface Request {
  readonly at: number
  /** The replica that asked (each sends its own user agent). */
  readonly agent: string
  /** Answered, or its connection closed first (its client died). */
  outcome: "pending" | "answered" | "aborted"
}

let site: Server
let siteBase = ""
const requests = new Map<string, Array<Request>>()
const redisScope = Effect.runSync(Scope.make())
let redis: RedisServer.RedisServer

beforeAll(async () => {
  site = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname
    const n = path === "/" ? 0 : Number(path.slice(3))
    if (!(path === "/" || (path.startsWith("/p/") && n >= 1 && n <= size))) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not here")
      return
    }
    const seen: Request = { at: Date.now(), agent: request.headers["user-agent"] ?? "", outcome: "pending" }
    requests.set(path, [...(requests.get(path) ?? []), seen])
    response.on("close", () => {
      if (seen.outcome === "pending") seen.outcome = "aborted"
    })
    const links = [1, 2, 3, 4]
      .map((i) => n * 4 + i)
      .filter((m) => m <= size)
      .map((m) => `<li><a href="/p/${m}">Page ${m} of the crawl test site</a></li>`)
    setTimeout(() => {
      if (response.destroyed) return
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      response.end(
        `<!doctype html><html><head><title>Page ${path}</title></head><body><main><h1>Page ${path}</h1>` +
          `<p>This is page ${path} of the site the replicas crawl together, with a few words to extract.</p>` +
          `<ul>${links.join("")}</ul></main></body></html>`,
        () => (seen.outcome = "answered")
      )
    }, latency)
  })
  site.listen(0, "127.0.0.1")
  await once(site, "listening")
  siteBase = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  redis = await Effect.runPromise(Scope.extend(RedisServer.start(), redisScope))
}, 60_000)

afterAll(async () => {
  site?.close()
  await Effect.runPromise(Scope.close(redisScope, Exit.void))
})

interface Running {
  readonly child: ChildProcess
  readonly stderr: () => string
  readonly exited: Promise<number | null>
}

const serve = (env: Record<string, string>): Running => {
  const child = spawn(process.execPath, ["--import", guard, bin, "serve", "--port", "0", "--allow-host", "127.0.0.1"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stderr = ""
  child.stderr!.on("data", (data: Buffer) => (stderr += data.toString("utf8")))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  return { child, stderr: () => stderr, exited }
}

const listening = async (running: Running, within = 60_000): Promise<string> => {
  const deadline = Date.now() + within
  while (Date.now() < deadline) {
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(running.stderr())
    if (match !== null) return match[1]
    if (running.child.exitCode !== null) throw new Error(`serve exited early: ${running.stderr()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`serve did not report its address: ${running.stderr()}`)
}

interface Job {
  readonly id: string
  readonly status: string
  readonly pages: number
  readonly failed: number
  readonly total: number
  readonly cuts: ReadonlyArray<{ readonly reason: string }>
  readonly events: ReadonlyArray<{ readonly url: string }>
}

const api = async (base: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, json: (await response.json()) as Job }
}

describe("websearch serve replicas crawling on one Redis", () => {
  it(
    "a replica killed mid-crawl: the survivor completes the job and answers for it; each page stored once",
    { timeout: 120_000 },
    async () => {
      const env = {
        WEBSEARCH_API_TOKENS: token,
        REDIS_URL: Redacted.value(redis.url),
        WEBSEARCH_REDIS_PREFIX: `cli-crawl-${process.pid}-${Date.now()}`,
        WEBSEARCH_CRAWL_WORKERS: String(workers),
        WEBSEARCH_CRAWL_CLAIM_IDLE: "1 second"
      }
      const a = serve({ ...env, FETCH_USER_AGENT: "replica-a" })
      const b = serve({ ...env, FETCH_USER_AGENT: "replica-b" })
      try {
        const [baseA, baseB] = await Promise.all([listening(a), listening(b)])
        const maxPages = 100
        const started = await api(baseA, "POST", "/v1/crawls", {
          url: `${siteBase}/`,
          maxPages,
          maxDepth: 6,
          delay: 0,
          concurrency: 4
        })
        expect(started.status, JSON.stringify(started.json)).toBe(201)
        const all = () => [...requests.entries()].flatMap(([path, list]) => list.map((r) => ({ path, ...r })))
        // Mid-crawl, with a page in flight on A and far from its answer (the kill aborts it; B's are answered).
        const inFlightOnA = () =>
          all().some((r) => r.outcome === "pending" && r.agent === "replica-a" && Date.now() - r.at < latency / 2)
        while (all().length < 25 || !inFlightOnA()) {
          await new Promise((resolve) => setTimeout(resolve, 1))
        }
        a.child.kill("SIGKILL")
        const killedAt = Date.now()
        await a.exited
        let job = (await api(baseB, "GET", `/v1/crawls/${started.json.id}?limit=1000`)).json
        for (let i = 0; job.status === "running" && i < 1200; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50))
          job = (await api(baseB, "GET", `/v1/crawls/${started.json.id}?limit=1000`)).json
        }
        expect([job.status, job.pages, job.failed, job.total]).toEqual(["completed", maxPages, 0, maxPages])
        expect(new Set(job.events.map((event) => new URL(event.url).pathname)).size).toBe(maxPages)
        // The requests the kill cut off were A's: each such page was fetched again, once, by the survivor. No
        // page was fetched twice otherwise, and only pages first requested before the kill were.
        const aborted = all().filter((r) => r.outcome === "aborted")
        expect(aborted.length).toBeGreaterThan(0)
        const refetched = [...requests.entries()].filter(([, list]) => list.length > 1)
        for (const r of aborted) expect(refetched.map(([path]) => path)).toContain(r.path)
        for (const [path, list] of refetched) {
          expect(list.length, path).toBe(2)
          expect(list[0]!.at, path).toBeLessThanOrEqual(killedAt)
          expect(list[1]!.outcome, path).toBe("answered")
        }
        expect(refetched.length).toBeLessThanOrEqual(workers)
        expect(requests.size).toBe(maxPages)
      } finally {
        if (a.child.exitCode === null && a.child.signalCode === null) a.child.kill("SIGKILL")
        b.child.kill("SIGINT")
        await Promise.all([a.exited, b.exited])
      }
    }
  )
})
