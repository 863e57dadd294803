/**
 * The entry of an extraction worker thread (see `extractPool.ts`): it answers `Ready` once its modules have
 * loaded, then extracts one job at a time and posts back the document or the typed reason it failed.
 */
import * as ExtractCore from "@websearch/extract/internal/extractCore"
import * as Either from "effect/Either"
import { getPriority, setPriority } from "node:os"
import { parentPort, workerData } from "node:worker_threads"
import * as AllocationCap from "./allocationCap.js"
import { isPdf, type Job, niceness, pdfRefusal, type Reply, type WorkerData } from "./extractJob.js"
import * as PdfBudget from "./pdfBudget.js"

const port = parentPort

/** How much lower than the process this thread runs: its lane's `niceness` (light when started without one). */
const lowered = niceness[(workerData as WorkerData | undefined)?.lane === "heavy" ? "heavy" : "light"]

// Extraction is the only CPU-heavy work of a server; its event loop, health checks, MCP pings and small inline
// extractions must not wait for a core behind a hostile page, nor must an ordinary page's extraction wait behind a
// heavy one's. On Linux the nice value is a property of each thread, and `setPriority(0, …)`
// (`setpriority(PRIO_PROCESS, 0)`) changes the calling thread alone, so this worker yields to the main thread while
// the process keeps its priority. Elsewhere the same call would lower the whole process, so it is not made. A thread
// without privileges can lower its priority but never raise it again: hence a lane per worker, not per job.
if (port !== null && process.platform === "linux") {
  try {
    // Relative to the thread's own value (a process started under `nice` stays below it), 19 at most.
    setPriority(0, Math.min(19, getPriority(0) + lowered))
  } catch {
    // A sandbox may forbid it; extraction still works at the process's priority.
  }
}

const extracted = async (input: ExtractCore.Input, job: Job): Promise<Reply> => {
  // A PDF bomb is refused before PDF.js inflates it into memory no heap limit bounds.
  const refusal = pdfRefusal(input)
  if (refusal !== undefined) return { _tag: "TooLarge", message: refusal }
  const extract = () =>
    ExtractCore.extractAsync(input, job.maxChars === undefined ? undefined : { maxChars: job.maxChars })
  // The count above follows what it can; while PDF.js reads, no buffer of more than the budget is made either.
  const capped = isPdf(input)
    ? await AllocationCap.run(PdfBudget.maxDecodedBytes, extract)
    : { result: await extract(), refused: 0 }
  if (capped.refused > 0) {
    return { _tag: "TooLarge", message: `reading it needed a buffer of ${capped.refused} bytes` }
  }
  const result = capped.result
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
