/** A provider module whose import never finishes (a top-level await on something that never comes). */
import * as Layer from "effect/Layer"

await new Promise<void>(() => {})

export const layer = Layer.empty
