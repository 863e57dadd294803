/**
 * Decoding a capability's request with its schema: the field counts and list lengths are checked first (cheap),
 * then the schema, every failure a `RequestFailed/invalid_input` naming the field at fault.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { Capability } from "../Capability.js"
import * as WebSearchError from "../WebSearchError.js"
import * as ParseIssues from "./parseIssues.js"

// The most inputs of one list field when the caller names no limit (WebSearchRequest.maxInputs).
const maxInputs = 20

// More than any request schema has, so a request over it is refused before decoding.
export const maxFields = 16

export const invalid = (capability: Capability, message: string, input?: string) =>
  WebSearchError.requestFailed("invalid_input", message, { capability, input })

// The decoder is compiled once per schema, not per request; these schemas are synchronous, so decoding gives an
// Either and a valid request costs no extra effect steps.
export const decodeWith = <A, I>(
  schema: Schema.Schema<A, I>,
  capability: Capability,
  lists: ReadonlyArray<readonly [field: string, what: string, limit?: number]>
): ((request: unknown) => Effect.Effect<A, WebSearchError.RequestFailed>) => {
  const decode = Schema.decodeUnknownEither(schema, { onExcessProperty: "error", errors: "all" })
  return (request) => {
    try {
      // The schema checks a list's length only after decoding every item, so 10^5 items would cost seconds of
      // CPU (and a message listing each bad one) before "at most 20" is said: the length is checked first.
      const tooLong = lists.find(([field, , limit]) => {
        const list = typeof request === "object" && request !== null ? (request as Record<string, unknown>)[field] : 0
        return Array.isArray(list) && list.length > (limit ?? maxInputs)
      })
      // Likewise every unknown field is an issue of its own: a body of 10^4 fields would cost a quarter second.
      const fields = typeof request === "object" && request !== null ? Object.keys(request).length : 0
      if (fields > maxFields) {
        return Effect.fail(
          invalid(capability, `invalid ${capability} request: ${fields} fields, where a request has a few`)
        )
      }
      if (tooLong !== undefined) {
        const [field, what, limit] = tooLong
        return Effect.fail(
          invalid(
            capability,
            `invalid ${capability} request: ${field}: at most ${limit ?? maxInputs} ${what} per request`
          )
        )
      }
      return Either.match(decode(request), {
        onLeft: (error) =>
          Effect.fail(
            invalid(capability, `invalid ${capability} request: ${ParseIssues.formatRequest(error, "request")}`)
          ),
        onRight: Effect.succeed
      })
    } catch {
      // Reading the value threw (a getter, a proxy trap): the request is unreadable, which is the caller's input
      // problem, not a defect. What it threw is not quoted, since converting it to text may throw again.
      return Effect.fail(invalid(capability, `invalid ${capability} request: the request could not be read`))
    }
  }
}
