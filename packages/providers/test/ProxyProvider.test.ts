/**
 * Provider API calls behind an outbound proxy: a real driver (Brave) against the local fixture server, through
 * `@websearch/node`'s `ProxyHttpClient` (what the CLI and server use) and a local CONNECT proxy that records
 * what it sees.
 */
import * as ProviderQuota from "@websearch/core/ProviderQuota"
import * as SearchKeywords from "@websearch/core/SearchKeywords"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as ProxyHttpClient from "@websearch/node/ProxyHttpClient"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as ConnectProxy from "../../../test-support/connectProxy.js"
import * as DnsAnswers from "../../../test-support/dnsAnswers.js"
import { recordingTracer, spanText } from "../../../test-support/recordingTracer.js"
import * as Brave from "../src/Brave.js"
import * as Server from "./support/providerServer.js"

const fixture = Server.fixture<Server.FixtureJson>("brave.json")
const proxyPassword = "CANARY-PROXY-PASS-3c9d1e"

let server: Server.ProviderServer
let proxy: ConnectProxy.ConnectProxy
beforeAll(async () => {
  server = await Server.start(Server.json(fixture.response.body))
  proxy = await ConnectProxy.start()
})
afterAll(async () => {
  await server.close()
  await proxy.close()
})
beforeEach(() => {
  server.requests.length = 0
  proxy.targets.length = 0
  proxy.authorizations.length = 0
})

/** Runs one Brave search with these settings and environment under a recording tracer, capturing logs. */
const search = (settings: Settings.SettingsInput, env: Record<string, string> = {}, providerId = "brave") => {
  const logs: Array<string> = []
  const logger = Logger.make(({ annotations, message }) => {
    logs.push(`${String(message)} ${JSON.stringify(annotations)}`)
  })
  const live = WebSearch.layer(Brave.layer, ProviderQuota.layerMemory()).pipe(
    Layer.provide(ProxyHttpClient.layer()),
    Layer.provideMerge(Settings.layer(settings))
  )
  return Effect.runPromise(
    Effect.gen(function* () {
      const { spans, tracer } = yield* recordingTracer
      const exit = yield* Effect.exit(
        SearchKeywords.searchKeywords({ providerId, keywords: ["python"] }).pipe(
          Effect.provide(live),
          Effect.withTracer(tracer)
        )
      )
      return { exit, spans, logs }
    }).pipe(
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
      Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
      Logger.withMinimumLogLevel(LogLevel.All)
    )
  )
}

const braveSettings = (override: Record<string, unknown> = {}, allowProxy = true) => {
  const base = Server.settingsFor(server, "brave", { capabilities: ["searchKeywords"], override })
  return {
    ...base,
    urlPolicy: { allowHosts: [...(base.urlPolicy?.allowHosts ?? []), ...(allowProxy ? [proxy.hostPort] : [])] }
  }
}

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString("base64")}`

describe("provider calls through an outbound proxy", () => {
  it("a provider's proxyUrl carries its calls through a CONNECT tunnel, credentials as Proxy-Authorization only", async () => {
    const { exit, logs, spans } = await search(braveSettings({ proxyUrl: proxy.url(`proxy-user:${proxyPassword}`) }))
    expect(Exit.isSuccess(exit)).toBe(true)
    if (Exit.isSuccess(exit)) expect(exit.value.results.length).toBeGreaterThan(0)
    // The proxy was asked for a tunnel to the provider's endpoint, with the credentials of the proxy URL.
    expect(proxy.targets).toEqual([server.hostPort])
    expect(proxy.authorizations).toEqual([basic(`proxy-user:${proxyPassword}`)])
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0].headers["proxy-authorization"]).toBeUndefined()
    // The proxy's password is in no span, log or answer.
    const everything = [...spans.map(spanText), ...logs, JSON.stringify(exit)].join("\n")
    expect(everything).not.toContain(proxyPassword)
    expect(everything).not.toContain(Buffer.from(`proxy-user:${proxyPassword}`).toString("base64"))
    expect(spans.some((span) => span.name.startsWith("http.client"))).toBe(true)
  })

  it("an instance's proxyUrl carries that instance's calls, and only its calls", async () => {
    const base = braveSettings()
    const settings: Settings.SettingsInput = {
      ...base,
      instances: {
        "brave-proxied": {
          type: "brave",
          apiKeys: [Server.canary],
          capabilities: { searchKeywords: { apiHost: server.url } },
          proxyUrl: proxy.url()
        }
      }
    }
    const proxied = await search(settings, {}, "brave-proxied")
    expect(Exit.isSuccess(proxied.exit)).toBe(true)
    expect(proxy.targets).toEqual([server.hostPort])
    // The plain provider of the same type has no proxy of its own, and goes direct.
    const direct = await search(settings, {}, "brave")
    expect(Exit.isSuccess(direct.exit)).toBe(true)
    expect(proxy.targets).toEqual([server.hostPort])
    expect(server.requests).toHaveLength(2)
  })

  it("HTTP_PROXY from the environment carries the call, and NO_PROXY sends the host direct", async () => {
    const proxied = await search(braveSettings(), { HTTP_PROXY: proxy.url() })
    expect(Exit.isSuccess(proxied.exit)).toBe(true)
    expect(proxy.targets).toEqual([server.hostPort])
    expect(server.requests).toHaveLength(1)

    for (const noProxy of ["127.0.0.1", `localhost, ${server.hostPort}`, "127.0.0.0/8", "*"]) {
      proxy.targets.length = 0
      server.requests.length = 0
      const direct = await search(braveSettings(), { http_proxy: proxy.url(), no_proxy: noProxy })
      expect(Exit.isSuccess(direct.exit)).toBe(true)
      expect({ noProxy, targets: proxy.targets }).toEqual({ noProxy, targets: [] })
      expect(server.requests).toHaveLength(1)
    }
    // An entry for another port of the host does not send it direct.
    proxy.targets.length = 0
    await search(braveSettings(), {
      HTTP_PROXY: proxy.url(),
      NO_PROXY: `127.0.0.1:${Number(server.hostPort.split(":")[1]) + 1}`
    })
    expect(proxy.targets).toEqual([server.hostPort])
  })

  it("a provider's proxyUrl wins over NO_PROXY and the environment's proxy", async () => {
    const { exit } = await search(braveSettings({ proxyUrl: proxy.url() }), {
      HTTP_PROXY: "http://proxy.example.com:3128",
      NO_PROXY: "*"
    })
    expect(Exit.isSuccess(exit)).toBe(true)
    expect(proxy.targets).toEqual([server.hostPort])
  })

  it("an endpoint whose name resolves to a refused address fails ssrf_rejected through the proxy, asking it nothing", async () => {
    // A workspace admin's endpoint: names that look public and resolve to loopback, private and IPv6 loopback
    // addresses (as an internal DNS would answer them), reached through the environment's proxy.
    const answers: Record<string, DnsAnswers.Answer> = {
      "loop.attacker.example": { address: "127.0.0.1", family: 4 },
      "private.attacker.example": { address: "192.168.10.20", family: 4 },
      "v6.attacker.example": { address: "::1", family: 6 }
    }
    const port = Number(server.hostPort.split(":")[1])
    const restore = DnsAnswers.install(answers)
    try {
      for (const name of Object.keys(answers)) {
        for (const env of [{ HTTP_PROXY: proxy.url() }, { https_proxy: proxy.url(), http_proxy: proxy.url() }]) {
          const settings: Settings.SettingsInput = {
            urlPolicy: { allowHosts: [proxy.hostPort], allowPorts: [port] },
            instances: {
              "acme-brave": {
                type: "brave",
                apiKeys: [Server.canary],
                capabilities: { searchKeywords: { apiHost: `http://${name}:${port}` } }
              }
            }
          }
          const { exit, logs } = await search(settings, env, "acme-brave")
          const error = Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error : undefined
          expect({ name, reason: error?.reason }).toEqual({ name, reason: "ssrf_rejected" })
          // The caller is told the name is refused, not what it resolves to.
          expect(JSON.stringify(exit)).not.toContain(answers[name].address)
          expect(logs.join("\n")).not.toContain(Server.canary)
        }
      }
    } finally {
      restore()
    }
    expect(proxy.targets).toEqual([])
    expect(server.requests).toEqual([])
  })

  it("a proxy on a loopback address is refused unless allowlisted, before anything is sent", async () => {
    const fromSettings = await search(braveSettings({ proxyUrl: proxy.url(`u:${proxyPassword}`) }, false))
    expect(Exit.isFailure(fromSettings.exit)).toBe(true)
    const settingsError = Exit.isFailure(fromSettings.exit) ? String(fromSettings.exit.cause) : ""
    expect(settingsError).toContain("providers.brave.proxyUrl")
    expect(settingsError).toContain("loopback")
    expect(settingsError).not.toContain(proxyPassword)

    const fromEnv = await search(braveSettings({}, false), { HTTPS_PROXY: proxy.url(`u:${proxyPassword}`) })
    const envError = Exit.isFailure(fromEnv.exit) ? (fromEnv.exit.cause.toJSON() as unknown) : undefined
    const text = JSON.stringify(envError)
    expect(text).toContain("HTTPS_PROXY")
    expect(text).toContain("urlPolicy.allowHosts")
    expect(text).not.toContain(proxyPassword)
    expect(proxy.targets).toEqual([])
    expect(server.requests).toEqual([])
  })

  it("a malformed environment proxy fails the Layer with a typed error naming the variable", async () => {
    for (const [env, field] of [
      [{ HTTP_PROXY: "socks5://127.0.0.1:1080" }, "HTTP_PROXY"],
      [{ https_proxy: "http://[bad" }, "https_proxy"],
      [{ HTTP_PROXY: "http://proxy.example.com:3128/some/path" }, "HTTP_PROXY"]
    ] as const) {
      const { exit } = await search(braveSettings(), env)
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) {
        const error = exit.cause._tag === "Fail" ? (exit.cause.error as WebSearchError.WebSearchError) : undefined
        expect(error?._tag).toBe("Unavailable")
        expect(error?.reason).toBe("invalid_config")
        expect(error?.message).toContain(`${field}: the proxy`)
      }
    }
    expect(server.requests).toEqual([])
  })
})
