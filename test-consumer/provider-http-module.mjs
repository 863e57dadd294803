// A provider module built on ProviderHttp (the skeleton of the built-in drivers) for the installed `websearch`
// command: plain ESM importing the installed @websearch/core and @websearch/providers; its driver calls a JSON
// search API with the HttpClient the command gives a module (through the outbound proxies and the URL policy).
import { Preset } from "@websearch/core"
import { ProviderHttp } from "@websearch/providers"
import { Effect, Schema } from "effect"

const preset = Preset.make({
  id: "acme",
  name: "Acme Search",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://api.acme.example" }]
})

const Answer = Schema.Struct({
  hits: Schema.Array(Schema.Struct({ title: Schema.String, url: Schema.String, text: Schema.String }))
})

export const layer = ProviderHttp.layer(
  ProviderHttp.make(preset, (client) => ({
    searchKeywords: ProviderHttp.searchKeywords(preset, (call, ctx) =>
      ProviderHttp.getJson(client, call, {
        path: "/v1/search",
        urlParams: { q: call.input, limit: String(ctx.maxResults) },
        key: ProviderHttp.header("x-api-key"),
        schema: Answer
      }).pipe(
        Effect.map(({ body }) => ({
          results: body.hits.map((hit) => ({ title: hit.title, url: hit.url, content: hit.text })),
          dropped: 0
        }))
      )
    )
  }))
)
