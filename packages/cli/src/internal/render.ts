/**
 * How `websearch` shows answers: human-readable text for a terminal, or exactly one JSON object for scripts.
 *
 * @since 0.1.0
 */
import type * as Progress from "@websearch/core/Progress"
import type * as ProviderChecks from "@websearch/core/ProviderChecks"
import * as WebSearchError from "@websearch/core/WebSearchError"
import type { ResearchResponse, WebSearchResponse } from "@websearch/core/WebSearchResponse"
import * as Layout from "./layout.js"
import * as Terminal from "./terminal.js"

/**
 * Text made safe for a terminal: nothing in it can move the cursor, clear the screen, set the window title, open
 * a hyperlink (OSC 8) or reorder what follows. Newlines and tabs stay; C0 controls and DEL are shown as control
 * pictures (ESC as ␛), C1 controls as U+FFFD, and bidi controls are removed. Every human output goes through it.
 *
 * @since 0.1.0
 * @category encoding
 */
export const terminalText = (text: string): string => Layout.terminalText(text)

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
 * A value as one JSON line (no newline), escaped as `jsonSuccess` escapes: for commands that print one object per
 * event (`crawl --json`).
 *
 * @since 0.2.0
 * @category encoding
 */
export const jsonLine = (value: unknown): string => json(value)

/**
 * The JSON line printed on failure: the error (tag, reason, message, retryable, ...) and every input's failure.
 *
 * @since 0.1.0
 * @category encoding
 */
export const jsonFailure = (
  error: WebSearchError.WebSearchError | { readonly _tag: "UsageError"; readonly message: string },
  /** What an interrupted search or fetch had already received (Ctrl-C), as a response. */
  partial?: unknown
): string => {
  if (error._tag === "UsageError") {
    return json({
      ok: false,
      error: { _tag: "UsageError", reason: "usage", message: error.message, retryable: false },
      failures: []
    })
  }
  const { failures, ...rest } = WebSearchError.toJson(error)
  return json({ ok: false, error: rest, failures: failures ?? [], ...(partial === undefined ? {} : { partial }) })
}

const oneLine = Layout.oneLine

/**
 * How a human answer is laid out: `text` or `markdown`, and the look of the stream it goes to (colour, width).
 *
 * @since 0.2.0
 * @category models
 */
export interface ResponseOptions {
  readonly format?: "text" | "markdown" | undefined
  readonly look?: Look | undefined
}

/**
 * The look of an output stream: coloured or not, and the width it wraps to (see `look`).
 *
 * @since 0.2.0
 * @category models
 */
export type Look = Terminal.Look

/**
 * The look of an output stream from its TTY state and the environment: colour only on a TTY and never with
 * `NO_COLOR` (`FORCE_COLOR` forces it off a TTY); the width is `COLUMNS`, else the terminal's, else no wrapping.
 *
 * @since 0.2.0
 * @category constructors
 */
export const look: (
  stream: { readonly isTTY?: boolean | undefined; readonly columns?: number | undefined },
  env: Readonly<Record<string, string | undefined>>
) => Look = Terminal.look

/**
 * Human text for a search or fetch response: results grouped per input (search), numbered across the groups, with
 * titles, URLs and snippets (search) or content (fetch), wrapped to the stream's width.
 *
 * @since 0.1.0
 * @category encoding
 */
export const response = (response: WebSearchResponse, options?: ResponseOptions): string =>
  Layout.response(response, options)

/**
 * The closing line of a request where some inputs failed ("2 of 6 failed: a (reason), b (reason)"); empty when none
 * failed.
 *
 * @since 0.2.0
 * @category encoding
 */
export const summary = (
  total: number,
  failures: ReadonlyArray<WebSearchError.InputFailure>,
  look: Look = { colour: false, width: undefined }
): string => Layout.summary(total, failures, look)

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
    `${step} ! ${event.input}: ${e._tag}/${e.reason}${e.retryable ? " (retryable)" : ""}: ${Layout.inCliWords(e.message)}\n`
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
 * Human text for an error (printed on stderr): one reason per line, each failed input on its own line, and a hint
 * that names the command-line flag that helps (`--allow-host`, `--provider`, `--render auto`).
 *
 * @since 0.1.0
 * @category encoding
 */
export const error = (
  error: WebSearchError.WebSearchError,
  options?: { readonly look?: Look | undefined; readonly rendered?: boolean | undefined }
): string => Layout.error(error, options)

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
