/**
 * The one line that follows a page `web_fetch` served in part: where it was cut, of how many characters, and the
 * exact call that reads on; or that the page ended, or that the start asked for lies past the end. Built from the
 * paging fields of the result, so every cut (page size, content budget, hard cap) is visible with its numbers.
 */

const figure = (n: number): string => n.toLocaleString("en-US")

/** What a served page says about itself (`Paging`'s fields), the id it can be read on by, and the start asked. */
export interface Served {
  readonly id: string
  readonly content: string
  readonly totalLength?: number | undefined
  readonly nextStartIndex?: number | undefined
  readonly lengthBeforeCut?: number | undefined
  /** The `startIndex` the call asked for (a start past the end is served from the end, so it is not in the page). */
  readonly requestedStart?: number | undefined
}

/**
 * The line after content the content budget or the hard cap cut where nothing reads on (a search snippet, a ranked
 * page): where it was cut, of how many characters.
 */
export const cutNotice = (result: {
  readonly content: string
  readonly lengthBeforeCut?: number | undefined
}): string | undefined =>
  result.lengthBeforeCut === undefined
    ? undefined
    : `… [cut at ${figure(result.content.length)} of ${figure(result.lengthBeforeCut)} characters]`

/** Where the content of a served page starts in the whole page. */
export const startOf = (page: Served): number =>
  page.totalLength === undefined ? 0 : Math.max(0, (page.nextStartIndex ?? page.totalLength) - page.content.length)

/** The notice for a served page, or none when it is the whole page. */
export const notice = (page: Served): string | undefined => {
  const total = page.totalLength
  if (total === undefined) return cutNotice(page)
  const start = startOf(page)
  if (page.nextStartIndex !== undefined) {
    const next = page.nextStartIndex
    return `… [cut at ${figure(next)} of ${figure(total)} characters; to read on, call web_fetch with items: [{"url": "${page.id}", "startIndex": ${next}}]]`
  }
  if (page.content.length === 0 && start >= total) {
    const asked = page.requestedStart ?? start
    const last = total > 0 ? ` (the last startIndex that reads any is ${total - 1})` : ""
    return `[startIndex ${asked} is past the end: the page has ${figure(total)} characters${last}; there is nothing more to read]`
  }
  return `[end of the page: characters ${figure(start)} to ${figure(total)} of ${figure(total)}]`
}
