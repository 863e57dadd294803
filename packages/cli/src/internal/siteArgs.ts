/**
 * The arguments of `map` and `crawl`: one start URL (a bare domain means https) and the flags that set the
 * request's fields, each checked here against the request's own bounds so a bad value is a usage error naming the
 * flag (`--max-pages`), never the request field (`maxPages`). What core still refuses is reworded the same way
 * (`inFlagWords`).
 */
import * as SiteRequest from "@websearch/core/SiteRequest"
import * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as Either from "effect/Either"
import { flag, list, optional, text, wholeNumber } from "./flagValues.js"
import type * as Grammar from "./grammar.js"
import * as Inputs from "./inputs.js"

/**
 * The fields of a `mapSite` request the command line sets (the start URL with its scheme).
 */
export interface MapArgs {
  readonly url: string
  readonly search?: string | undefined
  readonly limit?: number | undefined
  readonly includeSubdomains: boolean
  readonly includePaths: ReadonlyArray<string>
  readonly excludePaths: ReadonlyArray<string>
}

/**
 * The fields of a `crawlSite` request the command line sets; each optional one only when its flag is given.
 */
export interface CrawlArgs {
  readonly url: string
  readonly maxPages?: number | undefined
  readonly maxDepth?: number | undefined
  readonly includeSubdomains: boolean
  readonly includePaths: ReadonlyArray<string>
  readonly excludePaths: ReadonlyArray<string>
  readonly fromMap: boolean
  readonly concurrency?: number | undefined
  readonly delay?: number | undefined
  readonly maxLength?: number | undefined
}

const startUrl = (command: "map" | "crawl", args: ReadonlyArray<string>): Either.Either<string, string> => {
  if (args.length !== 1) {
    return Either.left(
      args.length === 0 ? `${command} needs the site's URL` : `${command} takes one URL (got ${args.length})`
    )
  }
  const url = Inputs.withScheme(args[0])
  return Either.match(UrlPolicy.parseHttpUrl(url), {
    onLeft: (error) => Either.left(`"${args[0]}" is not a URL ${command} can start from: ${error.message}`),
    onRight: (parsed) => Either.right(parsed.href)
  })
}

// The path pattern rules of `SiteRequest`: a leading `/`, no space or control character, a bounded length and count.
const printable = (pattern: string): boolean => {
  for (let i = 0; i < pattern.length; i++) {
    const code = pattern.charCodeAt(i)
    if (code <= 0x20 || code === 0x7f) return false
  }
  return true
}

const patterns = (
  values: Grammar.Values,
  name: "include" | "exclude"
): Either.Either<ReadonlyArray<string>, string> => {
  const given = list(values, name)
  const { count, length } = SiteRequest.patternLimits
  if (given.length > count) return Either.left(`--${name} is given at most ${count} times (got ${given.length})`)
  for (const pattern of given) {
    if (!pattern.startsWith("/") || pattern.length > length || !printable(pattern)) {
      return Either.left(
        `--${name} takes a path pattern that starts with "/", has no spaces and is at most ${length} characters, ` +
          `e.g. /docs/ (got "${pattern.slice(0, 40)}")`
      )
    }
  }
  return Either.right(given)
}

const number = (values: Grammar.Values, name: string, min: number, max: number) =>
  optional(text(values, name), (raw) => wholeNumber(`--${name}`, raw, min, max))

/** The `map` command's request fields from its flags and operands. */
export const mapArgs = (values: Grammar.Values, args: ReadonlyArray<string>): Either.Either<MapArgs, string> =>
  Either.gen(function* () {
    const url = yield* startUrl("map", args)
    const search = text(values, "search")
    if (search !== undefined && (search.trim().length === 0 || search.trim().length > 200)) {
      return yield* Either.left("--search takes a term of 1 to 200 characters")
    }
    return {
      url,
      ...(search === undefined ? {} : { search: search.trim() }),
      limit: yield* number(values, "limit", 1, SiteRequest.mapLimits.max),
      includeSubdomains: flag(values, "include-subdomains"),
      includePaths: yield* patterns(values, "include"),
      excludePaths: yield* patterns(values, "exclude")
    }
  })

/** The `crawl` command's request fields from its flags and operands. */
export const crawlArgs = (values: Grammar.Values, args: ReadonlyArray<string>): Either.Either<CrawlArgs, string> =>
  Either.gen(function* () {
    const limits = SiteRequest.crawlLimits
    return {
      url: yield* startUrl("crawl", args),
      maxPages: yield* number(values, "max-pages", 1, limits.maxPages),
      maxDepth: yield* number(values, "max-depth", 0, limits.maxDepth),
      includeSubdomains: flag(values, "include-subdomains"),
      includePaths: yield* patterns(values, "include"),
      excludePaths: yield* patterns(values, "exclude"),
      fromMap: flag(values, "from-map"),
      concurrency: yield* number(values, "concurrency", 1, limits.maxConcurrency),
      delay: yield* number(values, "delay", 0, limits.maxDelay),
      maxLength: yield* number(values, "max-length", 2, 200_000)
    }
  })

/** The request, without the fields whose flags were not given (a provider is never asked for what is unset). */
export const request = <A extends object>(fields: A): A =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as A

// Core names the request's fields; the command line names its flags. Longest first, so `maxPages` is not read as
// a part of something else.
const fieldWords: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bincludeSubdomains\b/g, "--include-subdomains"],
  [/\bincludePaths\b/g, "--include"],
  [/\bexcludePaths\b/g, "--exclude"],
  [/\bmaxPages\b/g, "--max-pages"],
  [/\bmaxDepth\b/g, "--max-depth"],
  [/\bmaxLength\b/g, "--max-length"],
  [/\bconcurrency\b/g, "--concurrency"],
  [/\bfromMap\b/g, "--from-map"],
  [/\bdelay\b(?=:| is| must|\))/g, "--delay"],
  [/\blimit\b(?=:| is| must|\))/g, "--limit"],
  [/\bsearch\b(?= must)/g, "--search"]
]

/** A message of core about a `map` or `crawl` request, with its field names in command-line words. */
export const inFlagWords = (message: string): string =>
  fieldWords.reduce((text, [field, word]) => text.replace(field, word), message)
