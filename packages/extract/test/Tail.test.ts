import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as HtmlDocument from "../src/internal/htmlDocument.js"
import * as Tail from "../src/internal/tail.js"
import * as MainContent from "../src/MainContent.js"

// Small hand-written pages: an article of prose, then what sites set after it.
const paragraph = (i: number) =>
  `<p>Paragraph ${i} tells of harbour cranes, river barges and the long night shift at the docks, with commas, ` +
  `clauses, and a full stop at the end of every sentence.</p>`
const prose = (n: number) => Array.from({ length: n }, (_, i) => paragraph(i)).join("")

const body = (html: string) => HtmlDocument.parse(`<html><body><article>${html}</article></body></html>`).body
const trimmed = (html: string) => {
  const root = body(html)
  Tail.trim(root)
  return root.textContent ?? ""
}

describe("the article's tail", () => {
  it("drops the headings, link lines, link lists and linked pictures that end it", () => {
    const text = trimmed(
      prose(3) +
        "<h3>Read on:</h3>" +
        '<p><a href="/a">The crane that lifted a ferry</a></p>' +
        '<div><a href="/b"><img src="/b.jpg" alt="Teaser picture"></a></div>' +
        '<ul><li><a href="/c">Barges at dawn</a></li><li><a href="/d">Gulls</a></li></ul>' +
        '<div class="card"><h4>More from the docks</h4><p><a href="/e">Night shift stories</a> (12)</p></div>'
    )
    expect(text).toContain("Paragraph 2")
    for (const gone of ["Read on", "ferry", "Barges at dawn", "Gulls", "More from the docks", "Night shift stories"])
      expect(text).not.toContain(gone)
  })

  it("keeps a short plain line, a line with a link in it, a link set as its address, and what comes before them", () => {
    const lines = [
      "<p>Reporting by Jane Doe (dpa)</p>",
      '<p>Source: <a href="/agency">the port agency</a>, 2026</p>',
      '<p><a href="https://petition.example/harbour">https://petition.example/harbour</a></p>'
    ]
    for (const line of lines) {
      const root = body(prose(3) + '<h3>Notes</h3><p><a href="/n">The notes</a></p>' + line)
      const own = body(line).textContent ?? ""
      Tail.trim(root)
      const text = root.textContent ?? ""
      expect(text.endsWith(`NotesThe notes${own}`), own).toBe(true)
    }
  })

  it("keeps headings and link lines before the last prose, and a list whose items are partly prose", () => {
    const text = trimmed(
      '<h2>First part</h2><p><a href="/x">A link line</a></p>' +
        prose(2) +
        `<ol><li><a href="/r1">Reference one</a></li><li>${paragraph(9).slice(3, -4)}</li>` +
        '<li><a href="/r2">Reference two</a></li></ol>'
    )
    for (const kept of ["First part", "A link line", "Reference one", "Paragraph 9", "Reference two"])
      expect(text).toContain(kept)
  })

  it("leaves an article without prose (a list of links) as it is", () => {
    const text = trimmed('<h2>Links</h2><ul><li><a href="/a">One</a></li><li><a href="/b">Two</a></li></ul>')
    expect(text).toContain("Links")
    expect(text).toContain("Two")
  })

  it("keeps the sections the article's own table of contents lists, link lists and all", () => {
    const contents =
      '<div class="toc"><ul><li><a href="#intro">1 Introduction</a></li><li><a href="#tools">2 Tools</a></li>' +
      '<li><a href="#further%20reading">3 Further reading</a></li></ul></div>'
    const sections =
      `<h2 id="intro">Introduction</h2>${prose(3)}` +
      '<h2><span class="headline" id="tools">Tools</span></h2>' +
      '<ul><li><a href="/w/Crane_logs">Crane logs</a></li><li><a href="/w/Berth_planner">Berth planner</a></li></ul>' +
      '<h2 id="further reading">Further reading</h2><ul><li><a href="/w/Tides">Tide tables</a></li></ul>'
    // Its last section listed: nothing after the prose is trimmed.
    const whole = trimmed(contents + sections)
    for (const kept of ["Tools", "Crane logs", "Berth planner", "Further reading", "Tide tables"])
      expect(whole).toContain(kept)
    // A heading the contents do not list, after the last listed section, ends the walk: it goes, with its links.
    const more = trimmed(
      contents + sections + '<h3>Around the web</h3><ul><li><a href="/x">Ten cranes you will not believe</a></li></ul>'
    )
    for (const kept of ["Tools", "Crane logs", "Further reading", "Tide tables"]) expect(more).toContain(kept)
    for (const gone of ["Around the web", "Ten cranes"]) expect(more).not.toContain(gone)
    // A heading's own permalink, and a single jump link ("3 comments"), list no sections: the tail is trimmed.
    const permalinks = trimmed(
      sections.replace(/<h2 id="([^"]+)">([^<]+)<\/h2>/g, '<h2 id="$1">$2<a href="#$1">#</a></h2>') +
        '<p><a href="#intro">Back to the introduction</a></p>'
    )
    for (const gone of ["Crane logs", "Tide tables"]) expect(permalinks).not.toContain(gone)
    // Without contents, the same link lists end the article and are trimmed as before.
    const bare = trimmed(sections)
    for (const gone of ["Crane logs", "Tide tables"]) expect(bare).not.toContain(gone)
  })

  it("keeps an embedded post after the prose", () => {
    const text = trimmed(
      prose(2) + '<blockquote class="twitter-tweet"><p><a href="https://t.example/1">A tweet with its link</a></p>'
    )
    expect(text).toContain("A tweet with its link")
  })

  it("counts the text it removed, so a short article with links after it is not taken for a short page", () => {
    const result = MainContent.fromHtml(
      `<html><head><title>Petition</title></head><body><nav><a href="/">Home</a> <a href="/n">News</a> ` +
        `<a href="/t">Dates</a></nav><div class="post"><h2>Petition</h2>${paragraph(0)}` +
        `<p><a href="/older">Previous post: the first monthly meeting of the harbour group is set</a></p>` +
        `<p><a href="/newer">Next post: the summer party in the harbour, with barges and music</a></p>` +
        `<p><a href="/third">Older post: what the crane drivers asked the port agency for</a></p></div>` +
        `</body></html>`,
      { url: "https://party.example/2026/petition" }
    )
    expect(result.method).toBe("article")
    expect(result.markdown).toContain("Paragraph 0")
    expect(result.markdown).not.toContain("Home")
    expect(result.markdown).not.toContain("Previous post")
  })

  it("trims the whole-page pass's end too", () => {
    const result = MainContent.fromHtml(
      `<html><head><title>Note</title></head><body><main>${paragraph(0)}` +
        '<div class="more"><p><a href="/a">Give us feedback in our forum</a></p>' +
        '<p><a href="/b">Privacy</a> <a href="/c">Terms</a></p></div></main></body></html>',
      { url: "https://blog.example/2026/note" }
    )
    expect(result.method).toBe("page")
    expect(result.markdown).toContain("Paragraph 0")
    for (const gone of ["feedback", "Privacy", "Terms"]) expect(result.markdown).not.toContain(gone)
  })

  // Random articles: prose paragraphs, link lines, headings and plain short lines in nested divs.
  const block = FastCheck.constantFrom(
    paragraph(1),
    '<p><a href="/l">Link line</a></p>',
    "<h3>Heading</h3>",
    "<p>Short line</p>",
    '<a href="/i"><img src="/i.jpg" alt="x"></a>'
  )
  const tree: FastCheck.Arbitrary<string> = FastCheck.letrec<{ node: string }>((tie) => ({
    node: FastCheck.oneof(
      { depthSize: "small", withCrossShrink: true },
      block,
      FastCheck.array(tie("node"), { maxLength: 4 }).map((children) => `<div>${children.join("")}</div>`)
    )
  })).node

  it.prop(
    "only cuts the article's end, never into its last prose, and leaves no heading or link line last",
    [tree],
    ([html]) => {
      const root = body(html)
      const before = root.textContent ?? ""
      const last = before.lastIndexOf("Paragraph 1")
      Tail.trim(root)
      const after = root.textContent ?? ""
      if (last < 0) {
        expect(after).toBe(before)
        return
      }
      expect(before.startsWith(after)).toBe(true)
      expect(after.length).toBeGreaterThan(last + "Paragraph 1".length)
      expect(after.endsWith("Link line")).toBe(false)
      expect(after.endsWith("Heading")).toBe(false)
    }
  )
})
