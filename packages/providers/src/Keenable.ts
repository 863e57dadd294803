/**
 * The `keenable` provider: `searchKeywords` on `POST {apiHost}/v1/search` with the key in `X-API-Key`, or, when
 * no key is configured, keyless on `POST {apiHost}/v1/search/public` (rate-limited by Keenable). apiHost
 * `https://api.keenable.ai`.
 *
 * The body is `{query, count}`; `count` is clamped to 1–20 (Keenable documents the parameter but not its
 * maximum, so a conservative bound is sent and the pipeline slices to the caller's `maxResults`). A result's
 * content is Keenable's longer `snippet` when present, else its `description`. Errors: 401/403 →
 * `Unavailable/credentials_rejected` (keyless: a hint to set a key); 429 → `RequestFailed/http_429` (Retry-After
 * honoured); 5xx → `http_5xx`; an answer without `results` that carries an error message (the body shape of
 * Keenable's errors is undocumented) → `RequestFailed/http_status` with that message.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Missing from "@websearch/core/internal/resolution/missing"
import * as Variables from "@websearch/core/internal/resolution/variables"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import { SearchAnswer, searchBody, searchPath } from "./internal/keenableWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "keenable"

/**
 * The `keenable` preset (core's built-in one; the key is optional).
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "keenable",
  name: "Keenable",
  type: "api",
  credentials: "optional",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://api.keenable.ai" }]
})

// Without a key there is no key to blame: say what would lift the refusal instead.
const keylessHints = {
  credentials: `Keenable's keyless endpoint refused it; set ${Missing.keySettings(preset.id)}`,
  rate_limited: `the keyless tier is rate-limited; a key (${Variables.apiKey(preset.id)}) lifts the limit`
}

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.gen(function* () {
      const keyed = Option.isSome(ctx.apiKey)
      const { answer, body } = yield* ProviderHttp.postJson(client, c, {
        path: searchPath(keyed),
        body: searchBody(c.input, ctx.maxResults),
        key: ProviderHttp.optional(ProviderHttp.header("X-API-Key")),
        schema: SearchAnswer,
        hints: keyed ? undefined : keylessHints
      })
      if (body.results === undefined || body.results === null) {
        const said = Either.match(Http.parseJson(answer.text), { onLeft: () => undefined, onRight: Http.messageOf })
        if (said !== undefined) {
          return yield* Effect.fail(Http.failure(c, { kind: "status", status: answer.status, message: said }))
        }
        return { results: [], dropped: 0 }
      }
      return Fields.results(body.results, (r) => {
        const snippet = r.snippet?.trim() ?? ""
        return {
          title: r.title,
          content: snippet !== "" ? snippet : r.description,
          url: r.url,
          publishedAt: r.published_at
        }
      })
    })
  )

/**
 * The search options Keenable honours natively: none (its search takes only the query and a count); the domain
 * options are applied on the results.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = []

/**
 * Builds the driver with the `HttpClient` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = ProviderHttp.make(preset, (client) => ({ searchOptions, searchKeywords: searchKeywords(client) }))

/**
 * Registers the `keenable` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
