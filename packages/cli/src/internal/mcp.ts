/**
 * `websearch mcp`: the `web_search`, `web_fetch` and `web_research` tools served over MCP. Over stdio (the
 * default) stdout carries nothing but protocol messages, logs go to stderr, and the server stops when stdin
 * closes. With `--http PORT` it serves streamable HTTP at `/mcp` on `--host` (default 127.0.0.1), prints the URL
 * on stderr and runs until interrupted.
 *
 * Over HTTP, bearer tokens come from `WEBSEARCH_API_TOKENS` as for `serve`: with tokens every request needs one,
 * and a token written `TOKEN@WORKSPACE` belongs to that workspace (what its calls leave in the result cache and
 * page store is that workspace's; a session is its token's alone). A bind address that is not loopback needs tokens
 * (or `WEBSEARCH_INSECURE_NO_AUTH=true`); the command refuses to start otherwise. Requests must name an allowed host
 * in their Host header (loopback names, the bind address, and `WEBSEARCH_MCP_ALLOWED_HOSTS`; any host when bound to
 * a wildcard address) and, from a browser, come from a loopback page or one of `WEBSEARCH_MCP_ALLOWED_ORIGINS`
 * (comma-separated). Bodies are JSON only, at most `WEBSEARCH_MCP_MAX_BODY_BYTES` (default 1 MiB;
 * `WEBSEARCH_SERVER_MAX_BODY_BYTES` is `serve`'s own limit). Each token may make `WEBSEARCH_SERVER_RATE_LIMIT`
 * requests per `WEBSEARCH_SERVER_RATE_WINDOW` (default 600 a minute, as for `serve`), have
 * `WEBSEARCH_MCP_MAX_CONCURRENT` in progress (default 8) and hold `WEBSEARCH_MCP_MAX_SESSIONS_PER_TOKEN` sessions
 * (default 16), each ending after `WEBSEARCH_MCP_SESSION_IDLE_TIMEOUT` unused (default 30 minutes).
 *
 * @since 0.1.0
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeStream from "@effect/platform-node/NodeStream"
import * as WebSearchMcp from "@websearch/ai/WebSearchMcp"
import * as ConfigText from "@websearch/core/internal/configText"
import * as Research from "@websearch/core/Research"
import type * as Settings from "@websearch/core/Settings"
import type * as WebSearch from "@websearch/core/WebSearch"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as ServerConfig from "@websearch/server/ServerConfig"
import * as Cause from "effect/Cause"
import * as Config from "effect/Config"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"
import { createServer } from "node:http"
import type * as Cli from "./cli.js"
import * as StdoutGuard from "./stdoutGuard.js"
import type * as Io from "./io.js"
import { version } from "./version.js"

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

const serveStdio = Effect.fnUntraced(function* (io: Io.Io, info: WebSearchMcp.ServerInfo) {
  // stdout is the protocol channel: from now on, any other write to it (a provider module's console.log during
  // a call) goes to stderr, and the protocol's frames pass.
  yield* StdoutGuard.guarded
  const closed = yield* Deferred.make<void>()
  const stdin = NodeStream.stdin.pipe(Stream.ensuring(Deferred.succeed(closed, undefined)))
  const stdout = stdoutSink({ ...io, stdout: StdoutGuard.passThrough(io.stdout) })
  yield* Layer.build(WebSearchMcp.layerStdio({ ...info, stdin, stdout }))
  // The server lists web_research (and web_map, web_crawl) only when a call naming no provider can run it; say
  // which tools are served, and why web_research is not there.
  const tools = yield* WebSearchMcp.offeredTools
  const research = yield* Effect.either(Research.defaultProvider)
  const served = `${tools.slice(0, -1).join(", ")} and ${tools[tools.length - 1]}`
  io.stderr(
    Either.isRight(research)
      ? `websearch mcp: serving ${served} over stdio\n`
      : `websearch mcp: serving ${served} over stdio (web_research is off: ${research.left.message})\n`
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
 * The variable of the HTTP endpoint's body limit in bytes (1024 to 16777216; default 1 MiB). `serve` has its own,
 * `WEBSEARCH_SERVER_MAX_BODY_BYTES`.
 *
 * @since 0.2.0
 * @category constants
 */
export const maxBodyVariable = "WEBSEARCH_MCP_MAX_BODY_BYTES"

const maxBodyBytes = Effect.flatMap(
  Effect.mapError(Config.option(Config.integer(maxBodyVariable)), () =>
    WebSearchError.unavailable("invalid_config", `${maxBodyVariable} takes a whole number of bytes`)
  ),
  (bytes) =>
    Option.isSome(bytes) && (bytes.value < 1024 || bytes.value > 16 * 1024 * 1024)
      ? Effect.fail(
          WebSearchError.unavailable(
            "invalid_config",
            `${maxBodyVariable} takes 1024 to 16777216 bytes, not ${bytes.value}`
          )
        )
      : Effect.succeed(Option.getOrUndefined(bytes))
)

/**
 * The HTTP endpoint's security settings for a bind address, from the environment. Fails with
 * `Unavailable/invalid_config` for a bind address that is not loopback when no token is configured.
 *
 * @since 0.1.0
 * @category utils
 */
export const httpSecurity: (host: string) => Effect.Effect<WebSearchMcp.HttpSecurity, WebSearchError.Unavailable> =
  Effect.fnUntraced(function* (host: string) {
    const server = yield* ServerConfig.fromConfig()
    // A scoped entry (`TOKEN@WORKSPACE:ROLE`) gives its token and workspace; the MCP tools have no use for roles.
    const tokens: Array<WebSearchMcp.TokenGrant> = []
    for (const entry of server.tokens ?? []) {
      const grant = ServerConfig.grantOf(entry)
      if (typeof grant === "string") {
        return yield* Effect.fail(WebSearchError.unavailable("invalid_config", `WEBSEARCH_API_TOKENS: ${grant}`))
      }
      tokens.push({ token: Redacted.make(grant.token), workspace: grant.scope.workspace })
    }
    const limits = yield* Effect.mapError(
      Effect.all({
        concurrent: Config.option(Config.integer("WEBSEARCH_MCP_MAX_CONCURRENT")),
        perToken: Config.option(Config.integer("WEBSEARCH_MCP_MAX_SESSIONS_PER_TOKEN")),
        idle: Config.option(Config.duration("WEBSEARCH_MCP_SESSION_IDLE_TIMEOUT"))
      }),
      (error) =>
        WebSearchError.unavailable("invalid_config", `invalid MCP settings: ${ConfigText.problems(error).join("; ")}`)
    )
    // Checked here too, so a bad value is named by its variable.
    const refused = [
      Option.exists(limits.concurrent, (n) => n < 1) && "WEBSEARCH_MCP_MAX_CONCURRENT must be at least 1",
      Option.exists(limits.perToken, (n) => n < 1) && "WEBSEARCH_MCP_MAX_SESSIONS_PER_TOKEN must be at least 1",
      Option.exists(limits.idle, (d) => Duration.lessThan(d, Duration.seconds(1))) &&
        "WEBSEARCH_MCP_SESSION_IDLE_TIMEOUT must be at least 1 second",
      server.rateLimit !== undefined &&
        server.rateLimit !== false &&
        (!Number.isSafeInteger(server.rateLimit.limit) || server.rateLimit.limit < 0) &&
        "WEBSEARCH_SERVER_RATE_LIMIT must be a whole number, 0 to disable",
      server.rateLimit !== undefined &&
        server.rateLimit !== false &&
        Duration.lessThan(Duration.decode(server.rateLimit.window), Duration.seconds(1)) &&
        "WEBSEARCH_SERVER_RATE_WINDOW must be at least 1 second"
    ].find((problem) => typeof problem === "string")
    if (refused !== undefined) return yield* Effect.fail(WebSearchError.unavailable("invalid_config", refused))
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
    const maxBody = yield* maxBodyBytes
    return {
      tokens,
      allowedHosts: [...bound, ...extra.hosts],
      allowedOrigins: extra.origins,
      ...(maxBody === undefined ? {} : { maxBodyBytes: maxBody }),
      ...(server.rateLimit === undefined ? {} : { rateLimit: server.rateLimit }),
      ...(Option.isSome(limits.concurrent) ? { maxConcurrentRequests: limits.concurrent.value } : {}),
      sessions: {
        ...(Option.isSome(limits.perToken) ? { maxPerToken: limits.perToken.value } : {}),
        ...(Option.isSome(limits.idle) ? { idleTimeout: limits.idle.value } : {})
      }
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
    // One name meant two limits before; a setting that no longer applies here says so rather than being ignored.
    if ((io.env.WEBSEARCH_SERVER_MAX_BODY_BYTES ?? "") !== "" && (io.env[maxBodyVariable] ?? "") === "") {
      io.stderr(
        `websearch mcp: WEBSEARCH_SERVER_MAX_BODY_BYTES is serve's limit; this endpoint's is ${maxBodyVariable} ` +
          `(now ${security.maxBodyBytes ?? WebSearchMcp.defaultMaxBodyBytes} bytes)\n`
      )
    }
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
