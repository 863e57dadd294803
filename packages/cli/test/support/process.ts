/**
 * Runs the built `websearch` binary as a child process under the loopback guard, with only PATH and HOME from the
 * developer's shell (no provider keys or defaults leak in). Asynchronous, so a server living in the test's own
 * process can answer the command.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

const bin = fileURLToPath(new URL("../../bin/websearch.js", import.meta.url))
const guard = fileURLToPath(new URL("../../../../test-support/loopbackGuard.js", import.meta.url))

/** How the command ended and what it printed. */
export interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** What the child reads and when it is interrupted. */
export interface RunOptions {
  /** Written to the child's standard input, which is then closed (without it, stdin is /dev/null). */
  readonly stdin?: string | undefined
  /** Sends SIGINT once stderr contains this text. */
  readonly interruptWhenStderrHas?: string | undefined
}

/** Runs `websearch ARGS` with ENV; the child is killed after `timeoutMs` (default 90 s). */
export const websearch = (
  args: ReadonlyArray<string>,
  env: Record<string, string> = {},
  timeoutMs = 90_000,
  options: RunOptions = {}
): Promise<Ran> => node([bin, ...args], env, timeoutMs, options)

/** The arguments that start `websearch` under the loopback guard with a given Node: `[node, ...nodeArgs]`. */
export const websearchCommand: ReadonlyArray<string> = [process.execPath, "--import", guard, bin]

/** Runs `node ARGS` (a script of any client, under the loopback guard) with ENV, as `websearch` does. */
export const node = (
  args: ReadonlyArray<string>,
  env: Record<string, string> = {},
  timeoutMs = 90_000,
  options: RunOptions = {}
): Promise<Ran> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", guard, ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
      stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    let interrupted = false
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
      const mark = options.interruptWhenStderrHas
      if (!interrupted && mark !== undefined && stderr.includes(mark)) {
        interrupted = true
        child.kill("SIGINT")
      }
    })
    if (options.stdin !== undefined) child.stdin?.end(options.stdin)
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.on("error", reject)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })

/** How a command on a terminal ended, and everything the terminal showed (stdout and stderr, and any echo). */
export interface RanOnTerminal {
  readonly code: number | null
  readonly transcript: string
}

const shellQuoted = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`

/**
 * Runs `websearch ARGS` on a pseudo-terminal (util-linux's `script`), as a user at a terminal runs it: what the
 * terminal shows comes back as one transcript, echo included. `typed` is sent, as keystrokes, once the transcript
 * shows `typeAfter`.
 */
export const websearchOnTerminal = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  typeAfter: string,
  typed: string,
  timeoutMs = 90_000
): Promise<RanOnTerminal> =>
  new Promise((resolve, reject) => {
    const command = [process.execPath, "--import", guard, bin, ...args].map(shellQuoted).join(" ")
    const child = spawn("script", ["--quiet", "--return", "--flush", "--command", command, "/dev/null"], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", SHELL: "/bin/sh", ...env },
      stdio: ["pipe", "pipe", "pipe"]
    })
    let transcript = ""
    let sent = false
    const onOutput = (chunk: string) => {
      transcript += chunk
      if (!sent && transcript.includes(typeAfter)) {
        sent = true
        child.stdin.write(typed)
      }
    }
    child.stdout.setEncoding("utf8").on("data", onOutput)
    child.stderr.setEncoding("utf8").on("data", onOutput)
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.on("error", reject)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, transcript })
    })
  })
