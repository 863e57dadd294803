/**
 * The controls and badges of a collection's item cards: "Add to cart", "Quick view", "Choose options", "Compare",
 * "Shop now", "More options" and the like, drawn as links (a `<button>` is dropped by the section pass already),
 * the flags a shop pins on a card ("New", "Top Rated", "Sponsored", "Only 2 left"), the links that count its reviews
 * ("(132)"), its links to pictures (a swatch's full-size image) and the grid's tally ("Showing 1–24 of 296
 * results"). Each card repeats them, and they tell a reader nothing of the item: an element whose whole text is one
 * such label is removed (not a heading, which names a section). Only an element whose text is one text node is read
 * (its first text, from the survey), so each element costs one test: linear in the page.
 */
import { attribute } from "./boilerplate.js"
import type * as SectionPass from "./sectionPass.js"

/** A label is at most this many characters. */
export const maxLabelChars = 40

// What a card's controls say, and what its badges say, in English.
const controls =
  "add to (?:cart|bag|basket|trolley|wish ?list|favou?rites|compare)|quick (?:view|shop|look|add)|" +
  "(?:choose|select|show|view) options|compare|shop now|learn more|read full article|apply now|more options|" +
  "view details|\\+ ?more|show more"
const badges = "new!?|top rated|best ?seller|sponsored|low stock|only \\d+ left!?"

/** The labels: an element's whole text, spaces collapsed. */
export const labels = new RegExp(`^(?:${controls}|${badges})$`, "i")

/** A link whose whole text is a count of reviews ("(132)", "28 Reviews"): it leads to the item's reviews. */
export const reviewCount = /^(?:\(\d[\d,.]*\)|\(?\d[\d,.]* ?(?:reviews?|ratings?)\)?)$/i

/**
 * A grid's tally of its items ("Showing 1–24 of 296 results", "Products (143)", "51 products"): what the page holds,
 * not an item of it.
 */
export const tally =
  /^(?:(?:showing|displaying|viewing|loaded) )?(?:\d[\d,]* ?(?:[-–—]|to) ?)?\d[\d,]*(?: (?:of|out of) \d[\d,]*)? (?:results?|products?|items?|styles?)(?: of \d[\d,]*)?(?: found)?$|^(?:products|results|items) ?\(\d[\d,]*\)$/i

/** A link to a picture (a swatch's or a gallery's full-size image): its text names the picture, not an item. */
export const pictureHref = /\.(?:jpe?g|png|webp|gif|avif)$/i
/**
 * A picture link's text is a swatch's or a zoom button's (a colour, "View larger") up to this many characters; a
 * longer one may be a gallery item's title, which stays.
 */
export const maxPictureLabelChars = 20

// The href's path, without its query or fragment: one scan of it.
const pathOf = (href: string): string => {
  const end = href.search(/[?#]/)
  return end < 0 ? href : href.slice(0, end)
}

const headings = new Set(["h1", "h2", "h3", "h4", "h5", "h6"])

/** Removes, under `root`, the elements whose whole text is a control's label; `page` from the survey. */
export const remove = (root: Element, page: ReturnType<typeof SectionPass.survey> & object): void => {
  const removals: Array<Element> = []
  const stack: Array<Element> = []
  for (let c = root.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  while (stack.length > 0) {
    const element = stack.pop()!
    const s = page.stats.get(element)
    if (s === undefined || s.text === 0) continue
    if (
      element.localName === "a" &&
      s.text <= maxPictureLabelChars &&
      pictureHref.test(pathOf(attribute(element, "href") ?? ""))
    ) {
      removals.push(element)
      continue
    }
    if (s.text <= maxLabelChars && !headings.has(element.localName) && s.first !== undefined) {
      const data = (s.first as CharacterData).data.trim()
      const text = data.replace(/\s+/g, " ")
      if (
        data.length === s.text &&
        (labels.test(text) || tally.test(text) || (element.localName === "a" && reviewCount.test(text)))
      ) {
        removals.push(element)
        continue
      }
    }
    for (let c = element.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  }
  for (const element of removals) element.parentNode?.removeChild(element)
}
