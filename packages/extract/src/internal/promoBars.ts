/**
 * A shop's announcement bar ("Free shipping on orders over $50", one per currency or a carousel of offers) above a
 * collection page: an element whose class names an "announcement bar" or a "promo bar". The page's own text is
 * not in one, and the bar is removed while it holds a small share of the page. One walk top-down, an element's class
 * words read once: linear in the page.
 */
import { tokens } from "./boilerplate.js"
import * as Outermost from "./outermost.js"
import type * as SectionPass from "./sectionPass.js"

/** A bar holds less than this share of the page's text. */
export const maxShare = 0.25

const barWords = new Set(["announcement", "announcements", "promo", "promotion", "promotional"])

/** Whether the element's class or id names an announcement or promo bar (`announcement-bar`, `promoBar`). */
export const isBar = (element: Element): boolean => {
  const words = tokens(element)
  for (let i = 0; i < words.length; i++) {
    const w = words[i]
    if (w === "announcementbar" || w === "promobar") return true
    if (barWords.has(w) && words[i + 1] === "bar") return true
  }
  return false
}

/** Removes, under `root`, the announcement and promo bars; `page` from the survey. */
export const remove = (root: Element, page: SectionPass.Page): void =>
  Outermost.remove(root, page, (element, text) => text < page.total * maxShare && isBar(element))
