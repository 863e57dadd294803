/**
 * What every built-in HTTP provider driver shares, in one import: the call and its errors (`providerCall`), the
 * capped read (`cappedRead`), refusals (`refusal`), transport failures (`transportFailure`), sending (`send`) and
 * JSON decoding (`jsonBody`). A driver builds its request and its response schema; the public `ProviderHttp`
 * module puts these together as `getJson`/`postJson` and the driver skeleton.
 */
import * as ProviderClient from "./providerClient.js"

export { type Answer, readCapped } from "./cappedRead.js"
export { decode, decodeUnlessRefused, decodeValue, parseJson } from "./jsonBody.js"
export {
  type Call,
  call,
  clamp,
  empty,
  endpoint,
  errorContext,
  invalid,
  keep,
  keyName,
  keySettings,
  limits,
  type Mapped,
  missing,
  NumberLike,
  providerText,
  requestFailed,
  requireKey
} from "./providerCall.js"
export { answerMessage, failure, isHtml, messageOf, type Refusal, refusalOf, retryAfterSeconds } from "./refusal.js"
export { send, type SendOptions } from "./send.js"
export { transportFailure } from "./transportFailure.js"

/**
 * The HttpClient a provider Layer captures (see `providerClient`): no trace context sent to the provider, every
 * credential redacted from its span.
 */
export const client = ProviderClient.client
