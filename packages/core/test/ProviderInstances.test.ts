import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import type * as Layer from "effect/Layer"
import * as ProviderChecks from "../src/ProviderChecks.js"
import * as ProviderRegistry from "../src/ProviderRegistry.js"
import * as ProviderTypes from "../src/ProviderTypes.js"
import { searchKeywords } from "../src/SearchKeywords.js"
import * as Settings from "../src/Settings.js"
import * as Drivers from "./support/drivers.js"
import * as Echo from "./support/echo.js"

const startError = <A, E>(layer: Layer.Layer<A, E>) => Effect.flip(Effect.provide(Effect.void, layer))

const registryOf = <E>(layer: Layer.Layer<ProviderRegistry.ProviderRegistry | Settings.Settings, E>) =>
  Effect.provide(ProviderRegistry.ProviderRegistry, layer)

const two = {
  instances: {
    "echo-eu": { type: "echo", name: "Echo Europe", apiKeys: ["eu-key"], region: "eu" },
    "echo-us": {
      type: "echo",
      apiKeys: ["us-key"],
      region: "us",
      label: "west",
      capabilities: { searchKeywords: { apiHost: "https://us.echo.example/search" } }
    }
  }
}

describe("settings instances", () => {
  it.effect("two instances of one type run with their own keys, endpoints and options", () => {
    const echo = Echo.makeEcho()
    return Effect.gen(function* () {
      const eu = yield* searchKeywords({ keywords: ["q"], providerId: "echo-eu" })
      const us = yield* searchKeywords({ keywords: ["q"], providerId: "echo-us" })
      expect(eu.providerId).toBe("echo-eu")
      expect(us.providerId).toBe("echo-us")
      expect(echo.seen.map((s) => [s.providerId, s.name, s.apiKey, s.apiHost, s.options])).toEqual([
        ["echo-eu", "Echo Europe", "eu-key", "https://echo.example/search", { region: "eu" }],
        ["echo-us", "Echo", "us-key", "https://us.echo.example/search", { region: "us", label: "west" }]
      ])
      expect(eu.results[0].title).toBe("echo-eu eu -")
      expect(us.results[0].title).toBe("echo-us us west")
    }).pipe(Effect.provide(Drivers.layer([echo.driver], two)))
  })

  it.effect("defaults, fallbacks and fusion may name settings instances", () => {
    const echo = Echo.makeEcho()
    return Effect.gen(function* () {
      const fused = yield* searchKeywords({ keywords: ["q"] })
      expect(fused.providerIds).toEqual(["echo-eu", "echo-us"])
      const registry = yield* ProviderRegistry.ProviderRegistry
      expect(registry.defaults.searchKeywords).toBe("echo-eu")
      const described = registry.describe()
      expect(described.map((d) => [d.id, d.instanceOf, d.defaultFor])).toEqual([
        ["echo", undefined, []],
        ["echo-eu", "echo", ["searchKeywords"]],
        ["echo-us", "echo", []]
      ])
      expect(registry.ids()).toEqual(["echo", "echo-eu", "echo-us"])
      // The catalogue lists the composed types only.
      expect(registry.types().map((t) => t.id)).toEqual(["echo"])
    }).pipe(
      Effect.provide(
        Drivers.layer([echo.driver], {
          ...two,
          defaults: { searchKeywords: "echo-eu" },
          fusion: { searchKeywords: ["echo-eu", "echo-us"] }
        })
      )
    )
  })

  it.effect("a fallback chain may run from the default instance to another", () => {
    const echo = Echo.makeEcho()
    return Effect.gen(function* () {
      const answer = yield* searchKeywords({ keywords: ["rejected"] }).pipe(Effect.flip)
      // credentials_rejected falls back (it is not an input problem), and both instances were tried in order.
      expect(answer.providerId).toBe("echo-us")
      expect(echo.seen.map((s) => s.providerId)).toEqual(["echo-eu", "echo-us"])
    }).pipe(
      Effect.provide(
        Drivers.layer([echo.driver], {
          ...two,
          defaults: { searchKeywords: "echo-eu" },
          fallbacks: { searchKeywords: ["echo-us"] }
        })
      )
    )
  })

  it.effect("a check of a settings instance runs the type's checks with the instance's configuration", () => {
    const echo = Echo.makeEcho()
    return Effect.gen(function* () {
      const check = yield* ProviderChecks.check("echo-us")
      expect([check.providerId, check.ok]).toEqual(["echo-us", true])
      expect(echo.seen.map((s) => [s.apiKey, s.apiHost])).toEqual([["us-key", "https://us.echo.example/search"]])
    }).pipe(Effect.provide(Drivers.layer([echo.driver], two)))
  })

  it.effect("a bad option, an unknown type and a composed id all fail the start naming the field", () =>
    Effect.gen(function* () {
      const echo = Echo.makeEcho()
      const error = yield* startError(
        Drivers.layer([echo.driver], {
          instances: {
            "bad-option": { type: "echo", region: "mars" },
            "no-such": { type: "nope" },
            echo: { type: "echo" },
            extra: { type: "echo", colour: "red" },
            "no-research": { type: "echo", capabilities: { research: { apiHost: "https://r.example/" } } }
          }
        })
      )
      expect([error._tag, error.reason]).toEqual(["Unavailable", "invalid_config"])
      expect(error.message).toContain("instances.bad-option.region: ")
      expect(error.message).toContain('instances.no-such.type: no composed provider "nope" (composed: echo)')
      expect(error.message).toContain('instances.echo: "echo" is the id of a composed provider')
      expect(error.message).toContain("instances.extra.colour: ")
      expect(error.message).toContain("instances.no-research.capabilities.research: echo has no research capability")
    })
  )

  it.effect("the URL policy applies to an instance's endpoints and its proxy", () =>
    Effect.gen(function* () {
      const echo = Echo.makeEcho()
      const error = yield* startError(
        Drivers.layer([echo.driver], {
          instances: {
            inside: {
              type: "echo",
              capabilities: { searchKeywords: { apiHost: "http://127.0.0.1:8080/search" } },
              proxyUrl: "http://10.0.0.1:3128"
            }
          }
        })
      )
      expect(error.message).toContain(
        "instances.inside.capabilities.searchKeywords.apiHost: http://127.0.0.1:8080 is refused"
      )
      expect(error.message).toContain("instances.inside.proxyUrl: http://10.0.0.1:3128 is refused")
      // The same rule for a provider type's own proxy.
      const own = yield* startError(
        Drivers.layer([echo.driver], { providers: { echo: { proxyUrl: "http://localhost:3128" } } })
      )
      expect(own.message).toContain("providers.echo.proxyUrl: http://localhost:3128 is refused")
      // Allowlisted, both pass.
      const registry = yield* registryOf(
        Drivers.layer([echo.driver], {
          urlPolicy: { allowCidrs: ["127.0.0.0/8", "10.0.0.0/8"], allowPorts: [8080, 3128] },
          instances: {
            inside: {
              type: "echo",
              capabilities: { searchKeywords: { apiHost: "http://127.0.0.1:8080/search" } },
              proxyUrl: "http://10.0.0.1:3128"
            }
          }
        })
      )
      expect(registry.providers.get("inside")?.capabilities[0].apiHost).toBe("http://127.0.0.1:8080/search")
    })
  )

  it.effect("defaults, fallbacks and fusion naming an unknown id list the instances too", () =>
    Effect.gen(function* () {
      const echo = Echo.makeEcho()
      const error = yield* startError(Drivers.layer([echo.driver], { ...two, defaults: { searchKeywords: "nope" } }))
      expect(error.message).toContain(
        'defaults.searchKeywords: no composed provider or instance "nope" (composed: echo; instances: echo-eu, echo-us)'
      )
    })
  )

  it("merge overlays instances per instance and per field", () => {
    const merged = Settings.merge(
      { instances: { a: { type: "echo", region: "eu", capabilities: { searchKeywords: { apiHost: "https://a/" } } } } },
      { instances: { a: { type: "echo", label: "x" }, b: { type: "echo" } } }
    )
    expect(merged.instances).toEqual({
      a: { type: "echo", region: "eu", label: "x", capabilities: { searchKeywords: { apiHost: "https://a/" } } },
      b: { type: "echo" }
    })
  })

  // --- the id and type rules, over their domain ------------------------------------------------------------

  const composed = ["echo", "other"]
  const id = FastCheck.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/)

  it.effect.prop(
    "an instance is accepted exactly when its id is no composed id and its type is a composed id",
    {
      instanceId: FastCheck.oneof(id, FastCheck.constantFrom(...composed)),
      type: FastCheck.oneof(id, FastCheck.constantFrom(...composed))
    },
    ({ instanceId, type }) =>
      Effect.gen(function* () {
        const drivers = composed.map((c) => Echo.makeEcho(c).driver)
        const layer = Drivers.layer(drivers, { instances: { [instanceId]: { type, apiKeys: ["k"] } } })
        const outcome = yield* Effect.either(registryOf(layer))
        const valid = !composed.includes(instanceId) && composed.includes(type)
        expect(outcome._tag).toBe(valid ? "Right" : "Left")
        if (outcome._tag === "Right") {
          expect(outcome.right.providers.get(instanceId)?.instanceOf).toBe(type)
          expect(outcome.right.get(instanceId).pipe((d) => d._tag === "Some" && d.value.preset.id)).toBe(type)
        } else {
          expect(outcome.left.reason).toBe("invalid_config")
          expect(outcome.left.message).toContain(`instances.${instanceId}`)
        }
      })
  )

  it.effect.prop(
    "an instance id outside the provider id grammar is refused when the settings load",
    {
      instanceId: FastCheck.string({ minLength: 0, maxLength: 70 }).filter((s) => !/^[a-z0-9][a-z0-9-]{0,63}$/.test(s))
    },
    ({ instanceId }) =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(Settings.make({ instances: { [instanceId]: { type: "echo" } } }))
        expect(error.reason).toBe("invalid_config")
        expect(error.message).toContain("instances")
      })
  )
})

describe("the provider-type catalogue", () => {
  it.effect("lists each composed type with its credentials, capabilities, options schema and search options", () => {
    const echo = Echo.makeEcho()
    const plain = Drivers.makeDriver("brave", { searchKeywords: Drivers.succeed(1) })
    return Effect.gen(function* () {
      const registry = yield* ProviderRegistry.ProviderRegistry
      const [echoType, braveType] = registry.types()
      expect(echoType).toMatchObject({
        id: "echo",
        name: "Echo",
        type: "api",
        credentials: "required",
        capabilities: [{ feature: "searchKeywords", apiHost: "https://echo.example/search" }],
        searchOptions: ["language"]
      })
      expect(echoType.optionsSchema).toMatchObject({
        type: "object",
        properties: { region: { enum: ["eu", "us"] }, label: { type: "string" } },
        additionalProperties: false
      })
      expect(braveType.id).toBe("brave")
      expect(braveType.optionsSchema).toBeNull()
      // The catalogue is data a server can answer with: it encodes by its own schema.
      const encode = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown
      expect(encode(registry.types())).toEqual(registry.types().map((t) => ProviderTypes.ProviderType.make(t)))
    }).pipe(Effect.provide(Drivers.layer([echo.driver, plain], two)))
  })
})
