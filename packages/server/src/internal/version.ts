/**
 * The server package's version, for the OpenAPI document and `GET /`. A bundle that inlines this package (the
 * CLI's) defines `__WEBSEARCH_SERVER_VERSION__` at build time, because its chunks do not sit where a path relative
 * to this module would find the package's package.json.
 */
import { createRequire } from "node:module"

declare const __WEBSEARCH_SERVER_VERSION__: string | undefined

/** The version of `@websearch/server`. */
export const version: string =
  typeof __WEBSEARCH_SERVER_VERSION__ === "string"
    ? __WEBSEARCH_SERVER_VERSION__
    : (createRequire(import.meta.url)("../../package.json") as { version: string }).version
