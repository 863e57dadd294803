/**
 * For providers that take the API key in the query string (Google Custom Search's `key=`, SerpApi's `api_key=`).
 * The key is then part of the request URL, and the URL travels further than headers do: `@effect/platform`'s
 * HttpClient puts it whole in its client span (`url.full`, `url.query`, which are not redacted the way
 * `Authorization` is), and its `HttpClientError` messages name the method and URL. So these drivers send through
 * a client whose own span is disabled (`Http.send` already spans the call, with no URL), and never show an
 * `HttpClientError`'s message (`Http.transportFailure` reads only its reason and error code).
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"

/**
 * The `HttpClient` in context, with its request span (which would carry the URL, key included) turned off for
 * every request that has the key's query parameter.
 */
export const client = (parameter: string): Effect.Effect<HttpClient.HttpClient, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (inner) =>
    HttpClient.withTracerDisabledWhen(inner, (request) => request.urlParams.some(([name]) => name === parameter))
  )
