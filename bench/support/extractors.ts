/**
 * The extractors bench/extract.ts compares, each from a page's bytes and URL to markdown: `@websearch/extract` as the
 * fetch provider calls it; Readability 0.6 over linkedom with turndown (the baseline every speed ratio is against);
 * and defuddle over linkedom with its own markdown conversion (`defuddle/node`, which takes any DOM `Document`:
 * no browser, no jsdom). Every extractor gets the page decoded by `Charset.decode`, so none reads a latin-1 page as
 * mojibake. Defuddle runs with its asynchronous extractors off and a `fetch` that refuses: it never reaches the
 * network (some of its site extractors fetch transcripts or comments).
 */
import { Readability } from "@mozilla/readability"
import { Defuddle } from "defuddle/node"
import * as Either from "effect/Either"
import { parseHTML } from "linkedom"
import TurndownService from "turndown"
import * as Charset from "../../packages/extract/src/internal/charset.js"
import * as Extract from "../../packages/extract/src/Extract.js"

/** A page as every extractor reads it. */
export interface Page {
  readonly bytes: Uint8Array
  readonly url: string
}

/** What an extractor gave: markdown, and (ours) the kind of page and the wall it saw. */
export interface Output {
  readonly markdown: string
  readonly pageType?: string | undefined
  readonly wall?: string | undefined
}

/** An extractor, by the name the tables print. */
export interface Extractor {
  readonly name: string
  readonly run: (page: Page) => Output | Promise<Output>
}

const empty: Output = { markdown: "" }

/** `@websearch/extract`, as the fetch provider calls it (synchronous: the development helpers use it too). */
export const oursSync = (page: Page): Output =>
  Either.match(Extract.extractSync({ body: page.bytes, contentType: "text/html", url: page.url }), {
    onLeft: () => empty,
    onRight: (doc) => ({
      markdown: doc.markdown,
      pageType: doc.pageType,
      wall:
        doc.wall === undefined
          ? undefined
          : `${doc.wall.kind}${doc.wall.vendor === undefined ? "" : ` (${doc.wall.vendor})`}`
    })
  })

/** `@websearch/extract`. */
export const ours: Extractor = { name: "@websearch/extract", run: oursSync }

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" })
turndown.remove(["script", "style", "noscript"])

const decoded = (page: Page): string => Charset.decode(page.bytes, "text/html", "html").text

/** Readability over linkedom, its HTML turned into markdown by turndown: the baseline. */
export const readability: Extractor = {
  name: "Readability + linkedom + turndown",
  run: (page) => {
    try {
      const { document } = parseHTML(decoded(page))
      const article = new Readability(document as unknown as Document).parse()
      return { markdown: article?.content ? turndown.turndown(article.content) : "" }
    } catch {
      return empty
    }
  }
}

const refuse = (): Promise<Response> => Promise.reject(new Error("the benchmark never fetches"))

/** Defuddle over linkedom, with its own markdown. */
export const defuddle: Extractor = {
  name: "defuddle + linkedom",
  run: async (page) => {
    try {
      const { document } = parseHTML(decoded(page))
      const result = await Defuddle(document as unknown as Document, page.url, {
        markdown: true,
        useAsync: false,
        fetch: refuse
      })
      return { markdown: result.content ?? "" }
    } catch {
      return empty
    }
  }
}

/** Every extractor, by the short name of the command line (`--extractors ours,readability,defuddle`). */
export const all: Record<"ours" | "readability" | "defuddle", Extractor> = { ours, readability, defuddle }
