/**
 * How `websearch` shows answers: human-readable text for a terminal, or exactly one JSON object for scripts.
 *
 * @since 0.1.0
 */
import type * as Progress from "@websearch/core/Progress"
import type * as ProviderChecks from "@websearch/core/ProviderChecks"
import * as WebSearchError from "@websearch/core/WebSearchError"
import type { ResearchResponse, WebSearchResponse } from "@websearch/core/WebSearchResponse"

/**
 * The JSON line printed on success.
 *
 * @since 0.1.0
 * @category json
 */
export const jsonSuccess = (response: unknown): string => JSON.stringify({ ok: true, response })

/**
 * The JSON line printed on failure: the error (tag, reason, message, retryable, ...) and every input's failure.
 *
 * @since 0.1.0
 * @category json
 */
export const jsonFailure = (
  error: WebSearchError.WebSearchError | { readonly _tag: "UsageError"; readonly message: string }
): string => {
  if (error._tag === "UsageError") {
    return JSON.stringify({
      ok: false,
      error: { _tag: "UsageError", reason: "usage", message: error.message, retryable: false },
      failures: []
    })
  }
  const { failures, ...rest } = WebSearchError.toJson(error)
  return JSON.stringify({ ok: false, error: rest, failures: failures ?? [] })
}

const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/**
 * Human text for a search or fetch response: numbered titles, URLs and snippets (search) or content (fetch).
 *
 * @since 0.1.0
 * @category human
 */
export const response = (response: WebSearchResponse): string => {
  const lines: Array<string> = []
  response.results.forEach((result, index) => {
    lines.push(`[${index + 1}] ${result.title || "(untitled)"}`, `    ${result.url}`)
    if (response.capability === "searchKeywords") {
      if (result.content.length > 0) lines.push(`    ${oneLine(result.content, 300)}`)
    } else {
      lines.push("", result.content, "")
    }
  })
  if (response.results.length === 0) lines.push(`no results from ${response.providerId}`)
  return `${lines.join("\n")}\n`
}

/**
 * One progress line for a finished input of a multi-input request (printed on stderr as inputs finish).
 *
 * @since 0.1.0
 * @category human
 */
export const progress = (event: Progress.InputFinished): string => {
  const step = `[${event.finished}/${event.total}]`
  if (event.outcome._tag === "Succeeded") {
    return `${step} ${event.input}: ${event.outcome.results} result${event.outcome.results === 1 ? "" : "s"}\n`
  }
  const e = event.outcome.error
  return `${step} ! ${event.input}: ${e._tag}/${e.reason}${e.retryable ? " (retryable)" : ""}: ${e.message}\n`
}

/**
 * Human text for a research report: the report, then the numbered sources.
 *
 * @since 0.1.0
 * @category human
 */
export const research = (response: ResearchResponse): string =>
  [
    response.report,
    "",
    "Sources:",
    ...response.sources.map((s, i) => `[${i + 1}] ${s.title} — ${s.url}`),
    ...(response.queries.length > 0 ? ["", `Queries: ${response.queries.join(" | ")}`] : [])
  ].join("\n") + "\n"

/**
 * Human text for an error (printed on stderr).
 *
 * @since 0.1.0
 * @category human
 */
export const error = (error: WebSearchError.WebSearchError): string => {
  const lines = [`error: ${error._tag}/${error.reason}${error.retryable ? " (retryable)" : ""}: ${error.message}`]
  if (error.retryAfter !== undefined) lines.push(`retry after ${error.retryAfter} s`)
  return `${lines.join("\n")}\n`
}

/**
 * A provider listing row, as `ProviderRegistry`'s `describe` gives it.
 *
 * @since 0.1.0
 * @category models
 */
export interface ProviderRow {
  readonly id: string
  readonly name: string
  readonly type: string
  readonly credentials: string
  readonly apiKeys: number
  readonly capabilities: ReadonlyArray<{ readonly feature: string; readonly apiHost: string | null }>
  readonly defaultFor: ReadonlyArray<string>
}

/**
 * Human text for the provider listing; never shows a key, only how many are configured.
 *
 * @since 0.1.0
 * @category human
 */
export const providers = (rows: ReadonlyArray<ProviderRow>): string =>
  rows
    .map((row) => {
      const keys =
        row.credentials === "none"
          ? "keyless"
          : `${row.apiKeys} key${row.apiKeys === 1 ? "" : "s"} (${row.credentials})`
      const head = `${row.id.padEnd(12)} ${row.name} — ${row.type}, ${keys}${
        row.defaultFor.length > 0 ? `, default for ${row.defaultFor.join(", ")}` : ""
      }`
      const caps = row.capabilities.map((c) => `  ${c.feature.padEnd(15)} ${c.apiHost ?? "(no endpoint configured)"}`)
      return [head, ...caps].join("\n")
    })
    .join("\n") + "\n"

/**
 * Human text for a provider check: one line per capability.
 *
 * @since 0.1.0
 * @category human
 */
export const check = (check: ProviderChecks.ProviderCheck): string =>
  [
    `${check.providerId}: ${check.ok ? "ok" : "FAILED"}`,
    ...check.capabilities.map((c) =>
      c.ok
        ? `  ${c.capability}: ok, ${c.results} result(s) in ${c.durationMs} ms`
        : `  ${c.capability}: ${c.error?._tag}/${c.error?.reason}: ${c.error?.message}`
    )
  ].join("\n") + "\n"
