/**
 * An "echo" provider type for the instance tests: a search API that needs a key, takes its own options (a
 * region, a label), and answers with what its call was given (the provider id, the key, the endpoint, the
 * options), so a test sees which instance's configuration a call ran with. Some inputs script failures: "limited"
 * answers 429 with Retry-After, "rejected" refuses the key and (as a careless driver would) quotes it.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Preset from "../../src/Preset.js"
import type { AnyProviderDriver, DriverContext, DriverResult, ProviderDriver } from "../../src/ProviderDriver.js"
import * as WebSearchError from "../../src/WebSearchError.js"

export const EchoOptions = Schema.Struct({
  region: Schema.optional(Schema.Literal("eu", "us")),
  label: Schema.optional(Schema.String.pipe(Schema.minLength(1)))
})

/** What one echo call saw. */
export interface Seen {
  readonly providerId: string
  readonly name: string
  readonly apiKey: string | undefined
  readonly apiHost: string | undefined
  readonly options: typeof EchoOptions.Type | undefined
  readonly input: string
}

export const makeEcho = (id = "echo") => {
  const seen: Array<Seen> = []
  const typed: ProviderDriver<typeof EchoOptions.Type, typeof EchoOptions.Encoded> = {
    preset: Preset.make({
      id,
      name: "Echo",
      type: "api",
      credentials: "required",
      capabilities: [{ feature: "searchKeywords", apiHost: "https://echo.example/search" }]
    }),
    options: EchoOptions,
    searchOptions: ["language"],
    searchKeywords: (keyword, ctx: DriverContext<typeof EchoOptions.Type>) =>
      Effect.suspend((): Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError> => {
        const apiKey = Option.getOrUndefined(Option.map(ctx.apiKey, Redacted.value))
        seen.push({
          providerId: ctx.provider.id,
          name: ctx.provider.name,
          apiKey,
          apiHost: Option.getOrUndefined(ctx.apiHost),
          options: ctx.options,
          input: keyword
        })
        if (keyword === "limited") {
          return Effect.fail(
            WebSearchError.requestFailed("rate_limited", "echo answered 429", { providerId: id, retryAfter: 60 })
          )
        }
        if (keyword === "rejected") {
          return Effect.fail(
            WebSearchError.unavailable("credentials_rejected", `echo refused the key ${apiKey ?? ""}`, {
              providerId: id
            })
          )
        }
        return Effect.succeed([
          {
            title: `${ctx.provider.id} ${ctx.options?.region ?? "-"} ${ctx.options?.label ?? "-"}`,
            url: `https://echo.example/${encodeURIComponent(ctx.provider.id)}/${seen.length}`,
            content: `${keyword} via ${Option.getOrElse(ctx.apiHost, () => "?")}`
          }
        ])
      })
  }
  // As the registry holds drivers: of any options.
  const driver: AnyProviderDriver = typed
  return { driver, seen }
}
