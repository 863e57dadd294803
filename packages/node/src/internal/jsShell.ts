/**
 * When `render: "auto"` renders a page: the HTML answer has scripts and either its extracted text is tiny, or it
 * is a known JavaScript shell (an empty application root, a `<noscript>` asking for JavaScript) or a bot check's own
 * page (`@websearch/extract/Wall`, the one detector of walls). A page without any script is never rendered: a
 * browser would show the same text.
 */
import * as Wall from "@websearch/extract/Wall"

/** Extracted text shorter than this (in characters) counts as tiny. */
export const tinyChars = 200

/** How much of a body the heuristics read: the markers sit in the head or near the top of the body. */
export const inspectedBytes = Wall.inspectedChars

const scriptTag = /<script[\s>]/i

const emptyRoot =
  /<(div|main|section|body)\b[^>]*\bid\s*=\s*["']?(root|app|__next|__nuxt|___gatsby|svelte|app-root|main-app|application)\b["']?[^>]*>\s*<\/\1>/i

const noscriptAsksForJs =
  /<noscript\b[^>]*>[\s\S]{0,600}?\b(enable|requires?|needs?|turn on|activate)\b[\s\S]{0,80}?javascript/i

const appRootElement = /<(app-root|ng-app)\b[^>]*>\s*<\/\1>/i

/** Decodes the first `inspectedBytes` of a body for the heuristics (markers are ASCII, so any charset will do). */
export const head = (body: Uint8Array): string =>
  new TextDecoder("utf-8", { fatal: false }).decode(body.subarray(0, inspectedBytes))

/** Whether the page has any script at all. */
export const hasScript = (html: string): boolean => scriptTag.test(html)

/**
 * A bot check with a script (what a browser runs to pass it): `Wall.detect` finds a challenge in the HTML and the
 * text extracted from it (`""` when none was: then only a challenge platform's markup or title can tell).
 */
export const isChallenge = (html: string, text = ""): boolean =>
  hasScript(html) && Wall.detect({ html, text })?.kind === "challenge"

/** A known JavaScript application shell: an empty root element or a `<noscript>` asking for JavaScript. */
export const isShell = (html: string): boolean =>
  hasScript(html) && (emptyRoot.test(html) || appRootElement.test(html) || noscriptAsksForJs.test(html))

/** Whether `auto` renders a 2xx HTML page whose extraction gave `markdown`. */
export const needsRender = (html: string, markdown: string): boolean =>
  hasScript(html) && (markdown.trim().length < tinyChars || isShell(html) || isChallenge(html, markdown))
