/**
 * Captions and photo credits set as plain blocks (not `figcaption`, no caption class): a short block that opens
 * with a figure, source or credit label ("Abbildung 4:", "Foto:", "Titelbild:", "Photo:", "Quelle:", "Source:",
 * "Crédits photos :") or that ends with a credit in parentheses ("(Foto: Getty)", "(crédito: …)", "(REUTERS/Denis
 * Balibouse)"). A paragraph's own source tag ("… sagte er. (dpa)") has no photographer after the agency, and
 * stays. Anchored tests on at most 300 characters: linear.
 */
import { mayStart, type Rule, startSet } from "./boilerplate.js"

const label =
  /^(?:abbildung|abb\.|bild|bilder|foto|fotos|titelbild|titelfoto|grafik|photo|photos|image|figure|fig\.|imagen|zdjęcie|fot\.|quelle|bildquelle|source|fuente|źródło|crédits? photos?)\s*\d{0,3}\s*:/iu

const credit =
  /\((?:foto|fotos|photo|photos|bild|bildquelle|crédito|credito|credit|créditos|fuente|quelle|source|image|imagen|fot\.)\s*:[^()]{1,80}\)?\s*$|\((?:reuters|afp|dpa|ap|epa|efe|getty images|getty|imago|ansa|anadolu)\s*\/[^()]{1,60}\)\s*$/iu

// What a {@link label} starts with besides "ź": "abbildung", "bild", "foto", "titelbild", "grafik", "photo", …
const labelStarts = startSet("abcfgipqstz")

const blockNames = new Set(["p", "div", "span", "small", "em", "i", "P", "DIV"])

/** A caption or photo credit in a plain block (see the module comment), unless the caller keeps captions. */
export const creditRule: Rule = (element, facts) => {
  if (facts.context.keepCaptions || facts.stats.text === 0 || facts.stats.text > 200) return false
  if (facts.stats.embed || !blockNames.has(element.localName)) return false
  if (mayStart(facts.first(), labelStarts) && label.test(facts.head())) return true
  // A credit ends the block with ")": looked for in its last text first, so most blocks are not read in full.
  return endsWithParen(element) && credit.test(facts.text())
}

const TEXT = 3

/** Whether the last non-blank text at the end of `element` (down its last children, at most 20 levels) ends in ")". */
const endsWithParen = (element: Element): boolean => {
  let node: Node | null = element.lastChild
  for (let level = 0; node !== null && level < 20; level++) {
    if (node.nodeType === TEXT) {
      const data = (node as CharacterData).data.trimEnd()
      if (data !== "") return data.endsWith(")")
      node = node.previousSibling
      continue
    }
    node = node.lastChild ?? node.previousSibling
  }
  return false
}
