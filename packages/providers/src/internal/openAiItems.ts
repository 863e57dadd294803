/**
 * The output items of one streamed OpenAI Responses run, as they arrive: message items (their text parts, streamed
 * or final, and the URLs they cite) and `web_search_call` items (their queries, sources and whether they completed),
 * each kept at its place in the output so the report keeps the model's order. `openAiResponses` feeds it events;
 * `assemble` reads the run's report, queries and URLs out of it.
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AnswerFields from "./answerFields.js"

const UrlCitation = Schema.Struct({
  type: Schema.Literal("url_citation"),
  url: Schema.String,
  title: AnswerFields.OptionalText
})

const OutputText = Schema.Struct({
  type: Schema.Literal("output_text"),
  text: Schema.String,
  annotations: Schema.optional(Schema.Array(Schema.Unknown))
})

const MessageItem = Schema.Struct({
  type: Schema.Literal("message"),
  id: Schema.String,
  content: Schema.Array(Schema.Unknown)
})

const SearchAction = Schema.Struct({
  type: Schema.optional(Schema.String),
  query: AnswerFields.OptionalText,
  queries: Schema.optional(Schema.NullOr(Schema.Array(Schema.Unknown))),
  sources: Schema.optional(Schema.NullOr(Schema.Array(Schema.Unknown))),
  url: AnswerFields.OptionalText
})

const SearchCallItem = Schema.Struct({
  type: Schema.Literal("web_search_call"),
  id: Schema.String,
  status: Schema.optional(Schema.String),
  action: Schema.optional(Schema.NullOr(Schema.Unknown))
})

const UrlSource = Schema.Struct({ url: Schema.String, title: AnswerFields.OptionalText })

const decodeOption =
  <A, I>(schema: Schema.Schema<A, I>) =>
  (u: unknown): Option.Option<A> =>
    Schema.decodeUnknownOption(schema)(u)

const asUrlCitation = decodeOption(UrlCitation)
const asOutputText = decodeOption(OutputText)
const asMessage = decodeOption(MessageItem)
const asSearchCall = decodeOption(SearchCallItem)
const asSearchAction = decodeOption(SearchAction)
const asUrlSource = decodeOption(UrlSource)

/** A URL the run cited (with the title the model gave it) or consulted (title unknown). */
export interface FoundUrl {
  readonly url: string
  readonly title: string | undefined
}

export interface Part {
  deltas: Array<string>
  deltaChars: number
  doneText: string | undefined
  citations: Array<FoundUrl>
}

export interface Message {
  readonly order: number
  readonly parts: Map<number, Part>
  /** The item as the stream finally delivered it (`output_item.done`), when it did. */
  final: { readonly texts: ReadonlyArray<string>; readonly citations: ReadonlyArray<FoundUrl> } | undefined
}

export interface SearchCall {
  readonly order: number
  completed: boolean
  queries: ReadonlyArray<string>
  sources: ReadonlyArray<FoundUrl>
}

/** What the items amount to, once the run is over. */
export interface Assembled {
  /** The message items' text, in output order, joined by blank lines. */
  readonly report: string
  /** Queries the search calls ran, in order, as sent (not yet deduplicated or capped). */
  readonly queries: ReadonlyArray<string>
  /** Cited URLs first (in report order), then the search calls' sources; raw, not yet filtered. */
  readonly cited: ReadonlyArray<FoundUrl>
  readonly consulted: ReadonlyArray<FoundUrl>
  /** Search calls that completed (the hosted tool ran and returned). */
  readonly completedSearchCalls: number
}

/** The items of one run. */
export const make = () => {
  const messages = new Map<string, Message>()
  const searches = new Map<string, SearchCall>()
  let nextOrder = 0

  const orderOf = (outputIndex: number | undefined): number => outputIndex ?? 1_000_000 + nextOrder++

  const message = (id: string, outputIndex?: number): Message => {
    let found = messages.get(id)
    if (found === undefined) {
      found = { order: orderOf(outputIndex), parts: new Map(), final: undefined }
      messages.set(id, found)
    }
    return found
  }

  const part = (id: string, index: number): Part => {
    const m = message(id)
    let found = m.parts.get(index)
    if (found === undefined) {
      found = { deltas: [], deltaChars: 0, doneText: undefined, citations: [] }
      m.parts.set(index, found)
    }
    return found
  }

  const search = (id: string, outputIndex?: number): SearchCall => {
    let found = searches.get(id)
    if (found === undefined) {
      found = { order: orderOf(outputIndex), completed: false, queries: [], sources: [] }
      searches.set(id, found)
    }
    return found
  }

  const citationsOf = (annotations: ReadonlyArray<unknown> | undefined): Array<FoundUrl> => {
    const out: Array<FoundUrl> = []
    for (const annotation of annotations ?? []) {
      const citation = asUrlCitation(annotation)
      if (Option.isSome(citation)) out.push({ url: citation.value.url, title: citation.value.title ?? undefined })
    }
    return out
  }

  /** Takes a finished output item (from `output_item.done`, or the final response's `output` as a fallback). */
  const absorbItem = (item: unknown, outputIndex: number | undefined, overwrite: boolean): void => {
    const asMsg = asMessage(item)
    if (Option.isSome(asMsg)) {
      const m = message(asMsg.value.id, outputIndex)
      if (m.final !== undefined && !overwrite) return
      const texts: Array<string> = []
      const citations: Array<FoundUrl> = []
      for (const content of asMsg.value.content) {
        const text = asOutputText(content)
        if (Option.isNone(text)) continue
        texts.push(text.value.text)
        citations.push(...citationsOf(text.value.annotations))
      }
      m.final = { texts, citations }
      return
    }
    const asCall = asSearchCall(item)
    if (Option.isNone(asCall)) return
    const call = search(asCall.value.id, outputIndex)
    if (asCall.value.status === "completed") call.completed = true
    const action = asSearchAction(asCall.value.action)
    if (Option.isNone(action)) return
    const queries: Array<string> = []
    if (typeof action.value.query === "string") queries.push(action.value.query)
    for (const q of action.value.queries ?? []) if (typeof q === "string") queries.push(q)
    const sources: Array<FoundUrl> = []
    for (const source of action.value.sources ?? []) {
      const s = asUrlSource(source)
      if (Option.isSome(s)) sources.push({ url: s.value.url, title: s.value.title ?? undefined })
    }
    if (queries.length > 0 || overwrite) call.queries = queries
    if (sources.length > 0 || overwrite) call.sources = sources
  }

  const assemble = (): Assembled => {
    const byOrder = <A extends { readonly order: number }>(map: Map<string, A>) =>
      Array.from(map.values()).sort((a, b) => a.order - b.order)
    const texts: Array<string> = []
    const cited: Array<FoundUrl> = []
    for (const m of byOrder(messages)) {
      const streamed = Array.from(m.parts.entries()).sort(([a], [b]) => a - b)
      if (m.final !== undefined) {
        texts.push(...m.final.texts)
        cited.push(...m.final.citations)
        for (const [, p] of streamed) cited.push(...p.citations)
      } else {
        for (const [, p] of streamed) {
          texts.push(p.doneText ?? p.deltas.join(""))
          cited.push(...p.citations)
        }
      }
    }
    const calls = byOrder(searches)
    return {
      report: texts
        .map((t) => t.trim())
        .filter((t) => t.length > 0)
        .join("\n\n"),
      queries: calls.flatMap((c) => c.queries),
      cited,
      consulted: calls.flatMap((c) => c.sources),
      completedSearchCalls: calls.filter((c) => c.completed).length
    }
  }

  return { message, part, search, citationsOf, absorbItem, assemble }
}
