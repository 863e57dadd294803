/**
 * `websearch mcp`: the `web_search`, `web_fetch` and `web_research` tools served over MCP. Over stdio (the
 * default) stdout carries nothing but protocol messages, logs go to stderr, and the server stops when stdin
 * closes. With `--http PORT` it serves streamable HTTP at `/mcp` on `--host` (default 127.0.0.1), prints the URL
 * on stderr and runs until interrupted.
 *
 * Over HTTP, bearer tokens come from `WEBSEARCH_API_TOKENS` as for `serve`: with tokens every request needs one.
 * A bind address that is not loopback needs tokens (or `WEBSEARCH_INSECURE_NO_AUTH=true`); the command refuses to
 * start otherwise. Requests must name an allowed host in their Host header (loopback names, the bind address, and
 * `WEBSEARCH_MCP_ALLOWED_HOSTS`; any host when bound to a wildcard address) and, from a browser, come from a
 * loopback page or one of `WEBSEARCH_MCP_ALLOWED_ORIGINS` (comma-separated). Bodies are JSON only, at most
 * `WEBSEARCH_SERVER_MAX_BODY_BYTES` (default 1 MiB).
 *
 * @since 0.1.0
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeStream from "@effect/platform-node/NodeStream"
import * as WebSearchMcp from "@websearch/ai/WebSearchMcp"
import * as ConfigText from "@websearch/core/ConfigText"
import * as Research from "@websearch/core/Research"
import type * as Settings from "@websearch/core/Settings"
import type * as WebSearch from "@websearch/core/WebSearch"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as ServerConfig from "@websearch/server/ServerConfig"
import * as Cause from "effect/Cause"
import * as Config from "effect/Config"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"
import { createServer } from "node:http"
import type * as Cli from "./Cli.js"
import type * as Io from "./Io.js"
import { version } from "./Version.js"

/**
 * The path the HTTP transport serves.
 *
 * @since 0.1.0
 * @category constants
 */
export const httpPath = "/mcp"

// Protocol frames go through `io.stdout` (the process stream in the binary), decoded incrementally so a
// multi-byte character split across chunks is not mangled.
const stdoutSink = (io: Io.Io): Sink.Sink<void, Uint8Array | string> => {
  const decoder = new TextDecoder()
  return Sink.forEach((chunk: Uint8Array | string) =>
    Effect.sync(() => io.stdout(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true })))
  )
}

const serveStdio = (io: Io.Io, info: WebSearchMcp.ServerInfo) =>
  Effect.gen(function* () {
    const closed = yield* Deferred.make<void>()
    const stdin = NodeStream.stdin.pipe(Stream.ensuring(Deferred.succeed(closed, undefined)))
    yield* Layer.build(WebSearchMcp.layerStdio({ ...info, stdin, stdout: stdoutSink(io) }))
    // The server lists web_research only when a call naming no provider can research; say why it is not there.
    const research = yield* Effect.either(Research.defaultProvider)
    io.stderr(
      Either.isRight(research)
        ? "websearch mcp: serving web_search, web_fetch and web_research over stdio\n"
        : `websearch mcp: serving web_search and web_fetch over stdio (web_research is off: ${research.left.message})\n`
    )
    yield* Deferred.await(closed)
  })

const isLoopback = (host: string): boolean =>
  host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)

const isWildcard = (host: string): boolean => host === "0.0.0.0" || host === "::" || host === "[::]" || host === ""

const list = (name: string) =>
  Config.map(
    ConfigText.optionalList(name),
    Option.getOrElse((): Array<string> => [])
  )

/**
 * The HTTP endpoint's security settings for a bind address, from the environment. Fails with
 * `Unavailable/invalid_config` for a bind address that is not loopback when no token is configured.
 *
 * @since 0.1.0
 * @category utils
 */
export const httpSecurity = (host: string): Effect.Effect<WebSearchMcp.HttpSecurity, WebSearchError.Unavailable> =>
  Effect.gen(function* () {
    const server = yield* ServerConfig.fromConfig()
    // The MCP endpoint has no workspaces: a scoped entry (`TOKEN@WORKSPACE:ROLE`) gives its token.
    const tokens: Array<Redacted.Redacted<string>> = []
    for (const entry of server.tokens ?? []) {
      const grant = ServerConfig.grantOf(entry)
      if (typeof grant === "string") {
        return yield* Effect.fail(WebSearchError.unavailable("invalid_config", `WEBSEARCH_API_TOKENS: ${grant}`))
      }
      tokens.push(Redacted.make(grant.token))
    }
    const extra = yield* Effect.mapError(
      Effect.all({ hosts: list("WEBSEARCH_MCP_ALLOWED_HOSTS"), origins: list("WEBSEARCH_MCP_ALLOWED_ORIGINS") }),
      () => WebSearchError.unavailable("invalid_config", "invalid WEBSEARCH_MCP_ALLOWED_HOSTS or _ORIGINS")
    )
    if (!isLoopback(host) && tokens.length === 0 && server.insecureNoAuth !== true) {
      return yield* Effect.fail(
        WebSearchError.unavailable(
          "invalid_config",
          `websearch mcp will not serve ${host} without authentication: set WEBSEARCH_API_TOKENS (comma-separated), ` +
            "or bind to 127.0.0.1"
        )
      )
    }
    const bound = isLoopback(host) ? [] : isWildcard(host) ? ["*"] : [host.includes(":") ? `[${host}]` : host]
    return {
      tokens,
      allowedHosts: [...bound, ...extra.hosts],
      allowedOrigins: extra.origins,
      ...(server.maxBodyBytes === undefined ? {} : { maxBodyBytes: server.maxBodyBytes })
    }
  })

const serveHttp = (
  command: Extract<Cli.Command, { _tag: "Mcp" }>,
  port: number,
  io: Io.Io,
  info: WebSearchMcp.ServerInfo
) =>
  Effect.gen(function* () {
    const security = yield* httpSecurity(command.host)
    const server = Layer.mergeAll(
      WebSearchMcp.layerHttp({ ...info, ...security, path: httpPath }),
      HttpRouter.Default.serve()
    ).pipe(Layer.provideMerge(NodeHttpServer.layer(createServer, { port, host: command.host })))
    const context = yield* Layer.build(server).pipe(
      Effect.catchAllCause((cause) => {
        // Settings the layer refused keep their own error; anything else is a failure to listen.
        const failure = Cause.failureOption(cause)
        if (Option.isSome(failure) && WebSearchError.isWebSearchError(failure.value)) return Effect.fail(failure.value)
        return Effect.fail(
          WebSearchError.unavailable(
            "invalid_config",
            `websearch mcp cannot listen on ${command.host}:${port}: ${Cause.squash(cause) instanceof Error ? (Cause.squash(cause) as Error).message : Cause.pretty(cause).split("\n")[0]}`
          )
        )
      })
    )
    const address = (yield* Effect.provide(HttpServer.HttpServer, context)).address
    const url =
      address._tag === "TcpAddress"
        ? `http://${address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname}:${address.port}${httpPath}`
        : `unix:${address.path}`
    io.stderr(`websearch mcp: listening on ${url}\n`)
    return yield* Effect.never
  })

/**
 * Runs `websearch mcp` with the capability services in context: until stdin closes (stdio, exit code 0) or
 * until interrupted (HTTP). `live` is already provided by `Main`; it is accepted for symmetry with `serve`.
 *
 * @since 0.1.0
 * @category utils
 */
export const run = (
  command: Extract<Cli.Command, { _tag: "Mcp" }>,
  io: Io.Io,
  _live: Layer.Layer<WebSearch.WebSearch | Settings.Settings, WebSearchError.Unavailable>
): Effect.Effect<number, WebSearchError.WebSearchError, WebSearch.WebSearch | Settings.Settings> => {
  const info = { name: "websearch", version: version() }
  const serve = command.http === undefined ? serveStdio(io, info) : serveHttp(command, command.http, io, info)
  return Effect.scoped(serve).pipe(
    Effect.as(0),
    Effect.withSpan("websearch.cli.mcp", {
      attributes: { transport: command.http === undefined ? "stdio" : "http" }
    })
  )
}
