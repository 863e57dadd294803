import { describe, expect, it } from "@effect/vitest"
import * as Metadata from "../src/Metadata.js"
import * as HtmlDocument from "../src/internal/htmlDocument.js"

const read = (html: string) => Metadata.fromDocument(HtmlDocument.parse(html))

describe("Metadata", () => {
  it("prefers JSON-LD, following @graph, over meta tags", () => {
    const html = `<html><head><title>Plain | Site</title><meta property="og:title" content="OG title">
      <script type="application/ld+json">{"@graph":[{"@type":"WebSite","name":"Site"},
        {"@type":["BlogPosting"],"headline":"LD headline","author":{"name":"Grace Hopper"},
         "datePublished":"2023-03-03","description":"LD description","publisher":{"name":"Publisher"}}]}</script>
      </head><body></body></html>`
    expect(read(html)).toEqual({
      title: "LD headline",
      byline: "Grace Hopper",
      publishedTime: "2023-03-03",
      siteName: "Publisher",
      lang: undefined,
      excerpt: "LD description"
    })
  })

  it("falls back to OpenGraph, Twitter and Dublin Core meta tags, ignoring invalid JSON-LD", () => {
    const html = `<html lang="de"><head><script type="application/ld+json">{broken</script>
      <meta name="twitter:title" content="Twitter title"><meta name="DC.creator" content="Dublin Author">
      <meta property="og:site_name" content="Seite"><meta name="description" content="Beschreibung">
      <meta name="dc.date" content="2022-02-02"></head><body></body></html>`
    expect(read(html)).toEqual({
      title: "Twitter title",
      byline: "Dublin Author",
      publishedTime: "2022-02-02",
      siteName: "Seite",
      lang: "de",
      excerpt: "Beschreibung"
    })
  })

  it("uses <title>, rel=author, <time datetime> and Content-Language when nothing better exists", () => {
    const html = `<html><head><meta http-equiv="content-language" content="fr"><title> Just a  title </title></head>
      <body><a rel="author" href="/me">Jean Dupont</a><time datetime="2021-01-01T00:00:00Z">1 Jan</time></body></html>`
    expect(read(html)).toEqual({
      title: "Just a title",
      byline: "Jean Dupont",
      publishedTime: "2021-01-01T00:00:00Z",
      siteName: undefined,
      lang: "fr",
      excerpt: undefined
    })
  })

  it("does not take a profile URL for a byline", () => {
    const html = `<html><head><meta property="article:author" content="https://facebook.com/someone"></head><body></body></html>`
    expect(read(html).byline).toBeUndefined()
  })

  it("finds nothing in an empty document", () => {
    expect(read("")).toEqual({
      title: undefined,
      byline: undefined,
      publishedTime: undefined,
      siteName: undefined,
      lang: undefined,
      excerpt: undefined
    })
  })
})
