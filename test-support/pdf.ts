/**
 * Builds a small valid PDF (one page per text, Helvetica, a correct cross-reference table), so tests serve a
 * real PDF without a binary fixture.
 */
export const build = (pages: ReadonlyArray<string>, title?: string): Uint8Array => {
  const objects: Array<string> = []
  const pageIds = pages.map((_, index) => 4 + index * 2)
  objects[1] = "<< /Type /Catalog /Pages 2 0 R >>"
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`
  objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
  pages.forEach((text, index) => {
    const pageId = pageIds[index]
    const escaped = text.replace(/[\\()]/g, (c) => `\\${c}`)
    const stream = `BT /F1 18 Tf 72 720 Td (${escaped}) Tj ET`
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageId + 1} 0 R ` +
      `/Resources << /Font << /F1 3 0 R >> >> >>`
    objects[pageId + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`
  })
  const infoId = objects.length
  objects[infoId] = title === undefined ? "<< >>" : `<< /Title (${title}) >>`
  let out = "%PDF-1.4\n"
  const offsets: Array<number> = []
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`
  }
  const xref = out.length
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, "0")} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info ${infoId} 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new TextEncoder().encode(out)
}
