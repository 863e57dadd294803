/**
 * What an error may quote of text a remote party wrote (a provider's error message, a content type, an engine
 * list): a short, control-free excerpt. A provider's endpoint may be anything a user set (a workspace admin's
 * `apiHost`), so whatever answers there is treated as hostile: its words are cleaned of the call's secrets in every
 * form, its control and format characters (terminal escapes, bidirectional overrides, zero-width characters) and
 * white space folded to single spaces, and it is cut short, the cut marked with "...".
 */
import * as Redaction from "@websearch/core/internal/redaction"

/** The most characters an excerpt has, the "..." of a cut included. */
export const maxChars = 160

// One character class repeated: linear in the text, whatever it holds.
const noise = /[\s\p{Cc}\p{Cf}]+/gu

/** Cuts to at most `max` UTF-16 units without splitting a surrogate pair. */
const cut = (text: string, max: number): string => {
  const end = text.charCodeAt(max - 1) >= 0xd800 && text.charCodeAt(max - 1) <= 0xdbff ? max - 1 : max
  return text.slice(0, end)
}

/**
 * The excerpt of `text`, with `secrets` (each in every form `Redaction.forms` gives) removed first, so a cut never
 * leaves part of one behind.
 */
export const excerpt = (text: string, secrets: ReadonlyArray<string>): string => {
  const clean = Redaction.scrub(text, secrets).replace(noise, " ").trim()
  return clean.length > maxChars ? `${cut(clean, maxChars - 3)}...` : clean
}
