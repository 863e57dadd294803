import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as BoundedExtract from "../src/internal/boundedExtract.js"
import * as ExtractPool from "../src/internal/extractPool.js"
import * as LocalServer from "./support/localServer.js"
import * as Pdf from "../../../test-support/pdf.js"

// The time limit is never reached in this file (a stop is for good: see BoundedExtractStop.test.ts).
const patient = { maxBytes: 64 * 1024, maxMillis: 60_000 }

const encoder = new TextEncoder()

const page = (title: string, count: number): ExtractPool.Job => ({
  body: encoder.encode(
    LocalServer.articlePage(
      title,
      Array.from({ length: count }, (_, i) => `Paragraph ${i} tells how a layer builds the services it provides.`)
    )
  ),
  contentType: "text/html; charset=utf-8",
  url: "http://127.0.0.1/page",
  maxChars: undefined
})

/** A stand-in for the worker pool that counts the jobs it gets and extracts them as the pool would. */
const recorder = () => {
  const jobs: Array<ExtractPool.Job> = []
  return { jobs, otherwise: (job: ExtractPool.Job) => Effect.suspend(() => (jobs.push(job), ExtractPool.inline(job))) }
}

// Patient: the PDF test loads PDF.js from sources, which takes seconds on a busy machine.
describe("extraction on the calling thread within a time limit", { timeout: 120_000 }, () => {
  it.effect("a small page is extracted here, with the document a worker gives", () =>
    Effect.gen(function* () {
      const job = page("Small", 20)
      const { jobs, otherwise } = recorder()
      const here = yield* BoundedExtract.extract(job, patient, otherwise)
      expect(jobs).toEqual([])
      expect(here.title).toBe("Small")
      expect(here.markdown).toContain("Paragraph 19 tells how")
      expect(here).toEqual(yield* ExtractPool.inline(job))
    })
  )

  it.effect("a page without readable text fails here as it would on a worker", () =>
    Effect.gen(function* () {
      const job: ExtractPool.Job = { ...page("", 0), body: encoder.encode("<html><body></body></html>") }
      const { jobs, otherwise } = recorder()
      const here = yield* Effect.flip(BoundedExtract.extract(job, patient, otherwise))
      expect(jobs).toEqual([])
      expect(here).toEqual(yield* Effect.flip(ExtractPool.inline(job)))
    })
  )

  it.effect("a PDF goes to the workers whatever its size", () =>
    Effect.gen(function* () {
      const job: ExtractPool.Job = {
        body: Pdf.build(["A short PDF"], "Short"),
        contentType: "application/pdf",
        url: "http://127.0.0.1/short.pdf",
        maxChars: undefined
      }
      expect(job.body.length).toBeLessThan(patient.maxBytes)
      const { jobs, otherwise } = recorder()
      const document = yield* BoundedExtract.extract(job, patient, otherwise)
      expect(jobs).toEqual([job])
      expect(document.title).toBe("Short")
    })
  )

  it.effect.prop(
    "a page is tried here exactly when it is within the size limit",
    [FastCheck.integer({ min: 200, max: 4000 }), FastCheck.integer({ min: 1, max: 40 })],
    ([maxBytes, paragraphs]) =>
      Effect.gen(function* () {
        const job = page("Sized", paragraphs)
        const { jobs, otherwise } = recorder()
        const document = yield* BoundedExtract.extract(job, { maxBytes, maxMillis: 60_000 }, otherwise)
        expect(jobs.length).toBe(job.body.length > maxBytes ? 1 : 0)
        expect(document.title).toBe("Sized")
      }),
    { fastCheck: { numRuns: 40 } }
  )
})
