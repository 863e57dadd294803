/**
 * A throwaway PostgreSQL server for tests: Debian's `postgresql` binaries (`/usr/lib/postgresql/<n>/bin`), a new
 * cluster in a temporary directory (initdb), the server as a child process listening on 127.0.0.1 on a free port
 * only (its socket in the same directory), stopped by its own pid and deleted when the scope closes. PostgreSQL
 * refuses to run as root, so under root (CI's container) both run as the `postgres` user the package creates.
 * When the package is missing the tests that need it FAIL with instructions; they never skip.
 */
import { spawn, spawnSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import * as net from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"

export interface Postgres {
  readonly pid: number
  readonly port: number
  /** The superuser's password, to check it never shows. */
  readonly password: string
  /** A URL of the database `name` on this server. */
  readonly url: (database: string) => Redacted.Redacted<string>
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

const binaries = (): string => {
  const root = "/usr/lib/postgresql"
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => existsSync(join(root, version, "bin", "postgres")))
        .sort((a, b) => Number(b) - Number(a))
    : []
  if (versions[0] === undefined) {
    throw new Error(
      "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/postgres): install it (apt-get install -y postgresql) " +
        "to run the PostgreSQL store tests; they do not skip"
    )
  }
  return join(root, versions[0], "bin")
}

// Under root, the uid and gid of the `postgres` user; otherwise the current user runs everything.
const runAs = (): { readonly uid: number; readonly gid: number } | undefined => {
  if (process.getuid?.() !== 0) return undefined
  const uid = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" })
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" })
  if (uid.status !== 0 || gid.status !== 0) {
    throw new Error(
      "the tests run as root and there is no `postgres` user to run PostgreSQL as (apt-get install -y postgresql)"
    )
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
}

/** Starts a new cluster and waits until it accepts connections. */
export const start = (): Effect.Effect<Postgres, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const bin = binaries()
      const user = runAs()
      const dir = mkdtempSync(join(tmpdir(), "websearch-pg-"))
      const data = join(dir, "data")
      const password = `pg-canary-${process.pid}-${Date.now()}`
      writeFileSync(join(dir, "pwfile"), `${password}\n`)
      if (user !== undefined) {
        chownSync(dir, user.uid, user.gid)
        chownSync(join(dir, "pwfile"), user.uid, user.gid)
      }
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8", LC_ALL: "C.UTF-8" }
      const ids = user === undefined ? {} : { uid: user.uid, gid: user.gid }
      // Asynchronous: a spawnSync would block the test worker for all of initdb (vitest's RPC times out past 60 s).
      const init = await new Promise<{ status: number | null; output: string }>((resolve, reject) => {
        const child = spawn(
          join(bin, "initdb"),
          [
            "-D",
            data,
            "-U",
            "websearch",
            "-A",
            "scram-sha-256",
            `--pwfile=${join(dir, "pwfile")}`,
            "-E",
            "UTF8",
            "--no-sync"
          ],
          { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"], ...ids }
        )
        let output = ""
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
        child.on("error", reject)
        child.on("close", (status) => resolve({ status, output }))
      })
      if (init.status !== 0) throw new Error(`initdb failed (${init.status}):\n${init.output}`)
      const port = await freePort()
      const child = spawn(
        join(bin, "postgres"),
        [
          "-D",
          data,
          "-p",
          String(port),
          "-c",
          "listen_addresses=127.0.0.1",
          "-c",
          `unix_socket_directories=${dir}`,
          "-c",
          "fsync=off",
          "-c",
          "synchronous_commit=off",
          "-c",
          "full_page_writes=off"
        ],
        { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"], ...ids }
      )
      let output = ""
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`postgres did not start within 20s:\n${output}`)), 20_000)
        const onData = (chunk: Buffer) => {
          output += chunk.toString()
          if (output.includes("database system is ready to accept connections")) {
            clearTimeout(timer)
            resolve()
          }
        }
        child.stdout.on("data", onData)
        child.stderr.on("data", onData)
        child.once("exit", (code) => {
          clearTimeout(timer)
          reject(new Error(`postgres exited with ${code}:\n${output}`))
        })
      })
      return {
        child,
        dir,
        server: {
          pid: child.pid!,
          port,
          password,
          url: (database: string) =>
            Redacted.make(`postgres://websearch:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`)
        }
      }
    }),
    ({ child, dir }) =>
      Effect.promise(async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
          // SIGINT is PostgreSQL's fast shutdown: no wait for clients, a clean stop.
          child.kill("SIGINT")
          await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
        }
        rmSync(dir, { recursive: true, force: true })
      })
  ).pipe(Effect.map(({ server }) => server))
