/**
 * The inline elements: their text belongs to the block around them. Shared by the walks that weigh blocks by their
 * own text (our main-block score, the lead paragraphs Readability leaves out).
 */
export const inlineTags: ReadonlySet<string> = new Set([
  "a",
  "abbr",
  "b",
  "bdi",
  "bdo",
  "br",
  "cite",
  "code",
  "data",
  "dfn",
  "em",
  "font",
  "i",
  "img",
  "kbd",
  "mark",
  "q",
  "s",
  "samp",
  "small",
  "span",
  "strong",
  "sub",
  "sup",
  "time",
  "u",
  "var"
])
