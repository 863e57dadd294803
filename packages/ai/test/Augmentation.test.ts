import * as LanguageModel from "@effect/ai/LanguageModel"
import * as Prompt from "@effect/ai/Prompt"
import { describe, expect, it } from "@effect/vitest"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Augmentation from "../src/Augmentation.js"
import { drivers, live, promptText, scriptedModel, text } from "./support/fixtures.js"

type Tables = Parameters<typeof drivers>[0]

const websearch = (tables: Tables = {}) => {
  const { drivers: list, recorded } = drivers(tables)
  return { recorded, layer: live(list) }
}

const encode = Schema.encodeSync(Prompt.Prompt)

const deepFreeze = <A>(value: A): A => {
  if (value !== null && typeof value === "object") {
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key])
    Object.freeze(value)
  }
  return value
}

const conversation: ReadonlyArray<Prompt.MessageEncoded> = [
  { role: "system", content: "You are helpful." },
  { role: "user", content: "What was Iceland's GDP in 2022?" },
  { role: "assistant", content: "About 28 billion USD." },
  { role: "user", content: "And in 2023?" }
]

const lastUserText = (prompt: Prompt.Prompt): string => {
  const last = prompt.content.filter((m) => m.role === "user").at(-1)
  return last === undefined ? "" : promptText(Prompt.fromMessages([last]))
}

describe("Augmentation.augment", () => {
  it.effect("returns a new prompt and leaves the input deep-equal (and frozen input untouched)", () => {
    const { layer, recorded } = websearch()
    return Effect.gen(function* () {
      const prompt = Prompt.make(conversation)
      const before = encode(prompt)
      const frozen = deepFreeze(structuredClone(conversation) as Array<Prompt.MessageEncoded>)
      const augmented = yield* Augmentation.augment(prompt)
      yield* Augmentation.augment(frozen)
      expect(encode(prompt)).toEqual(before)
      expect(frozen).toEqual(conversation)
      expect(augmented.prompt).not.toBe(prompt)
      // Earlier messages are carried over as they are; only the last user message is rebuilt.
      expect(augmented.prompt.content.slice(0, 3)).toEqual(prompt.content.slice(0, 3))
      expect(recorded.searched).toEqual(["And in 2023?", "And in 2023?"])
      const last = lastUserText(augmented.prompt)
      expect(last.startsWith(Augmentation.defaultInstruction)).toBe(true)
      expect(last).toContain("[1] And in 2023? result 1")
      expect(last.endsWith("My message:\nAnd in 2023?")).toBe(true)
    }).pipe(Effect.provide(layer))
  })

  it.effect("sources are numbered from 1 and deduped by URL across queries", () => {
    const shared = { title: "Shared", url: "https://shared.example/", content: "shared" }
    const { layer } = websearch({
      search: {
        a: [shared, { title: "A only", url: "https://a.example/", content: "a" }],
        b: [
          { title: "Shared again", url: "https://SHARED.example/#x", content: "dup" },
          { title: "B", url: "https://b.example/", content: "b" }
        ]
      }
    })
    return Effect.gen(function* () {
      const augmented = yield* Augmentation.augment("ignored", { query: () => Effect.succeed(["a", "b"]) })
      expect(augmented.queries).toEqual(["a", "b"])
      expect(augmented.sources.map((s) => [s.number, s.url])).toEqual([
        [1, "https://shared.example/"],
        [2, "https://a.example/"],
        [3, "https://b.example/"]
      ])
      const block = lastUserText(augmented.prompt)
      expect(block).toContain('Sources (web search for "a", "b")')
      expect(block).toMatch(
        /```untrusted-data source=web search\n\[1\] Shared\nURL: https:\/\/shared\.example\/\nshared\n\n\[2\] A only/
      )
      expect(block).not.toContain("Shared again")
    }).pipe(Effect.provide(layer))
  })

  it.effect("multi-turn: a model rewriter turns a follow-up into a standalone query from the conversation", () => {
    const { layer, recorded } = websearch()
    const rewriter = scriptedModel((call) => {
      expect(call.json).toBe(true)
      const transcript = promptText(call.prompt)
      expect(transcript).toContain("User: What was Iceland's GDP in 2022?")
      expect(transcript).toContain("Assistant: About 28 billion USD.")
      expect(transcript).toContain("User: And in 2023?")
      expect(transcript).not.toContain("You are helpful.")
      return text(JSON.stringify({ queries: ["Iceland GDP 2023", "  ", "Iceland GDP 2023 USD"] }))
    })
    return Effect.gen(function* () {
      const augmented = yield* Augmentation.augment(conversation, { query: Augmentation.rewriteWithModel() })
      expect(recorded.searched).toEqual(["Iceland GDP 2023", "Iceland GDP 2023 USD"])
      expect(augmented.queries).toEqual(["Iceland GDP 2023", "Iceland GDP 2023 USD"])
      expect(lastUserText(augmented.prompt)).toContain('web search for "Iceland GDP 2023", "Iceland GDP 2023 USD"')
    }).pipe(Effect.provide(Layer.merge(layer, rewriter.layer)))
  })

  it.effect("the instruction is configurable, as text or from the sources", () => {
    const { layer } = websearch()
    return Effect.gen(function* () {
      const fixed = yield* Augmentation.augment("q", { instruction: "Réponds en français." })
      expect(lastUserText(fixed.prompt).startsWith("Réponds en français.\n\nSources")).toBe(true)
      const computed = yield* Augmentation.augment("q", {
        instruction: (sources) => `Use the ${sources.length} sources.`
      })
      expect(lastUserText(computed.prompt).startsWith("Use the 2 sources.")).toBe(true)
    }).pipe(Effect.provide(layer))
  })

  it.effect("a failed search fails with its typed error by default", () => {
    const { layer } = websearch({ search: { down: WebSearchError.requestFailed("http_5xx", "upstream 503") } })
    return Effect.gen(function* () {
      const error = yield* Effect.flip(Augmentation.augment("down"))
      expect(error).toMatchObject({
        _tag: "RequestFailed",
        reason: "http_5xx",
        retryable: true,
        providerId: "duckduckgo"
      })
    }).pipe(Effect.provide(layer))
  })

  it.effect("onSearchFailure: proceed returns the prompt unchanged with the typed failure beside it", () => {
    const { layer } = websearch({ search: { down: WebSearchError.requestFailed("http_5xx", "upstream 503") } })
    return Effect.gen(function* () {
      const prompt = Prompt.make("down")
      const augmented = yield* Augmentation.augment(prompt, { onSearchFailure: "proceed" })
      expect(augmented.prompt).toBe(prompt)
      expect(augmented.sources).toEqual([])
      expect(Option.map(augmented.failure, (e) => `${e._tag}/${e.reason}`)).toEqual(
        Option.some("RequestFailed/http_5xx")
      )
    }).pipe(Effect.provide(layer))
  })

  it.effect("a conversation without user text is an invalid_input error, not an empty search", () => {
    const { layer, recorded } = websearch()
    return Effect.gen(function* () {
      const error = yield* Effect.flip(Augmentation.augment([{ role: "system", content: "only a system prompt" }]))
      expect(error).toMatchObject({ _tag: "RequestFailed", reason: "invalid_input" })
      expect(recorded.searched).toEqual([])
    }).pipe(Effect.provide(layer))
  })

  it.effect("no results: the block says so", () => {
    const { layer } = websearch({ search: { nothing: [] } })
    return Effect.gen(function* () {
      const augmented = yield* Augmentation.augment("nothing")
      expect(augmented.sources).toEqual([])
      expect(lastUserText(augmented.prompt)).toContain("The web search returned no results.")
    }).pipe(Effect.provide(layer))
  })

  it.effect.prop(
    "numbering: sources are 1..n, one per distinct URL, in order of first appearance",
    [
      FastCheck.array(FastCheck.array(FastCheck.integer({ min: 0, max: 6 }), { maxLength: 5 }), {
        minLength: 1,
        maxLength: 3
      })
    ],
    ([perQuery]) => {
      const search = Object.fromEntries(
        perQuery.map((ids, q) => [
          `q${q}`,
          ids.map((id) => ({ title: `t${id}`, url: `https://site${id}.example/`, content: `c${id}` }))
        ])
      )
      const { layer } = websearch({ search })
      return Effect.gen(function* () {
        const augmented = yield* Augmentation.augment("x", { query: () => Effect.succeed(Object.keys(search)) })
        const expected = [...new Set(perQuery.flat())].map((id) => `https://site${id}.example/`)
        expect(augmented.sources.map((s) => s.url)).toEqual(expected)
        expect(augmented.sources.map((s) => s.number)).toEqual(expected.map((_, i) => i + 1))
      }).pipe(Effect.provide(layer))
    },
    { fastCheck: { numRuns: 40 } }
  )
})

describe("Augmentation.layer (a LanguageModel wrapper)", () => {
  it.effect("the wrapped model receives the augmented prompt; the caller's prompt is untouched", () => {
    const { layer } = websearch()
    const model = scriptedModel((call) => text(`saw: ${lastUserText(call.prompt).includes("[1] question result 1")}`))
    return Effect.gen(function* () {
      const prompt = Prompt.make("question")
      const before = encode(prompt)
      const response = yield* LanguageModel.generateText({ prompt })
      expect(response.text).toBe("saw: true")
      expect(encode(prompt)).toEqual(before)
      const streamed = Array.from(yield* Stream.runCollect(LanguageModel.streamText({ prompt: "question" })))
      expect(streamed.some((p) => p.type === "text-delta" && p.delta === "saw: true")).toBe(true)
      expect(model.calls).toHaveLength(2)
    }).pipe(Effect.provide(Augmentation.layer().pipe(Layer.provide(Layer.merge(layer, model.layer)))))
  })

  it.effect("fail: the search error reaches the caller inside an AiError, recoverable as the typed error", () => {
    const { layer } = websearch({
      search: { down: WebSearchError.requestFailed("http_429", "slow down", { retryAfter: 5 }) }
    })
    const model = scriptedModel(() => text("should not be called"))
    return Effect.gen(function* () {
      const error = yield* Effect.flip(LanguageModel.generateText({ prompt: "down" }))
      expect(error._tag).toBe("UnknownError")
      expect(Augmentation.searchFailure(error)).toEqual(
        Option.some(expect.objectContaining({ _tag: "RequestFailed", reason: "http_429", retryAfter: 5 }))
      )
      expect(model.calls).toHaveLength(0)
    }).pipe(Effect.provide(Augmentation.layer().pipe(Layer.provide(Layer.merge(layer, model.layer)))))
  })

  it.effect("proceed: the model is called with the prompt as it was", () => {
    const { layer } = websearch({ search: { down: WebSearchError.requestFailed("http_5xx", "503") } })
    const model = scriptedModel((call) => text(lastUserText(call.prompt)))
    return Effect.gen(function* () {
      const response = yield* LanguageModel.generateText({ prompt: "down" })
      expect(response.text).toBe("down")
    }).pipe(
      Effect.provide(
        Augmentation.layer({ onSearchFailure: "proceed" }).pipe(Layer.provide(Layer.merge(layer, model.layer)))
      )
    )
  })
})
