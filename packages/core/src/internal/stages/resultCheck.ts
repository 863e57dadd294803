/**
 * Stage around the driver call: what a driver returns is checked against the contract (title, content and url
 * strings; a `pageType`, when given, one of the page types), since post-processing reads every field and every
 * surface encodes the result with its schema, and capped at the requested count, since a provider may ignore it. Reading the value is still the driver's part: a throw while reading it is the driver's defect.
 */
import * as Effect from "effect/Effect"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { PageType } from "../../PageType.js"
import type { DriverResult } from "../../ProviderDriver.js"
import * as WebSearchError from "../../WebSearchError.js"
import { DriverDefect } from "./driverCall.js"
import type { InputCall } from "./inputCall.js"

const isDriverResult = (u: unknown): u is DriverResult =>
  Predicate.hasProperty(u, "title") &&
  Predicate.isString(u.title) &&
  Predicate.hasProperty(u, "content") &&
  Predicate.isString(u.content) &&
  Predicate.hasProperty(u, "url") &&
  Predicate.isString(u.url) &&
  (!Predicate.hasProperty(u, "pageType") || u.pageType === undefined || isPageType(u.pageType))

const isPageType = Schema.is(PageType)

const contracted = (results: unknown, maxResults: number): ReadonlyArray<DriverResult> | undefined => {
  const kept: Array<unknown> | undefined = Array.isArray(results) ? results.slice(0, maxResults) : undefined
  return kept !== undefined && kept.every(isDriverResult) ? kept : undefined
}

/** The driver's results within the contract and the count, or `ResponseInvalid/decode_failed`. */
export const resultCheck = (
  call: InputCall,
  maxResults: number,
  results: Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError>
): Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError> =>
  Effect.flatMap(results, (value) => {
    let kept: ReadonlyArray<DriverResult> | undefined
    try {
      kept = contracted(value, maxResults)
    } catch (defect) {
      return Effect.die(new DriverDefect(defect))
    }
    return kept !== undefined
      ? Effect.succeed(kept)
      : Effect.fail(
          WebSearchError.responseInvalid(
            "decode_failed",
            `the ${call.resolved.provider.name} driver returned results outside the contract (title, content and url strings, a known pageType) for "${call.input}"`
          )
        )
  })
