/**
 * `/docs` in a real browser: Debian's headless Chromium (through playwright-core, as the renderer uses it) loads
 * the page from the server on 127.0.0.1 and the test reads the DOM Scalar rendered. Every request the page makes
 * is recorded and any to another origin is refused, so the page is shown to work offline (no CDN, no web fonts).
 * Fails (does not skip) when Chromium is missing. The screenshot goes to WEBSEARCH_DOCS_SCREENSHOT when set.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { chromium } from "playwright-core"
import { createRequire } from "node:module"
import * as Support from "./support/server.js"

const { version } = createRequire(import.meta.url)("../package.json") as { version: string }

const executablePath = process.env.WEBSEARCH_CHROMIUM_PATH ?? "/usr/bin/chromium"

const serve = () => {
  const { driver } = Support.driver("tavily", { searchKeywords: (input) => Effect.succeed(Support.results(input)) })
  return Support.start(
    { tokens: [Support.token] },
    Support.live([driver], { defaults: { searchKeywords: "tavily" }, providers: { tavily: { apiKeys: ["k"] } } })
  )
}

const launch = Effect.acquireRelease(
  Effect.promise(() => chromium.launch({ executablePath, headless: true, args: ["--no-sandbox"] })),
  (browser) => Effect.promise(() => browser.close())
)

describe("GET /docs", () => {
  it.scoped(
    "renders every operation with Scalar from the page alone, loading nothing from another origin",
    () =>
      Effect.gen(function* () {
        const base = yield* serve()
        const browser = yield* launch
        const page = yield* Effect.promise(() => browser.newPage({ viewport: { width: 1400, height: 1000 } }))
        const requested: Array<string> = []
        yield* Effect.promise(() =>
          page.route("**/*", (route) => {
            const url = route.request().url()
            requested.push(url)
            return url.startsWith(base) ? route.continue() : route.abort()
          })
        )
        const errors: Array<string> = []
        page.on("pageerror", (error) => errors.push(error.message))
        const response = yield* Effect.promise(() => page.goto(`${base}/docs`, { waitUntil: "load" }))
        expect(response?.status()).toBe(200)
        // Scalar renders client-side from the document embedded in the page, the sidebar before the sections:
        // wait until the first and the last operation's request examples are there.
        yield* Effect.promise(() =>
          page.waitForFunction(
            (origin) =>
              document.body.innerText.includes(`curl ${origin}/v1/search`) &&
              document.body.innerText.includes(`curl ${origin}/health`),
            base,
            { timeout: 60_000 }
          )
        )
        const text = yield* Effect.promise(() => page.evaluate(() => document.body.innerText))
        for (const summary of [
          "Search the web",
          "Fetch pages as markdown",
          "Research a brief",
          "List the providers",
          "Check a provider",
          "List the provider types",
          "List a workspace's provider instances",
          "Create a provider instance",
          "Read a provider instance",
          "Update a provider instance",
          "Delete a provider instance",
          "Set a provider instance's credentials",
          "Test a provider instance",
          "Describe the service",
          "Check liveness"
        ]) {
          expect(text).toContain(summary)
        }
        for (const path of [
          "/v1/search",
          "/v1/fetch",
          "/v1/research",
          "/v1/providers",
          "/v1/providers/{id}/check",
          "/v1/provider-types",
          "/v1/workspaces/{workspace}/providers",
          "/v1/workspaces/{workspace}/providers/{id}/credentials"
        ]) {
          expect(text).toContain(path)
        }
        expect(text).toContain(`v${version}`)
        // The "try it" client and the request examples address the server that served the page.
        expect(text).toContain(`curl ${base}/v1/search`)
        expect(text).toContain('"keywords"')
        expect(errors).toEqual([])
        expect(requested.filter((url) => !url.startsWith(`${base}/`))).toEqual([])
        const screenshot = process.env.WEBSEARCH_DOCS_SCREENSHOT
        if (screenshot !== undefined) {
          yield* Effect.promise(() => page.screenshot({ path: screenshot, fullPage: false }))
        }
      }),
    120_000
  )
})
