/**
 * What one process costs, measured by the kernel: it runs under GNU time (`/usr/bin/time`, Debian's `time` package),
 * which reads the rusage of the process it waited for (user and system CPU, peak RSS) and writes it to a file, so the
 * process's own output is left alone. CPU and wall are printed with 10 ms resolution; the peak RSS in KiB.
 * Worker threads are threads of the process: their CPU and memory are in the figures.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** The cost of one process, from its start to its exit. */
export interface Usage {
  readonly wallMs: number
  /** User plus system CPU time of the process and its threads. */
  readonly cpuMs: number
  readonly peakRssMiB: number
}

const gnuTime = "/usr/bin/time"

/** Fails, naming what to install, when GNU time is missing. */
export const requireGnuTime = (): void => {
  try {
    accessSync(gnuTime, constants.X_OK)
  } catch {
    throw new Error(`${gnuTime} (GNU time) is needed to measure process CPU and peak RSS: apt-get install time`)
  }
}

export interface RunOptions {
  readonly env: NodeJS.ProcessEnv
  /** Talks to the process through its stdin and stdout; resolves when done with it (its stdin is then closed). */
  readonly converse?: ((child: ChildProcess) => Promise<void>) | undefined
}

/** Runs `command args` to its exit and returns what it cost; fails when it exits with a non-zero code. */
export const measure = (command: string, args: ReadonlyArray<string>, options: RunOptions): Promise<Usage> => {
  const dir = mkdtempSync(join(tmpdir(), "websearch-bench-usage-"))
  const report = join(dir, "usage")
  return new Promise<Usage>((resolve, reject) => {
    const child = spawn(gnuTime, ["-f", "%e %U %S %M", "-o", report, command, ...args], {
      env: options.env,
      stdio: [
        options.converse === undefined ? "ignore" : "pipe",
        options.converse === undefined ? "ignore" : "pipe",
        "pipe"
      ]
    })
    let stderr = ""
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    child.on("error", reject)
    if (options.converse !== undefined) {
      options.converse(child).then(
        () => child.stdin!.end(),
        (error: unknown) => {
          // Closing its stdin ends the measured process too (GNU time, killed, would leave it running).
          child.stdin!.destroy()
          child.kill()
          reject(error)
        }
      )
    }
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${[command, ...args].join(" ")} exited ${code}: ${stderr.slice(-2000)}`))
      const [wall, user, system, rssKiB] = readFileSync(report, "utf8").trim().split("\n").pop()!.split(" ").map(Number)
      resolve({ wallMs: wall * 1000, cpuMs: (user + system) * 1000, peakRssMiB: rssKiB / 1024 })
    })
  }).finally(() => rmSync(dir, { recursive: true, force: true }))
}

/** The median of each figure on its own. */
export const median = (samples: ReadonlyArray<Usage>): Usage => {
  const of = (pick: (usage: Usage) => number) => [...samples.map(pick)].sort((a, b) => a - b)[samples.length >> 1]
  return { wallMs: of((u) => u.wallMs), cpuMs: of((u) => u.cpuMs), peakRssMiB: of((u) => u.peakRssMiB) }
}
