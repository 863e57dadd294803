/**
 * The words of an element's class and id attributes (`Boilerplate.tokens` reads them from the element): lower-case
 * runs of letters and digits, split at separators and camelCase humps, a class name's words after a modifier word
 * left out, an id of more than three words left out. Worked out once per distinct attribute value (bounded caches).
 */

// Words that make the rest of a class name a modifier, not the element's role: `main-with-sidebar`, `has-comments`
// and `no-sidebar` name a block beside a sidebar or comments (often the article), not one; `format-gallery` (on a
// WordPress post and its page's body) names the post's format.
const modifiers = new Set(["with", "has", "no", "without", "format"])

const isLower = (c: number) => c >= 97 && c <= 122
const isUpper = (c: number) => c >= 65 && c <= 90
const isDigit = (c: number) => c >= 48 && c <= 57

/**
 * The words of an all-ASCII class or id attribute, as {@link words} (and, with `cut`, {@link classWords}) find them,
 * in one pass: a word is a run of letters and digits, broken where a lower-case letter meets an upper-case one, and
 * lowered. The expressions built four strings and two arrays per class name, for every distinct class of every page.
 * `undefined` for text with any other character, where lowering may map one character to several (`İ`).
 */
const asciiWords = (text: string, cut: boolean): Array<string> | undefined => {
  const out: Array<string> = []
  // Where the current word starts (-1: between words), and whether the rest of this class name is after a modifier.
  let start = -1
  let skipping = false
  const end = (at: number) => {
    if (start < 0) return
    const word = text.slice(start, at).toLowerCase()
    start = -1
    if (skipping) return
    if (cut && modifiers.has(word)) skipping = true
    else out.push(word)
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 128) return undefined
    if (isLower(c) || isDigit(c)) {
      if (start < 0) start = i
    } else if (isUpper(c)) {
      if (start >= 0 && isLower(text.charCodeAt(i - 1))) end(i)
      if (start < 0) start = i
    } else {
      end(i)
      // HTML whitespace and \v: where `split(/\s+/)` ends a class name.
      if (c === 32 || (c >= 9 && c <= 13)) skipping = false
    }
  }
  end(text.length)
  return out
}

const words = (raw: string): Array<string> =>
  asciiWords(raw, false) ??
  raw
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t !== "")

/** A class attribute's words, each class name's cut before its first modifier word. */
const classWords = (cls: string): Array<string> => {
  const fast = asciiWords(cls, true)
  if (fast !== undefined) return fast
  const out: Array<string> = []
  for (const name of cls.split(/\s+/)) {
    for (const word of words(name)) {
      if (modifiers.has(word)) break
      out.push(word)
    }
  }
  return out
}

/** No words (one shared list). */
export const none: ReadonlyArray<string> = []

// Pages repeat a handful of class names over thousands of elements: their tokens are worked out once. Bounded, so
// a page of unique class names cannot grow it past a few thousand entries. Most elements have no id: theirs are
// looked up by the class attribute alone (no key to build), and an id's own words are added to the class's.
const classCache = new Map<string, ReadonlyArray<string>>()
const tokenCache = new Map<string, ReadonlyArray<string>>()

const remember = (cache: Map<string, ReadonlyArray<string>>, key: string, value: ReadonlyArray<string>) => {
  if (cache.size >= 4096) cache.clear()
  cache.set(key, value)
  return value
}

/** The words of a class attribute and an id, cached: the same list for the same attributes. */
export const of = (cls: string, id: string): ReadonlyArray<string> => {
  if (cls.length + id.length > 400) return none
  const ofClass = cls === "" ? none : (classCache.get(cls) ?? remember(classCache, cls, classWords(cls)))
  if (id === "") return ofClass
  // The id's length first: "a#with" + "b" and "a" + "with#b" are different attributes.
  const key = `${id.length}:${id}#${cls}`
  const cached = tokenCache.get(key)
  if (cached !== undefined) return cached
  const own = words(id)
  return remember(tokenCache, key, own.length <= 3 ? [...ofClass, ...own] : ofClass)
}
