/**
 * The crawl jobs scaled out: two replica processes (`support/crawlReplica.ts`, bundled and run with `node`) share
 * one redis-server and read one crawl of a loopback site that counts its requests per path; one replica is killed
 * (SIGKILL) mid-crawl. The job completes on the survivor, which answers its status; every page is fetched once,
 * except the pages the killed replica had in flight (taken over with `XAUTOCLAIM` and fetched again), and every
 * page is stored once.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as esbuild from "esbuild"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as RedisServer from "../../../test-support/redisServer.js"

const guard = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))

/** The site: `/` links to `/p/1..4`, `/p/N` to `/p/4N+1..4N+4`, up to `size` pages; each answer takes `latency`. */
const size = 120
const latency = 40
const workers = 3

let bundle = ""
let site: Server
let siteBase = ""
/** Requests per path: which replica (its pid) asked, and whether it was answered. */
interface Request {
  readonly replica: number
  answered: boolean
}
const requests = new Map<string, Array<Request>>()
const redisScope = Effect.runSync(Scope.make())
let redis: RedisServer.RedisServer
const children: Array<ChildProcess> = []

beforeAll(async () => {
  const outfile = join(mkdtempSync(join(tmpdir(), "websearch-crawl-replica-")), "crawlReplica.mjs")
  await esbuild.build({
    entryPoints: [fileURLToPath(new URL("./support/crawlReplica.ts", import.meta.url))],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    conditions: ["@websearch/source"],
    logLevel: "warning",
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);'
    }
  })
  bundle = outfile
  site = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname
    const seen: Request = { replica: Number(request.headers["x-replica"]), answered: false }
    requests.set(path, [...(requests.get(path) ?? []), seen])
    const n = path === "/" ? 0 : Number(path.slice(3))
    if (!(path === "/" || (path.startsWith("/p/") && n >= 1 && n <= size))) {
      response.writeHead(404).end("not found")
      return
    }
    const links = [1, 2, 3, 4]
      .map((i) => n * 4 + i)
      .filter((m) => m <= size)
      .map((m) => `<a href="/p/${m}">page ${m}</a>`)
    setTimeout(() => {
      seen.answered = true
      response.writeHead(200, { "content-type": "text/html" })
      response.end(`<html><body><h1>Page ${path}</h1>${links.join(" ")}</body></html>`)
    }, latency)
  })
  site.listen(0, "127.0.0.1")
  await once(site, "listening")
  siteBase = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  redis = await Effect.runPromise(Scope.extend(RedisServer.start(), redisScope))
}, 60_000)

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  site?.close()
  if (bundle !== "") rmSync(dirname(bundle), { recursive: true, force: true })
  await Effect.runPromise(Scope.close(redisScope, Exit.void))
})

interface Replica {
  readonly child: ChildProcess
  readonly base: string
  readonly stderr: () => string
}

const replica = async (prefix: string): Promise<Replica> => {
  const child = spawn(process.execPath, ["--import", guard, bundle], {
    env: {
      PATH: process.env.PATH ?? "",
      REDIS_PORT: String(redis.port),
      CRAWL_PREFIX: prefix,
      CRAWL_WORKERS: String(workers),
      CRAWL_CLAIM_IDLE_MS: "1500"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.push(child)
  let stderr = ""
  child.stderr!.on("data", (data: Buffer) => (stderr += data.toString("utf8")))
  const port = await new Promise<number>((resolve, reject) => {
    let stdout = ""
    const timer = setTimeout(() => reject(new Error(`the replica did not start:\n${stderr}`)), 30_000)
    child.stdout!.on("data", (data: Buffer) => {
      stdout += data.toString("utf8")
      const ready = /READY (\d+)/.exec(stdout)
      if (ready !== null) {
        clearTimeout(timer)
        resolve(Number(ready[1]))
      }
    })
    child.once("exit", (code) => reject(new Error(`the replica exited with ${code}:\n${stderr}`)))
  })
  return { child, base: `http://127.0.0.1:${port}`, stderr: () => stderr }
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

const call = async (replica: Replica, path: string, body?: unknown): Promise<Job> => {
  const response = await fetch(`${replica.base}${path}`, {
    method: body === undefined ? "GET" : "POST",
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const json = (await response.json()) as Job
  if (response.status !== 200) throw new Error(`${path}: ${JSON.stringify(json)}\n${replica.stderr()}`)
  return json
}

describe("crawl jobs scaled out on Redis", () => {
  it.live(
    "a replica killed mid-crawl: the job completes on the survivor, each page fetched and stored once",
    () =>
      Effect.promise(async () => {
        const prefix = `scaleout${process.pid}x${Date.now()}`
        const [a, b] = await Promise.all([replica(prefix), replica(prefix)])
        const maxPages = 100
        const started = await call(a, "/start", {
          url: `${siteBase}/`,
          maxPages,
          maxDepth: 5,
          delay: 0,
          concurrency: 4
        })
        expect(started.status).toBe("running")
        // Mid-crawl: a fifth of the pages requested, and the replica to kill with pages in flight.
        const all = () => [...requests.entries()].flatMap(([path, list]) => list.map((r) => ({ path, ...r })))
        const inFlight = () => all().filter((r) => r.replica === a.child.pid && !r.answered)
        while (all().length < 20 || inFlight().length === 0) await new Promise((resolve) => setTimeout(resolve, 1))
        a.child.kill("SIGKILL")
        const killedInFlight = inFlight().map((r) => r.path)
        const byKilled = new Set(
          all()
            .filter((r) => r.replica === a.child.pid)
            .map((r) => r.path)
        )
        await once(a.child, "exit")
        let job = await call(b, `/status/${started.id}?limit=1000`)
        for (let i = 0; job.status === "running" && i < 600; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50))
          job = await call(b, `/status/${started.id}?limit=1000`)
        }
        expect([job.status, job.pages, job.failed, job.total]).toEqual(["completed", maxPages, 0, maxPages])
        expect(job.cuts.map((cut) => cut.reason)).toEqual(["maxPages"])
        // Stored once: one event per page, all distinct.
        expect(new Set(job.events.map((event) => new URL(event.url).pathname)).size).toBe(maxPages)
        // Fetched once, but for what the killed replica had claimed and not settled: every page it had in flight
        // was taken over and fetched again by the survivor, once; no other page was fetched twice.
        const refetched = [...requests.entries()].filter(([, list]) => list.length > 1)
        for (const [path, list] of refetched) {
          expect(list.length, path).toBe(2)
          expect(
            list.map((r) => r.replica),
            path
          ).toEqual([a.child.pid, b.child.pid])
          expect(byKilled.has(path), path).toBe(true)
        }
        expect(killedInFlight.length).toBeGreaterThan(0)
        for (const path of killedInFlight) expect(refetched.map(([p]) => p)).toContain(path)
        expect(refetched.length).toBeLessThanOrEqual(workers)
        // Both replicas read pages, and every page of the crawl was requested.
        expect(byKilled.size).toBeGreaterThan(1)
        expect(all().some((r) => r.replica === b.child.pid)).toBe(true)
        expect(requests.size).toBe(maxPages)
        console.log(
          `crawl scale-out: ${refetched.length} page(s) refetched after the kill: ${refetched.map(([p]) => p)}`
        )
      }),
    90_000
  )
})
