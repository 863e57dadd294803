/**
 * The local fetcher's answers for pages that are not their content: a wall (`@websearch/extract/Wall`: a bot check,
 * a page asking for JavaScript, a login or consent wall) fails `RequestFailed/blocked`, an empty JavaScript shell
 * `ResponseInvalid/empty_content` saying it needs rendering. The hints are in the settings' words
 * (`providers.fetch.render`), which the CLI turns into its flag (`--render auto`).
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import type * as ExtractCore from "@websearch/extract/internal/extractCore"
import * as Wall from "@websearch/extract/Wall"
import * as Either from "effect/Either"
import * as JsShell from "./jsShell.js"

/**
 * The hint a message ends with when rendering could help: `setting` when rendering is off (set it on), `renderer`
 * when it is on but no renderer is provided, `none` when it was tried.
 */
export type Hint = "setting" | "renderer" | "none"

const hints: Record<Hint, string> = {
  setting: `: set providers.fetch.render to "auto"`,
  renderer: `, but no BrowserRenderer is provided`,
  none: ""
}

/**
 * Whether an error answer's page is worth reading for a wall: not a 404 (a missing page, whatever it says) nor a
 * 429 (a rate limit, which `Retry-After` and a later retry do get past).
 */
export const mayBeWall = (status: number): boolean => status !== 404 && status !== 429

/**
 * The wall an error answer (403, 503, …) is, from its extraction when it had text, else from its markup: a bot
 * check only, with a script or a vendor's markup (what a browser would run, or who runs the check), never a plain
 * error page that happens to say "access denied".
 */
export const ofErrorPage = (
  extracted: Either.Either<ExtractCore.Document, { readonly reason: string }>,
  head: string
): Wall.Wall | undefined => {
  const wall = Either.isRight(extracted) ? extracted.right.wall : Wall.detect({ html: head, text: "" })
  return wall?.kind === "challenge" && (JsShell.hasScript(head) || wall.vendor !== undefined) ? wall : undefined
}

/** The wall an HTML answer with no text is, if any (its markup and title are all there is to tell). */
export const ofEmptyPage = (html: string): Wall.Wall | undefined => Wall.detect({ html, text: "" })

/**
 * `RequestFailed/blocked` for a page that is a wall. `status` names an error answer's status; `rendered` says the
 * wall is still there after rendering; `hint` says what may help when rendering could pass the wall.
 */
export const blocked = (
  url: string,
  wall: Wall.Wall,
  options: { readonly status?: number | undefined; readonly rendered?: boolean; readonly hint: Hint }
): WebSearchError.RequestFailed => {
  const what = Wall.describe(wall)
  const answered = options.status === undefined ? "answered with" : `answered ${options.status} with`
  const message =
    options.rendered === true
      ? `${url} still shows ${what} after rendering; the site refuses automated reading`
      : Wall.passableByRendering(wall) && options.hint !== "none"
        ? `${url} ${answered} ${what} instead of its content; rendering may get past it${hints[options.hint]}`
        : `${url} ${answered} ${what} instead of its content; the site refuses automated reading`
  return WebSearchError.requestFailed("blocked", message)
}

/** `ResponseInvalid/empty_content` for an HTML page with scripts and no text: a shell built by JavaScript. */
export const needsRendering = (url: string, hint: Hint): WebSearchError.ResponseInvalid =>
  WebSearchError.responseInvalid(
    "empty_content",
    `${url} has no readable text: the page is built by JavaScript and needs rendering${hints[hint]}`
  )

/**
 * What the plain answer of an HTML page says: the wall it is (from its extraction, or from its markup when nothing
 * was extracted) and whether `auto` should render it (a wall a browser may pass, an empty or tiny page of scripts, a
 * JavaScript shell).
 */
export const assess = (
  plain: Either.Either<ExtractCore.Document, { readonly reason: string }>,
  html: () => string
): { readonly wall: Wall.Wall | undefined; readonly worthRendering: boolean } => {
  const empty = Either.isLeft(plain) && plain.left.reason === "empty_content"
  const wall = Either.isRight(plain) ? plain.right.wall : empty ? ofEmptyPage(html()) : undefined
  if (wall !== undefined) return { wall, worthRendering: Wall.passableByRendering(wall) }
  return {
    wall,
    worthRendering: Either.isRight(plain)
      ? JsShell.needsRender(html(), plain.right.markdown)
      : empty && JsShell.hasScript(html())
  }
}
