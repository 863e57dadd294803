/**
 * Copies of strings that share no storage with the strings they came from. A string sliced from a larger one (a
 * part of a page, a URL cut from a search page's HTML) keeps the whole parent alive in V8 for as long as it lives;
 * what a session keeps for a long time is copied flat first, so it holds (and is counted at) its own length only.
 */

/**
 * A flat copy of `s`. Concatenation makes a rope, and slicing a rope flattens it into a new string first: the
 * result keeps that new string (one character longer) alive, never the original's parent. Strings shorter than
 * V8's slice threshold are always copied, so they are returned as they are.
 */
export const flat = (s: string): string => (s.length < 13 ? s : (" " + s).slice(1))
