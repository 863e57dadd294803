/**
 * What every tool of the toolkit shares: the hints that they only read the open web, and the optional
 * `providerId` parameter as a model is told to use it.
 */
import * as Tool from "@effect/ai/Tool"
import { ProviderId } from "@websearch/core/ProviderId"
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import * as ModelSchema from "./modelSchema.js"

// The tools only read the open web: MCP clients may run them without asking, and they change nothing.
export const readOnlyWeb = Context.make(Tool.Readonly, true).pipe(
  Context.add(Tool.Destructive, false),
  Context.add(Tool.OpenWorld, true)
)

export const providerId = Schema.optional(
  ProviderId.annotations(
    ModelSchema.describe(
      "Leave this out to use the configured default provider. Only set it when the user names a provider."
    )
  )
)
