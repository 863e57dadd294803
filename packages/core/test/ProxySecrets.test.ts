import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Preset from "../src/Preset.js"
import * as ProviderRegistry from "../src/ProviderRegistry.js"
import * as ResolvedProviders from "../src/internal/resolution/provider.js"

const preset = Preset.make({
  id: "echo",
  name: "Echo",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://echo.example/search" }]
})

// User names and passwords a proxy URL may carry.
const credential = FastCheck.stringMatching(/^[A-Za-z0-9]{6,20}$/).map((text) => `cred${text}`)

describe("ProviderRegistry.secretsOf", () => {
  it.prop(
    "counts a proxy URL's password and its Proxy-Authorization credentials among the provider's secrets",
    { user: credential, password: credential },
    ({ password, user }) => {
      const provider = ResolvedProviders.fromOverride(
        preset,
        { proxyUrl: `http://${user}:${password}@proxy.example:3128` },
        undefined
      )
      expect(Option.isSome(provider.proxyUrl)).toBe(true)
      const secrets = ProviderRegistry.secretsOf(provider)
      expect(secrets).toContain(password)
      expect(secrets).toContain(`${user}:${password}`)
    }
  )

  it("counts a percent-encoded proxy password decoded, as it travels", () => {
    const provider = ResolvedProviders.fromOverride(
      preset,
      { proxyUrl: "http://user:p%40ss%3Aword@proxy.example:3128" },
      undefined
    )
    expect(ProviderRegistry.secretsOf(provider)).toContain("p@ss:word")
  })
})
