/**
 * Regex entries run on a linear-time engine: the classic catastrophic-backtracking patterns, on adversarial URLs of
 * 10^4 characters, give the right answer. They are matched in a worker so that a backtracking engine (which would
 * block its thread for hours) fails the test by not answering instead of freezing the test run.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Effect from "effect/Effect"
import { Worker } from "node:worker_threads"
import * as Blacklist from "../src/internal/blacklist.js"
import * as Settings from "../src/Settings.js"

const run = "a".repeat(10_000)

// Each pattern with a URL it must refuse after the long run (where a backtracking engine explodes) and one it
// must match, so the test checks the engine's answers, not only that it answers.
const cases: ReadonlyArray<{ readonly entry: string; readonly url: string; readonly expected: boolean }> = [
  { entry: "/(a+)+$/", url: `http://x.example/${run}!`, expected: false },
  { entry: "/(a+)+$/", url: `http://x.example/${run}`, expected: true },
  { entry: "/(a|aa)+$/", url: `http://x.example/${run}!`, expected: false },
  { entry: "/(a|aa)+$/", url: `http://x.example/${run}`, expected: true },
  { entry: "/(.*a){12}/", url: `http://x.example/${"a".repeat(5)}${"b".repeat(10_000)}`, expected: false },
  { entry: "/(.*a){12}/", url: `http://x.example/${"ab".repeat(5_000)}`, expected: true },
  // Anchored at the start a URL's `http:` ends the run at once; anchored after a slash the same pattern is hostile.
  { entry: "/^(\\w+\\s?)*$/", url: `http://x.example/${run}!`, expected: false },
  { entry: "/\\/(\\w+\\s?)*$/", url: `http://x.example/${run}!`, expected: false },
  { entry: "/\\/(\\w+\\s?)*$/", url: `http://x.example/${run}`, expected: true }
]

const source = `
const { parentPort, workerData } = require("node:worker_threads")
import("tsx/esm/api").then(({ tsImport }) => tsImport(workerData.module, workerData.module)).then((Blacklist) => {
  const answers = workerData.cases.map(({ entry, url }) => {
    const compiled = Blacklist.compile([entry])
    if (compiled._tag !== "Right") throw new Error("entry " + entry + " did not compile")
    return compiled.right.test(url)
  })
  parentPort.postMessage(answers)
})
`

// A backtracking engine takes hours on these inputs; one minute is far beyond what any linear engine needs on a
// loaded machine, and the worker is terminated either way.
const matchInWorker = (): Promise<ReadonlyArray<boolean>> =>
  new Promise((resolve, reject) => {
    const worker = new Worker(source, {
      eval: true,
      workerData: { module: new URL("../src/internal/blacklist.ts", import.meta.url).href, cases }
    })
    const timer = setTimeout(() => {
      void worker.terminate()
      reject(new Error("the regex entries did not finish matching within 60 s (catastrophic backtracking)"))
    }, 60_000)
    worker.once("message", (answers: ReadonlyArray<boolean>) => {
      clearTimeout(timer)
      void worker.terminate()
      resolve(answers)
    })
    worker.once("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
  })

describe("Blacklist regex entries in linear time", () => {
  it("the classic catastrophic patterns answer correctly on 10^4-character URLs", async () => {
    const answers = await matchInWorker()
    expect(answers).toEqual(cases.map((c) => c.expected))
  }, 90_000)

  it("keeps the JavaScript semantics the entries are written in", () => {
    const matcher = Either.getOrThrow(
      Blacklist.compile(["/^https:\\/\\/[^/]+\\/caf\\u0065/", "/\\bads?\\b/", "/^HTTP:.*\\.PDF$/", "/a.b/s"])
    )
    expect(matcher.test("https://x.example/cafe")).toBe(true)
    expect(matcher.test("https://x.example/ad/1")).toBe(true)
    expect(matcher.test("http://x.example/paper.pdf")).toBe(true)
    expect(matcher.test("https://x.example/reads")).toBe(false)
    expect(matcher.test("https://x.example/paper.pdf")).toBe(false)
  })

  it("an entry RE2 cannot run is reported as unsupported, with its index", () => {
    const result = Blacklist.compile(["/a(?=b)/", "/(x)\\1/", "/(?<n>x)\\k<n>/", "/(?<!a)b/", "/a/d"])
    expect(Either.isLeft(result)).toBe(true)
    const invalid = Either.isLeft(result) ? result.left : []
    expect(invalid.map((e) => e.index)).toEqual([0, 1, 2, 3, 4])
    for (const entry of invalid.slice(0, 4)) expect(entry.message).toMatch(/unsupported regular expression/)
    expect(invalid[4].message).toMatch(/flag 'd'/)
  })

  it.effect("settings name the unsupported entry at load", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Settings.make({ blacklist: ["example.com", "/(x)\\1/"] }))
      expect(error.reason).toBe("invalid_config")
      expect(error.message).toContain("blacklist.1")
      expect(error.message).toContain("backreferences")
    })
  )
})
