/**
 * How human output is laid out on the terminal it goes to: whether it is coloured (only on a TTY, never with
 * `NO_COLOR`; `FORCE_COLOR` forces it off a TTY, but `NO_COLOR` still wins) and how wide it wraps (the terminal's
 * width, `COLUMNS` when set, no wrapping when the output is not a terminal). Styles are added to text that was
 * already neutralised, so remote text can never bring its own.
 */

/** The look of one output stream. */
export interface Look {
  readonly colour: boolean
  /** The wrapping width; `undefined` when the output is not a terminal and COLUMNS is not set. */
  readonly width: number | undefined
}

/** The look of an output stream from its TTY state and the environment. */
export const look = (
  stream: { readonly isTTY?: boolean | undefined; readonly columns?: number | undefined },
  env: Readonly<Record<string, string | undefined>>
): Look => {
  const noColour = env.NO_COLOR !== undefined && env.NO_COLOR !== ""
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0"
  const columns = /^\d{1,4}$/.test(env.COLUMNS ?? "") ? Number(env.COLUMNS) : undefined
  const width = columns ?? (stream.isTTY === true ? stream.columns : undefined)
  return {
    colour: !noColour && (stream.isTTY === true || forced) && env.TERM !== "dumb",
    width: width !== undefined && width >= 20 ? width : undefined
  }
}

const codes = { bold: "1", dim: "2", red: "31", green: "32", yellow: "33", cyan: "36" } as const

/** `text` in a style when colour is on. */
export const style = (look: Look, name: keyof typeof codes, text: string): string =>
  look.colour && text.length > 0 ? `\u001b[${codes[name]}m${text}\u001b[0m` : text

/** The visible length of a line: it holds no escape of its own when it is measured (styles come after). */
const length = (text: string): number => [...text].length

/**
 * Wraps one line at spaces to `width`, continuing with `indent`. A word longer than the width stays whole on its
 * own line (a URL is never cut). Linear in the line.
 */
export const wrapLine = (line: string, width: number | undefined, indent = ""): Array<string> => {
  if (width === undefined || length(line) <= width) return [line]
  const lead = /^\s*/.exec(line)?.[0] ?? ""
  const words = line.slice(lead.length).split(" ")
  const out: Array<string> = []
  let current = lead
  let currentLength = length(lead)
  let fresh = true
  for (const word of words) {
    const wordLength = length(word)
    if (!fresh && currentLength + 1 + wordLength > width) {
      out.push(current)
      current = indent + word
      currentLength = length(indent) + wordLength
    } else {
      current = fresh ? current + word : `${current} ${word}`
      currentLength += (fresh ? 0 : 1) + wordLength
    }
    fresh = false
  }
  out.push(current)
  return out
}

// Markdown lines that wrapping would break: code (fenced or indented), tables, headings and link definitions.
const keepWhole = (line: string): boolean => /^(\s{4}|\t|\||#|\[[^\]]*\]:)/.test(line)

/**
 * Wraps page content (Markdown) to `width`, leaving code blocks, tables and headings as they are.
 */
export const wrapContent = (content: string, width: number | undefined): string => {
  if (width === undefined) return content
  let fenced = false
  const out: Array<string> = []
  for (const line of content.split("\n")) {
    if (line.trimStart().startsWith("```")) fenced = !fenced
    if (fenced || keepWhole(line) || line.trimStart().startsWith("```")) out.push(line)
    else {
      const bullet = /^\s*(?:[-*+]|\d{1,9}[.)])\s+/.exec(line)?.[0] ?? ""
      out.push(...wrapLine(line, width, " ".repeat(bullet.length)))
    }
  }
  return out.join("\n")
}
