/**
 * Where a trafilatura-eval segment sits in a parsed page, for the diagnosis helpers (extract-blocks, extract-kept):
 * the page's text flattened as the segments are normalised, and the lowest element holding a stretch of it.
 */
import { readFileSync } from "node:fs"

/** Whitespace runs as one space, trimmed: how segments and texts are compared. */
export const norm = (s: string) => s.replace(/\s+/g, " ").trim()

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i > 0 ? process.argv[i + 1] : undefined
}

/** `--every N --offset K --details FILE` (FILE: the `--out` of bench/extract-iter.ts). */
export const options = () => ({
  every: Number(arg("--every") ?? "1"),
  offset: Number(arg("--offset") ?? "0"),
  details: JSON.parse(readFileSync(arg("--details")!, "utf8")) as Record<
    string,
    { missed: Array<string>; kept: Array<string> }
  >
})

/** Text nodes in order, their normalised text joined, and where each starts. */
export const flatten = (root: Element) => {
  const nodes: Array<Text> = []
  const starts: Array<number> = []
  let text = ""
  const walker = root.ownerDocument.createTreeWalker(root, 4)
  for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
    const t = (n as Text).data.replace(/\s+/g, " ")
    if (t.trim() === "") continue
    let parent = n.parentElement
    let skip = false
    for (; parent !== null; parent = parent.parentElement) {
      const name = parent.localName
      if (name === "script" || name === "style" || name === "noscript" || name === "template") skip = true
    }
    if (skip) continue
    if (text !== "" && !text.endsWith(" ")) text += " "
    nodes.push(n as Text)
    starts.push(text.length)
    text += t.trimStart()
  }
  return { nodes, starts, text }
}

export const at = (starts: Array<number>, pos: number): number => {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid] <= pos) lo = mid
    else hi = mid - 1
  }
  return lo
}

const ancestors = (node: Node): Array<Node> => {
  const out: Array<Node> = []
  for (let n: Node | null = node; n !== null; n = n.parentNode) out.push(n)
  return out.reverse()
}

export const lca = (a: Node, b: Node): Node => {
  const x = ancestors(a)
  const y = ancestors(b)
  let i = 0
  while (i < x.length && i < y.length && x[i] === y[i]) i++
  return x[i - 1]
}
