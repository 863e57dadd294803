/**
 * The content of a JavaScript shell read from the state its HTML carries: Next.js (`__NEXT_DATA__`, and the React
 * server component payload of `self.__next_f.push(...)`), Nuxt (`__NUXT_DATA__`, `window.__NUXT__`), stores
 * serialised as `window.__SOMETHING__ = {...}` (`__INITIAL_STATE__`, `__PRELOADED_STATE__`, `__APOLLO_STATE__`),
 * and JSON-LD (`articleBody`, `text`, `description`). Read only when the page's HTML shows (nearly) nothing: the
 * human text of the state (long strings of words, in the order the state holds them; HTML strings rendered as
 * markdown) is the page's text. Bounded: at most {@link maxStateChars} characters of state are parsed and
 * {@link maxValues} values visited; every scan of the source goes forward.
 */
import * as Markdown from "../Markdown.js"
import * as HtmlDocument from "./htmlDocument.js"
import type * as StructuredData from "./structuredData.js"

type Json = StructuredData.Json

/** At most this many characters of state are parsed per page ... */
export const maxStateChars = 8_000_000
/** ... at most this many JSON values visited ... */
export const maxValues = 200_000
/** ... and at most this many characters of text kept. */
export const maxTextChars = 1_000_000

/** `window.__NAME__ = ` (or `self.`, `globalThis.`) at the start of a script. */
const assignment = /^\s*(?:window|self|globalThis)\s*\.\s*(__[A-Za-z0-9_]{1,40}__)\s*=\s*/
/** `self.__next_f.push(` at the start of a script: a chunk of the React server component payload. */
const flightPush =
  /^\s*\(?\s*self\.__next_f\s*=\s*self\.__next_f\s*\|\|\s*\[\]\s*\)?\s*\.push\(|^\s*self\.__next_f\.push\(/

interface Script {
  /** The open tag (its first 300 characters). */
  readonly open: string
  /** The script's first 200 characters, and the whole of it (sliced when asked). */
  readonly head: string
  readonly body: () => string
  readonly length: number
}

/** The scripts of an HTML source, in order: one forward scan. */
function* scripts(source: string): Generator<Script> {
  let at = 0
  for (;;) {
    const start = source.indexOf("<script", at)
    if (start < 0) return
    const openEnd = source.indexOf(">", start)
    if (openEnd < 0) return
    const close = source.indexOf("</script", openEnd)
    if (close < 0) return
    at = close + 8
    const length = close - openEnd - 1
    if (length <= 0) continue
    yield {
      open: source.slice(start, Math.min(openEnd + 1, start + 300)),
      head: source.slice(openEnd + 1, Math.min(close, openEnd + 201)),
      body: () => source.slice(openEnd + 1, close),
      length
    }
  }
}

const parse = (text: string): Json | undefined => {
  try {
    return JSON.parse(text) as Json
  } catch {
    return undefined
  }
}

/** The JSON of a `window.__NAME__ = {...};` script, when its value is JSON. */
const assigned = (script: Script): Json | undefined => {
  const match = assignment.exec(script.head)
  if (match === null) return undefined
  let value = script.body().slice(match[0].length).trimEnd()
  if (value.endsWith(";")) value = value.slice(0, -1)
  return parse(value)
}

/** Whether a script is a chunk of a flight payload (`self.__next_f.push([1,"…"])`). */
const isFlight = (script: Script): boolean => flightPush.test(script.head)

/** The text of a flight chunk: `self.__next_f.push([1,"…"])`'s string. */
const flightChunk = (script: Script): string | undefined => {
  const body = script.body()
  const match = flightPush.exec(body.slice(0, 200))
  if (match === null) return undefined
  const rest = body.slice(match[0].length).trimEnd()
  const end = rest.lastIndexOf("])")
  if (end < 0) return undefined
  const value = parse(rest.slice(0, end + 1))
  return Array.isArray(value) && value[0] === 1 && typeof value[1] === "string" ? value[1] : undefined
}

/** The state values of a page, in order (JSON-LD included). */
const stateOf = (source: string): Array<Json> => {
  const out: Array<Json> = []
  let flight = ""
  // Only state counts against the budget: other scripts are passed over after a look at their first characters.
  let budget = maxStateChars
  for (const script of scripts(source)) {
    const id = /\bid\s*=\s*["']?([\w-]+)/i.exec(script.open)?.[1]
    const type = /\btype\s*=\s*["']?([\w/+.-]+)/i.exec(script.open)?.[1]?.toLowerCase()
    const json = id === "__NEXT_DATA__" || id === "__NUXT_DATA__" || type === "application/ld+json"
    const code =
      type === undefined || type === "text/javascript" || type === "module" || type === "application/javascript"
    const flightScript = !json && code && isFlight(script)
    if (!json && !flightScript && !(code && assignment.test(script.head))) continue
    if (script.length > budget) break
    budget -= script.length
    if (json) {
      const value = parse(script.body().replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, ""))
      if (value !== undefined) out.push(value)
    } else if (flightScript) {
      flight += flightChunk(script) ?? ""
    } else {
      const value = assigned(script)
      if (value !== undefined) out.push(value)
    }
  }
  if (flight !== "") out.push(...flightRows(flight))
  return out
}

/**
 * The rows of a flight payload (`id:JSON` per line, or `id:T<hex length>,<text>`): the JSON values, and text rows
 * as strings.
 */
const flightRows = (flight: string): Array<Json> => {
  const out: Array<Json> = []
  let at = 0
  while (at < flight.length) {
    const colon = flight.indexOf(":", at)
    if (colon < 0 || colon - at > 8) break
    const text = /^T([0-9a-f]{1,8}),/.exec(flight.slice(colon + 1, colon + 12))
    if (text !== null) {
      // A text row is as long as its header says, in UTF-8 bytes: at most that many characters.
      const start = colon + 1 + text[0].length
      const end = Math.min(flight.length, start + Number.parseInt(text[1], 16))
      out.push(flight.slice(start, end))
      at = end
      continue
    }
    const newline = flight.indexOf("\n", colon)
    const line = flight.slice(colon + 1, newline < 0 ? flight.length : newline)
    const value = line.startsWith("[") || line.startsWith("{") ? parse(line) : undefined
    if (value !== undefined) out.push(value)
    at = newline < 0 ? flight.length : newline + 1
  }
  return out
}

/**
 * Keys of interface text rather than the page's: a locale's strings (`"en-AU": {...}`, `"de": {...}`) and message
 * dictionaries (`i18n`, `translations`, `messages`), which hold every banner and dialog in every language.
 */
const isDictionary = (key: string): boolean =>
  /^[a-z]{2}(?:[-_][A-Za-z]{2,4})?$/.test(key) || /i18n|translation|locale|^messages$|^strings$|dictionar/i.test(key)

/** Keys whose short strings are a title worth a heading. */
const titleKeys = new Set(["title", "headline", "heading", "name"])

const words = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu

/** Whether a string reads as text for people: sentences of words, not a class list, a path or an identifier. */
export const isProse = (s: string): boolean => {
  if (s.length < 40 || /^(?:https?:|\/|\$|data:)/.test(s) || /[{}<>]|=>|\\u/.test(s.slice(0, 400))) return false
  const sample = s.slice(0, 2000)
  const tokens = sample.split(/\s+/).filter((t) => t !== "")
  if (tokens.length < 6) return false
  const technical = tokens.filter((t) => /[-_:/=]/.test(t) && !/^[\p{L}]+[-’'][\p{L}]+[.,;!?]?$/u.test(t)).length
  if (technical > tokens.length * 0.3) return false
  const letters = (sample.match(words) ?? []).join("").length
  return letters >= sample.replace(/\s+/g, "").length * 0.7 && (/[.!?,;:]/.test(sample) || tokens.length >= 12)
}

const isHtml = (s: string): boolean =>
  /<(?:p|div|h[1-6]|ul|ol|li|br|strong|em|a|table)\b[^>]{0,200}>/i.test(s.slice(0, 2000))

/** The human text of state values, in order, as markdown; `""` when there is none. */
export const textOf = (values: ReadonlyArray<Json>, baseUrl: string | undefined): string => {
  const parts: Array<string> = []
  const seen = new Set<string>()
  let size = 0
  let visited = 0
  const keep = (part: string) => {
    if (part === "" || seen.has(part) || size >= maxTextChars) return
    seen.add(part)
    parts.push(part)
    size += part.length
  }
  // Depth-first in the order the state holds its values; each entry is a value and the key it was found under.
  const stack: Array<readonly [Json, string]> = []
  for (let i = values.length - 1; i >= 0; i--) stack.push([values[i], ""])
  while (stack.length > 0 && visited++ < maxValues && size < maxTextChars) {
    const [value, key] = stack.pop()!
    if (typeof value === "string") {
      if (isHtml(value) && value.length >= 80) {
        const doc = HtmlDocument.parse(`<html><body>${value.slice(0, maxTextChars)}</body></html>`)
        const md = doc.body === null ? "" : Markdown.fromNode(doc.body, { baseUrl, dropChrome: true })
        if (/[\p{L}]{3}/u.test(md)) keep(md)
      } else if (isProse(value)) {
        keep(value.trim())
      } else if (titleKeys.has(key) && value.length <= 200 && value.trim().split(/\s+/).length >= 3) {
        keep(`## ${value.trim().replace(/\s+/g, " ")}`)
      }
      continue
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i] as Json, key])
      continue
    }
    if (value !== null && typeof value === "object") {
      const entries = Object.entries(value).filter(([k]) => !isDictionary(k))
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], entries[i][0]])
    }
  }
  // A title with nothing after it (the last part, or another title next) heads something the state does not hold.
  const title = (part: string | undefined) => part !== undefined && part.startsWith("## ") && !part.includes("\n")
  return parts.filter((part, i) => !title(part) || !(i + 1 === parts.length || title(parts[i + 1]))).join("\n\n")
}

/** The text of the page's embedded state, as markdown; `""` when it carries none. */
export const read = (source: string, baseUrl: string | undefined): string => textOf(stateOf(source), baseUrl)
