/**
 * `web_fetch`'s handler: plans the items (`fetchPlan.ts`: ids resolved, URLs checked, duplicates skipped), serves parts this
 * session already read from its own store, fetches the rest in parts of the toolkit's `maxLength` (one
 * `fetchUrls` call per offset), numbers the pages, analyses those with a prompt when a model is there, and says
 * for each part where it was cut and how to read on.
 */
import type * as LanguageModel from "@effect/ai/LanguageModel"
import type { FetchUrls } from "@websearch/core/FetchUrls"
import * as Paging from "@websearch/core/internal/paging"
import { normalizeUrlForDedupe } from "@websearch/core/internal/postProcessing"
import * as WebSearchError from "@websearch/core/WebSearchError"
import type { WebSearchResponse, WebSearchResult } from "@websearch/core/WebSearchResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as PageAnalysis from "./pageAnalysis.js"
import type * as ResultIds from "./resultIds.js"
import type * as ToolOutput from "../ToolOutput.js"
import * as Failures from "./failures.js"
import * as Fence from "./fence.js"
import * as ToolOutputs from "./toolOutputs.js"
import * as FetchPlan from "./fetchPlan.js"
import * as PageNotice from "./pageNotice.js"
import type * as SessionPages from "./sessionPages.js"

/** The characters of each page one call returns unless the toolkit says otherwise. */
export const defaultMaxLength = 8000

/** `web_fetch`'s parameters, as decoded. */
export interface Params {
  readonly providerId?: string | undefined
  readonly items: ReadonlyArray<FetchPlan.Item>
}

/** What the handler needs from the toolkit session. */
export interface Deps {
  readonly fetch: FetchUrls.Service
  readonly ids: ResultIds.ResultIds
  /** Where the session keeps the parts it read and the URLs of the pages it read (bounded; see `sessionPages`). */
  readonly pages: SessionPages.PartStore
  readonly model: Option.Option<LanguageModel.Service>
  readonly options?:
    | {
        readonly analysis?: PageAnalysis.Options | undefined
        readonly analysisConcurrency?: number | undefined
        readonly maxLength?: number | undefined
      }
    | undefined
}

export const make = ({ fetch, ids, model, options, pages }: Deps) => {
  const maxLength = options?.maxLength ?? defaultMaxLength
  // The provider asked for is part of the key: a retry with another provider is a new read, not the old copy.
  const pageKey = (p: { readonly startIndex: number; readonly url: string }, providerId: string | undefined) =>
    JSON.stringify([providerId ?? null, p.startIndex, normalizeUrlForDedupe(p.url)])
  const keep = (key: string, page: WebSearchResult, urls: ReadonlyArray<string>) => {
    pages.set(key, page)
    for (const url of urls) pages.markRead(normalizeUrlForDedupe(url))
  }

  const analyse = (page: WebSearchResult, prompt: string) =>
    Option.match(model, {
      onNone: () => Effect.succeed(Either.left("no language model is configured for page analysis")),
      onSome: (m) =>
        PageAnalysis.analyze(
          m,
          { url: page.url, title: page.title, content: page.content, prompt },
          options?.analysis
        ).pipe(
          Effect.map(Either.right),
          Effect.catchAll((error) => Effect.succeed(Either.left(`${error._tag}: ${error.message}`)))
        )
    })

  const webFetch = Effect.fnUntraced(function* (params: Params) {
    const planned = yield* FetchPlan.plan(ids, params.items)
    const toFetch = planned.filter((p): p is FetchPlan.Fetch => p._tag === "Fetch")
    const refused = planned.flatMap((p) =>
      p._tag === "Failed" ? [WebSearchError.toInputFailure(p.input, p.error)] : []
    )
    if (toFetch.length === 0) {
      return yield* Effect.fail(
        WebSearchError.requestFailed(
          "invalid_input",
          `no item of web_fetch can be fetched: ${refused.map((f) => `"${f.input}": ${f.message}`).join("; ")}`,
          { capability: "fetchUrls" }
        )
      ).pipe(Effect.mapError((e) => WebSearchError.annotate(e, { failures: refused })))
    }
    // A part this session already read is served again from the session's store, without a fetch.
    const fromSession = new Map(
      toFetch.flatMap((p) => {
        const kept = pages.get(pageKey(p, params.providerId))
        return kept === undefined ? [] : [[p.item, kept] as const]
      })
    )
    const remote = toFetch.filter((p) => !fromSession.has(p.item))
    // One fetchUrls call per offset asked for (usually one, from 0), each for the toolkit's page size.
    const offsets = Array.from(new Set(remote.map((p) => p.startIndex)))
    const outcomes = yield* Effect.forEach(
      offsets,
      (startIndex) =>
        fetch
          .fetchUrls({
            urls: remote.filter((p) => p.startIndex === startIndex).map((p) => p.url),
            maxLength,
            ...(startIndex === 0 ? {} : { startIndex }),
            ...(params.providerId === undefined ? {} : { providerId: params.providerId })
          })
          .pipe(Effect.either),
      { concurrency: "unbounded" }
    )
    const errors = outcomes.flatMap((o) => (Either.isLeft(o) ? [o.left] : []))
    const aborted = errors.find((e) => e._tag === "Aborted")
    const responses = outcomes.flatMap((o) => (Either.isRight(o) ? [o.right] : []))
    if (aborted !== undefined || (responses.length === 0 && remote.length > 0)) {
      const error = aborted ?? errors[0]
      const failures = [...refused, ...errors.flatMap((e) => e.failures ?? [])]
      return yield* Effect.fail(
        failures.length === 0 || aborted !== undefined ? error : WebSearchError.annotate(error, { failures })
      )
    }
    const byOffset = new Map(offsets.map((startIndex, i) => [startIndex, outcomes[i]]))
    const outcomeOf = (
      p: FetchPlan.Fetch
    ): Either.Either<WebSearchResult, WebSearchError.InputFailure | WebSearchError.WebSearchError | undefined> => {
      const kept = fromSession.get(p.item)
      if (kept !== undefined) return Either.right(kept)
      const outcome = byOffset.get(p.startIndex) as Either.Either<WebSearchResponse, WebSearchError.WebSearchError>
      if (Either.isLeft(outcome)) {
        return Either.left(outcome.left.failures?.find((f) => f.input === p.url) ?? outcome.left)
      }
      const page = outcome.right.results.find((r) => r.sourceInput === p.url)
      return page === undefined
        ? Either.left(outcome.right.failures.find((f) => f.input === p.url))
        : Either.right(page)
    }
    const fetched = toFetch.flatMap((p) => {
      const outcome = outcomeOf(p)
      if (Either.isLeft(outcome)) return []
      keep(pageKey(p, params.providerId), outcome.right, [p.url, outcome.right.url])
      return [outcome.right]
    })
    const pageIds = new Map(
      Array.from((yield* ids.assign(fetched.map((page) => page.url))).entries(), ([i, id]) => [fetched[i], id])
    )
    const items = yield* Effect.forEach(
      planned,
      (p): Effect.Effect<ToolOutput.FetchItem> => {
        const base = { item: p.item, input: p.input }
        switch (p._tag) {
          case "Failed":
            return Effect.succeed({ ...base, status: "failed", failure: Failures.failure(p.error) })
          case "Skipped":
            return Effect.succeed({ ...base, status: "skipped", url: p.url, skipped: p.note })
          case "Fetch": {
            const outcome = outcomeOf(p)
            if (Either.isLeft(outcome)) {
              const failed = outcome.left
              return Effect.succeed(
                failed === undefined
                  ? {
                      ...base,
                      status: "skipped",
                      url: p.url,
                      skipped: "the page was read but dropped by the blacklist or as a duplicate of another item's page"
                    }
                  : { ...base, status: "failed", url: p.url, failure: Failures.failure(failed) }
              )
            }
            const page = outcome.right
            const id = pageIds.get(page) ?? ""
            const notice = PageNotice.notice({ ...page, id, requestedStart: p.startIndex })
            const success = {
              ...base,
              status: "success" as const,
              id,
              // Title and URL stand outside the fence in the rendered text.
              title: Fence.oneLine(page.title, Fence.maxTitleLength),
              url: Fence.oneLine(page.url),
              ...(page.pageType === undefined ? {} : { pageType: page.pageType }),
              ...(p.prompt === undefined ? {} : { prompt: p.prompt }),
              ...(page.totalLength === undefined ? {} : { totalLength: page.totalLength }),
              ...(page.nextStartIndex === undefined ? {} : { nextStartIndex: page.nextStartIndex }),
              ...(notice === undefined ? {} : { notice }),
              ...(fromSession.has(p.item) ? { alreadyRead: true } : {})
            }
            if (p.prompt === undefined || Option.isNone(model)) {
              return Effect.succeed({ ...success, content: Fence.untrusted(page.url, page.content) })
            }
            return Effect.map(analyse(page, p.prompt), (analysis) =>
              Either.isRight(analysis)
                ? {
                    ...success,
                    content: Fence.untrusted(page.url, analysis.right.answer),
                    analysis: { usage: analysis.right.usage }
                  }
                : {
                    ...success,
                    content: Fence.untrusted(page.url, page.content),
                    analysisError: Fence.oneLine(analysis.left)
                  }
            )
          }
        }
      },
      { concurrency: options?.analysisConcurrency ?? 4 }
    )
    const usage = items.reduce<ToolOutput.Usage>(
      (acc, item) => (item.analysis === undefined ? acc : PageAnalysis.addUsage(acc, item.analysis.usage)),
      {}
    )
    return {
      ...(responses.length === 0 ? {} : { providerId: responses[0].providerId }),
      items,
      usage,
      nextSteps: ToolOutputs.fetchNextSteps(items)
    } satisfies ToolOutput.FetchOutput
  })

  /**
   * Keeps a page read elsewhere (a crawl, from its start) as the parts `web_fetch` would serve of it: the first part
   * always, the next ones while they fit in `budget` characters. A call for one of them (with no providerId) is then
   * served without a fetch; a part past what was kept, or past what the crawl read of the page, is fetched like any
   * other.
   */
  const keepParts = (page: WebSearchResult, budget: number): void => {
    const total = page.totalLength ?? page.content.length
    const { nextStartIndex: _next, totalLength: _total, ...rest } = page
    let start = 0
    let kept = 0
    while (start < page.content.length) {
      const served = Paging.page(page.content, { startIndex: start, maxLength })
      // The first part is always kept: it is what a read by id asks for first.
      if (served.end <= served.start || (kept > 0 && kept + served.content.length > budget)) break
      const whole = served.start === 0 && served.end === total
      keep(
        pageKey({ startIndex: served.start, url: page.url }, undefined),
        {
          ...rest,
          content: served.content,
          ...(whole ? {} : { totalLength: total }),
          ...(served.end < total ? { nextStartIndex: served.end } : {})
        },
        [page.url, page.sourceInput]
      )
      kept += served.content.length
      start = served.end
    }
  }

  return {
    webFetch,
    keepParts,
    maxLength,
    wasRead: (url: string): boolean => pages.wasRead(normalizeUrlForDedupe(url))
  }
}
