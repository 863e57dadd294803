/**
 * The local fetcher behind an outbound proxy, over real sockets on 127.0.0.1: the target is resolved and checked
 * here and the proxy asked to CONNECT to the checked address (never the name), every redirect hop likewise;
 * NO_PROXY sends a host direct; the proxy itself passes the URL policy; its credentials appear nowhere.
 */
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as ConnectProxy from "../../../test-support/connectProxy.js"
import * as DnsAnswers from "../../../test-support/dnsAnswers.js"
import { recordingTracer, spanText } from "../../../test-support/recordingTracer.js"
import * as Fetch from "../src/Fetch.js"
import * as LocalServer from "./support/localServer.js"

const paragraphs = [
  "Proxies carry requests for networks that cannot reach the web directly, and see only what they are asked for.",
  "The fetcher checks the address of every target itself, so a proxy cannot be used to reach an internal host."
]

const proxyPassword = "CANARY-FETCH-PROXY-PASS-71b2"

/** Fetches the URLs with these settings and this environment, under a recording tracer, capturing logs. */
const fetchUrls = (urls: ReadonlyArray<string>, input: Settings.SettingsInput, env: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const logs: Array<string> = []
    const logger = Logger.make(({ annotations, message }) => {
      logs.push(`${String(message)} ${JSON.stringify(annotations)}`)
    })
    const { spans, tracer } = yield* recordingTracer
    const live = WebSearch.layer(Fetch.layerWith({ workers: false })).pipe(Layer.provideMerge(Settings.layer(input)))
    const exit = yield* Effect.exit(
      FetchUrls.fetchUrls({ urls: [...urls] }).pipe(Effect.provide(live), Effect.withTracer(tracer))
    ).pipe(
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
      Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
      Logger.withMinimumLogLevel(LogLevel.All)
    )
    return { exit, spans, logs }
  })

const startFailure = (exit: Exit.Exit<unknown, WebSearchError.WebSearchError>) =>
  Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error : undefined

describe("the local fetcher through an outbound proxy", () => {
  it.scopedLive(
    "HTTP_PROXY tunnels every hop to the checked address; Host keeps the name; credentials stay hidden",
    () =>
      Effect.gen(function* () {
        const proxy = yield* ConnectProxy.scoped
        const final = yield* LocalServer.start({
          "/article": LocalServer.html(LocalServer.articlePage("Through the proxy", paragraphs))
        })
        const first = yield* LocalServer.start({
          "/moved": { status: 302, headers: { location: `http://localhost:${final.port}/article` } }
        })
        const { exit, logs, spans } = yield* fetchUrls(
          [`http://localhost:${first.port}/moved`],
          { urlPolicy: { allowHosts: [`localhost:${first.port}`, `localhost:${final.port}`, proxy.hostPort] } },
          { HTTP_PROXY: proxy.url(`fetch-user:${proxyPassword}`) }
        )
        expect(Exit.isSuccess(exit)).toBe(true)
        if (Exit.isSuccess(exit)) {
          expect(exit.value.results[0]?.content).toContain("see only what they are asked for")
          expect(exit.value.results[0]?.url).toBe(`http://localhost:${final.port}/article`)
        }
        // Both hops: a tunnel to the address `localhost` resolved to and was checked as, never to the name.
        expect(proxy.targets).toEqual([`127.0.0.1:${first.port}`, `127.0.0.1:${final.port}`])
        expect(proxy.authorizations).toEqual([
          `Basic ${Buffer.from(`fetch-user:${proxyPassword}`).toString("base64")}`,
          `Basic ${Buffer.from(`fetch-user:${proxyPassword}`).toString("base64")}`
        ])
        expect(first.hits).toEqual(["/moved"])
        expect(final.hits).toEqual(["/article"])
        const everything = [...spans.map(spanText), ...logs, JSON.stringify(exit)].join("\n")
        expect(everything).not.toContain(proxyPassword)
        expect(everything).not.toContain(Buffer.from(`fetch-user:${proxyPassword}`).toString("base64"))
        // The hop spans name the proxy by its origin only.
        expect(
          spans
            .filter((span) => span.name === "websearch.transport.hop")
            .map((s) => s.attributes.get("websearch.proxy"))
        ).toEqual([`http://127.0.0.1:${proxy.port}`, `http://127.0.0.1:${proxy.port}`])
      })
  )

  it.scopedLive(
    "providers.fetch.proxyUrl carries the fetch, and NO_PROXY sends an environment-proxied host direct",
    () =>
      Effect.gen(function* () {
        const proxy = yield* ConnectProxy.scoped
        const server = yield* LocalServer.start({
          "/article": LocalServer.html(LocalServer.articlePage("Direct or not", paragraphs))
        })
        const allow = { urlPolicy: { allowHosts: [`127.0.0.1:${server.port}`, proxy.hostPort] } }
        const configured = yield* fetchUrls([server.url("/article")], {
          ...allow,
          providers: { fetch: { proxyUrl: proxy.url() } }
        })
        expect(Exit.isSuccess(configured.exit)).toBe(true)
        expect(proxy.targets).toEqual([`127.0.0.1:${server.port}`])

        proxy.targets.length = 0
        const direct = yield* fetchUrls([server.url("/article")], allow, {
          https_proxy: proxy.url(),
          http_proxy: proxy.url(),
          NO_PROXY: "example.com, 127.0.0.1"
        })
        expect(Exit.isSuccess(direct.exit)).toBe(true)
        expect(proxy.targets).toEqual([])
        expect(server.hits).toEqual(["/article", "/article"])
      })
  )

  it.scopedLive("a loopback proxy is refused unless allowlisted, naming where it was set", () =>
    Effect.gen(function* () {
      const proxy = yield* ConnectProxy.scoped
      const server = yield* LocalServer.start({
        "/article": LocalServer.html(LocalServer.articlePage("No", paragraphs))
      })
      const allowTarget = { urlPolicy: { allowHosts: [`127.0.0.1:${server.port}`] } }
      const fromEnv = yield* fetchUrls([server.url("/article")], allowTarget, {
        HTTPS_PROXY: proxy.url(`u:${proxyPassword}`)
      })
      const envError = startFailure(fromEnv.exit)
      expect(envError?._tag).toBe("Unavailable")
      expect(envError?.message).toContain("HTTPS_PROXY")
      expect(envError?.message).toContain("127.0.0.1 is a loopback address")
      expect(envError?.message).not.toContain(proxyPassword)
      const fromSettings = yield* fetchUrls([server.url("/article")], {
        ...allowTarget,
        providers: { fetch: { proxyUrl: proxy.url() } }
      })
      expect(startFailure(fromSettings.exit)?.message).toContain("providers.fetch.proxyUrl")
      expect(proxy.targets).toEqual([])
      expect(server.hits).toEqual([])
    })
  )

  it.scopedLive(
    "a name resolving to a refused address is refused before the proxy is asked, on the first hop and on a redirect",
    () =>
      Effect.gen(function* () {
        const proxy = yield* ConnectProxy.scoped
        const internal = yield* LocalServer.start({ "/": LocalServer.html("<p>internal admin console</p>") })
        const answers: Record<string, DnsAnswers.Answer> = {
          "loop.attacker.example": { address: "127.0.0.1", family: 4 },
          "private.attacker.example": { address: "10.9.8.7", family: 4 },
          "v6.attacker.example": { address: "::1", family: 6 }
        }
        yield* DnsAnswers.scoped(answers)
        const names = Object.keys(answers)
        const start = yield* LocalServer.start(
          Object.fromEntries(
            names.map((name) => [
              `/${name}`,
              { status: 302, headers: { location: `http://${name}:${internal.port}/` } }
            ])
          )
        )
        const policy = {
          urlPolicy: { allowHosts: [proxy.hostPort, `127.0.0.1:${start.port}`], allowPorts: [internal.port] }
        }
        for (const env of [{ HTTP_PROXY: proxy.url() }, { http_proxy: proxy.url(), HTTPS_PROXY: proxy.url() }]) {
          const first = yield* fetchUrls(
            names.map((name) => `http://${name}:${internal.port}/`),
            policy,
            env
          )
          expect(startFailure(first.exit)?.reason).toBe("ssrf_rejected")
          const redirected = yield* fetchUrls(
            names.map((name) => start.url(`/${name}`)),
            policy,
            env
          )
          expect(startFailure(redirected.exit)?.reason).toBe("ssrf_rejected")
          // What a name resolves to is never said (the redirect's inputs name the start server's own address).
          for (const { address } of Object.values(answers)) expect(JSON.stringify(first.exit)).not.toContain(address)
          expect(JSON.stringify(redirected.exit)).not.toContain("10.9.8.7")
        }
        // The proxy only ever carried the first hops to the allowed start server.
        expect(new Set(proxy.targets)).toEqual(new Set([`127.0.0.1:${start.port}`]))
        expect(internal.hits).toEqual([])
      })
  )

  it.scopedLive("an SSRF target is refused before the proxy is asked for anything", () =>
    Effect.gen(function* () {
      const proxy = yield* ConnectProxy.scoped
      const server = yield* LocalServer.start({ "/": LocalServer.html("<p>internal</p>") })
      const { exit } = yield* fetchUrls(
        ["http://169.254.169.254/latest/meta-data/", `http://localhost:${server.port}/`],
        { urlPolicy: { allowHosts: [proxy.hostPort] } },
        { HTTP_PROXY: proxy.url() }
      )
      // Every input refused: the request fails with the refusal (the cloud metadata address, then loopback).
      expect(startFailure(exit)?.reason).toBe("ssrf_rejected")
      expect(JSON.stringify(exit)).toContain("localhost")
      expect(proxy.targets).toEqual([])
      expect(server.hits).toEqual([])
    })
  )
})
