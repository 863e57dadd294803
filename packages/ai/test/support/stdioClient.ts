/**
 * `WebSearchMcp.layerStdio` on an in-process pipe over an application, for the scope of a test, with the official
 * MCP client connected to it (closed, and the pipe ended, when the scope closes).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { FetchUrls } from "@websearch/core/FetchUrls"
import type { Research } from "@websearch/core/Research"
import type { SearchKeywords } from "@websearch/core/SearchKeywords"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"
import { PassThrough } from "node:stream"
import * as WebSearchMcp from "../../src/WebSearchMcp.js"
import { PipeTransport } from "./pipeTransport.js"

/** Serves the tools of `application` over a pipe and returns the connected official client. */
export const connectStdio = <E>(application: Layer.Layer<SearchKeywords | FetchUrls | Research, E>) =>
  Effect.gen(function* () {
    const toServer = new PassThrough()
    const fromServer = new PassThrough()
    const server = WebSearchMcp.layerStdio({
      name: "websearch-test",
      stdin: Stream.fromAsyncIterable(toServer as AsyncIterable<Uint8Array>, (error) => error).pipe(Stream.orDie),
      stdout: Sink.forEach((chunk: Uint8Array | string) => Effect.sync(() => fromServer.write(chunk)))
    })
    yield* Layer.launch(server).pipe(Effect.provide(application), Effect.forkScoped)
    yield* Effect.addFinalizer(() => Effect.sync(() => toServer.end()))
    const client = new Client({ name: "test", version: "1.0.0" })
    yield* Effect.promise(() => client.connect(new PipeTransport(toServer, fromServer)))
    yield* Effect.addFinalizer(() => Effect.promise(() => client.close()))
    return client
  })
