/**
 * The version of `websearch`, from the CLI's package.json. The bundle has it inlined at build time, because its
 * chunks do not sit where a path relative to the source would find package.json (two folders up from
 * src/internal/ and dist/internal/).
 *
 * @since 0.1.0
 */
import { createRequire } from "node:module"

declare const __WEBSEARCH_VERSION__: string | undefined

/**
 * The CLI's version string.
 *
 * @since 0.1.0
 * @category constants
 */
export const version = (): string =>
  typeof __WEBSEARCH_VERSION__ === "string"
    ? __WEBSEARCH_VERSION__
    : (createRequire(import.meta.url)("../../package.json") as { version: string }).version
