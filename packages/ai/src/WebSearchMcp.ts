/**
 * The MCP server of websearch: the toolkit's `web_search`, `web_fetch` and `web_research`, served over stdio or
 * streamable HTTP with `@effect/ai`'s `McpServer`, to any MCP client.
 *
 * Results follow the MCP spec's split between protocol and tool errors. A tool that ran returns `content` (the
 * model-ready text of `ToolOutput`) and `structuredContent` (the output object). A tool that failed, including
 * arguments that do not fit its input schema, returns `isError: true` with the rendered error (its next step
 * included) as text and the websearch error as `structuredContent` (`_tag`, `reason`, `retryable`, `message`,
 * `failures`), so the model can read it and correct itself. An unknown tool name is a JSON-RPC error (-32602),
 * answered by `McpServer` itself.
 *
 * @since 0.1.0
 */
import type * as AiError from "@effect/ai/AiError"
import * as McpSchema from "@effect/ai/McpSchema"
import * as McpServer from "@effect/ai/McpServer"
import * as Tool from "@effect/ai/Tool"
import type * as HttpRouter from "@effect/platform/HttpRouter"
import type { FetchUrls } from "@websearch/core/FetchUrls"
import type { Research } from "@websearch/core/Research"
import type { SearchKeywords } from "@websearch/core/SearchKeywords"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import type * as Sink from "effect/Sink"
import type * as Stream from "effect/Stream"
import * as ToolOutput from "./ToolOutput.js"
import * as WebSearchToolkit from "./WebSearchToolkit.js"

/**
 * The server's name and version as MCP clients see them.
 *
 * @since 0.1.0
 * @category models
 */
export interface ServerInfo {
  readonly name?: string | undefined
  readonly version?: string | undefined
}

const info = (options: ServerInfo | undefined) => ({
  name: options?.name ?? "websearch",
  version: options?.version ?? "0.1.0"
})

const errorResult = (error: WebSearchError.WebSearchError): McpSchema.CallToolResult =>
  new McpSchema.CallToolResult({
    isError: true,
    structuredContent: WebSearchError.toJson(error),
    content: [{ type: "text", text: ToolOutput.renderError(error) }]
  })

const render = (name: string, output: unknown): string => {
  switch (name) {
    case "web_search":
      return ToolOutput.renderSearch(output as ToolOutput.SearchOutput)
    case "web_fetch":
      return ToolOutput.renderFetch(output as ToolOutput.FetchOutput)
    default:
      return ToolOutput.renderResearch(output as ToolOutput.ResearchOutput)
  }
}

const capabilityOf = { web_search: "searchKeywords", web_fetch: "fetchUrls", web_research: "research" } as const

const fromAiError = (name: keyof typeof capabilityOf, error: AiError.AiError): WebSearchError.WebSearchError => {
  // The toolkit reports arguments that do not decode as MalformedOutput (from the model's point of view).
  if (error._tag === "MalformedOutput" && ParseResult.isParseError(error.cause)) {
    const issues = ParseResult.ArrayFormatter.formatErrorSync(error.cause)
      .map((issue) => `${issue.path.length === 0 ? "arguments" : issue.path.join(".")}: ${issue.message}`)
      .join("; ")
    return WebSearchError.requestFailed("invalid_input", `invalid ${name} arguments: ${issues}`, {
      capability: capabilityOf[name]
    })
  }
  return WebSearchError.responseInvalid("parse_failed", `${name} failed: ${error.message}`, {
    capability: capabilityOf[name]
  })
}

/**
 * Registers the toolkit's tools with the `McpServer` in context, using the session handlers in context.
 *
 * @since 0.1.0
 * @category registration
 */
export const registerTools: Effect.Effect<void, never, McpServer.McpServer | Tool.HandlersFor<WebSearchToolkit.Tools>> =
  Effect.gen(function* () {
    const server = yield* McpServer.McpServer
    const built = yield* WebSearchToolkit.toolkit
    for (const tool of Object.values(built.tools)) {
      const name = tool.name
      yield* server.addTool({
        tool: new McpSchema.Tool({
          name,
          description: tool.description,
          inputSchema: Tool.getJsonSchema(tool as Tool.Any as typeof WebSearchToolkit.WebSearchTool),
          annotations: new McpSchema.ToolAnnotations({
            ...Option.match(Context.getOption(tool.annotations, Tool.Title), {
              onNone: () => ({}),
              onSome: (title) => ({ title })
            }),
            readOnlyHint: Context.get(tool.annotations, Tool.Readonly),
            destructiveHint: Context.get(tool.annotations, Tool.Destructive),
            idempotentHint: Context.get(tool.annotations, Tool.Idempotent),
            openWorldHint: Context.get(tool.annotations, Tool.OpenWorld)
          })
        }),
        handle: (payload) =>
          (built.handle(name, payload as never) as Effect.Effect<Tool.HandlerResult<Tool.Any>, unknown>).pipe(
            Effect.map((handled) =>
              handled.isFailure
                ? errorResult(handled.result as WebSearchError.WebSearchError)
                : new McpSchema.CallToolResult({
                    isError: false,
                    structuredContent: handled.encodedResult,
                    content: [{ type: "text", text: render(name, handled.result) }]
                  })
            ),
            // With failure mode "return" a tool's own error arrives as a result; an error here is the toolkit's.
            Effect.catchAll((error) =>
              Effect.succeed(
                errorResult(
                  WebSearchError.isWebSearchError(error)
                    ? error
                    : ToolOutput.withNextStep(name, fromAiError(name, error as AiError.AiError))
                )
              )
            ),
            Effect.catchAllDefect((defect) =>
              Effect.succeed(
                errorResult(
                  WebSearchError.responseInvalid(
                    "parse_failed",
                    `${name} failed unexpectedly: ${defect instanceof Error ? defect.message : String(defect)}`,
                    { capability: capabilityOf[name] }
                  )
                )
              )
            ),
            Effect.withSpan(`websearch.mcp.${name}`, { captureStackTrace: false })
          )
      })
    }
  })

/**
 * Options of the server layers: the server's identity and the toolkit session options.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options extends ServerInfo {
  readonly toolkit?: WebSearchToolkit.Options | undefined
}

/**
 * The tools, with one toolkit session, on the `McpServer` in context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerTools = (
  options?: WebSearchToolkit.Options
): Layer.Layer<never, never, McpServer.McpServer | SearchKeywords | FetchUrls | Research> =>
  Layer.effectDiscard(registerTools).pipe(Layer.provide(WebSearchToolkit.layer(options)))

/**
 * The server over stdio: JSON-RPC messages, one per line, on the given streams. Nothing else may write to the
 * output stream; log to stderr.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerStdio = <EIn, RIn, EOut, ROut>(
  options: Options & {
    readonly stdin: Stream.Stream<Uint8Array, EIn, RIn>
    readonly stdout: Sink.Sink<unknown, Uint8Array | string, unknown, EOut, ROut>
  }
): Layer.Layer<McpServer.McpServer, never, RIn | ROut | SearchKeywords | FetchUrls | Research> =>
  layerTools(options.toolkit).pipe(
    Layer.provideMerge(McpServer.layerStdio({ ...info(options), stdin: options.stdin, stdout: options.stdout }))
  )

/**
 * The server over streamable HTTP at `path` of the default `HttpRouter`; serve it with
 * `HttpRouter.Default.serve()` and an `HttpServer`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerHttp = (
  options: Options & { readonly path: HttpRouter.PathInput }
): Layer.Layer<McpServer.McpServer, never, SearchKeywords | FetchUrls | Research> =>
  layerTools(options.toolkit).pipe(Layer.provideMerge(McpServer.layerHttp({ ...info(options), path: options.path })))
