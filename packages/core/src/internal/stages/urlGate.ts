/**
 * Stage 1: a `fetchUrls` input the URL policy refuses fails before any provider sees the URL, and before a
 * cached answer is served for it.
 */
import * as Either from "effect/Either"
import * as UrlPolicy from "../../UrlPolicy.js"
import * as WebSearchError from "../../WebSearchError.js"
import { errorContext, isUrlCapability, type InputCall } from "./inputCall.js"

/** The checked URL of a `fetchUrls` input (undefined for other capabilities), or the policy's refusal. */
export const urlGate = (
  call: InputCall,
  policy: UrlPolicy.UrlPolicy
): Either.Either<UrlPolicy.CheckedUrl | undefined, WebSearchError.RequestFailed> => {
  if (!isUrlCapability(call.capability)) return Either.right(undefined)
  return Either.mapLeft(UrlPolicy.checkUrl(policy, call.input), (refused) =>
    WebSearchError.annotate(refused, errorContext(call))
  )
}
