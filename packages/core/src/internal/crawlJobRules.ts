/**
 * The rules every crawl-job engine shares (in memory, on Redis): job ids, the paging of a job's events, the
 * per-workspace limits and their refusals, and "not found" for a job that is not the caller's (whether it exists
 * in another workspace is never told).
 *
 * @internal For the crawl-job engines of websearch's own packages; not part of the public API.
 *
 * @since 0.2.0
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as WebSearchError from "../WebSearchError.js"

/**
 * The per-workspace limits of crawl jobs, resolved.
 *
 * @since 0.2.0
 * @category models
 */
export interface Limits {
  /** Crawls running at once per workspace. */
  readonly maxRunning: number
  /** Pages a workspace's crawls may hold: a running crawl reserves its `maxPages`, a finished one what it read. */
  readonly maxPages: number
  /** How long a finished crawl is kept (milliseconds). */
  readonly retention: number
  /** Finished crawls kept per workspace; the oldest goes first. */
  readonly maxFinished: number
}

/**
 * The defaults: 4 crawls at once, 20,000 pages held, finished crawls kept an hour, 100 of them.
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultLimits: Limits = { maxRunning: 4, maxPages: 20_000, retention: 60 * 60 * 1000, maxFinished: 100 }

/**
 * The paging of a job's events: at most `maxLimit` per read.
 *
 * @since 0.2.0
 * @category constants
 */
export const paging = { defaultLimit: 100, maxLimit: 1000 } as const

/**
 * A page of a job's events.
 *
 * @since 0.2.0
 * @category models
 */
export interface Page {
  readonly offset: number
  readonly limit: number
}

const invalid = (message: string) => WebSearchError.requestFailed("invalid_input", message, { capability: "crawlSite" })

// A number, or the decimal digits of one (a query parameter); anything else is not a count.
const count = (
  field: string,
  raw: unknown,
  fallback: number,
  min: number,
  max: number
): Effect.Effect<number, WebSearchError.RequestFailed> => {
  if (raw === undefined) return Effect.succeed(fallback)
  const value = typeof raw === "number" ? raw : typeof raw === "string" && /^\d{1,9}$/.test(raw) ? Number(raw) : NaN
  return Number.isSafeInteger(value) && value >= min && value <= max
    ? Effect.succeed(value)
    : Effect.fail(invalid(`${field} is an integer from ${min} to ${max}`))
}

/**
 * Decodes `offset` (default 0) and `limit` (default 100, at most 1000), numbers or their digits (query
 * parameters); fails with `RequestFailed/invalid_input` naming the field.
 *
 * @since 0.2.0
 * @category encoding
 */
export const decodePage = (
  raw: { readonly offset?: unknown; readonly limit?: unknown } | undefined
): Effect.Effect<Page, WebSearchError.RequestFailed> =>
  Effect.all({
    offset: count("offset", raw?.offset, 0, 0, 100_000_000),
    limit: count("limit", raw?.limit, paging.defaultLimit, 1, paging.maxLimit)
  })

/**
 * A new job id: `crawl_` and 32 random hex digits, so ids are not guessable (and never tell one workspace of
 * another's jobs).
 *
 * @since 0.2.0
 * @category constructors
 */
export const newId = (): string => `crawl_${crypto.randomUUID().replace(/-/g, "")}`

/**
 * Whether a string can be a job id (checked before any lookup, so a stored key is never built of arbitrary input).
 *
 * @since 0.2.0
 * @category guards
 */
export const isId = (id: string): boolean => /^crawl_[0-9a-f]{32}$/.test(id)

/**
 * The refusal of a job that does not exist in the caller's workspace (it may exist in another: never said).
 *
 * @since 0.2.0
 * @category errors
 */
export const notFound = (id: string): WebSearchError.RequestFailed =>
  WebSearchError.requestFailed("not_found", `no crawl ${id.slice(0, 80)} in this workspace`, {
    capability: "crawlSite"
  })

/**
 * The refusal of a crawl past the workspace's running limit: `rate_limited` (429), retry when one finishes.
 *
 * @since 0.2.0
 * @category errors
 */
export const tooManyRunning = (limits: Limits): WebSearchError.RequestFailed =>
  WebSearchError.requestFailed(
    "rate_limited",
    `the workspace already runs ${limits.maxRunning} crawls (its limit); start another when one finishes or is cancelled`,
    { capability: "crawlSite", retryAfter: 5 }
  )

/**
 * The refusal of a crawl whose `maxPages` would take the workspace past the pages it may hold: `conflict` (409),
 * since waiting alone does not help while finished crawls are kept; deleting them, or a smaller `maxPages`, does.
 *
 * @since 0.2.0
 * @category errors
 */
export const tooManyPages = (limits: Limits, held: number, asked: number): WebSearchError.RequestFailed =>
  WebSearchError.requestFailed(
    "conflict",
    `the workspace's crawls hold ${held} of its ${limits.maxPages} pages and this crawl may read ${asked} more; ` +
      "delete finished crawls (DELETE /v1/crawls/{id}) or ask for fewer pages (maxPages)",
    { capability: "crawlSite" }
  )

/**
 * Resolves limits over the defaults; fails with `Unavailable/invalid_config` naming a bad one.
 *
 * @since 0.2.0
 * @category constructors
 */
export const limits = (
  options: { readonly [K in keyof Limits]?: number | undefined } = {}
): Effect.Effect<Limits, WebSearchError.Unavailable> => {
  const resolved = { ...defaultLimits, ...strip(options) }
  for (const [field, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      return Effect.fail(
        WebSearchError.unavailable("invalid_config", `the crawl jobs' ${field} must be a positive integer (${value})`)
      )
    }
  }
  return Effect.succeed(resolved)
}

const strip = (options: { readonly [K in keyof Limits]?: number | undefined }): Partial<Limits> =>
  Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined))

/**
 * An epoch time as ISO 8601.
 *
 * @since 0.2.0
 * @category utils
 */
export const iso = (millis: number): string =>
  // A stored count may read back as whatever number; a date past what `Date` holds would throw a RangeError.
  new Date(Number.isFinite(millis) ? Math.min(Math.max(millis, 0), 8.64e15) : 0).toISOString()

/**
 * Resolves `CrawlJobs.Options` (a retention as a duration) to limits; a bad one fails `Unavailable/invalid_config`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const fromOptions = (options: {
  readonly maxRunning?: number | undefined
  readonly maxPages?: number | undefined
  readonly retention?: Duration.DurationInput | undefined
  readonly maxFinished?: number | undefined
}): Effect.Effect<Limits, WebSearchError.Unavailable> =>
  limits({
    maxRunning: options.maxRunning,
    maxPages: options.maxPages,
    maxFinished: options.maxFinished,
    // A duration that does not read (`Duration.decode` would throw) is 0: refused below, naming the retention.
    retention:
      options.retention === undefined
        ? undefined
        : Option.match(Duration.decodeUnknown(options.retention), { onNone: () => 0, onSome: Duration.toMillis })
  })

/**
 * The characters of each page a job keeps when its request names no `maxLength`: a job holds its pages until it is
 * deleted, up to the workspace's page limit, so a page is held as a window (the rest read with `fetchUrls`'
 * paging), not whole. 20,000 pages of the default hard cap would be gigabytes per workspace.
 *
 * @since 0.2.0
 * @category constants
 */
export const jobPageLength = 20_000

/**
 * A job's request with its page window: the caller's `maxLength`, or {@link jobPageLength}. Anything that is not an
 * object is left for the request's decoding to refuse.
 *
 * @since 0.2.0
 * @category utils
 */
export const withJobWindow = (request: unknown): unknown =>
  typeof request === "object" && request !== null && !Array.isArray(request) && !("maxLength" in request)
    ? { ...request, maxLength: jobPageLength }
    : request
