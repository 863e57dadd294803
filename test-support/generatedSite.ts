/**
 * A generated site on loopback for map and crawl tests and benchmarks: `pages` pages at `/p/0` … `/p/{N-1}`, each
 * with a title, a few paragraphs of text, its canonical link and links to a few others (its children `2i+1` and
 * `2i+2`, so every page is a few links from the start, its parent, and `extraLinks` more spread over the site);
 * `/` links to `/p/0`; `/sitemap.xml` lists every page (a sitemap index over files of 10,000 when there are more)
 * and `/robots.txt` names it. With `duplicates`, each page also links to its next page as
 * `/p/{i+1}?utm_source=x`, which answers the same page with the same canonical link.
 *
 * Every request is counted by path (with its query), and the most requests in flight at once is kept, for tests of
 * politeness. `latency` delays each answer (milliseconds, or a function of the path). Pages are generated on
 * demand, so a 100,000-page site costs no memory until it is read. The server closes with the scope.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** How the site is generated. */
export interface GeneratedSiteOptions {
  /** The number of pages. */
  readonly pages: number
  /** Links of each page beyond its children and parent; default 2. */
  readonly extraLinks?: number | undefined
  /** Milliseconds before each answer: a number, or one per path (with its query). Default 0. */
  readonly latency?: number | ((path: string) => number) | undefined
  /** Each page also links to its next page with a tracking parameter (a canonical duplicate); default false. */
  readonly duplicates?: boolean | undefined
}

/** A running generated site. */
export interface GeneratedSite {
  readonly port: number
  /** `http://127.0.0.1:PORT` */
  readonly origin: string
  readonly pages: number
  readonly url: (path: string) => string
  /** The URL of page `i` (`/p/i`). */
  readonly pageUrl: (i: number) => string
  /** Requests for one path (with its query). */
  readonly count: (path: string) => number
  /** Requests in all. */
  readonly total: () => number
  /** Requests by path (with query). */
  readonly requests: () => ReadonlyMap<string, number>
  /** The most requests that were in flight at once. */
  readonly maxInFlight: () => number
}

/** Sitemap files of an index hold this many pages. */
const perSitemap = 10_000

const words = ["crawl", "site", "page", "layer", "fiber", "stream", "effect", "scope", "queue", "schema"]

/** The links of page `i` of `n`, in document order (paths). */
export const linksOf = (i: number, n: number, extraLinks = 2, duplicates = false): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (const child of [2 * i + 1, 2 * i + 2]) if (child < n) out.push(`/p/${child}`)
  if (i > 0) out.push(`/p/${Math.floor((i - 1) / 2)}`)
  for (let k = 1; k <= extraLinks; k++) out.push(`/p/${(i * 31 + k * 17) % n}`)
  if (duplicates && i + 1 < n) out.push(`/p/${i + 1}?utm_source=x`)
  return out
}

const page = (origin: string, i: number, n: number, extraLinks: number, duplicates: boolean): string => {
  const topic = `${words[i % words.length]} ${words[Math.floor(i / words.length) % words.length]}`
  const text = [0, 1, 2]
    .map(
      (p) =>
        `<p>Page ${i} is about ${topic}. It is paragraph ${p} of a generated page, written so that the extractor ` +
        `keeps it: sentences of plain prose about ${topic}, long enough to read as an article of the site.</p>`
    )
    .join("\n")
  const links = linksOf(i, n, extraLinks, duplicates)
    .map((path) => `<li><a href="${path}">Link to ${path}</a></li>`)
    .join("")
  return (
    `<!doctype html><html lang="en"><head><title>Page ${i}: ${topic}</title>` +
    `<link rel="canonical" href="${origin}/p/${i}"></head><body>` +
    `<nav><ul>${links}</ul></nav><article><h1>Page ${i}: ${topic}</h1>\n${text}\n</article></body></html>`
  )
}

const urlset = (origin: string, from: number, to: number): string => {
  let body = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
  for (let i = from; i < to; i++) body += `<url><loc>${origin}/p/${i}</loc><lastmod>2026-11-01</lastmod></url>\n`
  return `${body}</urlset>\n`
}

const index = (origin: string, files: number): string => {
  let body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
  for (let f = 0; f < files; f++) body += `<sitemap><loc>${origin}/sitemap-${f}.xml</loc></sitemap>\n`
  return `${body}</sitemapindex>\n`
}

interface Answer {
  readonly status: number
  readonly type: string
  readonly body: string
}

const answer = (origin: string, path: string, options: GeneratedSiteOptions): Answer => {
  const n = options.pages
  const xml = "application/xml; charset=utf-8"
  const html = "text/html; charset=utf-8"
  const bare = path.split("?")[0]
  if (bare === "/robots.txt") return { status: 200, type: "text/plain", body: `Sitemap: ${origin}/sitemap.xml\n` }
  if (bare === "/") {
    return { status: 200, type: html, body: `<!doctype html><title>Home</title><a href="/p/0">Start</a>` }
  }
  if (bare === "/sitemap.xml") {
    return n <= perSitemap
      ? { status: 200, type: xml, body: urlset(origin, 0, n) }
      : { status: 200, type: xml, body: index(origin, Math.ceil(n / perSitemap)) }
  }
  const file = /^\/sitemap-(\d+)\.xml$/.exec(bare)
  if (file !== null && Number(file[1]) * perSitemap < n) {
    const from = Number(file[1]) * perSitemap
    return { status: 200, type: xml, body: urlset(origin, from, Math.min(n, from + perSitemap)) }
  }
  const match = /^\/p\/(\d+)$/.exec(bare)
  if (match !== null && Number(match[1]) < n) {
    return {
      status: 200,
      type: html,
      body: page(origin, Number(match[1]), n, options.extraLinks ?? 2, options.duplicates ?? false)
    }
  }
  return { status: 404, type: "text/plain", body: "not here" }
}

/** Starts a generated site on 127.0.0.1 for the scope's lifetime. */
export const start = (options: GeneratedSiteOptions): Effect.Effect<GeneratedSite, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<{ readonly server: ReturnType<typeof createServer>; readonly site: GeneratedSite }>((resume) => {
      const counts = new Map<string, number>()
      let total = 0
      let inFlight = 0
      let maxInFlight = 0
      let origin = ""
      const server = createServer((request, response: ServerResponse) => {
        const path = request.url ?? "/"
        counts.set(path, (counts.get(path) ?? 0) + 1)
        total++
        inFlight++
        maxInFlight = Math.max(maxInFlight, inFlight)
        const latency = typeof options.latency === "function" ? options.latency(path) : (options.latency ?? 0)
        // A request leaves the count once: answered, or its connection closed first.
        let settled = false
        const settle = () => {
          if (settled) return
          settled = true
          inFlight--
        }
        const send = () => {
          if (response.destroyed) return
          const { body, status, type } = answer(origin, path, options)
          response.writeHead(status, { "content-type": type })
          response.end(body, settle)
        }
        response.on("close", settle)
        if (latency > 0) setTimeout(send, latency)
        else send()
      })
      server.listen(0, "127.0.0.1", () => {
        const port = (server.address() as AddressInfo).port
        origin = `http://127.0.0.1:${port}`
        resume(
          Effect.succeed({
            server,
            site: {
              port,
              origin,
              pages: options.pages,
              url: (path) => `${origin}${path}`,
              pageUrl: (i) => `${origin}/p/${i}`,
              count: (path) => counts.get(path) ?? 0,
              total: () => total,
              requests: () => counts,
              maxInFlight: () => maxInFlight
            }
          })
        )
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ site }) => site))
