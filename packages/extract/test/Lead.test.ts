import { describe, expect, it } from "@effect/vitest"
import * as MainContent from "../src/MainContent.js"

// Small hand-written pages: an article of prose Readability picks, with a lead paragraph in its own container
// before it (a header or intro box Readability does not take as a sibling of the article's block).
const prose = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Paragraph ${i} tells of harbour cranes, river barges and the long night shift at the docks, ` +
      `with commas, clauses, the gulls that follow the boats home, and a full stop at the end of every sentence.</p>`
  ).join("")

const lead =
  "The night shift at the harbour has changed more in ten years than in the fifty before, and the dockers say so."

const page = (before: string) =>
  `<html><head><title>Dock Work At Night</title></head><body><nav><a href="/">Home</a> <a href="/news">News</a></nav>` +
  `<div class="wrap"><div class="intro"><h1>Dock Work At Night</h1>${before}</div>` +
  `<div class="col"><div class="body">${prose(6)}</div></div></div><footer>Site footer</footer></body></html>`

const extract = (html: string) => MainContent.fromHtml(html, { url: "https://news.example/2026/dock-work" })

describe("lead paragraphs before the article", () => {
  it("are moved to the article's start, in page order", () => {
    const result = extract(page(`<p class="standfirst">${lead}</p>`))
    expect(result.method).toBe("article")
    expect(result.markdown).toContain(lead)
    expect(result.markdown.indexOf(lead)).toBeLessThan(result.markdown.indexOf("Paragraph 0"))
    expect(result.markdown).not.toContain("Home")
  })

  it("skip short lines (a date) between the lead and the article", () => {
    const result = extract(page(`<p>${lead}</p><p>3 May 2026</p>`))
    expect(result.markdown).toContain(lead)
  })

  it("are not taken from link-dense blocks, navigation, or from before the title", () => {
    const linked = `<p><a href="/a">${lead}</a></p>`
    expect(extract(page(linked)).markdown).not.toContain(lead)
    expect(extract(page(`<nav><p>${lead}</p></nav>`)).markdown).not.toContain(lead)
    // Before the <h1> is the masthead.
    const masthead = page("").replace('<div class="intro">', `<div class="intro"><p>${lead}</p>`)
    expect(extract(masthead).markdown).not.toContain(lead)
  })

  it("stop at navigation: a lead behind a run of links stays out", () => {
    const links = Array.from({ length: 12 }, (_, i) => `<li><a href="/s${i}">Section number ${i}</a></li>`).join("")
    const result = extract(page(`<p>${lead}</p><ul>${links}</ul>`))
    expect(result.markdown).not.toContain(lead)
  })

  it("are found behind a row of share links between the lead and the article", () => {
    const share = [
      "Facebook",
      "Twitter",
      "LinkedIn",
      "WhatsApp",
      "E-Mail",
      "Drucken",
      "Merken",
      "Feedback an die Redaktion"
    ]
    const row = `<ul>${share.map((s, i) => `<li><a href="/share/${i}">${s}</a></li>`).join("")}</ul>`
    const result = extract(page(`<p class="standfirst">${lead}</p>${row}`))
    expect(result.markdown).toContain(lead)
  })

  it("are found behind twenty short lines (credits, labels) between the lead and the article", () => {
    const lines = Array.from({ length: 20 }, (_, i) => `<p>Label ${i}</p>`).join("")
    const result = extract(page(`<p class="standfirst">${lead}</p>${lines}`))
    expect(result.markdown).toContain(lead)
  })

  it("are taken from the article's header that Readability drops for its class", () => {
    // Readability drops any element whose class says "header", with the standfirst in it.
    const header = page(`<p class="standfirst">${lead}</p>`)
      .replace('<div class="intro">', '<header class="entry-header">')
      .replace('</div><div class="col">', '</header><div class="col">')
    const result = extract(header)
    expect(result.markdown).toContain(lead)
    expect(result.markdown.indexOf(lead)).toBeLessThan(result.markdown.indexOf("Paragraph 0"))
  })

  it("are not taken from other blocks Readability drops (a sidebar, a pop-up)", () => {
    for (const cls of ["sidebar", "popup"]) {
      const dropped = page(`<div class="${cls}"><p>${lead}</p></div>`)
      expect(extract(dropped).markdown).not.toContain(lead)
    }
  })
})
