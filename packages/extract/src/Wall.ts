/**
 * Whether a page is a wall in front of its content rather than the content: a bot check (a browser challenge or a
 * CAPTCHA from Cloudflare, DataDome, PerimeterX/HUMAN, Akamai, AWS WAF, Imperva/Incapsula, Sucuri, DDoS-Guard,
 * hCaptcha or reCAPTCHA), a page asking to enable JavaScript, a login or subscription wall, or a full-page consent
 * wall (OneTrust, Quantcast, Sourcepoint, Cookiebot, Didomi, TrustArc, Usercentrics, IAB TCF). One detector, a pure
 * function over the page's HTML and its extracted text: the extractor records what it finds on the document
 * (`Document.wall`), and the local fetch provider fails such a page `RequestFailed/blocked` instead of returning the
 * wall as the page's text (and renders a browser check when rendering is on).
 *
 * A wall needs two things: its own words or markup (a challenge platform's script, "verify you are human", "sign in
 * to continue", "we value your privacy") and little else to read. Ordinary pages load the same protection scripts,
 * consent managers and CAPTCHA widgets, and show cookie banners and sign-in links: judged by how little text remains
 * besides the wall's own, an article with a cookie banner is still an article. Every scan is linear in the page
 * (phrases are found by `includes` over lower-cased text, never by a backtracking expression): markers are looked
 * for in the first `inspectedChars` of the HTML, and only a page that looks like a wall has its shown text counted.
 *
 * @since 0.2.0
 */
import * as VisibleText from "./internal/visibleText.js"
import * as WallWords from "./internal/wallWords.js"

const { challengeMarkup, consentVendors, normalise, triggers, vendorMarkup, vocabulary } = WallWords

/**
 * The kinds of wall: `challenge` (a bot check or CAPTCHA), `javascript` (a page asking to enable JavaScript),
 * `login` (sign in or subscribe to read) and `consent` (accept cookies or tracking to read).
 *
 * @since 0.2.0
 * @category models
 */
export type Kind = WallWords.Kind

/**
 * A wall found on a page: its kind and, when its markup names one, the vendor behind it.
 *
 * @since 0.2.0
 * @category models
 */
export interface Wall {
  readonly kind: Kind
  readonly vendor: string | undefined
}

/**
 * What the detector reads: the page's HTML (only its first `inspectedChars` are read), the text extracted from it
 * (markdown; `""` when there is none, or none was extracted) and its title when known (else it is read from the
 * HTML's `<title>`).
 *
 * @since 0.2.0
 * @category models
 */
export interface Input {
  readonly html: string
  readonly text: string
  readonly title?: string | undefined
}

/**
 * How much of the HTML is read: the markers of a wall sit in its head or near the top of its body, and a wall
 * page is small.
 *
 * @since 0.2.0
 * @category constants
 */
export const inspectedChars = 256 * 1024

/**
 * A page with more text than this (letters and digits outside the wall's own lines) is read as content, whatever
 * wall it also shows.
 *
 * @since 0.2.0
 * @category constants
 */
export const maxOtherLetters = 250

// Beyond this much text in all (the wall's own words included) a page is not a wall of this kind: a privacy
// policy is full of consent words, a help page about signing in full of login words.
const maxLetters: Record<Kind, number> = { challenge: 1500, javascript: 1500, login: 2000, consent: 3000 }
const maxAnyLetters = Math.max(...Object.values(maxLetters))

// A page that shows more text than this besides what was extracted is content the extraction missed (a consent
// dialog read instead of the products behind it), not a wall: the page has more to read than its wall.
const maxOutsideLetters = 2000

// Extracted text longer than this is never a wall; scanning it would cost for nothing.
const maxTextChars = 64 * 1024

/** Whether a normalised line holds one of the words (a `*` word as a prefix). */
const holds = (line: string, words: ReadonlyArray<string>): boolean =>
  words.some((word) => (word.endsWith("*") ? line.includes(` ${word.slice(0, -1)}`) : line.includes(` ${word} `)))

const inspected = (html: string): string =>
  (html.length > inspectedChars ? html.slice(0, inspectedChars) : html).toLowerCase()

/** The `<title>` of (lower-cased) HTML, read at most 300 characters past its start tag. */
const titleOf = (lower: string): string => {
  const start = lower.indexOf("<title")
  if (start < 0) return ""
  const open = lower.indexOf(">", start)
  if (open < 0 || open - start > 300) return ""
  const close = lower.indexOf("</title", open)
  return close < 0 || close - open > 300 ? "" : lower.slice(open + 1, close)
}

/**
 * The vendor of a bot check whose own page this HTML is (a challenge platform's markup, never found on the ordinary
 * pages the vendor protects), or `undefined`. Reads the first `inspectedChars` only.
 *
 * @since 0.2.0
 * @category guards
 */
export const challengeVendor = (html: string): string | undefined => {
  const lower = inspected(html)
  return challengeMarkup.find(([marker]) => lower.includes(marker))?.[1]
}

const vendorOf = (lower: string, kind: Kind): string | undefined => {
  const fits = (vendor: string) =>
    kind === "consent" ? consentVendors.has(vendor) : kind === "challenge" ? !consentVendors.has(vendor) : false
  return (
    challengeMarkup.find(([marker, vendor]) => fits(vendor) && lower.includes(marker))?.[1] ??
    vendorMarkup.find(([marker, vendor]) => fits(vendor) && lower.includes(marker))?.[1]
  )
}

interface Lines {
  /** All letters and digits of the text. */
  readonly letters: number
  /** The normalised lines of more than three words (shorter ones are buttons, links and labels). */
  readonly lines: ReadonlyArray<{ readonly words: string; readonly letters: number }>
  /** The normalised lines of at most `maxNoticeWords` words, one after the other: headings, notices, buttons. */
  readonly notices: string
}

// A wall says what it is in its title, a heading, a button or a short notice; a phrase in the middle of a long
// paragraph is a page talking about walls.
const maxNoticeWords = 12

const linesOf = (text: string): Lines => {
  let letters = 0
  const lines: Array<{ readonly words: string; readonly letters: number }> = []
  const notices: Array<string> = []
  for (const raw of text.split("\n")) {
    const words = normalise(raw)
    // `words` is " w1 w2 … wn ": n + 1 spaces around n words (two spaces and no word for an empty line).
    let spaces = 0
    for (let i = 0; i < words.length; i++) if (words.charCodeAt(i) === 32) spaces++
    const count = words.length - spaces
    if (count === 0) continue
    letters += count
    if (spaces - 1 > 3) lines.push({ words, letters: count })
    if (spaces - 1 <= maxNoticeWords) notices.push(words)
  }
  return { letters, lines, notices: notices.join("") }
}

/**
 * The ASCII letters and digits of a text, counted up to just past `limit`: fewer than `linesOf` counts (each stays
 * one letter when normalised), so a text with more than any wall's letters is known for no wall without normalising
 * its lines (most pages: the line pass was about 3% of an article's extraction on trafilatura-eval).
 */
const asciiLetters = (text: string, limit: number): number => {
  let count = 0
  for (let i = 0; i < text.length && count <= limit; i++) {
    const code = text.charCodeAt(i)
    if ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)) count++
  }
  return count
}

/** Letters of the lines that do not belong to a wall of this kind. */
const otherLetters = (lines: Lines, kind: Kind): number =>
  lines.lines.reduce((sum, line) => (holds(line.words, vocabulary[kind]) ? sum : sum + line.letters), 0)

const order: ReadonlyArray<Kind> = ["challenge", "javascript", "login", "consent"]

/**
 * The wall this page is, or `undefined` for a page to read. A page is a wall when its title or a short line of its
 * text (a heading, a notice, a button) says so in a wall's own words, or its markup is a challenge platform's own
 * page; and its text besides the wall's own lines is at most `maxOtherLetters` (lines of three words or fewer,
 * buttons, links and labels, count as the wall's); and the page shows little text besides what was extracted (else
 * the extraction read a dialog in front of the content).
 *
 * @example
 * import * as Wall from "@websearch/extract/Wall"
 *
 * const html = "<title>Just a moment...</title><p>Checking your browser before accessing example.com.</p>"
 * console.log(Wall.detect({ html, text: "Checking your browser before accessing example.com." }))
 * // { kind: "challenge", vendor: undefined }
 *
 * @since 0.2.0
 * @category guards
 */
export const detect = (input: Input): Wall | undefined => {
  if (input.text.length > maxTextChars || asciiLetters(input.text, maxAnyLetters) > maxAnyLetters) return undefined
  const lines = linesOf(input.text)
  if (lines.letters > maxAnyLetters) return undefined
  // The page's markup lowered, and a challenge platform's mark in it, only when asked (the title is read from it
  // when the caller gave none): most short pages are known for no wall from their text alone, and lowering 256 KB
  // then searching it for every mark cost more than the rest.
  let lower: string | undefined
  const lowered = () => (lower ??= inspected(input.html))
  const said = `${normalise(input.title ?? titleOf(lowered()))}${lines.notices}`
  let strong: boolean | undefined
  const challenged = () => (strong ??= challengeMarkup.some(([marker]) => lowered().includes(marker)))
  // Of the kinds a page's words (or a challenge platform's markup) point to, the one whose own words cover most of
  // its text: a consent wall saying "to continue reading, make a choice" is a consent wall, not a login wall.
  let found: { readonly kind: Kind; readonly other: number } | undefined
  for (const kind of order) {
    if (lines.letters > maxLetters[kind]) continue
    // The text besides the kind's own words first: it rules most pages out before their markup is searched.
    const other = otherLetters(lines, kind)
    if (other > maxOtherLetters || (found !== undefined && other >= found.other)) continue
    const triggered = (kind === "challenge" && challenged()) || triggers[kind].some((phrase) => said.includes(phrase))
    if (triggered) found = { kind, other }
  }
  if (found === undefined || VisibleText.letters(input.html) - lines.letters > maxOutsideLetters) return undefined
  return { kind: found.kind, vendor: vendorOf(lowered(), found.kind) }
}

/**
 * Whether rendering the page in a browser may get past the wall: a bot check that a browser passes by running its
 * script, or a page asking for JavaScript. A login or consent wall stays one.
 *
 * @since 0.2.0
 * @category guards
 */
export const passableByRendering = (wall: Wall): boolean => wall.kind === "challenge" || wall.kind === "javascript"

/**
 * The wall in a few words, for a message: "a bot check (Cloudflare)", "a login or subscription wall", ...
 *
 * @since 0.2.0
 * @category encoding
 */
export const describe = (wall: Wall): string => {
  const by = wall.vendor === undefined ? "" : ` (${wall.vendor})`
  switch (wall.kind) {
    case "challenge":
      return `a bot check${by}`
    case "javascript":
      return "a page asking to enable JavaScript"
    case "login":
      return "a login or subscription wall"
    case "consent":
      return `a full-page consent wall${by}`
  }
}
