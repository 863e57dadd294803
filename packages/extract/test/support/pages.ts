/** Small hand-written pages' parts shared by the extraction tests. */

/** `n` paragraphs of prose (Readability takes them for an article), numbered from `from`. */
export const prose = (n: number, from = 0): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Paragraph ${from + i} tells of harbour cranes, river barges and the long night shift at the docks, ` +
      `with commas, clauses, the gulls that follow the boats home, and a full stop at the end of every sentence.</p>`
  ).join("")
