import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as SearchOptions from "@websearch/core/SearchOptions"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Server from "./support/providerServer.js"
import * as Table from "./support/searchOptionCases.js"

// One HTTP client for every driver, alive for the whole file (a driver keeps the client it was built with).
const runtime = ManagedRuntime.make(NodeHttpClient.layerUndici)
let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(async () => {
  await runtime.dispose()
  await server.close()
})

// A clock fixed at `Table.now` for what drivers read of the time; sleeping stays real.
const real = Clock.make()
const fixed: Clock.Clock = {
  [Clock.ClockTypeId]: Clock.ClockTypeId,
  unsafeCurrentTimeMillis: () => Table.now,
  unsafeCurrentTimeNanos: () => BigInt(Table.now) * 1_000_000n,
  currentTimeMillis: Effect.succeed(Table.now),
  currentTimeNanos: Effect.succeed(BigInt(Table.now) * 1_000_000n),
  sleep: (duration) => real.sleep(duration)
}

const drivers = new Map<string, Table.AnyDriver>()
const driverOf = async (row: Table.Case): Promise<Table.AnyDriver> => {
  const known = drivers.get(row.providerId)
  if (known !== undefined) return known
  const driver = await runtime.runPromise(row.make)
  drivers.set(row.providerId, driver)
  return driver
}

const ctxOf = (
  driver: Table.AnyDriver,
  row: Table.Case,
  searchOptions: SearchOptions.SearchOptions
): ProviderDriver.DriverContext<unknown> => ({
  provider: {
    ...driver.preset,
    apiKeys: [Redacted.make(Server.canary)],
    engines: [],
    basicAuth: Option.none(),
    model: Option.none(),
    rateLimit: Option.none(),
    proxyUrl: Option.none(),
    options: row.options
  },
  capability: "searchKeywords",
  apiHost: Option.some(server.url),
  apiKey: Option.some(Redacted.make(Server.canary)),
  apiKeyIndex: Option.some(0),
  searchOptions,
  maxResults: 5,
  timeout: Duration.seconds(10),
  options: row.options,
  fetchUrls: () => Effect.die("a search with options never fetches pages here")
})

/** A request's parameters, as the provider's carrier holds them. */
const paramsOf = (row: Table.Case, request: Server.Recorded): Record<string, unknown> => {
  switch (row.carrier) {
    case "json":
      return request.body ?? {}
    case "query":
      return Object.fromEntries(request.query)
    case "form":
      return Object.fromEntries(new URLSearchParams(request.text))
  }
}

/** The parameters of the one request a search sent, as its carrier holds them. */
const sentBy = async (
  row: Table.Case,
  searchOptions: SearchOptions.SearchOptions
): Promise<Record<string, unknown>> => {
  const driver = await driverOf(row)
  server.handle = row.answer
  server.requests.length = 0
  await runtime.runPromise(
    driver.searchKeywords!("kw", ctxOf(driver, row, searchOptions)).pipe(Effect.withClock(fixed))
  )
  expect(server.requests).toHaveLength(1)
  return paramsOf(row, server.requests[0]!)
}

/** What `sent` has that `baseline` has not, or has otherwise. */
const changed = (baseline: Record<string, unknown>, sent: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(sent).filter(([key, value]) => JSON.stringify(baseline[key]) !== JSON.stringify(value))
  )

describe("search options, provider by provider over HTTP", () => {
  for (const row of Table.cases) {
    describe(row.providerId, () => {
      it("declares exactly the options it maps: those a probe of the option alone changes the request for", () => {
        const mapped = SearchOptions.SearchOption.literals.filter((option) =>
          Table.probes.some(
            (probe) =>
              Object.keys(probe).length === 1 &&
              option in probe &&
              Object.keys(row.sent[Table.probeName(probe)] ?? {}).length > 0
          )
        )
        expect([...(row.declared ?? [])].sort()).toEqual([...mapped].sort())
      })

      it("sends exactly its parameters for each option it honours, and nothing for the others", async () => {
        const baseline = await sentBy(row, {})
        const seen: Record<string, Record<string, unknown>> = {}
        for (const probe of Table.probes) {
          const diff = changed(baseline, await sentBy(row, probe))
          for (const key of row.volatile ?? []) delete diff[key]
          seen[Table.probeName(probe)] = diff
        }
        const expected = Object.fromEntries(
          Table.probes.map((probe) => [Table.probeName(probe), row.sent[Table.probeName(probe)] ?? {}])
        )
        expect(seen).toEqual(expected)
      })
    })
  }
})

// Every option a provider declares, at once, in one value each (the domains as one included domain, which every
// provider that takes domains maps the same way alone or with the others).
const together: Table.Probe = {
  timeRange: "week",
  includeDomains: ["docs.example.com"],
  language: "de",
  country: "DE",
  safeSearch: "strict",
  topic: "news"
}
const alone = (option: SearchOptions.SearchOption): Table.Probe => ({ [option]: together[option] }) as Table.Probe

describe("search options through the whole pipeline (searchKeywords to the provider's server)", () => {
  for (const row of Table.cases) {
    it(`${row.providerId}: every declared option reaches the request in the provider's parameters`, async () => {
      const declared = (row.declared ?? []).filter((option) => option in together)
      const searchOptions: Table.Probe = Object.fromEntries(declared.map((option) => [option, together[option]]))
      const settings = {
        capabilities: ["searchKeywords"] as const,
        ...(row.options === undefined ? {} : { override: { ...row.options } })
      }
      server.handle = row.answer
      server.requests.length = 0
      Server.success(await Server.search(server, row.providerId, row.layer, ["kw"], { ...settings, maxResults: 5 }))
      const baseline = paramsOf(row, server.requests[0]!)
      server.requests.length = 0
      Server.success(
        await Server.search(server, row.providerId, row.layer, ["kw"], {
          ...settings,
          maxResults: 5,
          searchOptions,
          clock: fixed
        })
      )
      expect(server.requests).toHaveLength(1)
      const diff = changed(baseline, paramsOf(row, server.requests[0]!))
      for (const key of row.volatile ?? []) delete diff[key]
      const expected = Object.assign({}, ...declared.map((option) => row.sent[Table.probeName(alone(option))] ?? {}))
      expect(diff).toEqual(expected)
    })
  }
})
