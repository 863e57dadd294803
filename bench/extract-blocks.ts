/**
 * Development helper for the container choice: for each trafilatura-eval page with a missed `with` segment, where
 * the page's `with` segments sit (the lowest element holding all of them found in the page) against the block
 * Readability picked, classed as `inside` (Readability's block is inside the right one: too small), `outside`
 * (it holds the right one and more), `apart` (another block), `same`, or `absent` (the segments are not in the
 * page's text at all).
 *
 *   node --conditions=@websearch/source --import tsx bench/extract-blocks.ts --details FILE [--every N] [--offset K]
 *
 * FILE is the `--out` of bench/extract-iter.ts.
 */
import { Readability } from "@mozilla/readability"
import * as Charset from "../packages/extract/src/internal/charset.js"
import * as MainContent from "../packages/extract/src/MainContent.js"
import * as BlankRuns from "../packages/extract/src/internal/blankRuns.js"
import * as HtmlDocument from "../packages/extract/src/internal/htmlDocument.js"
import * as TrafilaturaEval from "../test-support/trafilaturaEval.js"
import { at, flatten, lca, norm, options } from "./support/segments.js"

const { details, every, offset } = options()

const describe = (node: Node | undefined): string => {
  if (node === undefined) return "-"
  const el = node as Element
  if (el.nodeType !== 1) return node.nodeName
  const cls = (el.getAttribute("class") ?? "").slice(0, 40)
  const id = el.getAttribute("id") ?? ""
  return `${el.localName}${id ? "#" + id : ""}${cls ? "." + cls.replace(/\s+/g, ".") : ""}`
}

const contains = (a: Node, b: Node): boolean => {
  for (let n: Node | null = b; n !== null; n = n.parentNode) if (n === a) return true
  return false
}

const classes: Record<string, number> = {}
const pages = (TrafilaturaEval.load() ?? []).filter((_, i) => i % every === offset % every)
for (const page of pages) {
  const d = details[`t:${page.name}`]
  if (d === undefined || d.missed.length === 0) continue
  const html = BlankRuns.dropBetweenBlocks(MainContent.stripInert(Charset.decode(page.bytes, "text/html").text))
  const doc = HtmlDocument.parse(html)
  if (doc.body === null) continue
  let i = 0
  for (const el of Array.from(doc.body.querySelectorAll("*"))) el.setAttribute("data-wsi", String(i++))
  const pristine = HtmlDocument.parse(doc.documentElement.outerHTML)
  const flat = flatten(pristine.body)
  // The lowest element holding every `with` segment found in the page.
  let ideal: Node | undefined
  let found = 0
  for (const segment of page.with) {
    const pos = flat.text.indexOf(norm(segment))
    if (pos < 0) continue
    found++
    const a = flat.nodes[at(flat.starts, pos)]
    const b = flat.nodes[at(flat.starts, pos + norm(segment).length - 1)]
    const here = lca(a, b)
    ideal = ideal === undefined ? here : lca(ideal, here)
  }
  const missedInPage = d.missed.filter((s) => flat.text.includes(norm(s))).length
  // Readability's pick, mapped back to the pristine page through the tags.
  for (const root of [doc.documentElement, doc.body]) {
    for (const attr of ["class", "id", "style", "hidden", "aria-hidden"]) root.removeAttribute(attr)
  }
  const parsed = new Readability<Element>(doc, { serializer: (n) => n as Element, keepClasses: true }).parse()
  let pick: Node | undefined
  if (parsed?.content) {
    for (const el of Array.from(parsed.content.querySelectorAll("[data-wsi]"))) {
      if (el.parentElement?.closest("[data-wsi]")) continue
      const twin = pristine.querySelector(`[data-wsi="${el.getAttribute("data-wsi")}"]`)
      if (twin === null) continue
      pick = pick === undefined ? twin : lca(pick, twin)
    }
  }
  const cls =
    missedInPage === 0
      ? "absent"
      : pick === undefined
        ? "none"
        : ideal === undefined
          ? "absent"
          : pick === ideal
            ? "same"
            : contains(ideal, pick)
              ? "inside"
              : contains(pick, ideal)
                ? "outside"
                : "apart"
  classes[cls] = (classes[cls] ?? 0) + 1
  console.log(
    [
      cls,
      page.name,
      `missed ${d.missed.length} (in page ${missedInPage}) found ${found}/${page.with.length} kept ${d.kept.length}`,
      `ideal ${describe(ideal)} (${ideal ? norm(ideal.textContent ?? "").length : 0})`,
      `pick ${describe(pick)} (${pick ? norm(pick.textContent ?? "").length : 0})`
    ].join("\t")
  )
}
console.log(classes)
