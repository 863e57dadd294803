/**
 * A figure's picture goes with its caption. Pages repeat the caption (or the photo credit) as the picture's alt
 * text, which is all the markdown keeps of a picture: with captions dropped, a picture in a `figure` is dropped
 * too. Each picture looks up at most `maxLevels` ancestors: linear.
 */
import type { Rule } from "./boilerplate.js"

/** How far above a picture its `figure` is looked for. */
export const maxLevels = 4

/** A picture in a `figure` (at most {@link maxLevels} levels up), unless the caller keeps captions. */
export const figureImageRule: Rule = (element, facts) => {
  if (facts.context.keepCaptions || element.localName !== "img") return false
  for (let node = element.parentElement, level = 0; node !== null && level < maxLevels; level++) {
    if (node.localName === "figure") return true
    node = node.parentElement
  }
  return false
}
