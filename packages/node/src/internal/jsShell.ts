/**
 * When `render: "auto"` renders a page: the HTML answer has scripts and either its extracted text is tiny, or it
 * is a known JavaScript shell (an empty application root, a `<noscript>` asking for JavaScript) or a browser-check
 * page (Cloudflare's "Just a moment…", DataDome, PerimeterX, AWS WAF, DDoS-Guard, Sucuri). A page without any
 * script is never rendered: a browser would show the same text.
 */

/** Extracted text shorter than this (in characters) counts as tiny. */
export const tinyChars = 200

/** How much of a body the heuristics read: the markers sit in the head or near the top of the body. */
export const inspectedBytes = 256 * 1024

const scriptTag = /<script[\s>]/i

const emptyRoot =
  /<(div|main|section|body)\b[^>]*\bid\s*=\s*["']?(root|app|__next|__nuxt|___gatsby|svelte|app-root|main-app|application)\b["']?[^>]*>\s*<\/\1>/i

const noscriptAsksForJs =
  /<noscript\b[^>]*>[\s\S]{0,600}?\b(enable|requires?|needs?|turn on|activate)\b[\s\S]{0,80}?javascript/i

const appRootElement = /<(app-root|ng-app)\b[^>]*>\s*<\/\1>/i

const challengeMarkers: ReadonlyArray<RegExp> = [
  /<title>\s*just a moment\.{0,3}\s*<\/title>/i,
  /\bcf[-_]browser[-_]verification\b|\/cdn-cgi\/challenge-platform\/|\bcf_chl_opt\b|__cf_chl_/i,
  /<title>\s*(attention required!?|checking your browser|ddos-guard|please wait\.{0,3})\b/i,
  /\bcaptcha-delivery\.com\b|\bdatadome\b/i,
  /\b_px(captcha|hcaptcha)\b|\bpx-captcha\b|\bperimeterx\b/i,
  /\bawswaf\b|\baws-waf-token\b/i,
  /\bsucuri_cloudproxy\b|\bsucuri website firewall\b/i,
  /\benable javascript and cookies to continue\b/i
]

/** Decodes the first `inspectedBytes` of a body for the heuristics (markers are ASCII, so any charset will do). */
export const head = (body: Uint8Array): string =>
  new TextDecoder("utf-8", { fatal: false }).decode(body.subarray(0, inspectedBytes))

/** Whether the page has any script at all. */
export const hasScript = (html: string): boolean => scriptTag.test(html)

/** A known browser-check (bot challenge) page. */
export const isChallenge = (html: string): boolean => hasScript(html) && challengeMarkers.some((re) => re.test(html))

/** A known JavaScript application shell: an empty root element or a `<noscript>` asking for JavaScript. */
export const isShell = (html: string): boolean =>
  hasScript(html) && (emptyRoot.test(html) || appRootElement.test(html) || noscriptAsksForJs.test(html))

/**
 * Whether a rendered page is still a browser check: a marker is there and there is little text. Protection
 * scripts are also loaded by ordinary pages, so a marker alone does not make a page a wall.
 */
export const stillChallenged = (html: string, markdown: string): boolean =>
  markdown.trim().length < challengeTextChars && isChallenge(html)

/** Above this much extracted text a page is read as content even if it carries a browser-check marker. */
export const challengeTextChars = 1000

/** Whether `auto` renders a 2xx HTML page whose extraction gave `markdown`. */
export const needsRender = (html: string, markdown: string): boolean =>
  hasScript(html) && (markdown.trim().length < tinyChars || isShell(html) || isChallenge(html))
