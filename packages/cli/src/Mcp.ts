/**
 * `websearch mcp`: being built in this session; until then it reports that it is unavailable.
 *
 * @since 0.1.0
 */
import type * as Settings from "@websearch/core/Settings"
import type * as WebSearch from "@websearch/core/WebSearch"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import type * as Cli from "./Cli.js"
import type * as Main from "./Main.js"

/**
 * Runs `websearch mcp` until interrupted; returns the exit code.
 *
 * @since 0.1.0
 * @category running
 */
export const run = (
  _command: Extract<Cli.Command, { _tag: "Mcp" }>,
  _io: Main.Io,
  _live: Layer.Layer<WebSearch.WebSearch | Settings.Settings, WebSearchError.Unavailable>
): Effect.Effect<number, WebSearchError.WebSearchError> =>
  Effect.fail(WebSearchError.unavailable("invalid_config", "websearch mcp is not built yet"))
