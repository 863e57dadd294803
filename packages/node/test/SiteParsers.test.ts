import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as MarkupTokens from "../src/internal/markupTokens.js"
import * as PageLinks from "../src/internal/pageLinks.js"
import * as RobotsTxt from "../src/internal/robotsTxt.js"
import * as SiteFeeds from "../src/internal/siteFeeds.js"

const module = await MarkupTokens.load()

const page = "https://example.com/docs/intro"

describe("a page's links", () => {
  it("absolute, in document order, deduplicated, fragments dropped, non-page schemes skipped, text as title", () => {
    const html =
      `<html><head><link rel="Canonical" href="/docs/intro?ref=1">` +
      `<link rel="alternate" type="application/rss+xml" href="/feed.xml">` +
      `<link rel="alternate" type="application/atom+xml" href="https://example.com/atom">` +
      `<link rel="alternate" type="text/html" hreflang="de" href="/de/"></head><body>` +
      `<a href="next">Next   <b>page</b></a><a href="/docs/next#part">again</a>` +
      `<a href="javascript:void(0)">js</a><a href="mailto:a@b.c">mail</a><a href="#top">top</a>` +
      `<a href="https://other.example/x?a=1&amp;b=2">Other &amp; more</a><area href="/map-area">` +
      `<a href="ftp://example.com/file">ftp</a><a>no href</a><script>var a = '<a href="/in-script">'</script>` +
      `</body></html>`
    const links = PageLinks.parse(module, html, page)
    expect(links.links).toEqual([
      { url: "https://example.com/docs/next", title: "Next page" },
      { url: "https://other.example/x?a=1&b=2", title: "Other & more" },
      { url: "https://example.com/map-area" }
    ])
    expect(links.canonical).toBe("https://example.com/docs/intro?ref=1")
    expect(links.feeds).toEqual(["https://example.com/feed.xml", "https://example.com/atom"])
    expect(links.truncated).toBe(false)
  })

  it("a <base href> applies to every link, even those before it", () => {
    const links = PageLinks.parse(
      module,
      `<a href="a">A</a><base href="https://cdn.example.com/root/"><a href="b">B</a>`,
      page
    )
    expect(links.links.map((link) => link.url)).toEqual([
      "https://cdn.example.com/root/a",
      "https://cdn.example.com/root/b"
    ])
  })

  it("at most the bound: the rest is truncated", () => {
    const html = Array.from({ length: 30 }, (_, i) => `<a href="/p/${i}">${i}</a>`).join("")
    const links = PageLinks.parse(module, html, page, 10)
    expect(links.links.map((link) => link.url)).toEqual(
      Array.from({ length: 10 }, (_, i) => `https://example.com/p/${i}`)
    )
    expect(links.truncated).toBe(true)
  })
})

describe("sitemaps and feeds", () => {
  it("a sitemap: locs with their lastmod as ISO 8601, a namespaced or CDATA loc, a bad date left out", () => {
    const xml =
      `<?xml version="1.0" encoding="UTF-8"?><s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9">` +
      `<s:url><s:loc> https://example.com/a </s:loc><s:lastmod>2026-11-01</s:lastmod></s:url>` +
      `<url><loc><![CDATA[https://example.com/b?x=1&y=2]]></loc><lastmod>yesterday</lastmod></url>` +
      `<url><loc>https://example.com/c?x=1&amp;y=2</loc></url><url><lastmod>2026-01-01</lastmod></url>` +
      `<url><loc>javascript:alert(1)</loc></url></s:urlset>`
    expect(SiteFeeds.parse(module, xml, "https://example.com/sitemap.xml", 100)).toEqual({
      kind: "urlset",
      truncated: false,
      entries: [
        { url: "https://example.com/a", lastmod: "2026-11-01T00:00:00.000Z" },
        { url: "https://example.com/b?x=1&y=2" },
        { url: "https://example.com/c?x=1&y=2" }
      ]
    })
  })

  it("a sitemap index lists sitemaps; relative ones resolve against it", () => {
    const xml = `<sitemapindex><sitemap><loc>/maps/1.xml.gz</loc><lastmod>2026-02-03T04:05:06Z</lastmod></sitemap></sitemapindex>`
    expect(SiteFeeds.parse(module, xml, "https://example.com/index.xml", 100)).toEqual({
      kind: "sitemapindex",
      truncated: false,
      entries: [{ url: "https://example.com/maps/1.xml.gz", lastmod: "2026-02-03T04:05:06.000Z" }]
    })
  })

  it("RSS items and Atom entries: link, title and date; Atom's alternate link, not its self link", () => {
    const rss =
      `<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Blog</title>` +
      `<link>https://example.com/</link><atom:link href="https://example.com/feed" rel="self"/>` +
      `<item><title>First &amp; best</title><atom:link href="https://example.com/wrong" rel="self"/>` +
      `<link>https://example.com/posts/1</link><pubDate>Tue, 01 Dec 2026 09:00:00 GMT</pubDate></item>` +
      `<item><title>Only a guid</title><guid>https://example.com/posts/2</guid></item></channel></rss>`
    expect(SiteFeeds.parse(module, rss, "https://example.com/feed", 100).entries).toEqual([
      { url: "https://example.com/posts/1", title: "First & best", lastmod: "2026-12-01T09:00:00.000Z" },
      { url: "https://example.com/posts/2", title: "Only a guid" }
    ])
    const atom =
      `<feed xmlns="http://www.w3.org/2005/Atom"><title>Docs</title><link href="/" />` +
      `<entry><title type="html">Setup</title><link rel="edit" href="/edit/1"/><link href="/docs/setup" rel="alternate"/>` +
      `<updated>2026-11-30T12:00:00+02:00</updated></entry></feed>`
    expect(SiteFeeds.parse(module, atom, "https://example.com/atom.xml", 100)).toEqual({
      kind: "feed",
      truncated: false,
      entries: [{ url: "https://example.com/docs/setup", title: "Setup", lastmod: "2026-11-30T10:00:00.000Z" }]
    })
  })

  it("an HTML page (a soft 404) is no sitemap; entries beyond the bound are truncated", () => {
    expect(SiteFeeds.parse(module, "<html><body><url><loc>https://x.example/</loc></url>", page, 10)).toEqual({
      kind: "unknown",
      truncated: false,
      entries: []
    })
    const many = `<urlset>${Array.from({ length: 20 }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>`).join("")}</urlset>`
    const read = SiteFeeds.parse(module, many, page, 5)
    expect(read.entries).toHaveLength(5)
    expect(read.truncated).toBe(true)
  })
})

describe("robots.txt's sitemaps", () => {
  it("every Sitemap line, any case, in order, without repeats or comments, at most the bound", () => {
    const text =
      "User-agent: *\nDisallow: /private\nSitemap: https://example.com/a.xml\n" +
      "sitemap:https://example.com/b.xml # the second\nSITEMAP: https://example.com/a.xml\nSitemap:\n" +
      "Sitemap: https://example.com/c.xml#frag\n"
    expect(RobotsTxt.sitemaps(text)).toEqual([
      "https://example.com/a.xml",
      "https://example.com/b.xml",
      "https://example.com/c.xml#frag"
    ])
    expect(RobotsTxt.sitemaps(text, 2)).toHaveLength(2)
    // The rules of the same file are read as before: Sitemap lines neither start nor end a group.
    expect(RobotsTxt.isAllowed(RobotsTxt.rulesFor(RobotsTxt.parse(text), "websearch"), "/private/x")).toBe(false)
  })
})

// Markup-like text: tags the parsers look at, with attributes, entities, CDATA and stray brackets.
const fragment = FastCheck.oneof(
  FastCheck.constantFrom(
    "<url>",
    "</url>",
    "<loc>",
    "</loc>",
    "<sitemap>",
    "<item>",
    "</item>",
    "<entry>",
    "<link href='/x'/>",
    "<link rel=canonical href=/c>",
    '<a href="/a">',
    "</a>",
    "<base href='//evil.example/'>",
    "<![CDATA[",
    "]]>",
    "&amp;",
    "&#x1F600;",
    "<!--",
    "-->",
    "<script>",
    "<",
    ">",
    '"',
    "'"
  ),
  FastCheck.string({ maxLength: 20 }),
  FastCheck.webUrl()
)
const markup = FastCheck.array(fragment, { maxLength: 60 }).map((parts) => parts.join(""))
const root = FastCheck.constantFrom("", "<urlset>", "<sitemapindex>", "<rss><channel>", "<feed>", "<html>")

describe("the parsers on arbitrary input", () => {
  it.prop(
    "a page's links: never throws, at most the bound, every link absolute http(s) without fragment",
    [markup],
    ([html]) => {
      const read = PageLinks.parse(module, html, page, 5)
      expect(read.links.length).toBeLessThanOrEqual(5)
      expect(read.feeds.length).toBeLessThanOrEqual(PageLinks.maxFeeds)
      for (const link of [
        ...read.links.map((l) => l.url),
        ...read.feeds,
        ...(read.canonical ? [read.canonical] : [])
      ]) {
        const url = new URL(link)
        expect(["http:", "https:"]).toContain(url.protocol)
        expect(url.hash).toBe("")
      }
      for (const link of read.links) expect((link.title ?? "").length).toBeLessThanOrEqual(200)
    }
  )

  it.prop(
    "sitemaps and feeds: never throw, at most the bound, every entry absolute, dates ISO",
    [root, markup],
    ([start, body]) => {
      const read = SiteFeeds.parse(module, `${start}${body}`, "https://example.com/sitemap.xml", 3)
      expect(read.entries.length).toBeLessThanOrEqual(3)
      for (const entry of read.entries) {
        expect(["http:", "https:"]).toContain(new URL(entry.url).protocol)
        expect(entry.url.length).toBeLessThanOrEqual(SiteFeeds.maxField * 3)
        if (entry.lastmod !== undefined) expect(new Date(entry.lastmod).toISOString()).toBe(entry.lastmod)
      }
    }
  )

  it.prop(
    "robots.txt's sitemaps: never throws, at most the bound",
    [FastCheck.string({ maxLength: 400 })],
    ([text]) => {
      expect(RobotsTxt.sitemaps(`Sitemap: ${text}\n${text}`, 4).length).toBeLessThanOrEqual(4)
    }
  )
})

describe("hostile documents are read in one pass", () => {
  const megabytes = 5 * 1024 * 1024

  it("5 MB of nested open tags then unmatched closing ones: every tag seen once, no element stack", () => {
    const open = "<div><span>"
    const n = Math.floor(megabytes / 2 / open.length)
    const text = open.repeat(n) + "</p></em>".repeat(n)
    let opened = 0
    let closed = 0
    MarkupTokens.walk(module, text, false, () => ({
      wants: () => false,
      open: () => opened++,
      close: () => closed++,
      text: () => {}
    }))
    expect(opened).toBe(2 * n)
    expect(closed).toBe(2 * n)
  })

  it("5 MB of nested anchors: the page's links stop at the bound", () => {
    const anchor = (i: number) => `<div><a href="/p/${i}">`
    const parts: Array<string> = []
    let size = 0
    for (let i = 0; size < megabytes; i++) {
      const part = anchor(i)
      parts.push(part)
      size += part.length
    }
    const read = PageLinks.parse(module, parts.join(""), page)
    expect(read.links).toHaveLength(PageLinks.maxLinks)
    expect(read.truncated).toBe(true)
  })

  it("5 MB of nested sitemap entries that never close: no entry, and a huge loc is cut to its bound", () => {
    const nested = `<urlset>${"<url><loc>https://example.com/".repeat(Math.floor(megabytes / 35))}`
    expect(SiteFeeds.parse(module, nested, page, 1_000).entries).toEqual([])
    const huge = `<urlset><url><loc>https://example.com/${"a".repeat(megabytes)}</loc></url></urlset>`
    const read = SiteFeeds.parse(module, huge, page, 1_000)
    expect(read.entries).toHaveLength(1)
    expect(read.entries[0].url.length).toBeLessThanOrEqual(SiteFeeds.maxField)
  })
})
