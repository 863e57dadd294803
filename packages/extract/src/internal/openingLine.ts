/**
 * What a block's first line says it is, for the section pass: a cookie or consent banner ("We use cookies ..."), a
 * copyright or citation line ("© 2025 Acme Inc."), or anything else. Read on the first 300 characters of the block's
 * first text, once per text however many ancestors start with it.
 */
import { legalLine } from "./boilerplateRules.js"

/** A cookie or consent banner holds at most this many characters of text ... */
export const maxConsentChars = 2000
/** ... and less than this share of the page's ... */
export const maxConsentShare = 0.5
/** ... and starts with a line about cookies. */
const consentLine =
  /\b(?:we use|we and our partners use|this (?:web)?site uses|uses?) cookies\b|\bcookies? (?:consent|settings|preferences|policy|notice|banner)\b|\bmanage (?:cookies|cookie|consent|privacy)\b|\b(?:privacy|consent) (?:settings|preferences|center|centre)\b/i

/** A copyright line ("© 2025 Acme. All rights reserved.") holds at most this many characters with what is beside it. */
export const maxLegalChars = 200

/** What a block's first text opens: a cookie banner, a copyright or citation line, or anything else. */
export type Opening = "consent" | "legal" | "other"

// A copyright line opens with the sign, dates itself or reserves rights: a card titled "Copyright registration" is a
// service's own.
const legalMark = /\b(?:19|20)\d\d\b|rights reserved|rechte vorbehalten/i

const isLegal = (head: string): boolean => legalLine.test(head) && (head.startsWith("©") || legalMark.test(head))

/** What the first text of a block opens. */
export const opening = (text: Node): Opening => {
  const head = (text as CharacterData).data.slice(0, 300)
  return consentLine.test(head) ? "consent" : isLegal(head.trimStart()) ? "legal" : "other"
}
