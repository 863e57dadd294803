/**
 * Starting the system Chromium (Debian's `chromium` package) through playwright-core, cut off from the network.
 *
 * The renderer fulfils every request a page makes through the safe transport, so Chromium itself never needs to
 * resolve a name or open a connection. The flags make sure it cannot: its resolver answers NOTFOUND for every
 * host (IP literals included, so the proxy below is unreachable too), everything it would send goes to a proxy
 * on a loopback port where nothing useful listens, loopback is not exempt from that proxy, WebRTC may only use
 * proxied UDP (none), QUIC is off, and the background services that phone home (component updates, sync,
 * safe-browsing pings, domain reliability) are disabled. (`--disable-crashpad-for-testing` would keep the crash
 * handler from starting, but with it Chromium 150 no longer hands requests to the interception, so it stays.)
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import { constants } from "node:fs"
import { access } from "node:fs/promises"
import type { Browser } from "playwright-core"

/** Debian's `chromium` package installs its launcher here. */
export const defaultExecutablePath = "/usr/bin/chromium"

/** The proxy every request Chromium would send by itself is pointed at: the discard port on loopback. */
export const blackholeProxy = "http://127.0.0.1:9"

/** The command line flags of every launch (playwright-core adds its own automation defaults). */
export const launchArgs: ReadonlyArray<string> = [
  "--host-resolver-rules=MAP * ~NOTFOUND",
  `--proxy-server=${blackholeProxy}`,
  // Chromium bypasses a proxy for loopback by default; `<-loopback>` removes that exemption.
  "--proxy-bypass-list=<-loopback>",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--disable-quic",
  "--dns-prefetch-disable",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-domain-reliability",
  "--disable-client-side-phishing-detection",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--no-pings",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-breakpad",
  "--disable-dev-shm-usage",
  "--disable-gpu",
  "--mute-audio"
]

const unavailable = (message: string) => WebSearchError.unavailable("invalid_config", message)

const firstLine = (error: unknown): string => {
  const text = error instanceof Error ? error.message : String(error)
  // playwright-core appends its call log; the first meaningful line says what went wrong.
  return (
    text
      .split("\n")
      .map((line) => line.trim())
      .find((line) => line !== "" && !line.startsWith("=")) ?? "unknown error"
  )
}

/**
 * Launches Chromium; `Unavailable/invalid_config` names the path when there is no executable there or it does not
 * start. playwright-core is imported here, on first use, so importing the renderer costs nothing.
 */
export const launch = (options: {
  readonly executablePath: string
  readonly timeoutMs: number
  readonly sandbox?: boolean | undefined
}): Effect.Effect<Browser, WebSearchError.Unavailable> =>
  Effect.gen(function* () {
    const path = options.executablePath
    yield* Effect.tryPromise({
      try: () => access(path, constants.X_OK),
      catch: () =>
        unavailable(
          `no Chromium executable at ${path}: install Debian's chromium package (apt-get install chromium) or set ` +
            `the renderer's executablePath (WEBSEARCH_CHROMIUM_PATH)`
        )
    })
    const { chromium } = yield* Effect.tryPromise({
      try: () => import("playwright-core"),
      catch: (error) => unavailable(`playwright-core could not be loaded: ${firstLine(error)}`)
    })
    return yield* Effect.tryPromise({
      try: () =>
        chromium.launch({
          executablePath: path,
          headless: true,
          args: [...launchArgs],
          timeout: options.timeoutMs,
          chromiumSandbox: options.sandbox ?? false,
          // The application owns its signals (the CLI turns Ctrl-C into an abort); the browser is closed with the
          // renderer's scope, and playwright-core still kills it if the process exits first.
          handleSIGINT: false,
          handleSIGTERM: false,
          handleSIGHUP: false
        }),
      catch: (error) => unavailable(`Chromium at ${path} did not start: ${firstLine(error)}`)
    })
  }).pipe(Effect.withSpan("websearch.render.launch", { attributes: { "websearch.chromium": options.executablePath } }))
