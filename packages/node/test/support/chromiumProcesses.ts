/**
 * The Chromium processes a test started, read from /proc: every descendant of this process whose executable is
 * Chromium, plus the crash handlers Chromium double-forks away from its tree (they are named in its children's
 * `--crashpad-handler-pid`, and a handler's own monitor is new since the test began).
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs"

interface Proc {
  readonly pid: number
  readonly ppid: number
  readonly state: string
  readonly exe: string
  readonly cmdline: string
}

const read = (pid: number): Proc | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // The command name is in parentheses and may itself contain spaces or parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    let exe = ""
    try {
      exe = readlinkSync(`/proc/${pid}/exe`)
    } catch {
      // a zombie or a process of another user
    }
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ")
    return { pid, ppid: Number(fields[1]), state: fields[0], exe, cmdline }
  } catch {
    return undefined
  }
}

const all = (): Array<Proc> =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => read(Number(name)))
    .filter((proc): proc is Proc => proc !== undefined)

const isChromium = (proc: Proc) => /chromium|chrome/.test(proc.exe) || /chromium|chrome_crashpad/.test(proc.cmdline)

/** The crash handlers alive now; call before starting a browser to tell its handlers from others'. */
export const crashHandlers = (): ReadonlySet<number> =>
  new Set(
    all()
      .filter((proc) => proc.cmdline.includes("chrome_crashpad_handler"))
      .map((proc) => proc.pid)
  )

/** The live (not zombie) Chromium processes this process started, directly or not. */
export const started = (before: ReadonlySet<number>): ReadonlyArray<number> => {
  const procs = all()
  const children = new Map<number, Array<Proc>>()
  for (const proc of procs) children.set(proc.ppid, [...(children.get(proc.ppid) ?? []), proc])
  const ours: Array<Proc> = []
  const queue = [process.pid]
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      ours.push(child)
      queue.push(child.pid)
    }
  }
  const chromium = ours.filter((proc) => proc.state !== "Z" && isChromium(proc))
  const handlers = procs.filter(
    (proc) => proc.state !== "Z" && proc.cmdline.includes("chrome_crashpad_handler") && !before.has(proc.pid)
  )
  return [...new Set([...chromium, ...handlers].map((proc) => proc.pid))]
}

/** Which of `pids` are still alive (not zombies). */
export const alive = (pids: ReadonlyArray<number>): ReadonlyArray<number> =>
  pids.filter((pid) => {
    const proc = read(pid)
    return proc !== undefined && proc.state !== "Z"
  })
