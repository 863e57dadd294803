/**
 * The wall detector on small hand-written pages in the markup shapes of several vendors (test-support/wallPages.ts),
 * through the extractor as the fetch provider calls it, and its rules as properties: little text besides the wall
 * makes a wall, enough other text never does, and any input is answered.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as WallPages from "../../../test-support/wallPages.js"
import * as Extract from "../src/Extract.js"
import * as Wall from "../src/Wall.js"

const encoder = new TextEncoder()

const cache = new Map<string, { readonly text: string; readonly wall: Wall.Wall | undefined }>()

/** What the fetch provider sees: the document's wall, or (no text was extracted) the markup's alone. */
const read = (html: string): { readonly text: string; readonly wall: Wall.Wall | undefined } => {
  const known = cache.get(html)
  if (known !== undefined) return known
  const result = Extract.extractSync({
    body: encoder.encode(html),
    contentType: "text/html",
    url: "https://shop.example/"
  })
  const read = Either.isRight(result)
    ? { text: result.right.markdown, wall: result.right.wall }
    : { text: "", wall: Wall.detect({ html, text: "" }) }
  cache.set(html, read)
  return read
}

// Words in none of the walls' vocabularies: lines of them are content.
const neutral = ["harbour", "ferry", "lantern", "meadow", "violet", "copper", "bread", "river", "quietly", "evening"]
const neutralLine = (words: number) =>
  FastCheck.array(FastCheck.constantFrom(...neutral), { minLength: words, maxLength: words })

const letters = (text: string) => (text.match(/[\p{L}\p{N}]/gu) ?? []).length

describe("Wall.detect", () => {
  for (const page of WallPages.walls) {
    it(`finds the ${page.name}: ${page.kind}${page.vendor === undefined ? "" : ` (${page.vendor})`}`, () => {
      const { wall } = read(page.html)
      expect(wall).toEqual({ kind: page.kind, vendor: page.vendor })
    })
  }

  for (const page of WallPages.ordinary) {
    it(`reads the ${page.name} as content`, () => {
      const { text, wall } = read(page.html)
      expect(wall).toBeUndefined()
      expect(letters(text)).toBeGreaterThan(80)
    })
  }

  it("keeps the article of a page with a cookie banner, a consent manager and protection scripts", () => {
    const { text } = read(WallPages.articleWithBanner.html)
    expect(text).toContain("Paragraph 8 follows the night ferry")
  })

  it("a phrase deep in a long paragraph is a page talking about walls, not a wall", () => {
    const paragraph = `A long paragraph of ${"harbour and ferry ".repeat(6)}tells how a site once asked the crew to verify you are human before reading the timetable.`
    expect(Wall.detect({ html: "", text: paragraph })).toBeUndefined()
    expect(Wall.detect({ html: "", text: "Verify you are human" })).toEqual({ kind: "challenge", vendor: undefined })
  })

  it("a challenge platform's own markup is a wall with no text at all; the same vendor's ordinary script is not", () => {
    expect(Wall.detect({ html: WallPages.awsWaf.html, text: "" })).toEqual({ kind: "challenge", vendor: "AWS WAF" })
    expect(Wall.challengeVendor(WallPages.cloudflare.html)).toBe("Cloudflare")
    expect(Wall.challengeVendor(WallPages.articleWithBanner.html)).toBeUndefined()
    expect(Wall.detect({ html: WallPages.articleWithBanner.html, text: "" })).toBeUndefined()
  })

  it("a consent dialog read instead of the products behind it is not a wall: the page shows much more", () => {
    const products = Array.from(
      { length: 80 },
      (_, i) => `<li><a href="/p/${i}">Copper lantern number ${i}, hand made</a> <span>from 40 pounds</span></li>`
    ).join("")
    const dialog = WallPages.oneTrustWall.html.replace("</body>", `<main><ul>${products}</ul></main></body>`)
    const dialogText = read(WallPages.oneTrustWall.html).text
    expect(Wall.detect({ html: WallPages.oneTrustWall.html, text: dialogText })?.kind).toBe("consent")
    expect(Wall.detect({ html: dialog, text: dialogText })).toBeUndefined()
  })

  it("reads the title from the HTML when none is given", () => {
    expect(
      Wall.detect({ html: "<html><head><title>Just a moment...</title></head><body></body></html>", text: "" })
    ).toEqual({
      kind: "challenge",
      vendor: undefined
    })
  })

  it("tells which walls a browser may get past, and names them for a message", () => {
    expect(Wall.passableByRendering({ kind: "challenge", vendor: "Cloudflare" })).toBe(true)
    expect(Wall.passableByRendering({ kind: "javascript", vendor: undefined })).toBe(true)
    expect(Wall.passableByRendering({ kind: "login", vendor: undefined })).toBe(false)
    expect(Wall.passableByRendering({ kind: "consent", vendor: "OneTrust" })).toBe(false)
    expect(Wall.describe({ kind: "challenge", vendor: "Cloudflare" })).toBe("a bot check (Cloudflare)")
    expect(Wall.describe({ kind: "consent", vendor: undefined })).toBe("a full-page consent wall")
  })

  it.prop(
    "a wall with enough other text (lines of ordinary words) is read as content",
    [FastCheck.constantFrom(...WallPages.walls), FastCheck.array(neutralLine(12), { minLength: 4, maxLength: 12 })],
    ([page, lines]) => {
      const { text } = read(page.html)
      const other = lines.map((words) => words.join(" ")).join("\n\n")
      FastCheck.pre(letters(other) > Wall.maxOtherLetters)
      expect(Wall.detect({ html: page.html, text: `${text}\n\n${other}` })).toBeUndefined()
    }
  )

  it.prop(
    "a wall with a little other text is still the same wall",
    [FastCheck.constantFrom(...WallPages.walls), FastCheck.array(neutralLine(5), { maxLength: 3 })],
    ([page, lines]) => {
      const { text, wall } = read(page.html)
      const other = lines.map((words) => words.join(" ")).join("\n\n")
      expect(Wall.detect({ html: page.html, text: `${text}\n\n${other}` })).toEqual(wall)
    }
  )

  it.prop(
    "a text with more letters than any wall has is no wall, whatever its lines say",
    [FastCheck.constantFrom(...WallPages.walls), FastCheck.integer({ min: 1, max: 40 })],
    ([page, extra]) => {
      const { text } = read(page.html)
      FastCheck.pre(letters(text) > 0)
      // The wall's own words, over and over: every line still says what the wall says.
      let long = text
      while (letters(long) <= 3000 + extra) long = `${long}\n${text}`
      expect(Wall.detect({ html: page.html, text: long })).toBeUndefined()
    }
  )

  it.prop(
    "any input is answered: no wall, or a wall of a known kind",
    [
      FastCheck.string({ maxLength: 400 }),
      FastCheck.fullUnicodeString({ maxLength: 400 }),
      FastCheck.option(FastCheck.string())
    ],
    ([html, text, title]) => {
      const wall = Wall.detect({ html, text, title: title ?? undefined })
      if (wall !== undefined) expect(["challenge", "javascript", "login", "consent"]).toContain(wall.kind)
    }
  )
})
