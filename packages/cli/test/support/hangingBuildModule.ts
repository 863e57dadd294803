/** A provider module whose layer never finishes building (it waits on something that never comes). */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

export const layer = Layer.effectDiscard(Effect.never)
