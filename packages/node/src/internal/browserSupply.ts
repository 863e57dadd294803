/**
 * The browser the renderer's pages open in: launched on first use (so an unused renderer costs nothing) and
 * shared, launched again after a crash, closed when the scope closes. Opening a page costs a new renderer process
 * (a few hundred milliseconds), so one fresh, never used context with its blank page is kept ready for the next
 * render and replaced as soon as it is taken.
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { Browser, BrowserContext, Page } from "playwright-core"
import * as Chromium from "./chromium.js"

/** A playwright promise as an effect whose failure is what it rejected with. */
export const attempt = <A>(f: () => Promise<A>): Effect.Effect<A, unknown> =>
  Effect.tryPromise({ try: f, catch: (e) => e })

/** A fresh context (nothing shared with other pages) and its blank page. */
export interface Opened {
  readonly browser: Browser
  readonly userAgent: string | undefined
  readonly context: BrowserContext
  readonly page: Page
}

export interface BrowserSupply {
  /** The running browser, launched if there is none; `Unavailable/invalid_config` when it cannot start. */
  readonly acquire: Effect.Effect<Browser, WebSearchError.Unavailable>
  /** A fresh context and page on `instance` (the spare one when it fits), with the page's User-Agent. */
  readonly takePage: (instance: Browser, userAgent: string | undefined) => Promise<Opened>
  /** Closes a browser that no longer behaves; the next page launches another. */
  readonly invalidate: (instance: Browser) => Effect.Effect<void>
  readonly launches: () => number
  readonly running: () => boolean
}

export interface Options {
  readonly executablePath: string
  readonly launchTimeoutMs: number
  readonly sandbox: boolean | undefined
}

export const make: (options: Options) => Effect.Effect<BrowserSupply, never, Scope.Scope> = Effect.fnUntraced(
  function* (options: Options) {
    const lock = yield* Effect.makeSemaphore(1)
    let browser: Browser | undefined
    let closed = false
    let launches = 0

    const closeBrowser = (instance: Browser) =>
      attempt(() => instance.close()).pipe(Effect.timeout(Duration.seconds(10)), Effect.ignore)

    // Launching is uninterruptible: a browser half-started by an interrupted caller would be left running.
    const acquire: Effect.Effect<Browser, WebSearchError.Unavailable> = lock.withPermits(1)(
      Effect.suspend(() => {
        if (closed) {
          return Effect.fail(WebSearchError.unavailable("invalid_config", "the browser renderer has been closed"))
        }
        if (browser !== undefined && browser.isConnected()) return Effect.succeed(browser)
        return Effect.tap(
          Chromium.launch({
            executablePath: options.executablePath,
            timeoutMs: options.launchTimeoutMs,
            sandbox: options.sandbox
          }),
          (instance) =>
            Effect.sync(() => {
              launches++
              browser = instance
              instance.on("disconnected", () => {
                if (browser === instance) browser = undefined
              })
            })
        )
      }).pipe(Effect.uninterruptible)
    )

    let spare: Promise<Opened | undefined> | undefined
    const open = async (instance: Browser, userAgent: string | undefined): Promise<Opened> => {
      const context = await instance.newContext({
        serviceWorkers: "block",
        acceptDownloads: false,
        javaScriptEnabled: true,
        locale: "en-US",
        viewport: { width: 1280, height: 800 },
        ...(userAgent === undefined ? {} : { userAgent })
      })
      try {
        return { browser: instance, userAgent, context, page: await context.newPage() }
      } catch (error) {
        await context.close().catch(() => undefined)
        throw error
      }
    }
    const refill = (instance: Browser, userAgent: string | undefined) => {
      if (closed || !instance.isConnected()) return
      spare = open(instance, userAgent).catch(() => undefined)
    }
    const takePage = async (instance: Browser, userAgent: string | undefined): Promise<Opened> => {
      const waiting = spare
      spare = undefined
      const ready = waiting === undefined ? undefined : await waiting
      if (ready !== undefined && ready.browser === instance && ready.userAgent === userAgent && !closed) {
        refill(instance, userAgent)
        return ready
      }
      if (ready !== undefined) await ready.context.close().catch(() => undefined)
      const opened = await open(instance, userAgent)
      refill(instance, userAgent)
      return opened
    }

    const invalidate = (instance: Browser) =>
      lock.withPermits(1)(
        Effect.suspend(() => {
          if (browser === instance) browser = undefined
          return closeBrowser(instance)
        })
      )

    yield* Effect.addFinalizer(() =>
      lock.withPermits(1)(
        Effect.suspend(() => {
          closed = true
          const instance = browser
          browser = undefined
          return instance === undefined ? Effect.void : closeBrowser(instance)
        })
      )
    )

    return {
      acquire,
      takePage,
      invalidate,
      launches: () => launches,
      running: () => browser !== undefined && browser.isConnected()
    }
  }
)
