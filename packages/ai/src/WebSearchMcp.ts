/**
 * The MCP server of websearch: the toolkit's `web_search`, `web_fetch`, `web_research`, `web_map` and `web_crawl`, served over stdio or
 * streamable HTTP with `@effect/ai`'s `McpServer`, to any MCP client.
 *
 * Results follow the MCP spec's split between protocol and tool errors. A tool that ran returns `content` (the
 * model-ready text of `ToolOutput`) and `structuredContent` (the output object; for `web_fetch` without the page
 * text, which is in `content` only). A tool that failed, including
 * arguments that do not fit its input schema, returns `isError: true` with the rendered error (its next step
 * included) as text and the websearch error as `structuredContent` (`_tag`, `reason`, `retryable`, `message`,
 * `failures`), so the model can read it and correct itself. An unknown tool name is a JSON-RPC error (-32602),
 * answered by `McpServer` itself.
 *
 * Both transports are ours, in front of `McpServer`: every message is validated on its own before the server sees
 * it, and what is malformed is answered with a JSON-RPC error (-32700 not JSON, -32600 not a valid request, -32601
 * unknown method, -32602 params the method's schema refuses) while the server keeps serving. No failure's internal
 * cause reaches a client: what is not an MCP error is -32603 "Internal error". Over HTTP the endpoint follows the
 * transport's security rules: Host and Origin checks against DNS rebinding, optional bearer tokens, JSON bodies
 * only, and a body cap enforced as the body streams. `initialize` over HTTP opens an MCP session (`Mcp-Session-Id`),
 * and each session has its own toolkit session, so two clients of one server never share source ids; DELETE
 * with the header ends it.
 *
 * @since 0.1.0
 */
import type * as AiError from "@effect/ai/AiError"
import * as McpSchema from "@effect/ai/McpSchema"
import * as McpServer from "@effect/ai/McpServer"
import * as Tool from "@effect/ai/Tool"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as RpcServer from "@effect/rpc/RpcServer"
import type { FetchUrls } from "@websearch/core/FetchUrls"
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import type * as Research from "@websearch/core/Research"
import type { SearchKeywords } from "@websearch/core/SearchKeywords"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import type * as Sink from "effect/Sink"
import type * as Stream from "effect/Stream"
import * as HttpSettings from "./internal/httpSettings.js"
import * as HttpTransport from "./internal/httpTransport.js"
import * as Sessions from "./internal/mcpSessions.js"
import * as McpTools from "./internal/mcpTools.js"
import * as SessionPages from "./internal/sessionPages.js"
import * as StdioTransport from "./internal/stdioTransport.js"
import * as ToolOutput from "./ToolOutput.js"
import * as Failures from "./internal/failures.js"
import * as Fence from "./internal/fence.js"
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

const fromAiError = (name: McpTools.ToolName, error: AiError.AiError): WebSearchError.WebSearchError => {
  // The toolkit reports arguments that do not decode as MalformedOutput (from the model's point of view).
  if (error._tag === "MalformedOutput" && ParseResult.isParseError(error.cause)) {
    // Say where and what was expected, never the value sent: it may be huge, and it is the caller's own.
    const issues = ParseResult.ArrayFormatter.formatErrorSync(error.cause)
      .slice(0, 5)
      .map((issue) => {
        const message = issue.message.split(", actual ")[0]
        const where = issue.path.length === 0 ? "arguments" : issue.path.join(".")
        return `${Fence.oneLine(where, 200)}: ${Fence.oneLine(message, 300)}`
      })
      .join("; ")
    return WebSearchError.requestFailed("invalid_input", `invalid ${name} arguments: ${issues}`, {
      capability: McpTools.capabilityOf[name]
    })
  }
  return WebSearchError.responseInvalid("parse_failed", `${name} failed: ${error._tag}`, {
    capability: McpTools.capabilityOf[name]
  })
}

// The page text is the result's `content`; a second copy in `structuredContent` would double what a client reads.
const structured = (name: string, encoded: unknown): unknown => {
  if (name !== "web_fetch" || typeof encoded !== "object" || encoded === null) return encoded
  const output = encoded as { readonly items?: ReadonlyArray<Record<string, unknown>> }
  return {
    ...output,
    items: (output.items ?? []).map(({ content: _content, ...item }) => item)
  }
}

/**
 * Registers the toolkit's tools with the `McpServer` in context, using the session handlers in context.
 * `web_research` is listed only when a request naming no provider could research (`Research.defaultProvider`:
 * a default research provider with its key and endpoint, by the `ProviderRegistry` in context), `web_map` and
 * `web_crawl` likewise for `mapSite` and `crawlSite` and only when their services are in context, and `web_fetch`
 * items offer `prompt` only when a `LanguageModel` is in context to analyse pages.
 *
 * @since 0.1.0
 * @category utils
 */
export const registerTools: Effect.Effect<void, never, McpServer.McpServer | Tool.HandlersFor<WebSearchToolkit.Tools>> =
  Effect.flatMap(Effect.context<Tool.HandlersFor<WebSearchToolkit.Tools>>(), (handlers) =>
    register(() => Effect.succeed(handlers))
  )

/**
 * The names of the tools the server lists with the services in context, in their order (see `registerTools`).
 *
 * @since 0.2.0
 * @category utils
 */
export const offeredTools: Effect.Effect<ReadonlyArray<string>> = Effect.map(McpTools.offered, (shown) =>
  Object.values(WebSearchToolkit.toolkit.tools)
    .map((tool) => tool.name)
    .filter((name) => name === "web_search" || name === "web_fetch" || shown[name])
)

type Handlers = Context.Context<Tool.HandlersFor<WebSearchToolkit.Tools>>

// Registers the tools; each call runs with the handlers (the toolkit session) of the RPC client it came from, in its
// caller's workspace when it has one (what the pipeline remembers, its result cache and page store, is then that
// workspace's own).
const register = (
  handlersOf: (clientId: number) => Effect.Effect<Handlers>,
  workspaceOf: (clientId: number) => string | undefined = () => undefined
) =>
  Effect.gen(function* () {
    const server = yield* McpServer.McpServer
    const shownTools = yield* McpTools.offered
    const handle = Effect.fnUntraced(function* (name: string, payload: unknown) {
      const client = yield* McpSchema.McpServerClient
      const built = yield* Effect.provide(WebSearchToolkit.toolkit, yield* handlersOf(client.clientId))
      const handled = built.handle(name as never, payload as never) as Effect.Effect<
        Tool.HandlerResult<Tool.Any>,
        unknown
      >
      const workspace = workspaceOf(client.clientId)
      return yield* workspace === undefined ? handled : ProviderInstance.withInstances(handled, workspace, [])
    })
    for (const tool of Object.values(WebSearchToolkit.toolkit.tools)) {
      const name = tool.name
      if (name !== "web_search" && name !== "web_fetch" && !shownTools[name]) continue
      const shown = name === "web_fetch" && !shownTools.analysis ? WebSearchToolkit.WebFetchToolWithoutPrompt : tool
      yield* server.addTool({
        tool: new McpSchema.Tool({
          name,
          description: shown.description,
          inputSchema: Tool.getJsonSchema(shown as Tool.Any as typeof WebSearchToolkit.WebSearchTool),
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
          handle(name, payload).pipe(
            Effect.map((handled) =>
              handled.isFailure
                ? errorResult(handled.result as WebSearchError.WebSearchError)
                : new McpSchema.CallToolResult({
                    isError: false,
                    structuredContent: structured(name, handled.encodedResult),
                    content: [{ type: "text", text: McpTools.render(name, handled.result) }]
                  })
            ),
            // With failure mode "return" a tool's own error arrives as a result; an error here is the toolkit's.
            Effect.catchAll((error) =>
              Effect.succeed(
                errorResult(
                  WebSearchError.isWebSearchError(error)
                    ? error
                    : Failures.withNextStep(name, fromAiError(name, error as AiError.AiError))
                )
              )
            ),
            // A defect's text is internal: the client learns only that the tool failed.
            Effect.catchAllDefect(() =>
              Effect.succeed(
                errorResult(
                  WebSearchError.responseInvalid("parse_failed", `${name} failed unexpectedly (internal error)`, {
                    capability: McpTools.capabilityOf[name]
                  })
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
): Layer.Layer<never, never, McpServer.McpServer | SearchKeywords | FetchUrls | Research.Research> =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      // Everything in context (a LanguageModel too) serves every session's toolkit.
      const services = yield* Effect.context<SearchKeywords | FetchUrls | Research.Research>()
      const build = Effect.provide(WebSearchToolkit.toolkit.toContext(WebSearchToolkit.make(options)), services)
      const sessions = yield* Effect.serviceOption(Sessions.McpSessions)
      if (Option.isNone(sessions)) {
        const shared = yield* build
        return yield* register(() => Effect.succeed(shared))
      }
      // Over HTTP each MCP session has its own toolkit session (source ids, pages read), and each call runs in its
      // caller's workspace. A client without a session gets a toolkit for that call alone: it shares no memory with
      // any other call.
      const bySession = new Map<string, Handlers>()
      sessions.value.onClose((session) => bySession.delete(session))
      const handlersOf = (clientId: number): Effect.Effect<Handlers> => {
        const client = sessions.value.clientOf(clientId)
        const session = client?.session
        if (session === undefined) return Effect.provideService(build, SessionPages.SessionPages, SessionPages.none)
        const known = bySession.get(session.id)
        if (known !== undefined) return Effect.succeed(known)
        return Effect.map(Effect.provideService(build, SessionPages.SessionPages, session.pages), (built) => {
          // The session may have ended while this was built: then it is used for this call and not kept.
          if (sessions.value.clientOf(clientId)?.session?.id !== session.id) return built
          // Two first calls of one session may race: the first kept wins, so the session has one set of ids.
          const kept = bySession.get(session.id) ?? built
          bySession.set(session.id, kept)
          return kept
        })
      }
      return yield* register(handlersOf, (clientId) => sessions.value.clientOf(clientId)?.caller.workspace)
    })
  )

/**
 * The server over stdio: JSON-RPC messages, one per line, on the given streams. Nothing else may write to the
 * output stream; log to stderr.
 *
 * @example
 * ```ts
 * import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
 * import * as NodeSink from "@effect/platform-node/NodeSink"
 * import * as NodeStream from "@effect/platform-node/NodeStream"
 * import * as WebSearchMcp from "@websearch/ai/WebSearchMcp"
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as Fetch from "@websearch/node/Fetch"
 * import * as Layer from "effect/Layer"
 *
 * // An MCP server on this process's stdin and stdout, for a client that starts it as a subprocess.
 * const Server = WebSearchMcp.layerStdio({
 *   name: "websearch",
 *   version: "1.0.0",
 *   stdin: NodeStream.stdin,
 *   stdout: NodeSink.stdout
 * }).pipe(Layer.provide(WebSearch.layer(Fetch.layer)), Layer.provide(Settings.layerConfig()))
 *
 * export const main = () => Layer.launch(Server).pipe(NodeRuntime.runMain)
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerStdio = <EIn, RIn, EOut, ROut>(
  options: Options & {
    readonly stdin: Stream.Stream<Uint8Array, EIn, RIn>
    readonly stdout: Sink.Sink<unknown, Uint8Array | string, unknown, EOut, ROut>
    /** The longest line read (UTF-16 code units, default 1 MiB); a longer one is answered with a parse error. */
    readonly maxLineLength?: number | undefined
  }
): Layer.Layer<McpServer.McpServer, never, RIn | ROut | SearchKeywords | FetchUrls | Research.Research> =>
  layerTools(options.toolkit).pipe(
    Layer.provideMerge(
      McpServer.layer(info(options)).pipe(
        Layer.provide(Layer.scoped(RpcServer.Protocol, StdioTransport.make(options))),
        // stdout carries protocol only.
        Layer.provideMerge(Logger.remove(Logger.defaultLogger)),
        Layer.provideMerge(Logger.remove(Logger.prettyLoggerDefault))
      )
    )
  )

/**
 * The settings of the HTTP endpoint. With the defaults it answers only requests whose Host names a loopback
 * address, from non-browser clients or loopback pages, without authentication: the setting for a server bound to
 * 127.0.0.1. Bind anywhere else only with `tokens`. Each caller (a token, or an address without tokens) may make
 * 600 requests a minute and have 8 in progress (`rateLimit`, `maxConcurrentRequests`: past them, 429 with
 * Retry-After), and hold 16 sessions, each ending after 30 minutes unused (`sessions`).
 *
 * @since 0.1.0
 * @category models
 */
export interface HttpSecurity extends HttpSettings.HttpSecurity {}

/**
 * A token of the HTTP endpoint with the workspace its calls belong to.
 *
 * @since 0.2.0
 * @category models
 */
export interface TokenGrant extends HttpSettings.TokenGrant {}

/**
 * The bounds of the HTTP endpoint's sessions: per token, in all, idle time and the pages each keeps.
 *
 * @since 0.2.0
 * @category models
 */
export interface HttpSessions extends HttpSettings.HttpSessions {}

/**
 * The default body cap of the HTTP endpoint: 1 MiB, far above any real MCP request.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultMaxBodyBytes: number = HttpSettings.defaultMaxBodyBytes

/**
 * Validates the settings: tokens of 16 characters or more without white space or commas (each in one valid
 * workspace), a body cap from 1 KiB to 16 MiB, whole-number limits and bounds, durations of a second or more.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeHttpSecurity: (
  options?: HttpSecurity
) => Effect.Effect<HttpTransport.Security, WebSearchError.Unavailable> = HttpSettings.make

/**
 * The server over streamable HTTP (JSON responses) at `path` of the default `HttpRouter`; serve it with
 * `HttpRouter.Default.serve()` and an `HttpServer`. POST carries the messages; DELETE with `Mcp-Session-Id` ends
 * the caller's own session; GET is 405.
 *
 * Tenants stay apart: a session belongs to the token that opened it (to another token it is 404, as an unknown
 * id is), its source ids and the pages it read are its own, a request without a session shares no memory with any
 * other request, and every call runs in its token's workspace, so the result cache and page store of the
 * pipeline answer that workspace only.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerHttp = (
  options: Options & HttpSecurity & { readonly path: HttpRouter.PathInput }
): Layer.Layer<McpServer.McpServer, WebSearchError.Unavailable, SearchKeywords | FetchUrls | Research.Research> =>
  layerTools(options.toolkit).pipe(
    Layer.provideMerge(
      McpServer.layer(info(options)).pipe(
        Layer.provideMerge(
          Layer.scopedContext(
            Effect.gen(function* () {
              const security = yield* makeHttpSecurity(options)
              const { protocol, sessions } = yield* HttpTransport.register(options.path, security)
              return Context.make(RpcServer.Protocol, protocol).pipe(Context.add(Sessions.McpSessions, sessions))
            })
          ).pipe(Layer.provide(HttpRouter.Default.Live))
        )
      )
    )
  )
