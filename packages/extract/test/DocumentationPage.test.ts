import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as HeadingIds from "../src/internal/headingIds.js"
import * as HtmlDocument from "../src/internal/htmlDocument.js"
import * as LinkTerms from "../src/internal/linkTerms.js"
import * as OtherVersions from "../src/internal/otherVersions.js"
import * as MainContent from "../src/MainContent.js"

const para = (i: number) =>
  `<p>Step ${i} explains how a layer is built from its dependencies, and why the order in which layers are provided matters for the program.</p>`
const html = `<html><head><title>Layers – Example Docs</title></head><body>
<header><a href="/">Example Docs</a><select class="version-picker"><option>v3.2</option><option>v3.1</option></select></header>
<div class="layout"><nav class="sidebar" aria-label="Docs navigation"><ul><li><a href="/docs/intro">Introduction</a></li><li><a href="/docs/layers">Layers</a></li><li><a href="/docs/services">Services</a></li></ul></nav>
<main><article class="docs-content"><nav class="breadcrumbs"><a href="/docs">Docs</a> › <a href="/docs/guides">Guides</a></nav>
<h1>Layers</h1>${para(1)}
<div class="admonition note"><p class="admonition-title">Note</p><p>Layers are memoized by reference, so providing the same layer twice builds it once.</p></div>
<h2 id="building">Building a layer</h2>${para(2)}
<div class="tabs"><div role="tablist"><button role="tab" aria-selected="true">npm</button><button role="tab">pnpm</button></div>
<div role="tabpanel"><pre><code class="language-sh">npm install effect</code></pre></div>
<div role="tabpanel" hidden><pre><code class="language-sh">pnpm add effect</code></pre></div></div>
<pre><code class="language-ts">const layer = Layer.succeed(Config, { port: 8080 })</code></pre>
<table><tr><th>Option</th><th>Default</th></tr><tr><td>port</td><td>8080</td></tr></table>
<h3>Composing layers</h3>${para(3)}
<div class="edit-page"><a href="https://github.com/example/docs/edit/main/layers.md">Edit this page on GitHub</a></div>
<div class="feedback">Was this page helpful? <button>Yes</button><button>No</button></div>
<nav class="pagination-nav"><a class="prev" href="/docs/intro">Previous<br>Introduction</a><a class="next" href="/docs/services">Next<br>Services</a></nav>
</article></main>
<aside class="toc"><p>On this page</p><ul><li><a href="#building">Building a layer</a></li><li><a href="#composing">Composing layers</a></li></ul></aside></div>
<footer>© Example</footer></body></html>`

describe("documentation pages", () => {
  const read = (options?: MainContent.Options) =>
    MainContent.fromHtml(html, { url: "https://example.com/docs/layers", ...options })

  it("keeps code with its language, tables, admonitions and headings, and every tab of a tabbed example", () => {
    const result = read()
    expect(result.pageType).toBe("documentation")
    const md = result.markdown
    expect(md).toContain("```ts\nconst layer = Layer.succeed(Config, { port: 8080 })\n```")
    expect(md).toContain("```sh\nnpm install effect\n```")
    expect(md).toContain("```sh\npnpm add effect\n```")
    expect(md).toContain("| Option | Default |\n| --- | --- |\n| port | 8080 |")
    expect(md).toContain("Layers are memoized by reference")
    expect(md).toContain("## Building a layer")
    expect(md).toContain("### Composing layers")
  })

  it("drops side navigation, the page's table of contents, version pickers, edit and feedback rows, prev/next links", () => {
    const md = read().markdown
    for (const gone of [
      "Introduction",
      "Services",
      "On this page",
      "v3.1",
      "Edit this page",
      "Was this page helpful",
      "Previous",
      "Example Docs",
      "Guides"
    ]) {
      expect(md, gone).not.toContain(gone)
    }
  })

  it("shows hidden tab panels only on documentation", () => {
    expect(read({ pageType: "article" }).markdown).not.toContain("pnpm add effect")
  })
})

describe("sections named after their heading", () => {
  // A generated page: every section's id is its heading's words, one of them a word that names a role elsewhere.
  const generated = `<html><head><title>Submitting patches</title></head><body><div class="document"><h1>Submitting patches</h1>
${para(1)}
<section id="describe-your-changes"><h2>Describe your changes</h2>${para(2)}</section>
<section id="respond-to-review-comments"><h2>Respond to review comments</h2><p>Reviewers will comment on your patch by e-mail. Answer every comment, say what you changed, and thank them for their time.</p>${para(3)}</section>
<section id="user-content-related-work-and-footer-notes"><span id="notes"></span><h2>Related work and footer notes</h2><p>Earlier tools for sending patches by mail are listed in the appendix, with the notes on their footers.</p>${para(4)}</section>
${para(5)}
<div id="comments"><h3>Comments</h3><p>Great post, thanks! I have a question about the build.</p><p>Me too, thanks for writing this.</p></div>
</div></body></html>`

  it("keeps a section whose id is its heading's words, whatever they say, and still drops a comment thread", () => {
    const md = MainContent.fromHtml(generated, { url: "https://example.com/process/submitting-patches.html" }).markdown
    expect(md).toContain("## Respond to review comments")
    expect(md).toContain("Answer every comment")
    expect(md).toContain("## Related work and footer notes")
    expect(md).toContain("Earlier tools for sending patches")
    expect(md).not.toContain("Great post")
  })

  it("moves only those ids, to where the table of contents still finds them", () => {
    const root = HtmlDocument.parse(generated).body!
    HeadingIds.clear(root)
    expect(root.querySelector("#respond-to-review-comments")).toBeNull()
    expect(root.querySelector('[data-heading-id="respond-to-review-comments"]')?.localName).toBe("section")
    expect(root.querySelector("#comments")).not.toBeNull()
    expect(root.querySelector("#notes")).not.toBeNull()
    // A heading that names a role keeps its id: the section is what its words say.
    const related = HtmlDocument.parse(
      '<html><body><section id="related-posts-for-you"><h3>Related posts for you</h3><a href="/a">A</a></section></body></html>'
    ).body!
    HeadingIds.clear(related)
    expect(related.querySelector("#related-posts-for-you")).not.toBeNull()
  })

  const word = FastCheck.stringMatching(/^[a-z0-9]{1,8}$/)
  const gap = FastCheck.constantFrom(" ", " - ", ": ", "’", ", ", " / ", "  ")
  it.prop(
    "a heading's words joined by any punctuation make the id generators give it",
    [FastCheck.array(FastCheck.tuple(word, gap), { minLength: 1, maxLength: 8 })],
    ([parts]) => {
      const text = parts.map(([w, g]) => `${w}${g}`).join("")
      expect(HeadingIds.slug(text.toUpperCase())).toBe(parts.map(([w]) => w).join("-"))
    }
  )
})

describe("a chapter's table of contents written as a definition list", () => {
  const chapter = (contents: string) => `<html><head><title>Chapter 11. Indexes</title></head><body>
<div class="sidebar"><a href="/docs/">Documentation</a></div>
<div id="docContent"><div class="chapter"><h2>Chapter 11. Indexes</h2>
<div class="toc"><p><strong>Table of Contents</strong></p>${contents}</div>
<p>Indexes are a common way to make a database faster. An index lets the server find and retrieve specific rows much faster than it could without one, but every index also adds overhead to the system as a whole.</p>
</div></div></body></html>`
  const links =
    '<dl class="toc"><dt><a href="indexes-intro.html">11.1. Introduction</a></dt>' +
    '<dt><a href="indexes-types.html">11.2. Index Types</a></dt><dd><dl>' +
    '<dt><a href="indexes-types.html#btree">11.2.1. B-Tree</a></dt><dt><a href="indexes-types.html#hash">11.2.2. Hash</a></dt>' +
    '</dl></dd><dt><a href="indexes-multicolumn.html">11.3. Multicolumn Indexes</a></dt></dl>'

  it("keeps it, as the nested list of links it is", () => {
    const md = MainContent.fromHtml(chapter(links), {
      url: "https://docs.example.org/current/indexes.html",
      pageType: "documentation"
    }).markdown
    expect(md).toContain("- [11.1. Introduction](https://docs.example.org/current/indexes-intro.html)")
    expect(md).toMatch(/- \[11\.2\. Index Types\]\([^)]*\)\n+ +- \[11\.2\.1\. B-Tree\]/)
    expect(md).toContain("- [11.3. Multicolumn Indexes]")
    expect(md).toContain("Indexes are a common way")
  })

  it("leaves a definition list that defines something as it is", () => {
    const root = HtmlDocument.parse(
      '<html><body><dl><dt><a href="/t/btree">B-Tree</a></dt><dd>Balanced trees for ordered data.</dd>' +
        '<dt><a href="/t/hash">Hash</a></dt><dd>Equality lookups only.</dd></dl>' +
        '<dl><dt>Plain term</dt><dt><a href="/x">Linked term</a></dt></dl></body></html>'
    ).body!
    expect(LinkTerms.rewrite(Array.from(root.getElementsByTagName("dl")))).toBe(0)
    expect(root.getElementsByTagName("dl").length).toBe(2)
  })
})

describe("rows of links to the same page in other versions or languages", () => {
  const url = "https://docs.example.org/docs/current/indexes.html"
  const pageWith = (rows: string) => `<html><head><title>Indexes</title></head><body>
<div id="docContent">${rows}<h1>Indexes</h1>${para(1)}${para(2)}${para(3)}</div></body></html>`
  const versions =
    '<div class="row">Supported versions: <a href="/docs/current/indexes.html">Current</a> (<a href="/docs/18/indexes.html">18</a>)' +
    ' / <a href="/docs/17/indexes.html">17</a> / <a href="/docs/16/indexes.html">16</a></div>'
  const languages =
    '<p><a href="https://docs.example.org/fr/current/indexes.html">Français</a> · ' +
    '<a href="https://docs.example.org/de/current/indexes.html">Deutsch</a> · <a href="/ja/current/indexes.html">日本語</a></p>'

  it("drops a row of versions and a row of languages of this page", () => {
    const md = MainContent.fromHtml(pageWith(versions), { url, pageType: "documentation" }).markdown
    expect(md).toContain("Step 3")
    for (const gone of ["Supported versions", "[17]"]) expect(md).not.toContain(gone)
    const translated = MainContent.fromHtml(pageWith(languages), {
      url: "https://docs.example.org/en-US/current/indexes.html",
      pageType: "documentation"
    }).markdown
    expect(translated).toContain("Step 3")
    for (const gone of ["Français", "Deutsch"]) expect(translated).not.toContain(gone)
  })

  it("keeps links whose paths differ in more than one place, section indexes, and a row with a sentence", () => {
    const body = (rows: string) => HtmlDocument.parse(pageWith(rows)).body!
    const kept = [
      // Other pages that end the same way: a guide's chapters, each an index.
      '<p><a href="/guide/index.html">Guide</a> <a href="/api/index.html">API</a> <a href="/faq/index.html">FAQ</a></p>',
      // Two segments changed: not this page elsewhere.
      '<p><a href="/a/b/x/indexes.html">One</a> <a href="/c/d/x/indexes.html">Two</a> <a href="/e/f/x/indexes.html">Three</a></p>',
      // Sibling sections whose pages end alike: not versions or languages of this page.
      '<p><a href="/docs/configuration/indexes.html">Configuration</a>, <a href="/docs/deployment/indexes.html">deployment</a> and <a href="/docs/api/indexes.html">API</a> guides.</p>',
      // A sentence around the links is the page's own text.
      '<p>This chapter was rewritten for <a href="/docs/17/indexes.html">17</a>, revised for <a href="/docs/16/indexes.html">16</a> and first written for <a href="/docs/15/indexes.html">15</a>, when partial indexes arrived.</p>'
    ]
    for (const row of kept) {
      const root = body(row)
      expect(OtherVersions.remove(root, url), row).toBe(0)
    }
    const root = body(versions)
    expect(OtherVersions.remove(root, url)).toBe(1)
    expect(OtherVersions.remove(body(versions), "https://docs.example.org/docs/index.html")).toBe(0)
    // Links resolve against the page's <base href>; the page's own path is still its URL's.
    const based =
      '<p><a href="17/indexes.html">17</a> <a href="16/indexes.html">16</a> <a href="15/indexes.html">15</a></p>'
    expect(OtherVersions.remove(body(based), url, "https://docs.example.org/docs/")).toBe(1)
  })
})
