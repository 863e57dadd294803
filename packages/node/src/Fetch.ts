/**
 * The local `fetch` provider (`fetchUrls`, `mapSite`, `crawlSite`; keyless): each URL is read through the SSRF-safe
 * transport and turned into markdown by the extractor, with no third-party service in between.
 *
 * Per URL: a GitHub `blob` link is read as its raw file; robots.txt is obeyed when enabled (off by default); the
 * page is fetched (redirects followed and re-checked by the transport, the final URL reported); a non-2xx status
 * is a typed `RequestFailed`; the body is extracted according to its Content-Type, on a worker thread when it is
 * big. A result says what kind of page it was read as (`pageType`). An unsupported type is
 * `ResponseInvalid/unsupported_content_type`, a page with no readable text `ResponseInvalid/empty_content` (a page of
 * scripts with no text: saying it needs rendering), and a page that is a wall in front of its content (a bot check,
 * a page asking for JavaScript, a login or consent wall: `@websearch/extract/Wall`; a bot check's 403 or 503 page too)
 * `RequestFailed/blocked`. Duplicate URLs of one request are fetched once because the request is normalised (and
 * deduplicated) before any provider is called.
 *
 * Whole sites: `mapSite` reads the sitemaps robots.txt names (else `/sitemap.xml`), sitemap indexes, gzipped
 * sitemaps, the feeds the start page announces and its links, bounded (sitemap files, nesting, bytes, links; each
 * bound reached is a cut); `crawlPage` reads one page of websearch's own crawler as `fetchUrls` does, with its
 * links and canonical link, and refuses a redirect off the site (`RequestFailed/redirect_rejected`). With robots.txt
 * respected, a disallowed page fails `RequestFailed/robots_disallowed` (a crawl skips it). Sitemaps, feeds and links
 * are parsed in one linear pass by htmlparser2's tokenizer, loaded on the first map or crawl.
 *
 * Rendering (`render`): `never` (the default) reads pages as they come. `auto` renders an HTML page in Chromium when
 * the plain answer has scripts and its text is empty or tiny, or it is a known JavaScript shell or browser-check
 * page; `always` renders every HTML page. A `BrowserRenderer` must be in context: without one `auto` reads pages as
 * they come and `always` fails `Unavailable/invalid_config` naming what is missing. The document is fetched once,
 * through the transport, and handed to the browser; every request the page then makes goes through the same
 * transport; the rendered DOM is extracted like any HTML page. In `auto` mode a render that fails or finds no
 * text falls back to the plain answer when it had text. robots.txt, when respected, is checked for the page (and
 * for wherever its scripts navigate it), not for the requests its scripts make, as browsers do.
 *
 * Configuration, in order of precedence: the Layer's options, then the settings (`providers.fetch.userAgent`,
 * `providers.fetch.respectRobotsTxt`, `providers.fetch.render`, or `FETCH_USER_AGENT` / `FETCH_RESPECT_ROBOTS_TXT` /
 * `FETCH_RENDER`), then the defaults. The transport the Layer builds enforces the settings' `urlPolicy`, uses
 * `timeouts.fetchUrls` per request, and goes through the options' `proxy`, else `providers.fetch.proxyUrl`, else
 * `HTTPS_PROXY`/`HTTP_PROXY` unless `NO_PROXY` sends the host direct (targets are still resolved and checked).
 * A provider instance of type `fetch` (`instances.<id>` in the settings, or a workspace's stored instance) reads
 * pages with its own `userAgent` and `render` where it sets them, and respects robots.txt when it asks to or the
 * provider does (an instance may be more careful than the application, never less).
 *
 * @since 0.1.0
 */
import type * as Composition from "@websearch/core/Composition"
import * as Preset from "@websearch/core/Preset"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Settings from "@websearch/core/Settings"
import * as UrlPolicy from "@websearch/core/UrlPolicy"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as ExtractRoute from "./internal/extractRoute.js"
import * as FetchConfig from "./internal/fetchConfig.js"
import type * as FetchedPage from "./internal/fetchedPage.js"
import * as GithubBlob from "./internal/githubBlob.js"
import * as ProxyEnvironment from "./internal/proxyEnvironment.js"
import * as RobotsCheck from "./internal/robotsCheck.js"
import * as SiteMap from "./internal/siteMap.js"
import * as SitePage from "./internal/sitePage.js"
import * as UrlRead from "./internal/urlRead.js"
import * as BrowserRenderer from "./BrowserRenderer.js"
import * as SafeTransport from "./SafeTransport.js"

/**
 * The preset this provider serves (the built-in `fetch` preset of core).
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "fetch",
  name: "Fetch (local)",
  type: "local",
  credentials: "none",
  capabilities: [{ feature: "fetchUrls" }, { feature: "mapSite" }, { feature: "crawlSite" }]
})

/**
 * Where big bodies are extracted: `false` keeps every extraction on the calling thread.
 *
 * @since 0.1.0
 * @category models
 */
export interface WorkerOptions {
  /**
   * How many extractions run at once on worker threads; default one fewer than the CPUs, between 2 and 4. Heavy
   * bodies (1 MiB or more, and PDFs) take at most `size - 1` of these turns (the one turn when `size` is 1), on
   * workers of their own that run at the lowest priority on Linux, so up to `2 × size - 1` threads exist while both
   * kinds arrive (2 when `size` is 1; each exits after 30 s idle).
   */
  readonly size?: number | undefined
  /**
   * Text, markdown and JSON bodies up to this many bytes are extracted on the calling thread (their extraction is
   * linear and cheap); every other body, and HTML, XML and PDF of any size, goes to a worker (but see
   * `inlineMillis`). Default 64 KiB.
   */
  readonly threshold?: number | undefined
  /**
   * For one-shot programs (a command line), off by default: HTML, XML and the other kinds but PDF up to `threshold`
   * bytes are extracted on the calling thread too, each stopped after this many milliseconds (wall clock) and then
   * extracted on a worker as if it had gone there first; after one stop, every page goes to a worker. Starting a
   * worker costs more than a small page (about 50 ms of CPU and 20 MiB); a server keeps this off, its calling thread
   * being its event loop.
   */
  readonly inlineMillis?: number | undefined
  /**
   * The worker's entry module and Node flags, for applications that bundle this package themselves; by default
   * `extractWorker.{ts,js,mjs}` beside the running module (see the CLI's bundle script).
   */
  readonly entry?: { readonly url: URL; readonly execArgv?: ReadonlyArray<string> | undefined } | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The User-Agent of every request; its product token (`websearch`) is what robots.txt groups are matched on. */
  readonly userAgent?: string | undefined
  /** Obey robots.txt (fetched once per origin through the same transport and cached); default false. */
  readonly respectRobotsTxt?: boolean | undefined
  /** Body cap of the transport this Layer builds (default 5 MiB); ignored by `layerOnTransport`. */
  readonly maxBodyBytes?: number | undefined
  /**
   * The pace of the bytes of bodies past their first MiB, for the transport this Layer builds (default 32 MiB a
   * second, all requests together; `Infinity` for none); ignored by `layerOnTransport`. See `SafeTransport.Options`.
   */
  readonly largeBodyBytesPerSecond?: number | undefined
  /** An http(s) proxy for the transport this Layer builds (before the settings' and the environment's). */
  readonly proxy?: string | undefined
  /** Where big bodies are extracted; `false` for never on a worker thread. */
  readonly workers?: WorkerOptions | false | undefined
  /** The origin GitHub `blob` links are read from; default `https://raw.githubusercontent.com`. */
  readonly githubRawOrigin?: string | undefined
  /** When pages are rendered in Chromium (needs a `BrowserRenderer` in context); default `never`. */
  readonly render?: RenderMode | undefined
}

/**
 * When pages are rendered in Chromium: `never` (the default), `auto` (when the HTML answer is empty, tiny, a
 * JavaScript shell or a browser check) or `always` (every HTML page).
 *
 * @since 0.2.0
 * @category schemas
 */
export const RenderMode = Schema.Literal("never", "auto", "always")

/**
 * @since 0.1.0
 * @category models
 */
export type RenderMode = typeof RenderMode.Type

/**
 * The provider's own options in the settings (`providers.fetch.*`): `userAgent` (environment `FETCH_USER_AGENT`),
 * `respectRobotsTxt` (`FETCH_RESPECT_ROBOTS_TXT`, `true` or `false`) and `render` (`FETCH_RENDER`: `never`, `auto`
 * or `always`). Options given in code (`layerWith`) win over them.
 *
 * @since 0.2.0
 * @category schemas
 */
export const SettingsOptions = Schema.Struct({
  userAgent: Schema.optional(Settings.HeaderText),
  respectRobotsTxt: Schema.optional(Schema.Boolean),
  render: Schema.optional(RenderMode)
})

const optionsConfig = Config.all({
  ...FetchConfig.variables,
  // Decoded (and refused with the allowed values named) by the options schema.
  render: FetchConfig.variables.render as Config.Config<RenderMode | undefined>
})

const settingsOptions = (
  settings: Settings.Settings.Service
): Effect.Effect<typeof SettingsOptions.Type, WebSearchError.Unavailable> =>
  Effect.map(
    ProviderRegistry.options({ preset, options: SettingsOptions, optionsConfig }, settings),
    (options) => options ?? {}
  )

/**
 * The default size up to which a text, markdown or JSON body is extracted on the calling thread: 64 KiB, a few
 * milliseconds of linear work. HTML, XML and PDF always go to a worker: Readability's cost is not linear in the
 * page (a 4 KiB page of nested lists took seconds), so no size of HTML is provably cheap.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultWorkerThreshold = 64 * 1024

const resolveOptions = (
  options: Options | undefined,
  configured: typeof SettingsOptions.Type
): UrlRead.Deps["configured"] => ({
  userAgent: options?.userAgent ?? configured.userAgent ?? SafeTransport.defaultUserAgent,
  respectRobotsTxt: options?.respectRobotsTxt ?? configured.respectRobotsTxt ?? false,
  render: options?.render ?? configured.render ?? "never"
})

/**
 * The rendering mode the settings give the local fetcher (`providers.fetch.render`, `FETCH_RENDER`), for an
 * application that loads the Chromium renderer only when it is needed (the CLI).
 *
 * @since 0.2.0
 * @category accessors
 */
export const renderMode = (
  settings: Settings.Settings.Service
): Effect.Effect<RenderMode, WebSearchError.Unavailable> =>
  Effect.map(settingsOptions(settings), (options) => options.render ?? "never")

/**
 * Builds the driver over the `SafeTransport` in context. Worker threads (when enabled) start on first use and
 * stop when the scope closes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options?: Options
): Effect.Effect<
  ProviderDriver.ProviderDriver<typeof SettingsOptions.Type, typeof SettingsOptions.Encoded>,
  WebSearchError.Unavailable,
  SafeTransport.SafeTransport | Settings.Settings | Scope.Scope
> =>
  Effect.gen(function* () {
    const transport = yield* SafeTransport.SafeTransport
    const settings = yield* Settings.Settings
    const configured = resolveOptions(options, yield* settingsOptions(settings))
    // Captured whatever the settings say: a provider instance may ask for rendering of its own.
    const renderer = yield* Effect.serviceOption(BrowserRenderer.BrowserRenderer)
    const robotsCheck = yield* RobotsCheck.make(transport)
    const extract = yield* ExtractRoute.make(
      options?.workers === false
        ? false
        : { ...options?.workers, threshold: options?.workers?.threshold ?? defaultWorkerThreshold }
    )
    const rawOrigin = options?.githubRawOrigin ?? GithubBlob.rawOrigin

    const reader: FetchedPage.Reader = { transport, extract }
    const readUrl = UrlRead.make({ reader, configured, robotsCheck, renderer, rawOrigin })

    return {
      preset,
      options: SettingsOptions,
      optionsConfig,
      fetchUrls: (input, ctx) => Effect.map(readUrl(input, ctx), (read) => read.result),
      mapSite: (request, ctx) =>
        SiteMap.map({ transport, call: UrlRead.callOf({ configured, robotsCheck }, ctx) }, request),
      crawlPage: (url, site, ctx) => SitePage.crawl(readUrl, url, site, ctx)
    }
  })

/**
 * Registers the driver over the `SafeTransport` in context (for applications that build their own transport),
 * and proposes it as the default `fetchUrls`, `mapSite` and `crawlSite` provider (the settings' `defaults` win).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerOnTransport = (
  options?: Options
): Layer.Layer<
  never,
  WebSearchError.Unavailable,
  Composition.Composition | Settings.Settings | SafeTransport.SafeTransport
> =>
  Layer.merge(
    Layer.unwrapScoped(Effect.map(make(options), ProviderRegistry.register)),
    ProviderRegistry.proposeDefaults("@websearch/node Fetch.layer", {
      fetchUrls: preset.id,
      mapSite: preset.id,
      crawlSite: preset.id
    })
  )

/**
 * The transport `layer` builds: the settings' URL policy, `timeouts.fetchUrls` per request, the User-Agent,
 * body cap and proxy of the options, the proxy environment (a malformed or refused proxy fails it, naming the
 * variable).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerTransport = (
  options?: Options
): Layer.Layer<SafeTransport.SafeTransport, WebSearchError.Unavailable, Settings.Settings> =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const settings = yield* Settings.Settings
      const configured = yield* settingsOptions(settings)
      const policy = UrlPolicy.fromSettings(settings)
      const proxyEnv = yield* ProxyEnvironment.read
      yield* ProxyEnvironment.validate(policy, proxyEnv)
      return SafeTransport.layer({
        policy,
        proxyEnv,
        timeout: settings.timeouts.fetchUrls,
        userAgent: resolveOptions(options, configured).userAgent,
        maxBodyBytes: options?.maxBodyBytes,
        largeBodyBytesPerSecond: options?.largeBodyBytesPerSecond,
        proxy: options?.proxy
      })
    })
  )

/**
 * Registers the `fetch` driver with a transport of its own built from the settings, with these options.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWith = (
  options?: Options
): Layer.Layer<never, WebSearchError.Unavailable, Composition.Composition | Settings.Settings> =>
  layerOnTransport(options).pipe(Layer.provide(layerTransport(options)))

/**
 * Registers the `fetch` driver with a transport of its own built from the settings: `websearch fetch URL` with
 * no configuration at all.
 *
 * @example
 * ```ts
 * import * as FetchUrls from "@websearch/core/FetchUrls"
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as BrowserRenderer from "@websearch/node/BrowserRenderer"
 * import * as Fetch from "@websearch/node/Fetch"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * // Script-built pages rendered with Chromium when the settings ask for it (`providers.fetch.render`).
 * const Live = WebSearch.layer(Fetch.layer.pipe(Layer.provide(BrowserRenderer.layerConfig()))).pipe(
 *   Layer.provide(Settings.layer({ providers: { fetch: { render: "auto" } } }))
 * )
 *
 * export const main = FetchUrls.fetchUrls({ urls: ["https://example.com/"] }).pipe(Effect.provide(Live))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<never, WebSearchError.Unavailable, Composition.Composition | Settings.Settings> =
  layerWith()
