import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as OutboundProxy from "../src/OutboundProxy.js"
import * as Settings from "../src/Settings.js"
import * as Registry from "./support/registry.js"

const loadError = (input: unknown) => Effect.flip(Settings.make(input))

describe("OutboundProxy", () => {
  it.effect("a provider's proxyUrl passes the URL policy: an internal proxy is refused unless allowlisted", () =>
    Effect.gen(function* () {
      const refused = yield* loadError({ providers: { brave: { proxyUrl: "http://u:canary-pass@10.1.2.3:3128" } } })
      expect(refused.reason).toBe("invalid_config")
      expect(refused.message).toContain("providers.brave.proxyUrl")
      expect(refused.message).toContain("10.1.2.3 is a private address")
      expect(refused.message).not.toContain("canary-pass")
      const loopback = yield* loadError({ providers: { brave: { proxyUrl: "http://127.0.0.1:3128" } } })
      expect(loopback.message).toContain("providers.brave.proxyUrl")
      const local = yield* loadError({ providers: { brave: { proxyUrl: "http://proxy.corp:3128" } } })
      expect(local.message).toContain("providers.brave.proxyUrl")
      // Allowlisted, it loads, credentials and all (they are the proxy's, not the target's).
      const settings = yield* Settings.make({
        urlPolicy: { allowHosts: ["10.1.2.3:3128"] },
        providers: { brave: { proxyUrl: "http://u:canary-pass@10.1.2.3:3128" } }
      })
      expect(settings.overrides.get("brave")?.proxyUrl).toBe("http://u:canary-pass@10.1.2.3:3128")
      const registry = yield* Registry.load({ providers: { brave: { proxyUrl: "https://proxy.example.com:8443" } } })
      const resolved = registry.providers.get("brave")?.proxyUrl ?? Option.none()
      expect(Option.map(resolved, Redacted.value)).toEqual(Option.some("https://proxy.example.com:8443"))
      expect(registry.providers.get("tavily")?.proxyUrl).toEqual(Option.none())
    })
  )

  it.effect("a proxyUrl that is not an http(s) proxy URL names the field, never the value", () =>
    Effect.gen(function* () {
      for (const [proxyUrl, what] of [
        ["socks5://u:canary-pass@proxy.example.com:1080", "must be an http or https URL"],
        ["not a url canary-pass", "must be an http(s) URL"],
        ["http://u:canary-pass@proxy.example.com:3128/path?q=1", "must not have a path or a query"]
      ] as const) {
        const error = yield* loadError({ providers: { tavily: { proxyUrl } } })
        expect(error.reason).toBe("invalid_config")
        expect(error.message).toContain("providers.tavily.proxyUrl")
        expect(error.message).toContain(what)
        expect(error.message).not.toContain("canary-pass")
      }
    })
  )

  it.effect("withProvider sets the call's proxy from the provider's proxyUrl, naming its field", () =>
    Effect.gen(function* () {
      const url = Redacted.make("http://proxy.example.com:3128")
      const seen = yield* OutboundProxy.CallProxy.pipe(
        OutboundProxy.withProvider({ id: "bing", proxyUrl: Option.some(url) })
      )
      expect(Option.map(seen, (proxy) => [proxy.field, Redacted.value(proxy.url)])).toEqual(
        Option.some(["providers.bing.proxyUrl", "http://proxy.example.com:3128"])
      )
      expect(yield* OutboundProxy.CallProxy).toEqual(Option.none())
      const none = yield* OutboundProxy.CallProxy.pipe(
        OutboundProxy.withProvider({ id: "bing", proxyUrl: Option.none() })
      )
      expect(none).toEqual(Option.none())
      const instance = yield* OutboundProxy.CallProxy.pipe(
        OutboundProxy.withProvider({ id: "prod-bing", proxyUrl: Option.some(url), instanceOf: "bing" })
      )
      expect(Option.map(instance, (proxy) => proxy.field)).toEqual(
        Option.some('the proxyUrl of the provider instance "prod-bing"')
      )
    })
  )
})
