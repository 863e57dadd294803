/**
 * One page's life on a running browser: a fresh context whose every request is routed through the transport
 * (`renderSession.ts`), navigation to the fetched document, a wait until the network is quiet, and a snapshot of the
 * DOM, all within the page's time and byte budgets. The context closes when the page is done; one that does not
 * close within 5 seconds (a renderer stuck in a script) takes its browser with it.
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { Browser, Page } from "playwright-core"
import type * as SafeTransport from "../SafeTransport.js"
import * as BrowserSupply from "./browserSupply.js"
import * as RenderSession from "./renderSession.js"
import * as TransportError from "./transportError.js"

/** The rendered page. */
export interface Rendered {
  /** The main frame's URL when the page was snapshotted. */
  readonly url: string
  /** The status of the document. */
  readonly status: number
  /** The serialised DOM. */
  readonly html: string
  /** Requests fetched through the transport, the document included. */
  readonly requests: number
  /** Bytes fetched, the document included. */
  readonly bytes: number
  /** The requests of the page that were not fetched, and why. */
  readonly blocked: ReadonlyArray<RenderSession.Blocked>
}

/** What one page may take: its time (a reserve of it kept for the snapshot), quiet time, bytes and requests. */
export interface Limits {
  readonly timeoutMs: number
  readonly idleMs: number
  readonly maxPageBytes: number
  readonly maxRequests: number
  readonly snapshotReserveMs: number
}

/** The renderer's counts of pages (`BrowserRenderer.Stats`), kept as pages open and close. */
export interface Tally {
  active: number
  peakActive: number
  pages: number
}

/** What the page is rendered for: the transport its requests go through, and the User-Agent they carry. */
export interface Request {
  readonly transport: SafeTransport.SafeTransport.Service
  readonly userAgent?: string | undefined
}

const isTimeout = (error: unknown) => error instanceof Error && error.name === "TimeoutError"

const attempt = BrowserSupply.attempt

/** Renders `document` on `instance`; the page is counted in `tally` while it is open. */
export const render = (
  supply: BrowserSupply.BrowserSupply,
  limits: Limits,
  tally: Tally,
  instance: Browser,
  request: Request,
  document: SafeTransport.Response
): Effect.Effect<Rendered, WebSearchError.RequestFailed> =>
  Effect.gen(function* () {
    const { idleMs, maxPageBytes, maxRequests, snapshotReserveMs, timeoutMs } = limits
    const where = TransportError.describe(document.url)
    const started = performance.now()
    const settleDeadline = started + timeoutMs - snapshotReserveMs
    const remaining = () => Math.max(1, Math.floor(settleDeadline - performance.now()))
    const runtime = yield* Effect.runtime<never>()
    const session = RenderSession.make({
      transport: request.transport,
      runtime,
      document,
      userAgent: request.userAgent,
      maxBytes: maxPageBytes,
      maxRequests
    })
    const browserFailed = (what: string) => (error: unknown) =>
      WebSearchError.requestFailed(
        "network",
        `rendering ${where}: ${what} (${error instanceof Error ? error.message.split("\n")[0] : "unknown error"})`
      )
    const { context, page } = yield* Effect.acquireRelease(
      attempt(() => supply.takePage(instance, request.userAgent)).pipe(
        Effect.mapError(browserFailed("the browser could not open a page"))
      ),
      ({ context }) =>
        Effect.sync(session.close).pipe(
          Effect.zipRight(attempt(() => context.close())),
          Effect.timeout(Duration.seconds(5)),
          // A context that does not close (a renderer stuck in a script) takes the browser with it.
          Effect.catchAll(() => supply.invalidate(instance))
        )
    )
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        tally.active++
        tally.pages++
        tally.peakActive = Math.max(tally.peakActive, tally.active)
      }),
      () => Effect.sync(() => tally.active--)
    )
    // The page is still on about:blank: nothing has been requested before the routes are in place.
    yield* attempt(async () => {
      await context.route("**/*", session.handle)
      await context.routeWebSocket(/.*/, (socket) => {
        session.refuseWebSocket(socket.url())
        void socket.close({ code: 1008, reason: "no WebSockets" }).catch(() => undefined)
      })
    }).pipe(Effect.mapError(browserFailed("the browser could not intercept the page's requests")))
    context.on("page", (other) => {
      // Popups and new windows are closed; whatever they requested was routed like any other request.
      if (other !== page) void other.close().catch(() => undefined)
    })
    const navigation = yield* Effect.either(
      attempt(() => page.goto(document.url, { waitUntil: "domcontentloaded", timeout: remaining() }))
    )
    if (Either.isLeft(navigation)) {
      if (session.overBudget()) return yield* tooLarge(where, maxPageBytes)
      const failure = session.mainFailure()
      if (failure !== undefined) return yield* failure
      if (isTimeout(navigation.left)) {
        return yield* WebSearchError.requestFailed(
          "timeout",
          `rendering ${where}: the document did not load within ${timeoutMs} ms`
        )
      }
      return yield* browserFailed("the document did not load")(navigation.left)
    }
    // Scripts that wait for `load` (all sub-resources) run before the network goes quiet.
    yield* Effect.ignore(attempt(() => page.waitForLoadState("load", { timeout: remaining() })))
    yield* RenderSession.settle(session, idleMs, settleDeadline)
    if (session.overBudget()) return yield* tooLarge(where, maxPageBytes)
    const html = yield* snapshot(page, started + timeoutMs)
    // A fetch the page started after the network went quiet may have crossed the budget while the DOM was read.
    if (session.overBudget()) return yield* tooLarge(where, maxPageBytes)
    const url = page.url()
    if (!/^https?:/i.test(url)) {
      const failure = session.mainFailure()
      if (failure !== undefined) return yield* failure
      return yield* WebSearchError.requestFailed("network", `rendering ${where}: the page ended on an error page`)
    }
    if (Buffer.byteLength(html) > maxPageBytes) return yield* tooLarge(where, maxPageBytes)
    const blocked = session.blocked()
    yield* Effect.annotateCurrentSpan({
      "websearch.render.requests": session.requests(),
      "websearch.render.bytes": session.bytes(),
      "websearch.render.blocked": blocked.length
    })
    return {
      url,
      status: document.status,
      html,
      requests: session.requests(),
      bytes: session.bytes(),
      blocked
    } satisfies Rendered
  }).pipe(
    Effect.scoped,
    Effect.timeoutFail({
      duration: Duration.millis(limits.timeoutMs),
      onTimeout: () =>
        WebSearchError.requestFailed(
          "timeout",
          `rendering ${TransportError.describe(document.url)}: no snapshot within ${limits.timeoutMs} ms`
        )
    })
  )

const tooLarge = (where: string, maxPageBytes: number) =>
  Effect.fail(
    WebSearchError.requestFailed(
      "too_large",
      `rendering ${where}: the page went over its budget of ${maxPageBytes} bytes (document, sub-resources, DOM)`
    )
  )

// The DOM cannot be read while the page is between two documents; try again until the deadline.
const snapshot = (page: Page, deadline: number): Effect.Effect<string, WebSearchError.RequestFailed> =>
  Effect.catchAll(
    attempt(() => page.content()),
    (error) =>
      performance.now() + 100 < deadline
        ? Effect.zipRight(Effect.sleep(Duration.millis(100)), snapshot(page, deadline))
        : Effect.fail(
            WebSearchError.requestFailed(
              "network",
              `rendering ${TransportError.describe(page.url())}: the DOM could not be read (${
                error instanceof Error ? error.message.split("\n")[0] : "unknown error"
              })`
            )
          )
  )
