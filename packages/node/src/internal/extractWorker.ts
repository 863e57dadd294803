/**
 * The entry of an extraction worker thread (see `extractPool.ts`): it answers `Ready` once its modules have
 * loaded, then extracts one job at a time and posts back the document or the typed reason it failed.
 */
import * as Extract from "@websearch/extract/Extract"
import * as Either from "effect/Either"
import { parentPort } from "node:worker_threads"
import { isPdfBomb, type Job, type Reply } from "./extractPool.js"

const port = parentPort

const extracted = async (input: Extract.Input, job: Job): Promise<Reply> => {
  // A PDF bomb is refused before PDF.js inflates it into memory no heap limit bounds.
  if (await isPdfBomb(input)) return { _tag: "TooLarge", message: "decoded size over the budget" }
  const result = await Extract.extractAsync(input, job.maxChars === undefined ? undefined : { maxChars: job.maxChars })
  return Either.isRight(result)
    ? { _tag: "Done", document: result.right }
    : { _tag: "Invalid", reason: result.left.reason, message: result.left.message }
}

if (port !== null) {
  const post = (reply: Reply) => port.postMessage(reply)
  port.on("message", (job: Job) => {
    const input = { body: job.body, contentType: job.contentType, url: job.url }
    // extractAsync never rejects; a throw here would be a bug in this file, reported as a defect.
    extracted(input, job)
      .then(post)
      .catch((error: unknown) => post({ _tag: "Defect", message: error instanceof Error ? error.message : "unknown" }))
  })
  post({ _tag: "Ready" })
}
