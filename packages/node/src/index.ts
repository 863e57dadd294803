/**
 * @websearch/node: node layers for websearch: the SSRF-safe undici transport, the local fetch provider, Redis-backed cache and rate limits.
 *
 * @since 0.1.0
 */
export {}
