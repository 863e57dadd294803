/**
 * Builds small valid PDFs by hand: one Helvetica text object per page, a correct cross-reference table and
 * an Info dictionary, so PDF extraction is tested without shipping a binary fixture.
 */
const escape = (text: string) => text.replace(/([\\()])/g, "\\$1")

export const makePdf = (
  pages: ReadonlyArray<ReadonlyArray<string>>,
  info?: { readonly title?: string; readonly author?: string; readonly created?: string }
): Uint8Array => {
  const objects: Array<string> = []
  const pageIds = pages.map((_, i) => 4 + i * 2)
  const infoId = 4 + pages.length * 2
  objects.push("<< /Type /Catalog /Pages 2 0 R >>")
  objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`)
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
  pages.forEach((lines, i) => {
    const content = "BT /F1 12 Tf 14 TL 72 720 Td " + lines.map((line) => `(${escape(line)}) Tj T*`).join(" ") + " ET"
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageIds[i] + 1} 0 R ` +
        "/Resources << /Font << /F1 3 0 R >> >> >>"
    )
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`)
  })
  const fields = [
    info?.title === undefined ? "" : `/Title (${escape(info.title)})`,
    info?.author === undefined ? "" : `/Author (${escape(info.author)})`,
    info?.created === undefined ? "" : `/CreationDate (${info.created})`
  ].join(" ")
  objects.push(`<< ${fields} >>`)
  let out = "%PDF-1.4\n"
  const offsets: Array<number> = []
  objects.forEach((object, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${object}\nendobj\n`
  })
  const xref = out.length
  out +=
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("") +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${infoId} 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new TextEncoder().encode(out)
}
