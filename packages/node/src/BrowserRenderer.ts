/**
 * Renders pages that need JavaScript in the system Chromium (Debian's `chromium` package, default
 * `/usr/bin/chromium`, driven through `playwright-core`; never a downloaded browser), as safely as the plain fetch
 * path.
 *
 * Chromium never touches the network. Every request a page makes (the document, frames, scripts, XHR and fetch,
 * worker scripts, form posts, script navigations) is intercepted and either refused or fetched by the caller's
 * `SafeTransport`, the same one the fetch path uses: the URL policy is checked, the host resolved once, every
 * answer checked, exactly the checked address dialled, redirects followed and re-checked, the body capped. The
 * answer is handed back to Chromium, never as a redirect (Chromium would follow a fulfilled redirect without
 * routing it). Pinning Chromium with `--host-resolver-rules` instead would need one rule per host and page and
 * would still leave Chromium dialling by itself; here it cannot dial at all: its resolver answers NOTFOUND for
 * every host and IP literal, its proxy is an unreachable loopback port with no loopback exemption, WebRTC may only
 * use proxied UDP, QUIC and background networking are off. WebSockets are refused, service workers blocked,
 * downloads refused, popups closed.
 *
 * Per page: a timeout (navigation, settling and snapshot), a byte budget over everything fetched (the document
 * included; `RequestFailed/too_large` when exceeded), a request cap; images, media and fonts are not fetched,
 * since the extracted text does not need them. The page is snapshotted once the DOM is loaded and the network has
 * been quiet for `idle`, or when the settle time runs out.
 *
 * One browser is launched on first use (so an unused renderer costs nothing) and shared; each page gets a fresh
 * context (no cookie, storage or cache shared between pages), and one unused context with a blank page is kept
 * ready so the next page does not wait for a renderer process to start; at most `poolSize` pages render at once;
 * the browser is closed, with every process it started, when the Layer's scope closes. A browser that crashed is
 * launched again on the next page.
 *
 * @since 0.1.0
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as BrowserSupply from "./internal/browserSupply.js"
import * as Chromium from "./internal/chromium.js"
import * as PageRender from "./internal/pageRender.js"
import type * as RenderSession from "./internal/renderSession.js"
import * as TransportError from "./internal/transportError.js"
import type * as SafeTransport from "./SafeTransport.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The Chromium executable; default `/usr/bin/chromium` (Debian's `chromium` package). */
  readonly executablePath?: string | undefined
  /** Pages rendered at once, each in its own browser context; default 2. */
  readonly poolSize?: number | undefined
  /** Per page: navigation, settling and snapshot; default 15 s (`RequestFailed/timeout`). */
  readonly timeout?: Duration.DurationInput | undefined
  /** How long the network must be quiet before the page is snapshotted; default 250 ms. */
  readonly idle?: Duration.DurationInput | undefined
  /** Bytes fetched per page, document included, and the size of the snapshot; default 16 MiB. */
  readonly maxPageBytes?: number | undefined
  /** Requests fetched per page; later ones are refused (the page still renders); default 200. */
  readonly maxRequests?: number | undefined
  /** How long Chromium may take to start; default 30 s. */
  readonly launchTimeout?: Duration.DurationInput | undefined
  /**
   * Run Chromium's renderer processes in its sandbox; default false, since Chromium refuses it as root and it needs
   * user namespaces. Turn it on where the process runs as an ordinary user: a page's scripts are untrusted code.
   */
  readonly sandbox?: boolean | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface RenderRequest {
  /** The page; ignored when `document` is given (its `url` is the page). */
  readonly url: string
  /** Every request of the page is fetched through it: its policy, pinning, redirects, caps and timeout apply. */
  readonly transport: SafeTransport.SafeTransport.Service
  /**
   * The page's document, already fetched through `transport` (the fetch provider passes the answer it has): the
   * browser gets it without a second request. Without it the renderer fetches `url` first.
   */
  readonly document?: SafeTransport.Response | undefined
  /** The User-Agent of the page's requests and of `navigator.userAgent`; default: the transport's and Chromium's. */
  readonly userAgent?: string | undefined
}

/**
 * A request of the page that was not fetched, and why (scheme, host and port only).
 *
 * @since 0.1.0
 * @category models
 */
export type Blocked = RenderSession.Blocked

/**
 * @since 0.1.0
 * @category models
 */
export interface Rendered extends PageRender.Rendered {}

/**
 * @since 0.1.0
 * @category models
 */
export interface Stats {
  /** Times Chromium was started. */
  readonly launches: number
  /** Whether a browser is running now. */
  readonly running: boolean
  /** Pages rendering now, and the most at once so far. */
  readonly active: number
  readonly peakActive: number
  /** Pages rendered, successfully or not. */
  readonly pages: number
}

/**
 * The renderer service.
 *
 * @since 0.1.0
 * @category services
 */
export class BrowserRenderer extends Context.Tag("@websearch/node/BrowserRenderer")<
  BrowserRenderer,
  BrowserRenderer.Service
>() {}

/**
 * @since 0.1.0
 */
export declare namespace BrowserRenderer {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /**
     * Renders one page. `Unavailable/invalid_config` when Chromium is missing or does not start; otherwise every
     * failure is a `RequestFailed` with the transport's reasons (`ssrf_rejected` when the page navigated somewhere
     * refused, `timeout`, `too_large`, `network`).
     */
    readonly render: (
      request: RenderRequest
    ) => Effect.Effect<Rendered, WebSearchError.RequestFailed | WebSearchError.Unavailable>
    readonly stats: Effect.Effect<Stats>
  }
}

/**
 * The default Chromium executable: `/usr/bin/chromium`.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultExecutablePath: string = Chromium.defaultExecutablePath

/**
 * The default number of pages rendered at once: 2.
 */
const defaultPoolSize = 2

/**
 * The default per-page timeout: 15 seconds.
 */
const defaultTimeout: Duration.Duration = Duration.seconds(15)

/**
 * The default per-page byte budget: 16 MiB.
 */
const defaultMaxPageBytes = 16 * 1024 * 1024

/**
 * The default per-page request cap: 200.
 */
const defaultMaxRequests = 200

const positiveInt = (value: number | undefined, fallback: number) =>
  value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback

const millis = (value: Duration.DurationInput | undefined, fallback: Duration.Duration) =>
  Math.max(1, Math.ceil(Duration.toMillis(value === undefined ? fallback : Duration.decode(value))))

const acceptDocument = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"

/**
 * Builds the renderer. Chromium starts on the first page; the browser closes when the scope closes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options?: Options): Effect.Effect<BrowserRenderer.Service, never, Scope.Scope> =>
  Effect.gen(function* () {
    const executablePath = options?.executablePath ?? Chromium.defaultExecutablePath
    const poolSize = positiveInt(options?.poolSize, defaultPoolSize)
    const timeoutMs = millis(options?.timeout, defaultTimeout)
    const idleMs = millis(options?.idle, Duration.millis(250))
    const maxPageBytes = positiveInt(options?.maxPageBytes, defaultMaxPageBytes)
    const maxRequests = positiveInt(options?.maxRequests, defaultMaxRequests)
    const launchTimeoutMs = millis(options?.launchTimeout, Duration.seconds(30))
    // The snapshot needs a moment after settling; a tenth of the timeout, at most a second.
    const snapshotReserveMs = Math.min(1000, Math.floor(timeoutMs / 10))

    const pool = yield* Effect.makeSemaphore(poolSize)
    const supply = yield* BrowserSupply.make({ executablePath, launchTimeoutMs, sandbox: options?.sandbox })
    const tally: PageRender.Tally = { active: 0, peakActive: 0, pages: 0 }
    const limits: PageRender.Limits = { timeoutMs, idleMs, maxPageBytes, maxRequests, snapshotReserveMs }

    // Starting Chromium (once, on the first page) does not count against the page's time.
    const renderPage = (
      request: RenderRequest,
      document: SafeTransport.Response
    ): Effect.Effect<Rendered, WebSearchError.RequestFailed | WebSearchError.Unavailable> =>
      Effect.flatMap(supply.acquire, (instance) =>
        PageRender.render(supply, limits, tally, instance, request, document)
      )

    const render = (request: RenderRequest) =>
      Effect.gen(function* () {
        const document =
          request.document ??
          (yield* request.transport.request({
            url: request.url,
            headers: {
              accept: acceptDocument,
              ...(request.userAgent === undefined ? {} : { "user-agent": request.userAgent })
            }
          }))
        return yield* pool.withPermits(1)(renderPage(request, document))
      }).pipe(
        Effect.withSpan("websearch.render.page", {
          captureStackTrace: false,
          attributes: { "url.host": TransportError.hostOf(request.document?.url ?? request.url) }
        })
      )

    const stats = Effect.sync((): Stats => ({
      launches: supply.launches(),
      running: supply.running(),
      active: tally.active,
      peakActive: tally.peakActive,
      pages: tally.pages
    }))

    return BrowserRenderer.of({ render, stats })
  })

/**
 * The renderer as a Layer; the browser closes when the Layer is released.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options?: Options): Layer.Layer<BrowserRenderer> => Layer.scoped(BrowserRenderer, make(options))

/**
 * The renderer's options from the environment (or the application's `ConfigProvider`): `executablePath` from
 * `WEBSEARCH_CHROMIUM_PATH`; unset or empty means the default path.
 *
 * @since 0.2.0
 * @category constructors
 */
export const config: Config.Config<Options> = Config.nonEmptyString("WEBSEARCH_CHROMIUM_PATH").pipe(
  Config.map((executablePath): Options => ({ executablePath })),
  // An unset or empty variable means the default path; nothing else can fail reading one optional string.
  Config.orElse(() => Config.succeed({}))
)

/**
 * The renderer with the options `config` reads, unless the application passes its own `Config` (e.g.
 * `Config.map(BrowserRenderer.config, (options) => ({ ...options, poolSize: 2 }))`). A `Config` that fails fails
 * the Layer with `Unavailable/invalid_config`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  configured: Config.Config<Options> = config
): Layer.Layer<BrowserRenderer, WebSearchError.Unavailable> =>
  Layer.unwrapEffect(
    configured.pipe(
      Effect.map(layer),
      Effect.mapError((error) =>
        WebSearchError.unavailable("invalid_config", `invalid browser renderer configuration: ${error}`)
      )
    )
  )

/**
 * Renders a page with the `BrowserRenderer` in context, every request of it fetched through `transport`.
 *
 * @since 0.1.0
 * @category accessors
 */
export const render = (
  url: string,
  transport: SafeTransport.SafeTransport.Service,
  options?: { readonly userAgent?: string | undefined }
): Effect.Effect<Rendered, WebSearchError.RequestFailed | WebSearchError.Unavailable, BrowserRenderer> =>
  Effect.flatMap(BrowserRenderer, (renderer) => renderer.render({ url, transport, userAgent: options?.userAgent }))
