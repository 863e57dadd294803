/**
 * Stage 2: the allowlist lets our own transport reach private hosts; a remote provider must never be told of
 * them, so an allowlisted private URL is refused unless the provider fetches it locally.
 */
import type * as UrlPolicy from "../../UrlPolicy.js"
import * as WebSearchError from "../../WebSearchError.js"
import { errorContext, type InputCall } from "./inputCall.js"

/** The refusal of an allowlisted private URL bound for a remote provider, if it is one. */
export const privateHostGuard = (
  call: InputCall,
  checked: UrlPolicy.CheckedUrl | undefined
): WebSearchError.RequestFailed | undefined => {
  const { provider } = call.resolved
  if (checked === undefined || !checked.allowlisted || provider.type === "local") return undefined
  return WebSearchError.requestFailed(
    "ssrf_rejected",
    `${checked.url.protocol}//${checked.url.host} is allowlisted as a private host: only a local provider fetches it, it is never sent to ${provider.name}`,
    errorContext(call)
  )
}
