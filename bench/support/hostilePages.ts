/**
 * The pages of bench/hostile.ts: a plain ~30 KB article and the hostile set (long whitespace runs, deep nesting, a
 * 3 MiB attribute, JSON nested 500 deep, gzip/deflate/br bombs inflating to 256 MiB, a one-page PDF whose FlateDecode stream is 1 GiB of
 * zeros). The bombs are built at start with node:zlib, so nothing big is committed.
 */
import zlib from "node:zlib"

const KiB = 1024
const MiB = 1024 * KiB

const words = (
  "effect schema layer fiber stream scope runtime service context error cause schedule queue pubsub semaphore " +
  "deferred latch ref clock random tracer span metric logger config provider resource pool"
).split(" ")

export const paragraph = (seed: number): string => {
  const out: Array<string> = []
  for (let i = 0; i < 90; i++) out.push(words[(seed * 31 + i * 7) % words.length])
  return `<p>${out.join(" ")}.</p>`
}

/** A plain article page of about 30 KB: navigation, a headed article of paragraphs, a footer. */
export const article = (n: number): string => {
  const body: Array<string> = []
  // The joined length, kept as the blocks are added (joining at every step was quadratic).
  let length = -1
  const add = (block: string) => {
    body.push(block)
    length += block.length + 1
  }
  for (let i = 0; length < 28 * KiB; i++) {
    if (i % 6 === 0) add(`<h2>Section ${i / 6 + 1}</h2>`)
    add(paragraph(n + i))
  }
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>Article ${n}</title></head><body>` +
    `<nav><a href="/">Home</a> <a href="/about">About</a></nav><main><article><h1>Article ${n}</h1>` +
    `${body.join("\n")}</article></main><footer>Copyright example</footer></body></html>`
  )
}

const html = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`

/** An inflated body far past the transport's 5 MiB cap. */
const bombBytes = 256 * MiB

/** The page set, by path; the bombs and the PDF are added once built. */
export interface Page {
  readonly type: string
  readonly body: Buffer
  readonly encoding?: string
}

export const plainPages = (): Map<string, Page> => {
  const spaces = " ".repeat(64 * KiB)
  const pages: Array<[string, string, string]> = [
    ["/spaces", "text/html", html("spaces", `<p>start${spaces}end</p>`)],
    ["/pre-spaces", "text/html", html("pre", `<pre>start${spaces}end</pre>`)],
    // Just under the 64 KiB a text body is extracted inline up to, on the server's own event loop.
    ["/text-spaces", "text/plain", `start${" ".repeat(64 * KiB - 16)}end\n`],
    ["/space-lines", "text/html", html("lines", `<p>start${" \n\t".repeat(22 * KiB)}end</p>`)],
    [
      "/nested-tables",
      "text/html",
      html("tables", `${"<table><tr><td>".repeat(500)}deep${"</td></tr></table>".repeat(500)}`)
    ],
    ["/nested-lists", "text/html", html("lists", `${"<ul><li>".repeat(1000)}deep${"</li></ul>".repeat(1000)}`)],
    ["/nested-divs", "text/html", html("divs", `${"<div>".repeat(5000)}deep${"</div>".repeat(5000)}`)],
    ["/huge-attribute", "text/html", html("attribute", `<div title="${"a".repeat(3 * MiB)}">${paragraph(1)}</div>`)],
    // Under the 64 KiB JSON is extracted inline up to: 500 levels, then 31 000 numbers (indented, 1 000 spaces each).
    ["/deep-json", "application/json", `${"[".repeat(500)}${"1,".repeat(31_000)}1${"]".repeat(500)}`]
  ]
  return new Map(pages.map(([path, type, body]) => [path, { type, body: Buffer.from(body, "utf8") }]))
}

/** Compresses `total` bytes of `fill` (written 1 MiB at a time) through `stream`. */
const compress = async (stream: zlib.Gzip | zlib.Deflate | zlib.BrotliCompress, fill: Buffer, total: number) => {
  const out: Array<Buffer> = []
  stream.on("data", (chunk: Buffer) => out.push(chunk))
  const ended = new Promise((resolve) => stream.once("end", resolve))
  for (let written = 0; written < total; written += fill.length) {
    if (!stream.write(fill)) await new Promise((resolve) => stream.once("drain", resolve))
  }
  stream.end()
  await ended
  return Buffer.concat(out)
}

/** A valid one-page PDF whose content stream is FlateDecode of 1 GiB of zeros (about 1 MB on the wire). */
const pdfBomb = async (): Promise<Buffer> => {
  const stream = await compress(zlib.createDeflate(), Buffer.alloc(MiB), 1024 * MiB)
  const parts: Array<Buffer> = []
  const offsets: Array<number> = []
  let length = 0
  const push = (part: string | Buffer) => {
    const buffer = typeof part === "string" ? Buffer.from(part, "latin1") : part
    parts.push(buffer)
    length += buffer.length
  }
  push("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
  const object = (n: number, text: string) => {
    offsets[n] = length
    push(`${n} 0 obj\n${text}\nendobj\n`)
  }
  object(1, "<< /Type /Catalog /Pages 2 0 R >>")
  object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
  object(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> /Contents 4 0 R >>")
  offsets[4] = length
  push(`4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`)
  push(stream)
  push("\nendstream\nendobj\n")
  const xref = length
  push(`xref\n0 5\n0000000000 65535 f \n`)
  for (let n = 1; n <= 4; n++) push(`${String(offsets[n]).padStart(10, "0")} 00000 n \n`)
  push(`trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`)
  return Buffer.concat(parts)
}

export const bombPages = async (): Promise<Map<string, Page>> => {
  const fill = Buffer.alloc(MiB, 0x20)
  fill.write("<html><body><p>")
  const quality = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }
  const [gzip, deflate, br, pdf] = await Promise.all([
    compress(zlib.createGzip(), fill, bombBytes),
    compress(zlib.createDeflate(), fill, bombBytes),
    compress(zlib.createBrotliCompress(quality), fill, bombBytes),
    pdfBomb()
  ])
  return new Map([
    ["/bomb-gzip", { type: "text/html", body: gzip, encoding: "gzip" }],
    ["/bomb-deflate", { type: "text/html", body: deflate, encoding: "deflate" }],
    ["/bomb-br", { type: "text/html", body: br, encoding: "br" }],
    ["/bomb-pdf", { type: "application/pdf", body: pdf }]
  ])
}

/** The hostile paths, in the order the hostile clients go through them. */
export const hostilePaths = [
  "/spaces",
  "/pre-spaces",
  "/text-spaces",
  "/space-lines",
  "/nested-tables",
  "/nested-lists",
  "/nested-divs",
  "/huge-attribute",
  "/deep-json",
  "/bomb-gzip",
  "/bomb-deflate",
  "/bomb-br",
  "/bomb-pdf"
]
