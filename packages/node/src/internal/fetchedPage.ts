/**
 * How the local fetcher reads a page the transport fetched: as it came, or rendered in a browser when rendering is
 * on and the page needs it (a shell of scripts, a wall a browser may pass). Only HTML is ever rendered or read for
 * walls; a wall that rendering does not get past is `blocked`, with a hint at what could help.
 */
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as ContentKind from "@websearch/extract/internal/contentKind"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as BrowserRenderer from "../BrowserRenderer.js"
import * as SafeTransport from "../SafeTransport.js"
import type * as ExtractRoute from "./extractRoute.js"
import type * as FetchCall from "./fetchCall.js"
import * as JsShell from "./jsShell.js"
import * as PageMetadata from "./pageMetadata.js"
import * as PageWall from "./pageWall.js"
import * as TransportError from "./transportError.js"

/** What reading a page needs: the transport a browser loads the page's resources through, and the extractor. */
export interface Reader {
  readonly transport: SafeTransport.SafeTransport.Service
  readonly extract: ExtractRoute.Route
}

const originOf = (url: string): string => new URL(url).origin

/** Renders the page whose document the transport fetched, and extracts the rendered DOM. */
export const rendered: (
  reader: Reader,
  browser: BrowserRenderer.BrowserRenderer.Service,
  response: SafeTransport.Response,
  call: FetchCall.Call
) => Effect.Effect<ProviderDriver.DriverResult, WebSearchError.WebSearchError> = Effect.fnUntraced(
  function* (reader, browser, response, call) {
    const { robots, userAgent } = call
    const page = yield* browser.render({
      url: response.url,
      transport: reader.transport,
      document: response,
      userAgent
    })
    // A script may have navigated to another origin; its content is used only if that robots.txt allows it.
    if (robots !== undefined && originOf(page.url) !== originOf(response.url)) yield* robots(page.url)
    const extracted = yield* Effect.either(
      reader.extract(new TextEncoder().encode(page.html), "text/html; charset=utf-8", page.url)
    )
    // Still a wall once a browser ran its scripts: a bot check it did not pass, or a login or consent wall.
    const wall = Either.isRight(extracted) ? extracted.right.wall : PageWall.ofEmptyPage(page.html)
    if (wall !== undefined) return yield* PageWall.blocked(page.url, wall, { rendered: true, hint: "none" })
    const document = yield* extracted
    yield* Effect.annotateCurrentSpan({
      "websearch.fetch.rendered": true,
      "websearch.fetch.final_url": page.url,
      "websearch.render.requests": page.requests,
      "websearch.render.blocked": page.blocked.length
    })
    return yield* Effect.mapError(PageMetadata.toResult(document, page.url), (error) =>
      WebSearchError.annotate(error, { message: `${page.url} has no readable text, even rendered` }, false)
    )
  }
)

/**
 * Reads the page of `response` (the transport's answer to `call`, after the robots.txt checks): with `browser`
 * when rendering is composed and not turned off for the call.
 */
export const read: (
  reader: Reader,
  response: SafeTransport.Response,
  call: FetchCall.Call,
  browser: BrowserRenderer.BrowserRenderer.Service | undefined
) => Effect.Effect<ProviderDriver.DriverResult, WebSearchError.WebSearchError> = Effect.fnUntraced(
  function* (reader, response, call, browser) {
    const { render } = call
    const contentType = response.headers["content-type"]
    // Only HTML is ever rendered or read for walls (the extractor's own classification: PDFs, JSON, feeds and
    // text never are). Its first bytes are decoded once, and only when a decision needs them.
    const isHtml = ContentKind.classify(contentType, response.body, response.url) === "html"
    let decoded: string | undefined
    const html = () => (isHtml ? (decoded ??= JsShell.head(response.body)) : "")
    // What a message suggests when rendering could help: turning it on, or providing the renderer it needs.
    const hint: PageWall.Hint = browser !== undefined ? "none" : render === "never" ? "setting" : "renderer"
    const checked = yield* Effect.either(SafeTransport.ensureOk(response))
    if (Either.isLeft(checked)) {
      const httpError = checked.left
      // A bot check answers 403 or 503 with a page whose script proves a browser and reloads: only a browser
      // gets past it. Without one, or when rendering does not get past it, the answer is `blocked`.
      if (!isHtml || !PageWall.mayBeWall(response.status)) return yield* httpError
      const read = yield* Effect.either(reader.extract(response.body, contentType, response.url))
      const wall = PageWall.ofErrorPage(read, html())
      if (wall === undefined) return yield* httpError
      const blocked = PageWall.blocked(response.url, wall, { status: response.status, hint })
      if (browser === undefined) return yield* blocked
      return yield* Effect.catchAll(rendered(reader, browser, response, call), (failure) =>
        Effect.fail(failure.reason === "blocked" ? failure : blocked)
      )
    }
    if (browser !== undefined && isHtml && render === "always") return yield* rendered(reader, browser, response, call)
    const plain = yield* Effect.either(reader.extract(response.body, contentType, response.url))
    const plainText = Either.isRight(plain) ? plain.right.markdown : ""
    const { wall, worthRendering } = isHtml ? PageWall.assess(plain, html) : { wall: undefined, worthRendering: false }
    if (browser !== undefined && worthRendering) {
      const outcome = yield* Effect.either(rendered(reader, browser, response, call))
      if (Either.isRight(outcome)) return outcome.right
      const failure = outcome.left
      // A wall's text is never the page's: when rendering does not get past it, the answer is `blocked`.
      if (wall !== undefined) {
        return yield* failure.reason === "blocked" ? failure : PageWall.blocked(response.url, wall, { hint: "none" })
      }
      // Without text of its own the page is worth only the render's reason, unless rendering is unavailable.
      if (plainText.trim() === "" && failure._tag !== "Unavailable") return yield* failure
      yield* Effect.logDebug("rendering failed; the page is read as it came").pipe(
        Effect.annotateLogs({ url: TransportError.describe(response.url), reason: failure.reason })
      )
    }
    if (wall !== undefined) return yield* PageWall.blocked(response.url, wall, { hint })
    // An empty page of scripts is a shell that a browser would fill: the failure says it needs rendering.
    if (Either.isLeft(plain) && plain.left.reason === "empty_content" && JsShell.hasScript(html())) {
      return yield* PageWall.needsRendering(response.url, hint)
    }
    const document = yield* plain
    yield* Effect.annotateCurrentSpan({
      "websearch.fetch.final_url": response.url,
      "websearch.fetch.kind": document.kind,
      "websearch.bytes": response.body.length
    })
    return yield* PageMetadata.toResult(document, response.url)
  }
)
