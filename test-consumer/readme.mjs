// What the consumer test reads out of README.md, so that the README and the test cannot drift: every `npm install`
// line of its sh blocks (run as they are, the tarballs in place of the @websearch packages) and every ts block (each
// type-checked as a module of its own, named after the section it is in).
import { readFileSync } from "node:fs"

const fence = /^```(\w*)\s*$/

/** The fenced blocks of a markdown text: language, code, the line they start on and the `##` section they are in. */
const blocksOf = (text) => {
  const lines = text.split("\n")
  const blocks = []
  let section = ""
  for (let i = 0; i < lines.length; i++) {
    const heading = /^## (.+)$/.exec(lines[i])
    if (heading !== null) section = heading[1].trim()
    const open = fence.exec(lines[i])
    if (open === null) continue
    const start = i + 1
    let end = start
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++
    if (end === lines.length) throw new Error(`README.md line ${i + 1}: a code block that is never closed`)
    blocks.push({ language: open[1], section, line: start + 1, lines: lines.slice(start, end) })
    i = end
  }
  return blocks
}

// Only plain words: a README install line with shell syntax would be run differently here than in a shell.
const plainWord = /^[A-Za-z0-9@/^~.=_:,+-]+$/

/** The `npm install` commands of the sh blocks, with backslash continuations joined and comments dropped. */
const installsOf = (blocks) => {
  const installs = []
  for (const block of blocks.filter((b) => b.language === "sh" || b.language === "bash")) {
    for (let i = 0; i < block.lines.length; i++) {
      const line = block.line + i
      let text = block.lines[i]
      while (text.endsWith("\\") && i + 1 < block.lines.length) text = `${text.slice(0, -1)} ${block.lines[++i]}`
      const command = text.replace(/(^|\s)#.*$/, "").trim()
      const words = command.split(/\s+/)
      if (words[0] !== "npm" || words[1] !== "install") continue
      const odd = words.filter((word) => !plainWord.test(word))
      if (odd.length > 0)
        throw new Error(`README.md line ${line}: not a plain word in an install line: ${odd.join(" ")}`)
      installs.push({ line, text: command, words })
    }
  }
  return installs
}

const slug = (section) =>
  section
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40)
    .replace(/-$/, "")

/**
 * The ts blocks, each with a file name: the one its first line names (`// intranet.ts — …`, so that another block
 * can import it as `./intranet.js`), else its place and section (`03-composing-the-layers.ts`, a `-2` for a
 * section's second block).
 */
const tsBlocksOf = (blocks) => {
  const seen = new Map()
  const named = new Set()
  return blocks
    .filter((b) => b.language === "ts" || b.language === "typescript")
    .map((block, index) => {
      const base = `${String(index + 1).padStart(2, "0")}-${slug(block.section) || "top"}`
      const count = (seen.get(block.section) ?? 0) + 1
      seen.set(block.section, count)
      const own = /^\/\/ ([a-z][a-z0-9-]*\.ts)\b/.exec(block.lines[0] ?? "")?.[1]
      if (own !== undefined && named.has(own)) throw new Error(`README: two ts blocks are named ${own}`)
      if (own !== undefined) named.add(own)
      return {
        file: own ?? `${base}${count > 1 ? `-${count}` : ""}.ts`,
        section: block.section,
        line: block.line,
        code: `${block.lines.join("\n")}\n`
      }
    })
}

export const Readme = {
  /** Reads README.md: its install lines and its ts blocks. */
  read: (path) => {
    const blocks = blocksOf(readFileSync(path, "utf8"))
    return { installs: installsOf(blocks), blocks: tsBlocksOf(blocks) }
  },
  /** The workspace package an install word names (`@websearch/core`, `@websearch/cli@1.2.3`), else undefined. */
  websearchPackage: (word) => /^(@websearch\/[a-z0-9-]+)(@.*)?$/.exec(word)?.[1]
}
