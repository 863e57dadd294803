import { describe, expect, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as FastCheck from "effect/FastCheck"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as ProviderInstance from "../src/ProviderInstance.js"

const epoch = DateTime.unsafeMake(0)

const withProxy = (proxyUrl: string): ProviderInstance.ProviderInstance => ({
  workspace: "acme",
  id: "prod-echo",
  type: "echo",
  settings: { proxyUrl, engines: ["a"] },
  credentials: { apiKeys: [Redacted.make("key-canary-0001")] },
  revision: 1,
  createdAt: epoch,
  updatedAt: epoch
})

// User names and passwords a proxy URL may carry, URL-encoded as the settings require.
const credential = FastCheck.stringMatching(/^[A-Za-z0-9]{6,20}$/).map((text) => `cred${text}`)

describe("InstanceView", () => {
  it.prop(
    "never shows a proxy URL's user name or password, and keeps where the proxy is",
    { user: credential, password: credential },
    ({ password, user }) => {
      const shown = ProviderInstance.view(withProxy(`http://${user}:${password}@proxy.example:3128`))
      const text = JSON.stringify(Schema.encodeSync(ProviderInstance.InstanceView)(shown))
      expect(text).not.toContain(password)
      expect(text).not.toContain(user)
      expect(text).not.toContain("key-canary-0001")
      expect(shown.settings.proxyUrl).toBe("http://proxy.example:3128")
      expect(shown.settings.engines).toEqual(["a"])
    }
  )

  it("shows a proxy URL without credentials as written", () => {
    expect(ProviderInstance.view(withProxy("https://proxy.example:8443")).settings.proxyUrl).toBe(
      "https://proxy.example:8443"
    )
    // A token given as the user name alone is a credential too.
    expect(ProviderInstance.view(withProxy("http://tok3nCanary@proxy.example")).settings.proxyUrl).toBe(
      "http://proxy.example"
    )
  })
})

describe("InstanceView endpoints", () => {
  it.prop(
    "shows a credential in an endpoint's query as the placeholder, and an endpoint without one as written",
    { secret: credential },
    ({ secret }) => {
      const instance: ProviderInstance.ProviderInstance = {
        ...withProxy("http://proxy.example:3128"),
        settings: {
          capabilities: { searchKeywords: { apiHost: `https://echo.example/search?api_key=${secret}&q=1` } }
        }
      }
      const shown = ProviderInstance.view(instance)
      expect(JSON.stringify(Schema.encodeSync(ProviderInstance.InstanceView)(shown))).not.toContain(secret)
      expect(shown.settings.capabilities?.searchKeywords?.apiHost).toBe(
        "https://echo.example/search?api_key=%5Bredacted%5D&q=1"
      )
      const plain = ProviderInstance.view({
        ...instance,
        settings: { capabilities: { searchKeywords: { apiHost: "https://echo.example/search" } } }
      })
      expect(plain.settings.capabilities?.searchKeywords?.apiHost).toBe("https://echo.example/search")
    }
  )
})
