// A provider module for the installed `websearch` command (WEBSEARCH_PROVIDER_MODULES): plain ESM importing the
// installed @websearch/core, with its own id, preset, options schema and environment variable.
import { Preset, ProviderRegistry } from "@websearch/core"
import { Config, Effect, Option, Schema } from "effect"

export const layer = ProviderRegistry.register({
  preset: Preset.make({
    id: "memory",
    name: "In-memory search",
    type: "local",
    credentials: "none",
    capabilities: [{ feature: "searchKeywords" }]
  }),
  options: Schema.Struct({ greeting: Schema.optionalWith(Schema.String, { default: () => "Hello" }) }),
  optionsConfig: Config.all({
    greeting: Config.option(Config.string("MEMORY_GREETING")).pipe(Config.map(Option.getOrUndefined))
  }),
  searchKeywords: (keyword, ctx) =>
    Effect.succeed([
      { title: `${ctx.options.greeting} from the module: ${keyword}`, url: "https://memory.example/", content: keyword }
    ])
})
