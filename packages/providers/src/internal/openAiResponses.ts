/**
 * Folds the events of one streamed OpenAI Responses run (`POST /v1/responses`, `stream: true`) into what the
 * research provider needs: the report text, the queries the hosted `web_search` tool ran, the URLs it cited and
 * consulted, how many search calls completed, the final usage, and how the run ended.
 *
 * The report comes from the message items' `output_text` parts: when streaming, the top-level `output_text`
 * convenience field of the final response is empty, and the final `response.output` may be elided, so the item
 * events are the authority (a part's final text, else its `output_text.done` text, else its deltas). Every
 * element inside an item (a content part, an annotation, a source) is decoded on its own and skipped when it does
 * not match: one odd element must not cost the whole answer. An event that is not JSON, or a known event without
 * the fields it must carry, is a decode failure.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { SseEvent } from "./eventStream.js"
import * as Excerpt from "./excerpt.js"
import * as AnswerFields from "./answerFields.js"

const parseJson = Schema.decodeUnknownEither(Schema.parseJson())

// --- wire schemas ------------------------------------------------------------------------------------------

const Count = Schema.Int.pipe(Schema.nonNegative())

const Usage = Schema.Struct({
  input_tokens: Count,
  output_tokens: Count,
  input_tokens_details: Schema.optional(Schema.NullOr(Schema.Struct({ cached_tokens: Schema.optional(Count) }))),
  output_tokens_details: Schema.optional(Schema.NullOr(Schema.Struct({ reasoning_tokens: Schema.optional(Count) })))
})

const ErrorBody = Schema.Struct({
  code: AnswerFields.OptionalText,
  message: AnswerFields.OptionalText
})

const FinalResponse = Schema.Struct({
  id: Schema.optional(Schema.String),
  status: Schema.optional(Schema.String),
  usage: Schema.optional(Schema.NullOr(Usage)),
  error: Schema.optional(Schema.NullOr(ErrorBody)),
  incomplete_details: Schema.optional(Schema.NullOr(Schema.Struct({ reason: Schema.optional(Schema.String) }))),
  output: Schema.optional(Schema.Array(Schema.Unknown))
})

const Base = Schema.Struct({ type: Schema.String })

const ItemEvent = Schema.Struct({
  output_index: Schema.optional(Count),
  item: Schema.Struct({ type: Schema.String, id: Schema.optional(Schema.String) })
})

const TextDelta = Schema.Struct({ item_id: Schema.String, content_index: Count, delta: Schema.String })
const TextDone = Schema.Struct({ item_id: Schema.String, content_index: Count, text: Schema.String })
const AnnotationAdded = Schema.Struct({
  item_id: Schema.String,
  content_index: Schema.optional(Count),
  annotation: Schema.Unknown
})
const SearchCompleted = Schema.Struct({ item_id: Schema.String, output_index: Schema.optional(Count) })
const Terminal = Schema.Struct({ response: FinalResponse })
const ErrorEvent = Schema.Struct({
  code: AnswerFields.OptionalText,
  message: AnswerFields.OptionalText
})

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

// --- state -------------------------------------------------------------------------------------------------

/** A URL the run cited (with the title the model gave it) or consulted (title unknown). */
export interface FoundUrl {
  readonly url: string
  readonly title: string | undefined
}

/** The final usage the provider reported. */
export interface Usage {
  readonly inputTokens: number
  readonly cachedInputTokens: number
  readonly outputTokens: number
  readonly reasoningTokens: number | undefined
}

/** How the run ended, once it has. */
export type Ending =
  | { readonly _tag: "Completed" }
  | { readonly _tag: "Incomplete"; readonly reason: string | undefined }
  | { readonly _tag: "Failed"; readonly code: string | undefined; readonly message: string | undefined }

/** What the whole stream amounted to. */
export interface Run {
  readonly ending: Ending | undefined
  readonly responseId: string | undefined
  readonly usage: Usage | undefined
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

interface Part {
  deltas: Array<string>
  deltaChars: number
  doneText: string | undefined
  citations: Array<FoundUrl>
}

interface Message {
  readonly order: number
  readonly parts: Map<number, Part>
  /** The item as the stream finally delivered it (`output_item.done`), when it did. */
  final: { readonly texts: ReadonlyArray<string>; readonly citations: ReadonlyArray<FoundUrl> } | undefined
}

interface SearchCall {
  readonly order: number
  completed: boolean
  queries: ReadonlyArray<string>
  sources: ReadonlyArray<FoundUrl>
}

/** A problem with one event that makes the stream undecodable. */
export interface DecodeProblem {
  readonly message: string
}

/** The accumulator of one run. */
export interface Accumulator {
  /** Applies one event; returns the ending when this event ended the run. */
  readonly apply: (event: SseEvent) => Either.Either<Ending | undefined, DecodeProblem>
  readonly result: () => Run
}

/**
 * How many characters of streamed deltas one part may hold. The report is capped far below this; the bound only
 * keeps a runaway stream from growing memory without end.
 */
const maxDeltaChars = 1_000_000

const problem = (message: string): Either.Either<never, DecodeProblem> => Either.left({ message })

/** Builds the accumulator for one run. */
export const make = (): Accumulator => {
  const messages = new Map<string, Message>()
  const searches = new Map<string, SearchCall>()
  let ending: Ending | undefined = undefined
  let responseId: string | undefined = undefined
  let usage: Usage | undefined = undefined
  let events = 0
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

  const decode = <A, I>(schema: Schema.Schema<A, I>, json: unknown, type: string) =>
    Either.mapLeft(Schema.decodeUnknownEither(schema)(json), (error): DecodeProblem => ({
      message: `event ${events} (${type}) does not have the expected shape: ${Excerpt.excerpt(error.message, [])}`
    }))

  const finish = (response: typeof FinalResponse.Type, end: Ending): Ending => {
    responseId = response.id ?? responseId
    if (response.usage !== undefined && response.usage !== null) {
      const u = response.usage
      usage = {
        inputTokens: u.input_tokens,
        cachedInputTokens: u.input_tokens_details?.cached_tokens ?? 0,
        outputTokens: u.output_tokens,
        reasoningTokens: u.output_tokens_details?.reasoning_tokens ?? undefined
      }
    }
    // The final response repeats every item; items the stream already finished keep what the stream said.
    response.output?.forEach((item, index) => absorbItem(item, index, false))
    ending = end
    return end
  }

  const apply: Accumulator["apply"] = (event) => {
    events++
    if (ending !== undefined) return Either.right(undefined)
    const data = event.data.trim()
    if (data === "[DONE]") return Either.right(undefined)
    const parsed = parseJson(data)
    if (Either.isLeft(parsed)) return problem(`event ${events} (${preview(event.event)}) is not JSON: ${preview(data)}`)
    const json = parsed.right
    const base = Schema.decodeUnknownEither(Base)(json)
    if (Either.isLeft(base)) return problem(`event ${events} (${preview(event.event)}) has no "type": ${preview(data)}`)
    const type = base.right.type
    switch (type) {
      case "response.created":
      case "response.in_progress":
        return Either.right(undefined)
      case "response.output_item.added":
      case "response.output_item.done": {
        const e = decode(ItemEvent, json, type)
        if (Either.isLeft(e)) return Either.left(e.left)
        const item = (json as { item: unknown }).item
        if (type === "response.output_item.done") absorbItem(item, e.right.output_index, true)
        else if (e.right.item.id !== undefined) {
          // Register the item at its place in the output so the report keeps the model's order.
          if (e.right.item.type === "message") message(e.right.item.id, e.right.output_index)
          else if (e.right.item.type === "web_search_call") search(e.right.item.id, e.right.output_index)
        }
        return Either.right(undefined)
      }
      case "response.output_text.delta": {
        const e = decode(TextDelta, json, type)
        if (Either.isLeft(e)) return Either.left(e.left)
        const p = part(e.right.item_id, e.right.content_index)
        if (p.deltaChars < maxDeltaChars) {
          p.deltas.push(e.right.delta)
          p.deltaChars += e.right.delta.length
        }
        return Either.right(undefined)
      }
      case "response.output_text.done": {
        const e = decode(TextDone, json, type)
        if (Either.isLeft(e)) return Either.left(e.left)
        part(e.right.item_id, e.right.content_index).doneText = e.right.text
        return Either.right(undefined)
      }
      case "response.output_text.annotation.added": {
        const e = decode(AnnotationAdded, json, type)
        if (Either.isLeft(e)) return Either.left(e.left)
        part(e.right.item_id, e.right.content_index ?? 0).citations.push(...citationsOf([e.right.annotation]))
        return Either.right(undefined)
      }
      case "response.web_search_call.completed": {
        const e = decode(SearchCompleted, json, type)
        if (Either.isLeft(e)) return Either.left(e.left)
        search(e.right.item_id, e.right.output_index).completed = true
        return Either.right(undefined)
      }
      case "response.completed":
      case "response.incomplete":
      case "response.failed": {
        const e = decode(Terminal, json, type)
        if (Either.isLeft(e)) return Either.left(e.left)
        const response = e.right.response
        const end: Ending =
          type === "response.completed"
            ? { _tag: "Completed" }
            : type === "response.incomplete"
              ? { _tag: "Incomplete", reason: response.incomplete_details?.reason }
              : {
                  _tag: "Failed",
                  code: response.error?.code ?? undefined,
                  message: response.error?.message ?? undefined
                }
        return Either.right(finish(response, end))
      }
      case "error": {
        const e = decode(ErrorEvent, json, type)
        if (Either.isLeft(e)) return Either.left(e.left)
        ending = { _tag: "Failed", code: e.right.code ?? undefined, message: e.right.message ?? undefined }
        return Either.right(ending)
      }
      default:
        // Reasoning summaries, search progress, content_part bookkeeping, future event types: not evidence.
        return Either.right(undefined)
    }
  }

  const result = (): Run => {
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
      ending,
      responseId,
      usage,
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

  return { apply, result }
}

// What the stream sent, as an error may quote it: short and control-free.
const preview = (s: string): string => Excerpt.excerpt(s, [])
