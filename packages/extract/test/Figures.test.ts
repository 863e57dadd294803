import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Figures from "../src/internal/figures.js"
import * as MainContent from "../src/MainContent.js"
import { prose } from "./support/pages.js"

// Small hand-written pages: an article of prose with pictures, in figures and not.

const page = (article: string) =>
  `<html><head><title>Dock Work At Night</title></head><body><nav><a href="/">Home</a> <a href="/n">News</a></nav>` +
  `<article>${article}</article><footer>Site footer</footer></body></html>`

const extract = (html: string, options?: MainContent.Options) =>
  MainContent.fromHtml(html, { url: "https://news.example/2026/dock-work", ...options })

const figure = (inner: string) =>
  prose(3) +
  `<figure>${inner}<figcaption>The crane at dusk. Photo: Jane Doe</figcaption></figure>` +
  prose(3, 3) +
  '<p><img src="/map.png" alt="Map of the harbour basins"></p>' +
  prose(2, 6)

describe("pictures in figures", () => {
  it("are dropped with their captions, a picture outside a figure stays", () => {
    const result = extract(
      page(figure('<a href="/big.jpg"><picture><img src="/crane.jpg" alt="The crane at dusk"></picture></a>'))
    )
    expect(result.markdown).toContain("Paragraph 7")
    expect(result.markdown).not.toContain("The crane at dusk")
    expect(result.markdown).not.toContain("crane.jpg")
    expect(result.markdown).toContain("![Map of the harbour basins]")
  })

  it("stay with their captions when captions are kept", () => {
    const result = extract(page(figure('<img src="/crane.jpg" alt="The crane at dusk">')), { keepCaptions: true })
    expect(result.markdown).toContain("![The crane at dusk]")
    expect(result.markdown).toContain("Photo: Jane Doe")
  })

  it.prop(
    "a picture is a figure's when the figure is at most maxLevels levels up",
    [FastCheck.integer({ min: 0, max: 8 })],
    ([wrappers]) => {
      const inner =
        "<span>".repeat(wrappers) + '<img src="/crane.jpg" alt="The crane at dusk">' + "</span>".repeat(wrappers)
      const result = extract(page(figure(inner)))
      expect(result.markdown.includes("The crane at dusk")).toBe(wrappers + 1 > Figures.maxLevels)
    }
  )
})
