/**
 * Two `websearch serve` processes with the same `REDIS_URL` and key prefix, as two replicas of a deployment:
 * a search answered by one is a cache hit on the other, which never calls the provider. The provider is a user
 * provider module (`WEBSEARCH_PROVIDER_MODULES`) querying a local SearXNG mock that counts its searches.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import * as RedisServer from "../../../test-support/redisServer.js"
import { bundleSearxngModule } from "./support/bundleModule.js"

const bin = fileURLToPath(new URL("../bin/websearch.js", import.meta.url))
const guard = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))

const token = "cli-replica-token-0123456789abcdef"
// The Redis password travels inside REDIS_URL; it must never be printed by either process.
const redisPassword = "redis-canary-5d1e9b7c3a"

let providerModule = ""
let mock: Server
let mockBase = ""
const searched: Array<string> = []
const redisScope = Effect.runSync(Scope.make())
let redis: RedisServer.RedisServer

beforeAll(async () => {
  providerModule = await bundleSearxngModule()
  mock = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1")
    const q = url.searchParams.get("q") ?? ""
    searched.push(q)
    res.setHeader("content-type", "application/json")
    res.end(JSON.stringify({ results: [{ title: `About ${q}`, url: `${mockBase}/page`, content: `On ${q}.` }] }))
  })
  mock.listen(0, "127.0.0.1")
  await once(mock, "listening")
  mockBase = `http://127.0.0.1:${(mock.address() as AddressInfo).port}`
  redis = await Effect.runPromise(Scope.extend(RedisServer.start({ password: redisPassword }), redisScope))
}, 60_000)

afterAll(async () => {
  mock?.close()
  if (providerModule !== "") rmSync(dirname(providerModule), { recursive: true, force: true })
  await Effect.runPromise(Scope.close(redisScope, Exit.void))
  if (redis !== undefined) {
    let alive = true
    try {
      process.kill(redis.pid, 0)
    } catch {
      alive = false
    }
    if (alive) throw new Error(`redis-server (pid ${redis.pid}) is still running after the suite`)
  }
})

interface Running {
  readonly child: ChildProcess
  readonly stderr: () => string
  readonly exited: Promise<number | null>
}

const serve = (env: Record<string, string>): Running => {
  const child = spawn(process.execPath, ["--import", guard, bin, "serve", "--port", "0", "--allow-host", "127.0.0.1"], {
    // Only what the command may read: no provider keys or defaults leak in from the developer's shell.
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

const search = async (base: string, keyword: string) => {
  const response = await fetch(`${base}/v1/search`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ keywords: [keyword] })
  })
  return { status: response.status, cache: response.headers.get("x-websearch-cache"), body: await response.json() }
}

describe("websearch serve replicas on one Redis", () => {
  it(
    "two processes with the same REDIS_URL share the cache: the second serves a hit",
    { timeout: 120_000 },
    async () => {
      const env = {
        WEBSEARCH_API_TOKENS: token,
        WEBSEARCH_PROVIDER_MODULES: providerModule,
        WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER: "searxng",
        SEARXNG_API_HOST: mockBase,
        REDIS_URL: Redacted.value(redis.url),
        WEBSEARCH_REDIS_PREFIX: `cli-replicas-${process.pid}-${Date.now()}`
      }
      const a = serve(env)
      const b = serve(env)
      try {
        const [baseA, baseB] = await Promise.all([listening(a), listening(b)])
        expect(baseA).not.toBe(baseB)

        const first = await search(baseA, "replicated question")
        expect(first.status).toBe(200)
        expect(first.cache).toBe("miss")
        expect(first.body).toMatchObject({ providerId: "searxng", results: [{ title: "About replicated question" }] })
        expect(searched).toEqual(["replicated question"])

        // B never saw this question: a hit can only come from what A stored in Redis.
        const second = await search(baseB, "replicated question")
        expect(second.status).toBe(200)
        expect(second.cache).toBe("hit")
        expect(second.body).toEqual(first.body)
        expect(searched).toEqual(["replicated question"])

        // A question B asks first is a miss there and a hit on A.
        expect((await search(baseB, "second question")).cache).toBe("miss")
        expect((await search(baseA, "second question")).cache).toBe("hit")
        expect(searched).toEqual(["replicated question", "second question"])
      } finally {
        a.child.kill("SIGINT")
        b.child.kill("SIGINT")
        await Promise.all([a.exited, b.exited])
      }
      for (const running of [a, b]) expect(running.stderr()).not.toContain(redisPassword)
    }
  )
})
