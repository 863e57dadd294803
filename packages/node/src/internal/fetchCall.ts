/**
 * What one call of the local fetcher reads pages with. The composed provider's options are the Layer's and the
 * settings'; a provider instance of type `fetch` (in the settings, or a workspace's stored one) reads pages with its
 * own `userAgent` and `render` where it sets them, and respects robots.txt when it asks to or the provider does: an
 * instance may be more careful than the application, never less.
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as BrowserRenderer from "../BrowserRenderer.js"
import * as FetchConfig from "./fetchConfig.js"
import type * as RobotsCheck from "./robotsCheck.js"

/** The rendering modes (`Fetch.RenderMode`). */
type Render = "never" | "auto" | "always"

/** The options pages are read with, each decided. */
export interface PageOptions {
  readonly userAgent: string
  readonly respectRobotsTxt: boolean
  readonly render: Render
}

/** A call's options as a provider instance sets them (none for the composed provider). */
export interface InstanceOptions {
  readonly userAgent?: string | undefined
  readonly respectRobotsTxt?: boolean | undefined
  readonly render?: Render | undefined
}

/** What one call reads pages with: its User-Agent, rendering, robots.txt check (when asked for) and headers. */
export interface Call {
  readonly userAgent: string
  readonly render: Render
  readonly robots: RobotsCheck.Check | undefined
  readonly headers: Record<string, string>
}

/** The options of one call: the provider's (`configured`), or an instance's own laid over them. */
export const options = (configured: PageOptions, instance: InstanceOptions | undefined): PageOptions =>
  instance === undefined
    ? configured
    : {
        userAgent: instance.userAgent ?? configured.userAgent,
        respectRobotsTxt: instance.respectRobotsTxt === true || configured.respectRobotsTxt,
        render: instance.render ?? configured.render
      }

/** The call these options make, its robots.txt read through `robotsCheck` as its own User-Agent. */
export const make = (
  configured: PageOptions,
  instance: InstanceOptions | undefined,
  robotsCheck: RobotsCheck.CheckAs
): Call => {
  const { render, respectRobotsTxt, userAgent } = options(configured, instance)
  return {
    userAgent,
    render,
    robots: respectRobotsTxt ? (url) => robotsCheck(url, userAgent) : undefined,
    headers: { "user-agent": userAgent, accept: FetchConfig.accept }
  }
}

/** The failure of a call set to render every page (`render: "always"`) where no renderer is composed. */
export const missingRenderer = (providerId: string, instance: boolean): WebSearchError.Unavailable =>
  WebSearchError.unavailable(
    "invalid_config",
    `the fetch provider${instance ? ` instance "${providerId}"` : ""} is set to render every page ` +
      `(render: "always") but no BrowserRenderer is provided: add BrowserRenderer.layer() from @websearch/node ` +
      `(it needs Chromium, e.g. Debian's chromium package at ${BrowserRenderer.defaultExecutablePath})`,
    { providerId }
  )
