/**
 * PDF text, page by page, through pdfjs-dist (Mozilla's pure-JavaScript PDF engine, legacy build so it runs on
 * Node 20 as well as in browsers). The library is loaded on first use only, so HTML-only callers never pay
 * for it. Fonts are not loaded, no code is evaluated and nothing is fetched: only the text layer is read.
 *
 * @since 0.1.0
 */
import type * as PdfJsModule from "pdfjs-dist/legacy/build/pdf.mjs"
import * as Whitespace from "./internal/whitespace.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Pdf {
  readonly title: string
  readonly markdown: string
  readonly pages: number
  readonly author: string | undefined
  readonly createdAt: string | undefined
  readonly lang: string | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Stop reading pages once this much text is collected: the rest would be cut anyway. */
  readonly maxChars?: number | undefined
  /** At most this many pages are read. Default 1000. */
  readonly maxPages?: number | undefined
  readonly signal?: AbortSignal | undefined
}

/**
 * Why a PDF could not be read.
 *
 * @since 0.1.0
 * @category errors
 */
export class PdfError {
  /** @since 0.1.0 */
  readonly _tag = "PdfError"
  constructor(
    /** @since 0.1.0 */
    readonly reason: "parse_failed" | "encrypted" | "aborted",
    /** @since 0.1.0 */
    readonly message: string
  ) {}
}

interface TextItem {
  readonly str?: string
  readonly hasEOL?: boolean
}

type PdfJs = typeof PdfJsModule

let loaded: Promise<PdfJs> | undefined
const load = (): Promise<PdfJs> => (loaded ??= import("pdfjs-dist/legacy/build/pdf.mjs"))

const infoString = (info: unknown, key: string): string | undefined => {
  if (typeof info !== "object" || info === null) return undefined
  const value = (info as Record<string, unknown>)[key]
  return typeof value === "string" && value.trim() !== "" ? value.replace(/\s+/g, " ").trim() : undefined
}

const pageText = (items: ReadonlyArray<TextItem>): string => {
  let out = ""
  for (const item of items) {
    if (typeof item.str === "string") out += item.str
    if (item.hasEOL === true) out += "\n"
  }
  // Linear scans, not `/[ \t]+\n/g` (quadratic on a long run of spaces); the end is trimmed anyway.
  return Whitespace.collapseBlankLines(
    Whitespace.trimLineEnds(out.replace(/[\u0000-\u0008\u000b\u000e-\u001f]/g, ""))
  ).trim()
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 200)

/**
 * Reads the text of a PDF, one `## Page N` section per page with text. Never rejects: failures resolve to a
 * {@link PdfError}.
 *
 * Untrusted PDFs: PDF.js decodes a document's streams into memory that no heap limit bounds, and a few kilobytes
 * can decode to gigabytes, so this is for PDFs you trust. `@websearch/node`'s fetch provider (and its extraction
 * pool) counts what a PDF decodes to before PDF.js reads it and caps every buffer while it does.
 *
 * @since 0.1.0
 * @category utils
 */
export const fromBytes = async (bytes: Uint8Array, options?: Options): Promise<Pdf | PdfError> => {
  let pdfjs: PdfJs
  try {
    pdfjs = await load()
  } catch (error) {
    return new PdfError("parse_failed", `the PDF engine could not be loaded: ${message(error)}`)
  }
  // pdfjs may transfer (detach) the buffer it is given, so it gets a copy: the caller's bytes must stay usable. A
  // plain Uint8Array, because pdfjs refuses Node's subclass of it (whose slice() is a view, not a copy).
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    disableAutoFetch: true,
    disableStream: true,
    stopAtErrors: false,
    verbosity: 0
  })
  const onAbort = () => void task.destroy()
  options?.signal?.addEventListener("abort", onAbort, { once: true })
  try {
    const doc = await task.promise
    try {
      const maxChars = options?.maxChars ?? Number.POSITIVE_INFINITY
      const maxPages = Math.min(doc.numPages, options?.maxPages ?? 1000)
      const sections: Array<string> = []
      let length = 0
      for (let n = 1; n <= maxPages && length < maxChars; n++) {
        if (options?.signal?.aborted === true) return new PdfError("aborted", "reading the PDF was aborted")
        const page = await doc.getPage(n)
        const content = await page.getTextContent()
        page.cleanup()
        const text = pageText(content.items as ReadonlyArray<TextItem>)
        if (text === "") continue
        const section = `## Page ${n}\n\n${text}`
        sections.push(section)
        length += section.length + 2
      }
      const { info } = await doc.getMetadata().catch(() => ({ info: undefined }))
      const created = infoString(info, "CreationDate")
      const date = created === undefined ? null : pdfjs.PDFDateString.toDateObject(created)
      return {
        title: infoString(info, "Title") ?? "",
        markdown: sections.join("\n\n"),
        pages: doc.numPages,
        author: infoString(info, "Author"),
        createdAt: date === null ? undefined : date.toISOString(),
        lang: infoString(info, "Language")
      }
    } finally {
      await doc.destroy()
    }
  } catch (error) {
    if (options?.signal?.aborted === true) return new PdfError("aborted", "reading the PDF was aborted")
    if (error instanceof Error && error.name === "PasswordException") {
      return new PdfError("encrypted", "the PDF is password-protected")
    }
    return new PdfError("parse_failed", `the PDF could not be read: ${message(error)}`)
  } finally {
    options?.signal?.removeEventListener("abort", onAbort)
  }
}
