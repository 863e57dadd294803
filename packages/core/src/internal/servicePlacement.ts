/**
 * Where the optional services go: composed as parts, `WebSearch.layer(..., ContentBudget.layerTokenCounter(...))`,
 * and nowhere else. The registry holds the composed ones and the pipeline passes them on; one provided to
 * `WebSearch.layer`'s context, beside it or to a call would be ignored, so it fails instead, saying where it
 * belongs. Each of these services is a `Context.Reference`: reading it gives the one provided, else its default,
 * so a value that is neither its default nor the composed one was provided where websearch ignores it.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Compression from "../Compression.js"
import * as ContentBudget from "../ContentBudget.js"
import type * as ProviderRegistry from "../ProviderRegistry.js"
import * as UsageSink from "../UsageSink.js"
import * as WebSearchError from "../WebSearchError.js"

/** Where a misplaced service was found: in the application layer's context at start, or in a call's context. */
export type Place = "start" | "call"

const places: Record<Place, string> = {
  start: "WebSearch.layer's context",
  call: "this call or beside WebSearch.layer"
}

/** The one message of a misplaced service: what it is, where it was found, and the part to compose instead. */
export const misplaced = (service: string, part: string, place: Place): WebSearchError.Unavailable =>
  WebSearchError.unavailable(
    "invalid_config",
    `${service} was provided to ${places[place]}, where websearch ignores it: compose it as a part, WebSearch.layer(..., ${part}(...))`
  )

type Composed = ProviderRegistry.ProviderRegistry.Service["services"]

const provided = <A>(read: A, fallback: A, composed: A | undefined): boolean => read !== fallback && read !== composed

/**
 * Fails with {@link misplaced} when a token counter, chunk ranker or usage sink other than the composed one
 * (`composed`: none yet at start) is in the current context.
 */
export const check = (place: Place, composed?: Composed): Effect.Effect<void, WebSearchError.Unavailable> =>
  // One read of the context and three lookups (`Context.get` gives a reference's default when none is provided):
  // this runs once per request.
  Effect.flatMap(Effect.context<never>(), (context) =>
    provided(
      Context.get(context, ContentBudget.TokenCounter),
      ContentBudget.defaultTokenCounter,
      composed?.tokenCounter
    )
      ? Effect.fail(misplaced("a TokenCounter", "ContentBudget.layerTokenCounter", place))
      : provided(Context.get(context, Compression.ChunkRanker), Compression.bm25Ranker, composed?.chunkRanker)
        ? Effect.fail(misplaced("a ChunkRanker", "Compression.layerChunkRanker", place))
        : provided(Context.get(context, UsageSink.UsageSink), UsageSink.defaultSink, composed?.usageSink)
          ? Effect.fail(misplaced("a UsageSink", "UsageSink.layer", place))
          : Effect.void
  )
