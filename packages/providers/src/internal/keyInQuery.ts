/**
 * For providers that take the API key in the query string (Google Custom Search's `key=`, SerpApi's `api_key=`).
 * The key is then part of the request URL, and the URL travels further than headers do: `@effect/platform`'s
 * HttpClient puts it whole in its client span (`url.full`, `url.query`), and its `HttpClientError` messages name
 * the method and URL. The provider client (`Http.client`) handles every credential-named query parameter for
 * every provider: such a request gets a span of its own with the parameter redacted. These drivers also never
 * show an `HttpClientError`'s message (`Http.transportFailure` reads only its reason and error code).
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as Effect from "effect/Effect"
import * as Http from "./providerHttp.js"

/**
 * The provider client (`Http.client`); `parameter` names the key's query parameter, which `Http.client`
 * recognises by its name (`key`, `api_key`) like every credential-named parameter.
 */
export const client = (_parameter: string): Effect.Effect<HttpClient.HttpClient, never, HttpClient.HttpClient> =>
  Http.client
