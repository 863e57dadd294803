/**
 * How `websearch` shows answers: human-readable text for a terminal, or exactly one JSON object for scripts.
 *
 * @since 0.1.0
 */
import type * as Progress from "@websearch/core/Progress"
import type * as ProviderChecks from "@websearch/core/ProviderChecks"
import * as WebSearchError from "@websearch/core/WebSearchError"
import type { ResearchResponse, WebSearchResponse } from "@websearch/core/WebSearchResponse"

// Terminal controls in remote text. C0 (but \n and \t) and DEL become their Unicode control pictures, so an ESC
// sequence shows as inert text ("␛]0;title␇") instead of acting; C1 controls (0x80-0x9f, among them the 8-bit
// CSI and OSC) become U+FFFD; bidi overrides, embeddings, isolates and marks are removed, so text shows in its
// logical order. One character class, so the cost is linear in the text.
const terminalControls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

const neutralise = (c: string): string => {
  const code = c.charCodeAt(0)
  if (code < 0x20) return String.fromCharCode(0x2400 + code)
  if (code === 0x7f) return "\u2421"
  return code <= 0x9f ? "\ufffd" : ""
}

/**
 * Text made safe for a terminal: nothing in it can move the cursor, clear the screen, set the window title, open
 * a hyperlink (OSC 8) or reorder what follows. Newlines and tabs stay; C0 controls and DEL are shown as control
 * pictures (ESC as ␛), C1 controls as U+FFFD, and bidi controls are removed. Every human output goes through it.
 *
 * @since 0.1.0
 * @category encoding
 */
export const terminalText = (text: string): string => text.replace(terminalControls, neutralise)

// JSON.stringify escapes C0 controls but leaves DEL, C1 (an 8-bit CSI in a terminal), bidi controls and the two
// JavaScript line separators raw; they can only occur inside JSON strings, so escaping them keeps the data.
const jsonRaw = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

const jsonEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`

const json = (value: unknown): string => JSON.stringify(value).replace(jsonRaw, jsonEscape)

/**
 * The JSON line printed on success. Every control and bidi character is `\u`-escaped, so the data is intact and
 * the line is inert in a terminal.
 *
 * @since 0.1.0
 * @category encoding
 */
export const jsonSuccess = (response: unknown): string => json({ ok: true, response })

/**
 * The JSON line printed on failure: the error (tag, reason, message, retryable, ...) and every input's failure.
 *
 * @since 0.1.0
 * @category encoding
 */
export const jsonFailure = (
  error: WebSearchError.WebSearchError | { readonly _tag: "UsageError"; readonly message: string }
): string => {
  if (error._tag === "UsageError") {
    return json({
      ok: false,
      error: { _tag: "UsageError", reason: "usage", message: error.message, retryable: false },
      failures: []
    })
  }
  const { failures, ...rest } = WebSearchError.toJson(error)
  return json({ ok: false, error: rest, failures: failures ?? [] })
}

const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/**
 * Human text for a search or fetch response: numbered titles, URLs and snippets (search) or content (fetch).
 *
 * @since 0.1.0
 * @category encoding
 */
export const response = (response: WebSearchResponse): string => {
  const lines: Array<string> = []
  response.results.forEach((result, index) => {
    // A title or URL with a line break in it would print lines that look like other results.
    lines.push(`[${index + 1}] ${oneLine(result.title, 300) || "(untitled)"}`, `    ${oneLine(result.url, 2000)}`)
    if (response.capability === "searchKeywords") {
      if (result.content.length > 0) lines.push(`    ${oneLine(result.content, 300)}`)
    } else {
      lines.push("", result.content, "")
    }
  })
  if (response.results.length === 0) lines.push(`no results from ${response.providerId}`)
  return terminalText(`${lines.join("\n")}\n`)
}

/**
 * One progress line for a finished input of a multi-input request (printed on stderr as inputs finish).
 *
 * @since 0.1.0
 * @category encoding
 */
export const progress = (event: Progress.InputFinished): string => {
  const step = `[${event.finished}/${event.total}]`
  if (event.outcome._tag === "Succeeded") {
    return terminalText(
      `${step} ${event.input}: ${event.outcome.results} result${event.outcome.results === 1 ? "" : "s"}\n`
    )
  }
  const e = event.outcome.error
  return terminalText(
    `${step} ! ${event.input}: ${e._tag}/${e.reason}${e.retryable ? " (retryable)" : ""}: ${e.message}\n`
  )
}

/**
 * Human text for a research report: the report, then the numbered sources.
 *
 * @since 0.1.0
 * @category encoding
 */
export const research = (response: ResearchResponse): string =>
  terminalText(
    [
      response.report,
      "",
      "Sources:",
      ...response.sources.map((s, i) => `[${i + 1}] ${oneLine(s.title, 300)} — ${oneLine(s.url, 2000)}`),
      ...(response.queries.length > 0
        ? ["", `Queries: ${response.queries.map((q) => oneLine(q, 300)).join(" | ")}`]
        : [])
    ].join("\n") + "\n"
  )

/**
 * Human text for an error (printed on stderr).
 *
 * @since 0.1.0
 * @category encoding
 */
export const error = (error: WebSearchError.WebSearchError): string => {
  const lines = [`error: ${error._tag}/${error.reason}${error.retryable ? " (retryable)" : ""}: ${error.message}`]
  if (error.retryAfter !== undefined) lines.push(`retry after ${error.retryAfter} s`)
  return terminalText(`${lines.join("\n")}\n`)
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
 * @category encoding
 */
export const providers = (rows: ReadonlyArray<ProviderRow>): string =>
  terminalText(
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
  )

/**
 * Human text for a provider check: one line per capability.
 *
 * @since 0.1.0
 * @category encoding
 */
export const check = (check: ProviderChecks.ProviderCheck): string =>
  terminalText(
    [
      `${check.providerId}: ${check.ok ? "ok" : "FAILED"}`,
      ...check.capabilities.map((c) =>
        c.ok
          ? `  ${c.capability}: ok, ${c.results} result(s) in ${c.durationMs} ms`
          : `  ${c.capability}: ${c.error?._tag}/${c.error?.reason}: ${c.error?.message}`
      )
    ].join("\n") + "\n"
  )
