/**
 * A site's footer or header drawn without a `<footer>` or `<header>` element (the section pass drops those): a block
 * whose class or id names a footer or a header (`navFooter`, `site-footer__links`, `masthead`), while it holds a
 * small share of the page and is mostly links, many of them (the shop's "About us", "Careers", "Help" columns, its
 * account and store links). A card's own footer or header (its author and date, its price and a button) holds a
 * link or two, and stays. One walk top-down, an element's class words read once and a removed block not looked into:
 * linear in the page.
 */
import { tokens } from "./boilerplate.js"
import * as Outermost from "./outermost.js"
import type * as SectionPass from "./sectionPass.js"

/** A footer or header holds less than this share of the page's text ... */
export const maxShare = 0.25
/** ... at least this many links ... */
export const minLinks = 4
/** ... and at least this share of its text in them. */
export const minLinkShare = 0.5

const frameWords = new Set(["footer", "footers", "header", "masthead"])

/** Removes, under `root`, the link-laden blocks that name a footer or a header; `page` from the survey. */
export const remove = (root: Element, page: SectionPass.Page): void =>
  Outermost.remove(
    root,
    page,
    (element, text) =>
      text < page.total * maxShare &&
      page.links(element) >= minLinks &&
      page.linkText(element) >= text * minLinkShare &&
      tokens(element).some((t) => frameWords.has(t))
  )
