/**
 * A private redis-server for tests: started as a child process on a free loopback port, without persistence,
 * and stopped (by its own pid) when the scope closes. When `redis-server` is not installed the tests that need
 * it FAIL with instructions; they never skip.
 */
import { spawn, spawnSync } from "node:child_process"
import * as net from "node:net"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import type { RedisOptions } from "ioredis"

export interface RedisServer {
  /** The redis-server process id, so a test can check that it is gone after the scope closed. */
  readonly pid: number
  readonly port: number
  readonly url: Redacted.Redacted<string>
  readonly options: RedisOptions
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

const installed = (): boolean => spawnSync("redis-server", ["--version"], { stdio: "ignore" }).error === undefined

/**
 * Starts redis-server (optionally requiring a password, optionally with `DEBUG` allowed from loopback for tests
 * that make it slow with `DEBUG SLEEP`) and waits until it accepts connections.
 */
export const start = (options?: {
  readonly password?: string
  readonly debugCommand?: boolean
}): Effect.Effect<RedisServer, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      if (!installed()) {
        throw new Error(
          "redis-server is not on PATH: install it (apt-get install -y redis-server) to run the Redis tests; they do not skip"
        )
      }
      const port = await freePort()
      const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
      if (options?.password !== undefined) args.push("--requirepass", options.password)
      if (options?.debugCommand === true) args.push("--enable-debug-command", "local")
      const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] })
      let output = ""
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10s:\n${output}`)), 10_000)
        const onData = (chunk: Buffer) => {
          output += chunk.toString()
          if (output.includes("Ready to accept connections")) {
            clearTimeout(timer)
            resolve()
          }
        }
        child.stdout.on("data", onData)
        child.stderr.on("data", onData)
        child.once("exit", (code) => {
          clearTimeout(timer)
          reject(new Error(`redis-server exited with ${code}:\n${output}`))
        })
      })
      const auth = options?.password === undefined ? "" : `:${encodeURIComponent(options.password)}@`
      return {
        child,
        server: {
          pid: child.pid!,
          port,
          url: Redacted.make(`redis://${auth}127.0.0.1:${port}/0`),
          options: {
            host: "127.0.0.1",
            port,
            ...(options?.password === undefined ? {} : { password: options.password }),
            maxRetriesPerRequest: 1
          }
        }
      }
    }),
    ({ child }) =>
      Effect.promise(
        () =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve()
            child.once("exit", () => resolve())
            child.kill("SIGTERM")
          })
      )
  ).pipe(Effect.map(({ server }) => server))
