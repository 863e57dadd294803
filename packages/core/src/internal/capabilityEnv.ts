/**
 * What the `searchKeywords` and `research` services capture when their Layer is built: the settings, the
 * provider registry and the application's own `fetchUrls`, which their drivers may call.
 */
import * as Effect from "effect/Effect"
import { FetchUrls } from "../FetchUrls.js"
import { ProviderRegistry } from "../ProviderRegistry.js"
import { Settings } from "../Settings.js"
import type * as Pipeline from "./pipeline.js"
import * as PipelineEnv from "./pipelineEnv.js"

export const make: Effect.Effect<Pipeline.Env, never, Settings | ProviderRegistry | FetchUrls> = Effect.map(
  Effect.all({
    settings: Settings,
    registry: ProviderRegistry,
    fetchUrls: Effect.map(FetchUrls, (service) => service.fetchUrls)
  }),
  PipelineEnv.make
)
