/**
 * @websearch/node: node layers for websearch: the SSRF-safe undici transport, the local fetch provider, Redis-backed cache and rate limits.
 *
 * @since 0.1.0
 */
/**
 * The SSRF-safe undici transport: policy-checked URLs, pinned resolution, redirects followed and re-checked,
 * a streamed body cap and one timeout per request, with an `HttpClient` view for provider drivers.
 *
 * @since 0.1.0
 */
export * as SafeTransport from "./SafeTransport.js"
/**
 * The local `fetch` provider (`fetchUrls`, keyless): the safe transport plus extraction, GitHub `blob` links
 * read raw, optional robots.txt respect, big bodies extracted on worker threads.
 *
 * @since 0.1.0
 */
export * as Fetch from "./Fetch.js"
/**
 * Optional rendering of pages that need JavaScript in the system Chromium (through playwright-core), every request
 * of the page fetched by the safe transport; Chromium itself never touches the network.
 *
 * @since 0.1.0
 */
export * as BrowserRenderer from "./BrowserRenderer.js"
/**
 * Provider quota stores (token-bucket budgets and Retry-After hold-offs), in memory or on Redis.
 *
 * @since 0.1.0
 */
export * as ProviderQuotaStore from "./ProviderQuotaStore.js"
/**
 * Result cache stores, in memory (bounded) or on Redis.
 *
 * @since 0.1.0
 */
export * as ResultCacheStore from "./ResultCacheStore.js"
/**
 * The state replicas share (result cache, provider quotas, a RateLimiter) in one layer: Redis when
 * `REDIS_URL` is set, memory otherwise.
 *
 * @since 0.1.0
 */
export * as SharedStores from "./SharedStores.js"
