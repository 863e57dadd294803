/**
 * @websearch/server: an HttpApi for websearch that any Effect HTTP server can mount, with bearer-token auth.
 *
 * @since 0.1.0
 */
export {}
