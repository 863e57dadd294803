/**
 * The `RequestFailed` reason of a non-2xx status, with the server's Retry-After where it gives one (read by
 * `@websearch/core/RetryAfter` against the `Clock`, capped at a day).
 */
import * as RetryAfter from "@websearch/core/internal/retryAfter"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import type * as TransportModel from "./transportModel.js"
import * as TransportError from "./transportError.js"

/**
 * Maps a non-2xx response to `http_403` / `http_404` / `http_429` (with `retryAfter` from Retry-After, in seconds
 * or as an HTTP date) / `http_5xx` / `http_status`; passes 2xx through. A 408 is `http_status` but retryable.
 */
export const ensureOk = <R extends TransportModel.Response>(
  response: R
): Effect.Effect<R, WebSearchError.RequestFailed> => {
  const status = response.status
  if (status >= 200 && status <= 299) return Effect.succeed(response)
  const at = `HTTP ${status} from ${TransportError.describe(response.url)}`
  if (status === 403) return Effect.fail(WebSearchError.requestFailed("http_403", `${at}: forbidden`))
  if (status === 404) return Effect.fail(WebSearchError.requestFailed("http_404", `${at}: not found`))
  if (status === 429) {
    return Effect.flatMap(RetryAfter.seconds(response.headers["retry-after"]), (retryAfter) =>
      Effect.fail(
        WebSearchError.requestFailed(
          "http_429",
          `${at}: rate limited${retryAfter === undefined ? "" : `, retry after ${retryAfter} s`}`,
          { retryAfter }
        )
      )
    )
  }
  if (status >= 500 && status <= 599) {
    return Effect.flatMap(RetryAfter.seconds(response.headers["retry-after"]), (retryAfter) =>
      Effect.fail(WebSearchError.requestFailed("http_5xx", `${at}: server error`, { retryAfter }))
    )
  }
  return Effect.fail(
    WebSearchError.requestFailed("http_status", `${at}: unexpected status`, {
      retryable: status === 408
    })
  )
}
