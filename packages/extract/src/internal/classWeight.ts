/**
 * Readability's class weight, without the words of utility classes. Readability weighs an element by whether its
 * class and id match a list of words that name a role (`comment`, `share`, `related`, `hidden`, `scroll`, `media`),
 * anywhere in them: a utility class such as Tailwind's `scroll-mt-2` (the scroll margin of an anchor target) or
 * `overflow-x-hidden` names a style, not a role, yet counted as "scroll" or "hidden" against the block and had
 * Readability drop a documentation page's code samples. Here the same weight, read from the class words that are
 * not such utilities (the id as it is).
 */

interface Reader {
  readonly REGEXPS?: { readonly positive?: RegExp; readonly negative?: RegExp }
  readonly FLAG_WEIGHT_CLASSES?: number
  readonly _flagIsActive?: (flag: number) => boolean
}

/**
 * A utility class: a responsive or state variant (`md:hidden`, `group-hover:block`), or a scroll, overflow or
 * scroll-snap utility (`scroll-mt-2`, `overflow-y-scroll`, `snap-x`, `scrollbar-none`).
 */
const utility = /^(?:[\w-]+:.|-?(?:scroll|overflow|snap|scrollbar)-)/

/** The class words of `className` that are not utilities, as one string (the whole of it when none is). */
export const roleWords = (className: string): string => {
  const words = className.split(/\s+/)
  let kept = ""
  let dropped = false
  for (const word of words) {
    if (word === "") continue
    if (utility.test(word)) dropped = true
    else kept += kept === "" ? word : ` ${word}`
  }
  return dropped ? kept : className
}

/** Readability's `_getClassWeight` for `element`, its class read through {@link roleWords}. */
export const weight = (element: Element, positive: RegExp, negative: RegExp): number => {
  let result = 0
  const className = typeof element.className === "string" ? roleWords(element.className) : ""
  if (className !== "") {
    if (negative.test(className)) result -= 25
    if (positive.test(className)) result += 25
  }
  const id = element.id
  if (typeof id === "string" && id !== "") {
    if (negative.test(id)) result -= 25
    if (positive.test(id)) result += 25
  }
  return result
}

/**
 * Gives one Readability instance the weight above in place of its own (`_getClassWeight`, with its patterns in
 * `REGEXPS` and its flag test); an instance without them is left as it is.
 */
export const install = (reader: object): void => {
  const own = reader as Reader & { _getClassWeight?: unknown }
  const positive = own.REGEXPS?.positive
  const negative = own.REGEXPS?.negative
  const flag = own.FLAG_WEIGHT_CLASSES
  const active = own._flagIsActive
  if (
    typeof own._getClassWeight !== "function" ||
    !(positive instanceof RegExp) ||
    !(negative instanceof RegExp) ||
    typeof flag !== "number" ||
    typeof active !== "function"
  )
    return
  own._getClassWeight = (element: Element) => (active.call(own, flag) ? weight(element, positive, negative) : 0)
}
