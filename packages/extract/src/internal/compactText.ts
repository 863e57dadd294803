/**
 * The extractor's output as V8 holds it most cheaply. The markdown is built around private-use sentinels
 * (`Markdown.ts`), so V8 stores it two bytes a character even once they are gone, and often as a slice that keeps
 * a larger parent alive; a cache holding fetched pages then holds twice their text. A text whose characters all fit
 * in one byte is copied into a flat one-byte string (an UTF-8 round trip, exact for such a text: it holds no
 * surrogate); any other text is returned as it is. Linear: one scan, one encode, one decode.
 */

const encoder = new TextEncoder()
const decoder = new TextDecoder()

// One class, no quantifier: a single linear scan that stops at the first wide character.
const wide = /[^\x00-\xff]/

/** `text`, as a flat one-byte string when every character fits in one byte. */
export const compact = (text: string): string => (wide.test(text) ? text : decoder.decode(encoder.encode(text)))
