import { afterEach, describe, expect, it } from "@effect/vitest"
import * as WebSearchClient from "../src/WebSearchClient.js"
import * as WebSearchError from "../src/WebSearchError.js"
import * as Drivers from "./support/drivers.js"

const clients: Array<WebSearchClient.WebSearchClient> = []

const client = (...args: Parameters<typeof Drivers.layer>): WebSearchClient.WebSearchClient => {
  const made = WebSearchClient.make(Drivers.layer(...args))
  clients.push(made)
  return made
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()))
})

/** Settles a promise into its rejection reason, failing the test if it resolves. */
const rejection = <A>(promise: Promise<A>): Promise<unknown> =>
  promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`)
    },
    (error: unknown) => error
  )

const until = async (condition: () => boolean, what: string): Promise<void> => {
  const deadline = Date.now() + 5_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe("WebSearchClient (promise boundary)", () => {
  it("resolves with the response", async () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(2) })
    const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.succeed() })
    const c = client([ddg, local])
    const searched = await c.searchKeywords({ keywords: ["effect", "vitest"] })
    expect(searched.providerId).toBe("duckduckgo")
    expect(searched.results.map((r) => r.sourceInput)).toEqual(["effect", "effect", "vitest", "vitest"])
    const fetched = await c.fetchUrls({ urls: ["https://example.com/"] })
    expect(fetched.results.map((r) => r.url)).toEqual(["https://example.com/"])
    const check = await c.check("duckduckgo")
    expect(check.ok).toBe(true)
  })

  it("rejects with the typed error instance (_tag, reason, failures)", async () => {
    const ddg = Drivers.makeDriver("duckduckgo", {
      searchKeywords: Drivers.fail(WebSearchError.requestFailed("http_429", "slow down", { retryAfter: 3 }))
    })
    const c = client([ddg])
    const error = await rejection(c.searchKeywords({ keywords: ["a", "b"] }))
    expect(error).toBeInstanceOf(WebSearchError.RequestFailed)
    expect(error).toBeInstanceOf(Error)
    expect(WebSearchError.isWebSearchError(error)).toBe(true)
    if (!(error instanceof WebSearchError.RequestFailed)) return
    expect([error._tag, error.reason, error.retryable, error.retryAfter, error.input]).toEqual([
      "RequestFailed",
      "http_429",
      true,
      3,
      "a"
    ])
    expect(error.failures?.map((f) => f.input)).toEqual(["a", "b"])

    const unavailable = await rejection(c.research({ query: "q", allowedDomains: [] }))
    expect(unavailable).toBeInstanceOf(WebSearchError.Unavailable)
    expect((unavailable as WebSearchError.Unavailable).reason).toBe("no_default_provider")
  })

  it("aborting the AbortSignal mid-call rejects with Aborted after the driver's in-flight call was interrupted", async () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.never })
    const c = client([ddg])
    const controller = new AbortController()
    const pending = rejection(c.searchKeywords({ keywords: ["slow", "slower"] }, { signal: controller.signal }))
    await until(() => ddg.recorder.started.length === 2, "both driver calls to start")
    expect(ddg.recorder.interrupted).toEqual([])
    controller.abort()
    const error = await pending
    expect(error).toBeInstanceOf(WebSearchError.Aborted)
    expect((error as WebSearchError.Aborted).reason).toBe("interrupted")
    expect([...ddg.recorder.interrupted].sort()).toEqual(["slow", "slower"])
    expect(ddg.recorder.inFlight).toBe(0)
  })

  it("an already-aborted signal rejects at once without calling the driver", async () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed() })
    const c = client([ddg])
    const error = await rejection(c.searchKeywords({ keywords: ["x"] }, { signal: AbortSignal.abort() }))
    expect(error).toBeInstanceOf(WebSearchError.Aborted)
    expect((error as WebSearchError.Aborted).reason).toBe("interrupted")
    expect(ddg.recorder.calls).toEqual([])
    // The client is still usable.
    expect((await c.searchKeywords({ keywords: ["x"] })).results).toHaveLength(1)
  })

  it("a signal that is never aborted does not affect the call", async () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(1, { delay: "5 millis" }) })
    const c = client([ddg])
    const controller = new AbortController()
    const response = await c.searchKeywords({ keywords: ["x"] }, { signal: controller.signal })
    controller.abort()
    expect(response.results).toHaveLength(1)
    expect(ddg.recorder.interrupted).toEqual([])
  })

  it("dispose() aborts in-flight calls, and later calls reject with Aborted", async () => {
    const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.never })
    const c = client([local])
    const pending = rejection(c.fetchUrls({ urls: ["https://slow.example/"] }))
    await until(() => local.recorder.started.length === 1, "the driver call to start")
    await c.dispose()
    const error = await pending
    expect(error).toBeInstanceOf(WebSearchError.Aborted)
    expect(local.recorder.interrupted).toEqual(["https://slow.example/"])
    const later = await rejection(c.fetchUrls({ urls: ["https://example.com/"] }))
    expect(later).toBeInstanceOf(WebSearchError.Aborted)
    expect(local.recorder.calls).toHaveLength(1)
    await c.dispose()
  })

  it("Symbol.asyncDispose disposes the client", async () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed() })
    const c = client([ddg])
    await c.searchKeywords({ keywords: ["x"] })
    await c[Symbol.asyncDispose]()
    expect(await rejection(c.searchKeywords({ keywords: ["x"] }))).toBeInstanceOf(WebSearchError.Aborted)
  })

  it("invalid settings reject with Unavailable/invalid_config", async () => {
    const c = client([], { concurrency: 0, providers: { nope: {} } })
    const error = await rejection(c.searchKeywords({ keywords: ["x"] }))
    expect(error).toBeInstanceOf(WebSearchError.Unavailable)
    const unavailable = error as WebSearchError.Unavailable
    expect(unavailable.reason).toBe("invalid_config")
    expect(unavailable.message).toContain("concurrency")
  })
})
