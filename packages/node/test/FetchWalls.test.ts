/**
 * Pages that are not their content, through the real fetch provider over real sockets on 127.0.0.1: walls of several
 * vendors (test-support/wallPages.ts) fail `RequestFailed/blocked` with the wall named and, when rendering could
 * pass it, the `render` setting suggested; an ordinary page carrying a wall's pieces is read, with its page type;
 * an empty JavaScript shell fails `empty_content` saying it needs rendering.
 */
import { describe, expect, it } from "@effect/vitest"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import type { WebSearchResponse } from "@websearch/core/WebSearchResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as WallPages from "../../../test-support/wallPages.js"
import * as Fetch from "../src/Fetch.js"
import * as LocalServer from "./support/localServer.js"

const allowLoopback: Settings.SettingsInput = { urlPolicy: { allowHosts: ["127.0.0.1"] } }

const fetchUrls = (
  urls: ReadonlyArray<string>,
  options: Fetch.Options = { workers: false }
): Effect.Effect<WebSearchResponse, WebSearchError.WebSearchError> =>
  FetchUrls.fetchUrls({ urls: [...urls] }).pipe(
    Effect.provide(WebSearch.layer(Fetch.layerWith(options)).pipe(Layer.provideMerge(Settings.layer(allowLoopback))))
  )

const routeOf = (page: WallPages.WallPage): LocalServer.Answer => ({
  status: page.status ?? 200,
  headers: { "content-type": "text/html; charset=utf-8" },
  body: page.html
})

const slug = (page: WallPages.WallPage) => `/${page.name.replace(/[^a-z]+/gi, "-").toLowerCase()}`

const passable = (kind: WallPages.WallPage["kind"]) => kind === "challenge" || kind === "javascript"

describe("walls and shells through the fetch provider", () => {
  it.scopedLive(
    "every vendor's wall fails RequestFailed/blocked, not retryable, naming the wall and what may help",
    () =>
      Effect.gen(function* () {
        const server = yield* LocalServer.start(
          Object.fromEntries(WallPages.walls.map((page) => [slug(page), routeOf(page)]))
        )
        for (const page of WallPages.walls) {
          const error = yield* Effect.flip(fetchUrls([server.url(slug(page))]))
          expect({ page: page.name, tag: error._tag, reason: error.reason, retryable: error.retryable }).toEqual({
            page: page.name,
            tag: "RequestFailed",
            reason: "blocked",
            retryable: false
          })
          expect(error.providerId).toBe("fetch")
          expect(error.message).toContain(server.url(slug(page)))
          if (page.vendor !== undefined) expect(error.message).toContain(`(${page.vendor})`)
          if (page.status !== undefined && page.status >= 400)
            expect(error.message).toContain(`answered ${page.status}`)
          if (passable(page.kind)) {
            expect(error.message).toContain(`rendering may get past it: set providers.fetch.render to "auto"`)
          } else {
            expect(error.message).toContain("the site refuses automated reading")
          }
        }
      })
  )

  it.scopedLive(
    "a wall is one input's failure, listed like any other, beside pages that are read with their page type (on workers)",
    () =>
      Effect.gen(function* () {
        const server = yield* LocalServer.start({
          "/wall": routeOf(WallPages.oneTrustWall),
          "/banner": routeOf(WallPages.articleWithBanner),
          "/about": routeOf(WallPages.articleAboutChallenges)
        })
        const response = yield* fetchUrls([server.url("/banner"), server.url("/wall"), server.url("/about")], {
          workers: { size: 1, threshold: 0 }
        })
        expect(response.results.map((result) => result.url)).toEqual([server.url("/banner"), server.url("/about")])
        expect(response.results[0].content).toContain("Paragraph 8 follows the night ferry")
        expect(response.results[1].content).toContain("Critics say the checks shut out people")
        for (const result of response.results) expect(result.pageType).toBe("article")
        expect(response.failures).toHaveLength(1)
        expect(response.failures[0]).toMatchObject({
          input: server.url("/wall"),
          _tag: "RequestFailed",
          reason: "blocked",
          retryable: false
        })
        expect(response.failures[0].message).toContain("a full-page consent wall (OneTrust)")
      })
  )

  it.scopedLive(
    "a plain error page saying access denied keeps its status, as does a 429 with a CAPTCHA; a bot check's 403 is blocked",
    () =>
      Effect.gen(function* () {
        const server = yield* LocalServer.start({
          "/forbidden": {
            status: 403,
            headers: { "content-type": "text/html" },
            body: "<html><head><title>Access denied</title></head><body><h1>Access denied</h1></body></html>"
          },
          "/checked": routeOf(WallPages.cloudflare),
          "/limited": { ...routeOf(WallPages.reCaptcha), status: 429 }
        })
        const forbidden = yield* Effect.flip(fetchUrls([server.url("/forbidden")]))
        expect(forbidden.reason).toBe("http_403")
        const checked = yield* Effect.flip(fetchUrls([server.url("/checked")]))
        expect(checked.reason).toBe("blocked")
        expect(checked.message).toContain("answered 403 with a bot check (Cloudflare)")
        // A rate limit is one, whatever its page shows: waiting and trying again gets past it.
        const limited = yield* Effect.flip(fetchUrls([server.url("/limited")]))
        expect(limited).toMatchObject({ reason: "http_429", retryable: true })
      })
  )

  it.scopedLive(
    "an empty JavaScript shell fails empty_content saying it needs rendering; a page without scripts does not",
    () =>
      Effect.gen(function* () {
        const server = yield* LocalServer.start({
          "/shell": LocalServer.html(
            `<!doctype html><html><head><title>Harbour app</title></head><body><div id="root"></div>` +
              `<script src="/static/app.js"></script></body></html>`
          ),
          "/blank": LocalServer.html(
            "<!doctype html><html><head><title>Blank</title></head><body><div></div></body></html>"
          )
        })
        const shell = yield* Effect.flip(fetchUrls([server.url("/shell")]))
        expect(shell).toMatchObject({ _tag: "ResponseInvalid", reason: "empty_content", retryable: false })
        expect(shell.message).toContain(
          `${server.url("/shell")} has no readable text: the page is built by JavaScript and needs rendering: ` +
            `set providers.fetch.render to "auto"`
        )
        const blank = yield* Effect.flip(fetchUrls([server.url("/blank")]))
        expect(blank.reason).toBe("empty_content")
        expect(blank.message).not.toContain("render")
      })
  )

  it.scopedLive("a JavaScript shell whose embedded state carries its text is read, not failed", () =>
    Effect.gen(function* () {
      const story = [
        "The night ferry crosses the bay twice a week in winter, and the crew knows every buoy by the sound it makes.",
        "On calm evenings the captain lets passengers onto the bridge, where the charts are still drawn by hand.",
        "When the harbour freezes the ferry waits at the outer pier, and the islanders walk the last mile on the ice."
      ]
      const state = {
        props: { pageProps: { post: { title: "Night ferry", paragraphs: story } } },
        page: "/notes/[slug]"
      }
      const server = yield* LocalServer.start({
        "/notes/night-ferry": LocalServer.html(
          `<!doctype html><html><head><title>Night ferry</title></head><body><div id="__next"></div>` +
            `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(state)}</script>` +
            `<script src="/_next/static/chunks/main.js"></script></body></html>`
        )
      })
      const response = yield* fetchUrls([server.url("/notes/night-ferry")])
      expect(response.failures).toEqual([])
      for (const sentence of story) expect(response.results[0].content).toContain(sentence)
      expect(response.results[0].pageType).toBeDefined()
    })
  )
})
