/**
 * Builds the values the `web_search`, `web_fetch` and `web_research` tools return (`ToolOutput`'s schemas) from
 * websearch's responses and the session's result ids: each title and URL on one line, each text fenced.
 */
import type { ResearchResponse, WebSearchResponse } from "@websearch/core/WebSearchResponse"
import type { FetchItem, ResearchOutput, SearchOutput } from "../ToolOutput.js"
import * as Failures from "./failures.js"
import * as Fence from "./fence.js"
import * as PageNotice from "./pageNotice.js"

/**
 * Builds `web_search`'s output from a response and the session ids of its results (same order).
 */
export const searchOutput = (
  response: WebSearchResponse,
  ids: ReadonlyArray<string>,
  read: (url: string) => boolean = () => false
): SearchOutput => {
  const failures = response.failures.map((f) => ({ query: f.input, ...Failures.failure(f) }))
  const steps = [
    response.results.length === 0
      ? "No results: try different or broader keywords, or answer from what you know and say the search found nothing."
      : `Cite sources by id, e.g. [${ids[0]}]. Snippets can be partial: to read a page, call web_fetch with its id (items: [{"url": "${ids[0]}"}]).`,
    ...(failures.length > 0
      ? [
          `${failures.length} of ${response.inputs.length} queries failed: use the results of the others; retry only retryable failures, at most once.`
        ]
      : []),
    Failures.untrustedNote
  ]
  return {
    providerId: response.providerId,
    queries: response.inputs,
    sources: response.results.map((r, i) => ({
      id: ids[i],
      title: Fence.oneLine(r.title, Fence.maxTitleLength),
      url: Fence.oneLine(r.url),
      content: Fence.untrusted(r.url, r.content),
      query: r.sourceInput,
      ...(read(r.url) ? { read: true } : {}),
      ...(r.lengthBeforeCut === undefined ? {} : { notice: PageNotice.cutNotice(r) })
    })),
    failures,
    nextSteps: steps.join(" ")
  }
}

/**
 * The guidance that ends `web_fetch`'s output, from its items: all read, some failed, or none read.
 */
export const fetchNextSteps = (items: ReadonlyArray<FetchItem>): string => {
  const succeeded = items.filter((i) => i.status === "success")
  const failed = items.filter((i) => i.status === "failed")
  const steps: Array<string> = []
  if (succeeded.length === 0) {
    steps.push(
      "No page could be read. Answer from the web_search titles and snippets you already have, say plainly that the pages were not read, and lower your confidence for prices, availability and other facts that change."
    )
  } else {
    steps.push(`Cite pages by id, e.g. [${succeeded[0].id}].`)
    if (failed.length > 0) {
      steps.push(
        `${failed.length} of ${items.length} items failed: answer with the pages that were read; do not retry an item whose failure is not retryable.`
      )
    }
    const continuing = succeeded.filter((i) => i.nextStartIndex !== undefined)
    if (continuing.length > 0) {
      steps.push(
        `${continuing.length} of ${succeeded.length} pages continue: read on only if you need more, with the startIndex its last line gives.`
      )
    }
  }
  steps.push(Failures.untrustedNote)
  return steps.join(" ")
}

/**
 * Builds `web_research`'s output from a response and the session ids of its sources (same order).
 */
export const researchOutput = (response: ResearchResponse, ids: ReadonlyArray<string>): ResearchOutput => ({
  providerId: response.providerId,
  query: response.query,
  report: Fence.untrusted(response.providerId, response.report),
  queries: response.queries,
  sources: response.sources.map((s, i) => ({
    id: ids[i],
    title: Fence.oneLine(s.title, Fence.maxTitleLength),
    url: Fence.oneLine(s.url)
  })),
  nextSteps: `The report was written by ${response.providerId} from web pages; verify key claims against its sources and cite them by id, e.g. [${ids[0]}]. ${Failures.untrustedNote}`
})
