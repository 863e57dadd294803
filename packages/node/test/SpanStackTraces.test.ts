/**
 * The spans of one fetch take no stack trace. Effect captures one per span unless told not to (an `Error` built
 * per span, on the request path: about 1 % of the server's main thread in bench/hostile's hostile phase), and the
 * span's name already says where it was opened. The core pipeline's spans were made so before; this pins the
 * fetch path's (transport request, hop, lookup, extraction, robots) as well.
 */
import { describe, expect, it } from "@effect/vitest"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Tracer from "effect/Tracer"
import * as Fetch from "../src/Fetch.js"
import * as LocalServer from "./support/localServer.js"

const paragraph = "Layers describe how services are constructed, and a program states which services it needs."

describe("spans on the fetch path", () => {
  it.scopedLive("none of them captures a stack trace, inline or in a worker, with robots.txt checked", () =>
    Effect.gen(function* () {
      const server = yield* LocalServer.start({
        "/robots.txt": { headers: { "content-type": "text/plain" }, body: "User-agent: *\nAllow: /\n" },
        "/small": LocalServer.html(LocalServer.articlePage("Small", [paragraph])),
        "/big": LocalServer.html(
          LocalServer.articlePage(
            "Big",
            Array.from({ length: 400 }, () => paragraph)
          )
        )
      })
      const opened: Array<{ readonly name: string; readonly stackTrace: boolean }> = []
      const base = yield* Effect.tracer
      const tracer = Tracer.make({
        span: (name, parent, context, links, startTime, kind, options) => {
          // Effect hands a tracer the capture as a function when it took one.
          opened.push({ name, stackTrace: typeof options?.captureStackTrace === "function" })
          return base.span(name, parent, context, links, startTime, kind, options)
        },
        context: (f, fiber) => base.context(f, fiber)
      })
      const live = WebSearch.layer(Fetch.layerWith({ respectRobotsTxt: true, workers: { size: 1, threshold: 1024 } }))
      const response = yield* FetchUrls.fetchUrls({ urls: [server.url("/small"), server.url("/big")] }).pipe(
        Effect.withTracer(tracer),
        Effect.provide(live.pipe(Layer.provideMerge(Settings.layer({ urlPolicy: { allowHosts: ["127.0.0.1"] } }))))
      )
      expect(response.failures).toEqual([])
      const names = new Set(opened.map((span) => span.name))
      for (const name of [
        "websearch.fetch.url",
        "websearch.fetch.robots",
        "websearch.transport.request",
        "websearch.transport.hop",
        "websearch.fetch.extract.worker"
      ]) {
        expect(names).toContain(name)
      }
      expect(opened.filter((span) => span.stackTrace).map((span) => span.name)).toEqual([])
    })
  )
})
