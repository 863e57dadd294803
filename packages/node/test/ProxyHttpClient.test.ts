/**
 * `ProxyHttpClient` on its own: the call's proxy (`OutboundProxy.CallProxy`) is checked when it is used, a
 * bounded number of proxy pools serves any number of proxies, and with no proxy requests go direct.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as OutboundProxy from "@websearch/core/OutboundProxy"
import * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as WebSearchError from "@websearch/core/WebSearchError"
import { describe, expect, it } from "@effect/vitest"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Tracer from "effect/Tracer"
import * as ConnectProxy from "../../../test-support/connectProxy.js"
import * as ProxyHttpClient from "../src/ProxyHttpClient.js"
import * as LocalServer from "./support/localServer.js"
import * as Transport from "./support/transport.js"

const withCallProxy = (url: string, field = "providers.acme.proxyUrl") =>
  Effect.provideService(OutboundProxy.CallProxy, Option.some({ field, url: Redacted.make(url) }))

describe("ProxyHttpClient", () => {
  it.scopedLive("a call's proxy is checked when used: refused unless allowlisted, the error naming the setting", () =>
    Effect.gen(function* () {
      const proxy = yield* ConnectProxy.scoped
      const server = yield* LocalServer.start({ "/": { body: "ok" } })
      const client = yield* ProxyHttpClient.make({
        policy: UrlPolicy.make({ allowHosts: [`127.0.0.1:${server.port}`] })
      })
      const error = yield* Effect.flip(client.get(server.url("/")).pipe(withCallProxy(proxy.url("u:CANARY-UNIT-PASS"))))
      expect(error._tag).toBe("RequestError")
      const cause = error.cause
      expect(cause).toBeInstanceOf(WebSearchError.RequestFailed)
      expect((cause as WebSearchError.RequestFailed).reason).toBe("ssrf_rejected")
      expect(error.message).toContain("providers.acme.proxyUrl")
      expect(JSON.stringify(error)).not.toContain("CANARY-UNIT-PASS")
      expect(proxy.targets).toEqual([])
      expect(server.hits).toEqual([])
      // Without a proxy the same request goes direct.
      const response = yield* client.get(server.url("/"))
      expect(yield* response.text).toBe("ok")
      expect(server.hits).toEqual(["/"])
    })
  )

  it.scopedLive("more proxies than pools: each request still goes through its own proxy", () =>
    Effect.gen(function* () {
      const proxies = [yield* ConnectProxy.scoped, yield* ConnectProxy.scoped, yield* ConnectProxy.scoped]
      const server = yield* LocalServer.start({ "/": { body: "ok" } })
      const client = yield* ProxyHttpClient.make({
        policy: UrlPolicy.make({ allowHosts: [`127.0.0.1:${server.port}`, ...proxies.map((p) => p.hostPort)] }),
        maxProxies: 2
      })
      for (const round of [0, 1]) {
        for (const proxy of proxies) {
          const response = yield* client.get(server.url("/")).pipe(withCallProxy(proxy.url()))
          expect(yield* response.text).toBe("ok")
          expect(proxy.targets).toHaveLength(round + 1)
        }
      }
      expect(server.hits).toHaveLength(6)
    })
  )

  it.scopedLive(
    "the dial check runs on the application's runtime: its config provider serves the lookup, its tracer sees the span",
    () =>
      Effect.gen(function* () {
        const server = yield* LocalServer.start({ "/": { body: "ok" } })
        const native = yield* Effect.tracer
        const spans: Array<string> = []
        const tracer = Tracer.make({
          span: (name, parent, context, links, startTime, kind, options) => {
            spans.push(name)
            return native.span(name, parent, context, links, startTime, kind, options)
          },
          context: native.context
        })
        // A lookup written as an Effect, reading the application's configuration: the default runtime has none.
        const lookup = () => Effect.map(Config.string("DIAL_TEST_ADDRESS"), (address) => [{ address, family: 4 }])
        const client = yield* ProxyHttpClient.make({
          policy: UrlPolicy.make({ allowHosts: [`dial.test:${server.port}`] }),
          lookup
        }).pipe(
          Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["DIAL_TEST_ADDRESS", "127.0.0.1"]]))),
          Effect.withTracer(tracer)
        )
        const response = yield* client.get(`http://dial.test:${server.port}/`)
        expect(yield* response.text).toBe("ok")
        expect(spans).toContain("websearch.transport.lookup")
      })
  )

  it.scopedLive(
    "every dial resolves and checks its host: a name that resolves to loopback is refused, direct or as a proxy",
    () =>
      Effect.gen(function* () {
        const proxy = yield* ConnectProxy.scoped
        const server = yield* LocalServer.start({ "/": { body: "ok" } })
        // Both names pass the policy by name (they look public) and resolve to 127.0.0.1: DNS rebinding.
        const lookups: Array<string> = []
        const lookup = (hostname: string) => {
          lookups.push(hostname)
          return Promise.resolve([{ address: "127.0.0.1", family: 4 }])
        }
        const strict = yield* ProxyHttpClient.make({
          policy: UrlPolicy.make({ allowHosts: [`127.0.0.1:${server.port}`] }),
          lookup
        })
        const proxied = yield* Effect.flip(
          strict.get(server.url("/")).pipe(withCallProxy(`http://proxy.rebind.example:${proxy.port}`))
        )
        expect((proxied.cause as WebSearchError.RequestFailed).reason).toBe("ssrf_rejected")
        expect((proxied.cause as WebSearchError.RequestFailed).message).toContain(
          `the proxy http://proxy.rebind.example:${proxy.port}: proxy.rebind.example resolves to an address that is ` +
            "not public"
        )
        expect((proxied.cause as WebSearchError.RequestFailed).message).not.toContain("127.0.0.1")
        expect(proxy.targets).toEqual([])
        const direct = yield* Effect.flip(strict.get(`http://api.rebind.example:${server.port}/`))
        expect((direct.cause as WebSearchError.RequestFailed).reason).toBe("ssrf_rejected")
        expect(server.hits).toEqual([])
        expect(lookups).toEqual(["proxy.rebind.example", "api.rebind.example"])
        // Trusted by name, the same proxy is dialled at the address its name resolves to.
        const trusting = yield* ProxyHttpClient.make({
          policy: UrlPolicy.make({ allowHosts: [`127.0.0.1:${server.port}`, "proxy.rebind.example"] }),
          lookup
        })
        const response = yield* trusting
          .get(server.url("/"))
          .pipe(withCallProxy(`http://proxy.rebind.example:${proxy.port}`))
        expect(yield* response.text).toBe("ok")
        expect(proxy.targets).toEqual([`127.0.0.1:${server.port}`])
      })
  )

  it.scopedLive(
    "through a proxy, a target whose name resolves to a refused address fails ssrf_rejected before anything is sent",
    () =>
      Effect.gen(function* () {
        const proxy = yield* ConnectProxy.scoped
        const server = yield* LocalServer.start({ "/": { body: "internal" } })
        // Names that look public and resolve to loopback, private, IPv6 loopback and IPv4-mapped loopback addresses.
        const answers: Record<string, string> = {
          "loop.attacker.example": "127.0.0.1",
          "private.attacker.example": "10.20.30.40",
          "v6.attacker.example": "::1",
          "mapped.attacker.example": "::ffff:127.0.0.1",
          "meta.attacker.example": "169.254.169.254"
        }
        const lookup = (hostname: string) =>
          Promise.resolve([{ address: answers[hostname] ?? "127.0.0.1", family: hostname.startsWith("v6") ? 6 : 4 }])
        const policy = UrlPolicy.make({ allowHosts: [proxy.hostPort] })
        const fromEnv = yield* ProxyHttpClient.make({ policy, lookup, env: { HTTP_PROXY: proxy.url() } })
        const plain = yield* ProxyHttpClient.make({ policy, lookup })
        for (const name of Object.keys(answers)) {
          for (const [client, provide] of [
            [fromEnv, Effect.provideService(OutboundProxy.CallProxy, Option.none())],
            [plain, withCallProxy(proxy.url())]
          ] as const) {
            const error = yield* Effect.flip(client.get(`http://${name}:${server.port}/`).pipe(provide))
            const cause = error.cause as WebSearchError.RequestFailed
            expect({ name, reason: cause.reason }).toEqual({ name, reason: "ssrf_rejected" })
            // The caller learns that the name is refused, never what it resolves to.
            expect(cause.message).toContain(name)
            expect(cause.message).not.toContain(answers[name])
          }
        }
        expect(proxy.targets).toEqual([])
        expect(server.hits).toEqual([])
      })
  )

  it.scopedLive("through a proxy, a checked target is tunnelled to its address; Host keeps the name", () =>
    Effect.gen(function* () {
      const proxy = yield* ConnectProxy.scoped
      const hosts: Array<string | undefined> = []
      const server = yield* LocalServer.start({
        "/": (request) => {
          hosts.push(request.headers.host)
          return { body: "ok" }
        }
      })
      const lookup = () => Promise.resolve([{ address: "127.0.0.1", family: 4 }])
      // The address is trusted (allowCidrs), the name is not: the proxy is asked for the address.
      const client = yield* ProxyHttpClient.make({
        policy: UrlPolicy.make({ allowHosts: [proxy.hostPort], allowCidrs: ["127.0.0.0/8"] }),
        lookup,
        env: { HTTP_PROXY: proxy.url() }
      })
      const response = yield* client.get(`http://api.provider.example:${server.port}/`)
      expect(yield* response.text).toBe("ok")
      expect(proxy.targets).toEqual([`127.0.0.1:${server.port}`])
      expect(hosts).toEqual([`api.provider.example:${server.port}`])
      // A name the operator trusts passes whatever it resolves to: it goes to the proxy as it is.
      const trusting = yield* ProxyHttpClient.make({
        policy: UrlPolicy.make({ allowHosts: [proxy.hostPort, "localhost"] }),
        lookup,
        env: { HTTP_PROXY: proxy.url() }
      })
      const trusted = yield* trusting.get(`http://localhost:${server.port}/`)
      expect(yield* trusted.text).toBe("ok")
      expect(proxy.targets).toEqual([`127.0.0.1:${server.port}`, `localhost:${server.port}`])
    })
  )

  it.scopedLive("an https target is tunnelled to its checked address, TLS end to end under the name", () =>
    Effect.gen(function* () {
      const proxy = yield* ConnectProxy.scoped
      const server = yield* Transport.serveTls((_, response) => {
        response.writeHead(200, { "content-type": "text/plain" })
        response.end("over tls")
      })
      const lookup = () => Promise.resolve([{ address: "127.0.0.1", family: 4 }])
      const client = yield* ProxyHttpClient.make({
        policy: UrlPolicy.make({ allowHosts: [proxy.hostPort], allowCidrs: ["127.0.0.0/8"] }),
        lookup,
        env: { HTTPS_PROXY: proxy.url() },
        tls: { ca: Transport.certificate }
      })
      const response = yield* client.get(`https://pinned.test:${server.port}/`)
      expect(yield* response.text).toBe("over tls")
      expect(proxy.targets).toEqual([`127.0.0.1:${server.port}`])
      // The certificate is checked against the name: another name at the same address is refused.
      const other = yield* Effect.flip(client.get(`https://other.test:${server.port}/`))
      expect(other._tag).toBe("RequestError")
      expect(server.requests).toHaveLength(1)
    })
  )

  it.scopedLive("a bad call proxy URL fails typed, naming the field", () =>
    Effect.gen(function* () {
      const client = yield* ProxyHttpClient.make({ policy: UrlPolicy.make({}) })
      const error = yield* Effect.flip(
        HttpClient.get("http://example.com/").pipe(
          Effect.provideService(HttpClient.HttpClient, client),
          withCallProxy("socks5://proxy.example.com:1080", "instances.prod.proxyUrl")
        )
      )
      expect((error.cause as WebSearchError.RequestFailed).reason).toBe("invalid_input")
      expect(error.message).toContain("instances.prod.proxyUrl: the proxy uses socks5")
    })
  )
})
