/**
 * What the extraction pool and its workers exchange, and the PDF-bomb check both sides run: apart from the pool so
 * that a worker loads neither the pool nor what the pool needs (`WebSearchError` brings effect's `Schema`, about
 * 4 MiB of live heap in each worker).
 */
import type * as ExtractCore from "@websearch/extract/internal/extractCore"
import * as ContentKind from "@websearch/extract/internal/contentKind"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as PdfBudget from "./pdfBudget.js"

/** What the pool sends a worker. */
export interface Job {
  readonly body: Uint8Array
  readonly contentType: string | undefined
  readonly url: string
  readonly maxChars: number | undefined
  /**
   * Whose job this is (the request it serves), for fair turns: jobs of one group wait behind each other, never
   * behind another group's backlog. Not sent to the worker. Each job is its own group when absent.
   */
  readonly group?: unknown
}

/**
 * What a worker is started with: its lane. Ordinary pages run on `light` workers, heavy ones (a big body, a PDF)
 * on `heavy` workers of their own, which run at a lower priority still (see `niceness`).
 */
export interface WorkerData {
  readonly lane: "light" | "heavy"
}

/**
 * How much lower than the process each lane's threads run (Linux nice values, 19 at most): light workers yield to
 * the main thread, heavy ones to both. Under contention the kernel gives a nice-10 thread about seven times the CPU
 * of a nice-19 one, so an ordinary page extracts at nearly full speed while a hostile one runs beside it.
 */
export const niceness = { light: 10, heavy: 19 } as const

/** What a worker answers: once `Ready` after its modules loaded, then one reply per job. */
export type Reply =
  | { readonly _tag: "Ready" }
  | { readonly _tag: "Done"; readonly document: ExtractCore.Document }
  | { readonly _tag: "Invalid"; readonly reason: WebSearchError.ResponseInvalidReason; readonly message: string }
  | { readonly _tag: "Defect"; readonly message: string }
  /** A PDF refused by `PdfBudget`; `message` says why. */
  | { readonly _tag: "TooLarge"; readonly message: string }

/** Whether a job's body is a PDF (by its type, its first bytes or its URL, as the extractor decides). */
export const isPdf = (job: Pick<Job, "body" | "contentType" | "url">): boolean =>
  ContentKind.classify(job.contentType, job.body, job.url) === "pdf"

/**
 * Why a job's PDF is refused before PDF.js sees it (its streams decode beyond the budget, or hide what they decode
 * to; see `PdfBudget`); `undefined` for a PDF within the budget and for anything else.
 */
export const pdfRefusal = (job: Pick<Job, "body" | "contentType" | "url">): string | undefined =>
  isPdf(job) ? PdfBudget.refusal(job.body) : undefined
