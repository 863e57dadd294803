// The optional fields of a provider's answer: providers omit a field, send it as null, or send a number as a
// string, and websearch reads each of those as "absent" or the value. One definition serves every wire format.
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"

/** A text field that may be missing or null. */
export const OptionalText = Schema.optional(Schema.NullOr(Schema.String))

/** A number field (or a number sent as a string) that may be missing or null. */
export const OptionalNumber = Schema.optional(Schema.NullOr(Http.NumberLike))
