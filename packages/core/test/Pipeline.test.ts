import { describe, expect, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import type { Capability } from "../src/Capability.js"
import * as FetchUrls from "../src/FetchUrls.js"
import * as Preset from "../src/Preset.js"
import * as Research from "../src/Research.js"
import * as SearchKeywords from "../src/SearchKeywords.js"
import * as TurnAggregation from "../src/internal/turnAggregation.js"
import * as WebSearchError from "../src/WebSearchError.js"
import * as Drivers from "./support/drivers.js"
import * as Presets from "./support/presets.js"

const search = SearchKeywords.searchKeywords
const fetchUrls = FetchUrls.fetchUrls

const sourceInputs = (response: { readonly results: ReadonlyArray<{ readonly sourceInput: string }> }) =>
  response.results.map((r) => r.sourceInput)

const sorted = (items: ReadonlyArray<string>) => [...items].sort()

// --- Registry and factory ---------------------------------------------------------------------------------

describe("Registry and factory (Cherry §9.1, §9.2)", () => {
  const matrix: Record<string, ReadonlyArray<Capability>> = {
    tavily: ["searchKeywords", "fetchUrls"],
    exa: ["searchKeywords", "fetchUrls"],
    "exa-mcp": ["searchKeywords"],
    searxng: ["searchKeywords"],
    jina: ["searchKeywords", "fetchUrls"],
    zhipu: ["searchKeywords"],
    bocha: ["searchKeywords"],
    querit: ["searchKeywords", "fetchUrls"],
    brave: ["searchKeywords"],
    serper: ["searchKeywords"],
    google: ["searchKeywords"],
    bing: ["searchKeywords"],
    baidu: ["searchKeywords"],
    ollama: ["searchKeywords", "fetchUrls"],
    keenable: ["searchKeywords"],
    duckduckgo: ["searchKeywords"],
    firecrawl: ["searchKeywords", "fetchUrls"],
    perplexity: ["searchKeywords"],
    kagi: ["searchKeywords"],
    serpapi: ["searchKeywords"],
    fetch: ["fetchUrls"],
    openai: ["research"]
  }
  const keywordOnly = Object.entries(matrix)
    .filter(([, capabilities]) => capabilities.length === 1 && capabilities[0] === "searchKeywords")
    .map(([id]) => id)

  it("§9.1.1 capability matrix: every preset declares exactly its capabilities", () => {
    const actual = Object.fromEntries(Presets.all.map((p) => [p.id, p.capabilities.map((c) => c.feature)]))
    expect(actual).toEqual(matrix)
    for (const preset of Presets.all) {
      for (const capability of ["searchKeywords", "fetchUrls", "research"] as const) {
        expect(Preset.supports(preset, capability)).toBe(matrix[preset.id].includes(capability))
      }
    }
  })

  it("§9.1.3 / §9.2.1-2 Jina has searchKeywords at https://s.jina.ai and fetchUrls at https://r.jina.ai", () => {
    const jina = Presets.byId.get("jina")
    expect(jina?.capabilities).toEqual([
      { feature: "searchKeywords", apiHost: "https://s.jina.ai" },
      { feature: "fetchUrls", apiHost: "https://r.jina.ai" }
    ])
  })

  it.effect("§9.2.1-2 the Jina driver is called with s.jina.ai for searchKeywords and r.jina.ai for fetchUrls", () => {
    const jina = Drivers.makeDriver("jina", { searchKeywords: Drivers.succeed(1), fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      yield* search({ providerId: "jina", keywords: ["effect"] })
      yield* fetchUrls({ providerId: "jina", urls: ["https://effect.website/"] })
      expect(jina.recorder.calls.map((c) => [c.capability, c.apiHost])).toEqual([
        ["searchKeywords", "https://s.jina.ai"],
        ["fetchUrls", "https://r.jina.ai"]
      ])
    }).pipe(Effect.provide(Drivers.layer([jina], { providers: { jina: { apiKeys: ["jina-key-0001"] } } })))
  })

  it("§9.2.3 fetch (local) supports only fetchUrls", () => {
    expect(Presets.byId.get("fetch")?.capabilities.map((c) => c.feature)).toEqual(["fetchUrls"])
  })

  it("§9.2.4 keyword-only providers lack fetchUrls", () => {
    expect(keywordOnly.length).toBeGreaterThan(10)
    for (const id of keywordOnly) {
      const preset = Presets.byId.get(id)
      expect(preset !== undefined && Preset.supports(preset, "fetchUrls"), id).toBe(false)
    }
  })

  it("openai supports only research", () => {
    expect(Presets.byId.get("openai")?.capabilities.map((c) => c.feature)).toEqual(["research"])
  })

  it.effect(
    "§9.1.2 an unsupported capability fails with Unavailable/unsupported_capability naming provider and capability",
    () => {
      const brave = Drivers.makeDriver("brave", { searchKeywords: Drivers.succeed(), fetchUrls: Drivers.succeed() })
      return Effect.gen(function* () {
        const error = yield* Effect.flip(fetchUrls({ providerId: "brave", urls: ["https://example.com/"] }))
        expect(error).toBeInstanceOf(WebSearchError.Unavailable)
        expect(error.reason).toBe("unsupported_capability")
        expect(error.providerId).toBe("brave")
        expect(error.capability).toBe("fetchUrls")
        expect(error.message).toContain("brave")
        expect(error.message).toContain("fetchUrls")
        expect(brave.recorder.calls).toEqual([])

        const research = yield* Effect.flip(
          Research.research({ providerId: "brave", query: "what is effect", allowedDomains: [] })
        )
        expect([research._tag, research.reason, research.capability]).toEqual([
          "Unavailable",
          "unsupported_capability",
          "research"
        ])
      }).pipe(Effect.provide(Drivers.layer([brave], { providers: { brave: { apiKeys: ["brave-key-0001"] } } })))
    }
  )

  it.effect(
    "a registered driver that does not implement a declared capability fails with unsupported_capability",
    () => {
      const jina = Drivers.makeDriver("jina", { searchKeywords: Drivers.succeed() })
      return Effect.gen(function* () {
        const error = yield* Effect.flip(fetchUrls({ providerId: "jina", urls: ["https://example.com/"] }))
        expect([error._tag, error.reason, error.providerId, error.capability]).toEqual([
          "Unavailable",
          "unsupported_capability",
          "jina",
          "fetchUrls"
        ])
        expect(error.message).toContain("does not implement fetchUrls")
      }).pipe(Effect.provide(Drivers.layer([jina], { providers: { jina: { apiKeys: ["jina-key-0001"] } } })))
    }
  )

  it.effect("§9.2.5 an invalid URL fails fetchUrls with RequestFailed/invalid_input before any driver call", () => {
    const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      for (const bad of ["ftp://files.example/a.txt", "not a url", "https://user:secret@host.example/"]) {
        const error = yield* Effect.flip(fetchUrls({ urls: ["https://ok.example/", bad] }))
        expect(error).toBeInstanceOf(WebSearchError.RequestFailed)
        expect(error.reason).toBe("invalid_input")
        expect(error.capability).toBe("fetchUrls")
        expect(error.message).toContain("urls[1]: not an http(s) URL")
        expect(error.retryable).toBe(false)
      }
      expect(local.recorder.calls).toEqual([])
    }).pipe(Effect.provide(Drivers.layer([local])))
  })
})

// --- The service ------------------------------------------------------------------------------------------

describe("WebSearchService (Cherry §9.3)", () => {
  it.effect("§9.3.1 searchKeywords fans out one driver call per keyword and merges the results", () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(2) })
    return Effect.gen(function* () {
      const response = yield* search({ keywords: ["alpha", "beta", "gamma"] })
      expect(sorted(ddg.recorder.calls.map((c) => c.input))).toEqual(["alpha", "beta", "gamma"])
      expect(response.results.map((r) => r.url)).toEqual(
        ["alpha", "beta", "gamma"].flatMap((k) => [Drivers.resultUrl(k, 0), Drivers.resultUrl(k, 1)])
      )
      expect(response.failures).toEqual([])
    }).pipe(Effect.provide(Drivers.layer([ddg])))
  })

  it.effect("§9.3.2 fetchUrls fans out one driver call per URL and merges the pages", () => {
    const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      const urls = ["https://a.example/one", "https://b.example/two"]
      const response = yield* fetchUrls({ urls })
      expect(sorted(local.recorder.calls.map((c) => c.input))).toEqual(urls)
      expect(response.results).toEqual(urls.map((url) => ({ ...Drivers.fetchedPage(url), sourceInput: url })))
    }).pipe(Effect.provide(Drivers.layer([local])))
  })

  it.effect("§9.3.3 without providerId the capability's default provider is used", () => {
    const tavily = Drivers.makeDriver("tavily", { searchKeywords: Drivers.succeed(), fetchUrls: Drivers.succeed() })
    const jina = Drivers.makeDriver("jina", { searchKeywords: Drivers.succeed(), fetchUrls: Drivers.succeed() })
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed() })
    return Effect.gen(function* () {
      const searched = yield* search({ keywords: ["x"] })
      const fetched = yield* fetchUrls({ urls: ["https://x.example/"] })
      expect([searched.providerId, fetched.providerId]).toEqual(["tavily", "jina"])
      expect(tavily.recorder.calls.map((c) => c.capability)).toEqual(["searchKeywords"])
      expect(jina.recorder.calls.map((c) => c.capability)).toEqual(["fetchUrls"])
      expect(ddg.recorder.calls).toEqual([])
    }).pipe(
      Effect.provide(
        Drivers.layer([tavily, jina, ddg], {
          defaults: { searchKeywords: "tavily", fetchUrls: "jina" },
          providers: { tavily: { apiKeys: ["tvly-key-0001"] }, jina: { apiKeys: ["jina-key-0001"] } }
        })
      )
    )
  })

  it.effect("§9.3.3 with no settings, search defaults to duckduckgo and fetch to the local fetch provider", () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed() })
    const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      expect((yield* search({ keywords: ["x"] })).providerId).toBe("duckduckgo")
      expect((yield* fetchUrls({ urls: ["https://x.example/"] })).providerId).toBe("fetch")
    }).pipe(Effect.provide(Drivers.layer([ddg, local])))
  })

  it.effect("§9.3.4 a null default fails with Unavailable/no_default_provider", () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed() })
    return Effect.gen(function* () {
      const error = yield* Effect.flip(search({ keywords: ["x"] }))
      expect([error._tag, error.reason, error.capability]).toEqual([
        "Unavailable",
        "no_default_provider",
        "searchKeywords"
      ])
      expect(error.message).toContain("WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER")
      // research has no default at all out of the box
      const research = yield* Effect.flip(Research.research({ query: "q", allowedDomains: [] }))
      expect([research.reason, research.capability]).toEqual(["no_default_provider", "research"])
      expect(ddg.recorder.calls).toEqual([])
    }).pipe(Effect.provide(Drivers.layer([ddg], { defaults: { searchKeywords: null } })))
  })

  it.effect("§9.3.5 an explicit provider lacking the capability fails with Unavailable/unsupported_capability", () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed() })
    return Effect.gen(function* () {
      const error = yield* Effect.flip(fetchUrls({ providerId: "duckduckgo", urls: ["https://x.example/"] }))
      expect([error._tag, error.reason, error.providerId, error.capability]).toEqual([
        "Unavailable",
        "unsupported_capability",
        "duckduckgo",
        "fetchUrls"
      ])
    }).pipe(Effect.provide(Drivers.layer([ddg])))
  })

  it.effect(
    "§9.3.5 a default pointing at a provider lacking the capability fails settings load naming defaults.fetchUrls",
    () =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(
          search({ keywords: ["x"] }).pipe(
            Effect.provide(
              Drivers.layer([Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed() })], {
                defaults: { fetchUrls: "duckduckgo" }
              })
            )
          )
        )
        expect([error._tag, error.reason]).toEqual(["Unavailable", "invalid_config"])
        expect(error.message).toContain("defaults.fetchUrls")
        expect(error.message).toContain("duckduckgo has no fetchUrls capability")
      })
  )

  it.effect("§9.3.5 an unknown provider fails with Unavailable/unknown_provider", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(search({ providerId: "nope", keywords: ["x"] }))
      expect([error._tag, error.reason, error.providerId]).toEqual(["Unavailable", "unknown_provider", "nope"])
      expect(error.message).toBe('unknown provider "nope": no composed provider has this id (composed: brave)')
    }).pipe(Effect.provide(Drivers.layer([Drivers.makeDriver("brave", { searchKeywords: Drivers.succeed() })])))
  )

  it.effect(
    "§9.3.5 a default naming a provider that is not composed fails the start with invalid_config listing the composed ids",
    () =>
      Effect.gen(function* () {
        const brave = Drivers.makeDriver("brave", { searchKeywords: Drivers.succeed() })
        const error = yield* Effect.flip(
          search({ keywords: ["x"] }).pipe(
            Effect.provide(Drivers.layer([brave], { defaults: { searchKeywords: "duckduckgo" } }))
          )
        )
        expect([error._tag, error.reason]).toEqual(["Unavailable", "invalid_config"])
        expect(error.message).toContain('defaults.searchKeywords: no composed provider "duckduckgo" (composed: brave)')
        expect(brave.recorder.calls).toEqual([])
      })
  )

  it.effect("§9.3.5 without a composed default, a request naming no provider fails with no_default_provider", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(search({ keywords: ["x"] }))
      expect([error._tag, error.reason]).toEqual(["Unavailable", "no_default_provider"])
    }).pipe(Effect.provide(Drivers.layer([])))
  )

  it.effect("§9.3.5 a provider that needs a key and has none fails with Unavailable/missing_credentials", () => {
    const tavily = Drivers.makeDriver("tavily", { searchKeywords: Drivers.succeed() })
    return Effect.gen(function* () {
      const error = yield* Effect.flip(search({ providerId: "tavily", keywords: ["x"] }))
      expect([error._tag, error.reason, error.providerId]).toEqual(["Unavailable", "missing_credentials", "tavily"])
      expect(error.message).toContain("TAVILY_API_KEY")
      expect(tavily.recorder.calls).toEqual([])
    }).pipe(Effect.provide(Drivers.layer([tavily])))
  })

  it.effect("§9.3.6 the response carries providerId, capability, normalised inputs and per-result sourceInput", () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(1) })
    const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      const searched = yield* search({ keywords: ["  effect   ts ", "", "effect ts", "vitest"] })
      expect(searched.providerId).toBe("duckduckgo")
      expect(searched.capability).toBe("searchKeywords")
      expect(searched.inputs).toEqual(["effect ts", "vitest"])
      expect(searched.query).toBe("effect ts | vitest")
      expect(sourceInputs(searched)).toEqual(["effect ts", "vitest"])
      expect(ddg.recorder.calls.map((c) => c.input)).toEqual(["effect ts", "vitest"])

      const fetched = yield* fetchUrls({ urls: [" HTTPS://Docs.Example ", "https://docs.example/"] })
      expect(fetched.capability).toBe("fetchUrls")
      expect(fetched.providerId).toBe("fetch")
      expect(fetched.inputs).toEqual(["https://docs.example/"])
      expect(sourceInputs(fetched)).toEqual(["https://docs.example/"])
    }).pipe(Effect.provide(Drivers.layer([ddg, local])))
  })

  it.effect(
    "§9.3.7 partial failure returns the successes, lists the failure and logs a warning annotated with the input",
    () => {
      const capture = Drivers.captureLogs()
      const ddg = Drivers.makeDriver("duckduckgo", {
        searchKeywords: Drivers.byInput({
          bad: Drivers.fail(WebSearchError.requestFailed("http_5xx", "DuckDuckGo answered 503"))
        })
      })
      return Effect.gen(function* () {
        const response = yield* search({ keywords: ["good", "bad", "fine"] })
        expect(sourceInputs(response)).toEqual(["good", "fine"])
        expect(response.failures).toHaveLength(1)
        const [failure] = response.failures
        expect(failure).toBeInstanceOf(WebSearchError.InputFailure)
        expect([failure.input, failure._tag, failure.reason, failure.retryable]).toEqual([
          "bad",
          "RequestFailed",
          "http_5xx",
          true
        ])
        expect(failure.message).toContain("503")
        const warnings = capture.entries.filter((e) => e.level === "WARN")
        expect(warnings).toHaveLength(1)
        expect(warnings[0].annotations).toMatchObject({
          input: "bad",
          providerId: "duckduckgo",
          capability: "searchKeywords",
          reason: "http_5xx",
          retryable: true
        })
        expect(warnings[0].message).toContain("DuckDuckGo answered 503")
      }).pipe(Effect.provide(Drivers.layer([ddg])), Effect.provide(capture.layer))
    }
  )

  it.effect("§9.3.8 when every input fails, the first input's error is raised listing every input and failure", () => {
    const ddg = Drivers.makeDriver("duckduckgo", {
      searchKeywords: Drivers.byInput(
        {
          first: Drivers.fail(WebSearchError.requestFailed("http_429", "slow down", { retryAfter: 7 })),
          second: Drivers.fail(WebSearchError.responseInvalid("empty_content", "nothing came back"))
        },
        Drivers.fail(WebSearchError.requestFailed("network", "connection reset"))
      )
    })
    return Effect.gen(function* () {
      const error = yield* Effect.flip(search({ keywords: ["first", "second", "third"] }))
      expect(error).toBeInstanceOf(WebSearchError.RequestFailed)
      expect([error.reason, error.input, error.providerId, error.retryAfter]).toEqual([
        "http_429",
        "first",
        "duckduckgo",
        7
      ])
      expect(error.message).toContain("all 3 inputs failed")
      for (const input of ['"first"', '"second"', '"third"']) expect(error.message).toContain(input)
      expect(error.failures?.map((f) => [f.input, f._tag, f.reason, f.retryable])).toEqual([
        ["first", "RequestFailed", "http_429", true],
        ["second", "ResponseInvalid", "empty_content", false],
        ["third", "RequestFailed", "network", true]
      ])
      expect(error.failures?.[0].retryAfter).toBe(7)
    }).pipe(Effect.provide(Drivers.layer([ddg])))
  })

  it.effect(
    "§9.3.9 an Aborted from one input fails the request at once and interrupts the other in-flight inputs",
    () => {
      const ddg = Drivers.makeDriver("duckduckgo", {
        searchKeywords: Drivers.byInput(
          { stop: Drivers.fail(WebSearchError.aborted("the upstream call was cancelled"), { delay: "10 millis" }) },
          Drivers.never
        )
      })
      return Effect.gen(function* () {
        const fiber = yield* Effect.fork(Effect.flip(search({ keywords: ["one", "two", "stop"] })))
        yield* Drivers.awaitStarted(ddg.recorder, 3)
        expect(ddg.recorder.interrupted).toEqual([])
        yield* TestClock.adjust("10 millis")
        const error = yield* Drivers.joinPromptly(fiber)
        expect(error).toBeInstanceOf(WebSearchError.Aborted)
        expect([error.reason, error.input, error.failures]).toEqual(["interrupted", "stop", undefined])
        expect(sorted(ddg.recorder.interrupted)).toEqual(["one", "two"])
        expect(sorted(ddg.recorder.finalized)).toEqual(["one", "stop", "two"])
        expect(ddg.recorder.inFlight).toBe(0)
      }).pipe(Effect.provide(Drivers.layer([ddg])))
    }
  )

  it.effect(
    "§9.3.10 a response is aggregatable per turn: URL dedupe keeps the first number, groups per call, search/fetch labels",
    () => {
      const ddg = Drivers.makeDriver("duckduckgo", {
        searchKeywords: Drivers.results([
          { title: "Docs", content: "docs from search", url: "https://effect.website/docs" },
          { title: "Blog", content: "blog from search", url: "https://effect.website/blog" }
        ])
      })
      const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.succeed() })
      return Effect.gen(function* () {
        const searched = yield* search({ keywords: ["effect"] })
        const fetched = yield* fetchUrls({ urls: ["https://effect.website/docs#intro", "https://other.example/"] })
        const turn = TurnAggregation.aggregate([
          { callId: "call-1", response: searched },
          { callId: "call-2", response: fetched }
        ])
        expect(turn.sources.map((s) => [s.number, s.url, s.callId, s.capability])).toEqual([
          [1, "https://effect.website/docs", "call-1", "searchKeywords"],
          [2, "https://effect.website/blog", "call-1", "searchKeywords"],
          [3, "https://other.example/", "call-2", "fetchUrls"]
        ])
        expect(turn.sources[0].content).toBe("docs from search")
        expect(turn.groups.map((g) => [g.callId, g.label, g.providerId, g.sources])).toEqual([
          ["call-1", "search", "duckduckgo", [1, 2]],
          ["call-2", "fetch", "fetch", [1, 3]]
        ])
      }).pipe(Effect.provide(Drivers.layer([ddg, local])))
    }
  )

  it.effect("§9.3.11 blacklist runs before post-processing: a blacklisted result consumes no content budget", () => {
    const kept = "k".repeat(80)
    const ddg = Drivers.makeDriver("duckduckgo", {
      searchKeywords: Drivers.results([
        { title: "Blocked", content: "b".repeat(1000), url: "https://blocked.example/a" },
        { title: "Kept", content: kept, url: "https://kept.example/b" }
      ])
    })
    return Effect.gen(function* () {
      const response = yield* search({ keywords: ["q"] })
      // Had the budget (100 chars) been shared before the blacklist, "Kept" would have been cut to 50 chars.
      expect(response.results.map((r) => [r.title, r.content])).toEqual([["Kept", kept]])
    }).pipe(
      Effect.provide(
        Drivers.layer([ddg], {
          blacklist: ["blocked.example"],
          budget: { method: "cutoff", unit: "chars", limit: 100 }
        })
      )
    )
  })

  it.effect("§9.3.11 blacklist runs before dedupe: a blacklisted duplicate cannot displace the clean result", () => {
    const ddg = Drivers.makeDriver("duckduckgo", {
      searchKeywords: Drivers.results([
        { title: "Sponsored", content: "ad", url: "https://site.example/page#sponsored" },
        { title: "Organic", content: "real", url: "https://site.example/page" }
      ])
    })
    return Effect.gen(function* () {
      const response = yield* search({ keywords: ["q"] })
      // Dedupe first would keep the sponsored copy (first wins) and then the blacklist would drop it: no results.
      expect(response.results.map((r) => r.title)).toEqual(["Organic"])
    }).pipe(Effect.provide(Drivers.layer([ddg], { blacklist: ["/#sponsored$/"] })))
  })

  it.effect("a per-input timeout becomes RequestFailed/timeout (retryable) in failures and interrupts the call", () => {
    const ddg = Drivers.makeDriver("duckduckgo", {
      searchKeywords: Drivers.byInput({ slow: Drivers.never }, Drivers.succeed(1, { delay: "100 millis" }))
    })
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(search({ keywords: ["fast", "slow"] }))
      yield* Drivers.awaitStarted(ddg.recorder, 2)
      yield* TestClock.adjust("999 millis")
      expect(ddg.recorder.interrupted).toEqual([])
      yield* TestClock.adjust("1 millis")
      const response = yield* Drivers.joinPromptly(fiber)
      expect(sourceInputs(response)).toEqual(["fast"])
      expect(response.failures.map((f) => [f.input, f._tag, f.reason, f.retryable])).toEqual([
        ["slow", "RequestFailed", "timeout", true]
      ])
      expect(response.failures[0].message).toContain("within 1s")
      expect(ddg.recorder.interrupted).toEqual(["slow"])
    }).pipe(Effect.provide(Drivers.layer([ddg], { timeouts: { searchKeywords: 1000 } })))
  })

  it.effect("caller interruption of the whole request interrupts every in-flight driver call", () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.never })
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(search({ keywords: ["a", "b", "c"] }))
      yield* Drivers.awaitStarted(ddg.recorder, 3)
      expect(ddg.recorder.inFlight).toBe(3)
      yield* Fiber.interrupt(fiber)
      expect(sorted(ddg.recorder.interrupted)).toEqual(["a", "b", "c"])
      expect(sorted(ddg.recorder.finalized)).toEqual(["a", "b", "c"])
      expect(ddg.recorder.inFlight).toBe(0)
    }).pipe(Effect.provide(Drivers.layer([ddg])))
  })

  it.effect("bounded concurrency: with concurrency 2, six slow inputs never have more than 2 calls in flight", () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(1, { delay: "100 millis" }) })
    const keywords = ["k1", "k2", "k3", "k4", "k5", "k6"]
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(search({ keywords }))
      for (const wave of [2, 4, 6]) {
        yield* Drivers.awaitStarted(ddg.recorder, wave)
        expect(ddg.recorder.started).toHaveLength(wave)
        yield* TestClock.adjust("100 millis")
      }
      const response = yield* Drivers.joinPromptly(fiber)
      expect(sourceInputs(response)).toEqual(keywords)
      expect(ddg.recorder.maxInFlight).toBe(2)
    }).pipe(Effect.provide(Drivers.layer([ddg], { concurrency: 2 })))
  })

  it.effect("merge follows input order even when later inputs finish first", () => {
    const delays: Record<string, number> = { a: 30, b: 20, c: 10 }
    const ddg = Drivers.makeDriver("duckduckgo", {
      searchKeywords: (input) => Drivers.succeed(2, { delay: Duration.millis(delays[input]) })
    })
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(search({ keywords: ["a", "b", "c"] }))
      yield* Drivers.awaitStarted(ddg.recorder, 3)
      yield* TestClock.adjust("30 millis")
      const response = yield* Drivers.joinPromptly(fiber)
      expect(ddg.recorder.completed).toEqual(["c", "b", "a"])
      expect(sourceInputs(response)).toEqual(["a", "a", "b", "b", "c", "c"])
    }).pipe(Effect.provide(Drivers.layer([ddg])))
  })

  it.effect(
    "maxResults caps each input's results (request value, else the settings value, is passed to the driver)",
    () => {
      const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(9) })
      return Effect.gen(function* () {
        const capped = yield* search({ keywords: ["x", "y"], maxResults: 2 })
        expect(sourceInputs(capped)).toEqual(["x", "x", "y", "y"])
        const byDefault = yield* search({ keywords: ["z"] })
        expect(byDefault.results).toHaveLength(4)
        expect(ddg.recorder.calls.map((c) => c.maxResults)).toEqual([2, 2, 4])
      }).pipe(Effect.provide(Drivers.layer([ddg], { maxResults: 4, concurrency: 1 })))
    }
  )

  it.effect("a driver defect becomes a typed per-input failure (ResponseInvalid/parse_failed)", () => {
    const ddg = Drivers.makeDriver("duckduckgo", {
      searchKeywords: Drivers.byInput({ bad: Drivers.die(new TypeError("cannot read properties of undefined")) })
    })
    return Effect.gen(function* () {
      const response = yield* search({ keywords: ["good", "bad"] })
      expect(sourceInputs(response)).toEqual(["good"])
      expect(response.failures.map((f) => [f.input, f._tag, f.reason, f.retryable])).toEqual([
        ["bad", "ResponseInvalid", "parse_failed", false]
      ])
      expect(response.failures[0].message).toContain("cannot read properties of undefined")
    }).pipe(Effect.provide(Drivers.layer([ddg])))
  })

  it.effect(
    "a blacklisted fetchUrls input is refused with RequestFailed/blacklisted without calling the driver",
    () => {
      const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.succeed() })
      return Effect.gen(function* () {
        const response = yield* fetchUrls({ urls: ["https://ads.blocked.example/x", "https://ok.example/y"] })
        expect(local.recorder.calls.map((c) => c.input)).toEqual(["https://ok.example/y"])
        expect(sourceInputs(response)).toEqual(["https://ok.example/y"])
        expect(response.failures.map((f) => [f.input, f._tag, f.reason, f.retryable])).toEqual([
          ["https://ads.blocked.example/x", "RequestFailed", "blacklisted", false]
        ])
        const all = yield* Effect.flip(fetchUrls({ urls: ["https://blocked.example/only"] }))
        expect([all._tag, all.reason]).toEqual(["RequestFailed", "blacklisted"])
        expect(local.recorder.calls).toHaveLength(1)
      }).pipe(Effect.provide(Drivers.layer([local], { blacklist: ["*.blocked.example"] })))
    }
  )

  it.effect("a fetchUrls input outside a non-empty allowlist is refused with RequestFailed/blacklisted", () => {
    const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      const response = yield* fetchUrls({ urls: ["https://docs.example/a", "https://elsewhere.example/b"] })
      expect(local.recorder.calls.map((c) => c.input)).toEqual(["https://docs.example/a"])
      expect(response.failures.map((f) => [f.input, f.reason])).toEqual([
        ["https://elsewhere.example/b", "blacklisted"]
      ])
      expect(response.failures[0].message).toContain("allowlist")
    }).pipe(Effect.provide(Drivers.layer([local], { allowlist: ["docs.example"] })))
  })

  it.effect("API keys rotate round-robin across calls and across the inputs of one call", () => {
    const keys = ["tvly-key-one-1111", "tvly-key-two-2222", "tvly-key-three-3333"]
    const tavily = Drivers.makeDriver("tavily", { searchKeywords: Drivers.succeed() })
    return Effect.gen(function* () {
      for (let i = 0; i < 4; i++) yield* search({ keywords: [`q${i}`] })
      expect(tavily.recorder.calls.map((c) => c.apiKey)).toEqual([keys[0], keys[1], keys[2], keys[0]])
      yield* search({ keywords: ["a", "b", "c"] })
      expect(tavily.recorder.calls.slice(4).map((c) => c.apiKey)).toEqual([keys[1], keys[2], keys[0]])
    }).pipe(
      Effect.provide(
        Drivers.layer([tavily], {
          defaults: { searchKeywords: "tavily" },
          providers: { tavily: { apiKeys: keys } },
          concurrency: 1
        })
      )
    )
  })
})

// --- Properties -------------------------------------------------------------------------------------------

const keywordArb = FastCheck.stringMatching(/^[a-z]{1,6}$/)

describe("Pipeline properties", () => {
  it.effect.prop(
    "merge preserves input order for arbitrary input sets and completion delays",
    {
      cases: FastCheck.uniqueArray(
        FastCheck.record({
          keyword: keywordArb,
          delay: FastCheck.integer({ min: 0, max: 50 }),
          count: FastCheck.integer({ min: 1, max: 3 })
        }),
        { selector: (c) => c.keyword, minLength: 1, maxLength: 8 }
      )
    },
    ({ cases }) => {
      const byKeyword = new Map(cases.map((c) => [c.keyword, c]))
      const ddg = Drivers.makeDriver("duckduckgo", {
        searchKeywords: (input) => {
          const c = byKeyword.get(input)
          return c === undefined ? Drivers.never : Drivers.succeed(c.count, { delay: Duration.millis(c.delay) })
        }
      })
      return Effect.gen(function* () {
        const fiber = yield* Effect.fork(search({ keywords: cases.map((c) => c.keyword) }))
        yield* Drivers.awaitStarted(ddg.recorder, cases.length)
        yield* TestClock.adjust("50 millis")
        const response = yield* Drivers.joinPromptly(fiber)
        expect(response.results.map((r) => r.url)).toEqual(
          cases.flatMap((c) => Array.from({ length: c.count }, (_, i) => Drivers.resultUrl(c.keyword, i)))
        )
        expect(sourceInputs(response)).toEqual(cases.flatMap((c) => Array.from({ length: c.count }, () => c.keyword)))
      }).pipe(Effect.provide(Drivers.layer([ddg], { concurrency: 20 })))
    },
    { fastCheck: { numRuns: 50 } }
  )

  it.effect.prop(
    "partial-failure accounting: results come only from succeeding inputs, failures list exactly the failing ones in order",
    {
      cases: FastCheck.uniqueArray(FastCheck.record({ keyword: keywordArb, fails: FastCheck.boolean() }), {
        selector: (c) => c.keyword,
        minLength: 1,
        maxLength: 8
      })
    },
    ({ cases }) => {
      const failing = new Set(cases.filter((c) => c.fails).map((c) => c.keyword))
      const ddg = Drivers.makeDriver("duckduckgo", {
        searchKeywords: (input) =>
          failing.has(input)
            ? Drivers.fail(WebSearchError.requestFailed("http_5xx", `no ${input}`))
            : Drivers.succeed(2)
      })
      const keywords = cases.map((c) => c.keyword)
      const expectedFailures = keywords.filter((k) => failing.has(k))
      const expectedSources = keywords.filter((k) => !failing.has(k)).flatMap((k) => [k, k])
      return Effect.gen(function* () {
        const outcome = yield* Effect.either(search({ keywords }))
        if (expectedFailures.length === keywords.length) {
          expect(outcome._tag).toBe("Left")
          if (outcome._tag === "Left") {
            expect(outcome.left.input).toBe(keywords[0])
            expect(outcome.left.failures?.map((f) => f.input)).toEqual(expectedFailures)
          }
        } else {
          expect(outcome._tag).toBe("Right")
          if (outcome._tag === "Right") {
            expect(sourceInputs(outcome.right)).toEqual(expectedSources)
            expect(outcome.right.failures.map((f) => f.input)).toEqual(expectedFailures)
            expect(outcome.right.failures.every((f) => f.reason === "http_5xx" && f.retryable)).toBe(true)
          }
        }
      }).pipe(Effect.provide(Drivers.layer([ddg], { concurrency: 3 })))
    },
    { fastCheck: { numRuns: 100 } }
  )
})
