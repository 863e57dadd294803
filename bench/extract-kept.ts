/**
 * Development helper for precision: for each `without` segment our extraction kept on a trafilatura-eval page,
 * where it sits in our output against the page's `with` segments (`top`: before the first, `end`: after the last,
 * `mid`: between them), and in the page as parsed: the lowest element holding it, its ancestors' tags and
 * class/id words, and the link share of its nearest block.
 *
 *   node --conditions=@websearch/source --import tsx bench/extract-kept.ts --details FILE [--every N] [--offset K]
 *
 * FILE is the `--out` of bench/extract-iter.ts.
 */
import * as Charset from "../packages/extract/src/internal/charset.js"
import * as MainContent from "../packages/extract/src/MainContent.js"
import * as BlankRuns from "../packages/extract/src/internal/blankRuns.js"
import * as HtmlDocument from "../packages/extract/src/internal/htmlDocument.js"
import * as TrafilaturaEval from "../test-support/trafilaturaEval.js"
import { ours } from "./extract.js"
import { at, flatten, lca, norm, options } from "./support/segments.js"

const { details, every, offset } = options()

const describe = (node: Node | null): string => {
  if (node === null) return "-"
  const el = node as Element
  if (el.nodeType !== 1) return node.nodeName
  const cls = (el.getAttribute("class") ?? "").slice(0, 30)
  const id = (el.getAttribute("id") ?? "").slice(0, 20)
  return `${el.localName}${id ? "#" + id : ""}${cls ? "." + cls.trim().replace(/\s+/g, ".") : ""}`
}

const inline = new Set(["a", "span", "strong", "b", "em", "i", "small", "time", "abbr", "font", "u", "sup", "sub"])

const linkShare = (el: Element): string => {
  const all = norm(el.textContent ?? "").length
  let links = 0
  for (const a of Array.from(el.querySelectorAll("a"))) links += norm(a.textContent ?? "").length
  return `${all}c ${all === 0 ? 0 : Math.round((links / all) * 100)}%L`
}

const counts: Record<string, number> = {}
const pages = (TrafilaturaEval.load() ?? []).filter((_, i) => i % every === offset % every)
for (const page of pages) {
  const d = details[`t:${page.name}`]
  if (d === undefined || d.kept.length === 0) continue
  const out = norm(TrafilaturaEval.plainText(ours(page)))
  const withPos = page.with.map((s) => out.indexOf(norm(s))).filter((p) => p >= 0)
  const firstWith = Math.min(...withPos)
  const lastWith = Math.max(...withPos)
  const html = BlankRuns.dropBetweenBlocks(MainContent.stripInert(Charset.decode(page.bytes, "text/html").text))
  const doc = HtmlDocument.parse(html)
  if (doc.body === null) continue
  const flat = flatten(doc.body)
  for (const segment of d.kept) {
    const s = norm(segment)
    const p = out.indexOf(s)
    const where = withPos.length === 0 ? "nowith" : p < firstWith ? "top" : p > lastWith ? "end" : "mid"
    counts[where] = (counts[where] ?? 0) + 1
    const pos = flat.text.indexOf(s)
    let dom = "notinpage"
    if (pos >= 0) {
      const a = flat.nodes[at(flat.starts, pos)]
      const b = flat.nodes[at(flat.starts, pos + s.length - 1)]
      let here: Node | null = lca(a, b)
      if (here.nodeType === 3) here = here.parentNode
      let block = here as Element
      while (block.parentElement !== null && inline.has(block.localName)) block = block.parentElement
      const chain: Array<string> = []
      for (let n: Element | null = block, k = 0; n !== null && k < 5; n = n.parentElement, k++) chain.push(describe(n))
      dom = `${describe(here)} | ${linkShare(block)} | ${chain.join(" < ")}`
    }
    console.log(
      [
        where,
        `${Math.round((p / Math.max(1, out.length)) * 100)}%`,
        page.name.slice(0, 40),
        JSON.stringify(s.slice(0, 80)),
        dom
      ].join("\t")
    )
  }
}
console.log(counts)
