/**
 * Stage 3: a `fetchUrls` input on the blacklist, or off a non-empty allowlist, is not fetched.
 */
import * as Blacklist from "../blacklist.js"
import * as WebSearchError from "../../WebSearchError.js"
import { errorContext, isUrlCapability, type InputCall } from "./inputCall.js"

/** The refusal of a `fetchUrls` input the settings' filter does not allow, if it is one. */
export const blacklistGate = (call: InputCall): WebSearchError.RequestFailed | undefined => {
  const { filter } = call.env.settings
  if (!isUrlCapability(call.capability) || Blacklist.isAllowed(filter, call.input)) return undefined
  return WebSearchError.requestFailed(
    "blacklisted",
    filter.blacklist.test(call.input)
      ? `"${call.input}" is on the blacklist; it was not fetched`
      : `"${call.input}" is not on the allowlist; it was not fetched`,
    errorContext(call)
  )
}
