/**
 * The response headers the server sets, declared in the OpenAPI document (an `HttpApi` endpoint cannot declare
 * response headers itself), so a client generated from the document knows them:
 *
 * - `WWW-Authenticate: Bearer realm="websearch"` on every 401;
 * - `Retry-After` (whole seconds) on every 429 (a provider's limit or the per-token rate limit), and on the 502
 *   of the capability endpoints and the provider check when the provider's own 5xx said when to retry;
 * - `X-Websearch-Cache` on the 200 of search and fetch when a result cache is composed.
 */
import type * as OpenApi from "@effect/platform/OpenApi"

/**
 * The header that says whether a search or fetch was answered from the result cache.
 */
export const cacheHeader = "x-websearch-cache"

/**
 * What `X-Websearch-Cache` may say: every input from the cache, none, or some.
 */
export const cacheStatuses = ["hit", "miss", "partial"] as const

// The operations whose errors set Retry-After from the error's retryAfter (WebSearchHandlers' withErrorHeaders).
const passesRetryAfter = new Set(["v1.search", "v1.fetch", "v1.research", "v1.check"])
const cached = new Set(["v1.search", "v1.fetch"])

const retryAfter = {
  description: "Seconds to wait before trying again (a whole number, at least 1)",
  schema: { type: "integer", minimum: 1 }
}
const wwwAuthenticate = {
  description: 'The scheme the API expects: `Bearer realm="websearch"`',
  schema: { type: "string" }
}
const cacheStatus = {
  description:
    "Whether the result cache answered: `hit` (every input), `miss` (none) or `partial`; absent when no result " +
    "cache is composed",
  schema: { type: "string", enum: cacheStatuses }
}

const declare = (response: OpenApi.OpenApiSpecResponse | undefined, name: string, header: object): void => {
  if (response === undefined) return
  const mutable = response as { headers?: Record<string, object> }
  mutable.headers = { ...mutable.headers, [name]: header }
}

/** Declares the headers on the document's responses; returns the same document, changed in place. */
export const declareHeaders = (spec: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item as Record<string, OpenApi.OpenAPISpecOperation>)) {
      if (typeof operation !== "object" || operation === null || !("responses" in operation)) continue
      const responses = operation.responses
      declare(responses["401"], "WWW-Authenticate", wwwAuthenticate)
      declare(responses["429"], "Retry-After", retryAfter)
      const id = operation.operationId ?? ""
      if (passesRetryAfter.has(id)) declare(responses["502"], "Retry-After", retryAfter)
      if (cached.has(id)) declare(responses["200"], "X-Websearch-Cache", cacheStatus)
    }
  }
  return spec
}
