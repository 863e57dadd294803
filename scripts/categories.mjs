// The JSDoc categories of the packages' sources: a short fixed list (the Effect monorepo's kind), and the table that
// maps every category the code has used to one of them.
//
//   node scripts/categories.mjs [files…]          rewrite each `@category` through the table (default: every
//                                                  packages/*/src/**/*.ts); fails, writing nothing, when a category
//                                                  is neither in the list nor in the table. Running it twice is a
//                                                  no-op: every target of the table is in the list.
//   node scripts/categories.mjs --check [files…]  `npm run lint`: fails listing each category outside the list and
//                                                  each export of a public module (not internal/) without @since
//                                                  or without @category (a barrel's re-exports need only @since;
//                                                  each name of `export { a, b } from` needs its own JSDoc, as
//                                                  docgen reads it).
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import ts from "typescript"

/** The categories an export may carry. */
export const CATEGORIES = [
  "accessors", // read a value out of a service or a structure
  "combinators", // take an Effect, a value or a service and return a changed one
  "constants", // fixed values: presets, tool and API definitions, type ids
  "constructors", // make a value or a service implementation
  "encoding", // parse, decode, encode, render and format between representations
  "errors", // error classes and their reasons
  "guards", // predicates and refinements: is / has / checks / classification
  "layers", // Layers
  "models", // types and interfaces of the domain
  "schemas", // Schema values
  "services", // Context tags and their service shapes
  "utils" // everything else that is a plain helper
]

/** Each category used so far → the one of `CATEGORIES` it is now. */
export const MAPPING = {
  ...Object.fromEntries(CATEGORIES.map((category) => [category, category])),
  analysis: "utils",
  api: "constants",
  "key placement": "constructors",
  requests: "constructors",
  augmentation: "combinators",
  budget: "combinators",
  checks: "guards",
  classification: "guards",
  cleaning: "utils",
  compression: "combinators",
  configuration: "utils",
  conversions: "encoding",
  decoding: "encoding",
  extraction: "utils",
  filtering: "combinators",
  formatting: "encoding",
  getters: "accessors",
  groups: "constants",
  headers: "utils",
  human: "encoding",
  json: "encoding",
  keys: "utils",
  loading: "utils",
  lookups: "accessors",
  metadata: "utils",
  "next steps": "utils",
  normalisation: "utils",
  parsing: "encoding",
  policy: "utils",
  "post-processing": "combinators",
  predicates: "guards",
  presets: "constants",
  pricing: "utils",
  ranking: "combinators",
  reasons: "errors",
  redaction: "utils",
  registration: "utils",
  rendering: "encoding",
  rewriters: "combinators",
  running: "utils",
  scoring: "utils",
  security: "utils",
  status: "errors",
  tags: "services",
  tokenizing: "encoding",
  tokens: "utils",
  toolkits: "constants",
  tools: "constants",
  tracing: "combinators",
  tracking: "combinators",
  "type ids": "constants",
  wrappers: "combinators"
}

const root = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")
// One `@category` tag: the name runs to the end of the line or to the comment's close.
const TAG = /(@category[ \t]+)(.+?)([ \t]*(?:\*\/)?[ \t]*)$/gm

/** Every TypeScript source of the packages (packages/*\/src/**\/*.ts), sorted. */
export const sourceFiles = () =>
  readdirSync(Path.join(root, "packages"))
    .flatMap((pkg) => {
      const src = Path.join(root, "packages", pkg, "src")
      try {
        return readdirSync(src, { recursive: true }).map((file) => Path.join(src, String(file)))
      } catch {
        return []
      }
    })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
    .sort()

const relative = (file) => Path.relative(root, file)

/** The category names of a source text, with their line numbers. */
const categoriesOf = (text) =>
  [...text.matchAll(TAG)].map((match) => ({
    name: match[2].trim(),
    line: text.slice(0, match.index).split("\n").length
  }))

const rewrite = (files) => {
  const unknown = []
  const changed = []
  for (const file of files) {
    const text = readFileSync(file, "utf8")
    for (const { line, name } of categoriesOf(text)) {
      if (!(name in MAPPING)) unknown.push(`${relative(file)}:${line}: @category ${name}`)
    }
    const next = text.replace(TAG, (_, tag, name, tail) => `${tag}${MAPPING[name.trim()] ?? name}${tail}`)
    if (next !== text) changed.push([file, next])
  }
  if (unknown.length > 0) {
    console.error("categories: not in the list nor in the mapping table (scripts/categories.mjs):")
    for (const line of unknown) console.error(`  ${line}`)
    return 1
  }
  for (const [file, next] of changed) writeFileSync(file, next)
  console.log(`categories: ${changed.length} file(s) rewritten`)
  return 0
}

/** The `/** … *\/` comment just before a node, if any. */
const jsDocBefore = (text, node) => {
  // Line comments may sit between the JSDoc and the node (`// eslint-disable-next-line …`).
  const ranges = (ts.getLeadingCommentRanges(text, node.pos) ?? []).filter(
    (range) => range.kind === ts.SyntaxKind.MultiLineCommentTrivia
  )
  const last = ranges.at(-1)
  if (!last) return undefined
  const comment = text.slice(last.pos, last.end)
  return comment.startsWith("/**") ? comment : undefined
}

const isExported = (node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)

const nameOf = (node) => {
  if (ts.isVariableStatement(node)) return node.declarationList.declarations.map((d) => d.name.getText()).join(", ")
  return node.name?.getText() ?? "(anonymous)"
}

/** The exports of a public module without @since or @category. */
const missingTags = (file, text) => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const problems = []
  const seen = new Set()
  const barrel = Path.basename(file) === "index.ts"
  for (const node of source.statements) {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
    if (ts.isExportDeclaration(node)) {
      if (node.exportClause && ts.isNamedExports(node.exportClause)) {
        // `export { a, b } from "./X.js"`: docgen documents each name from its own comment, not the statement's.
        for (const element of node.exportClause.elements) {
          const doc = jsDocBefore(text, element) ?? ""
          const missing = ["@since", "@category"].filter((tag) => !new RegExp(`${tag}\\b`).test(doc))
          if (missing.length > 0) {
            const at = source.getLineAndCharacterOfPosition(element.getStart(source)).line + 1
            problems.push(`${relative(file)}:${at}: re-export ${element.name.text} without ${missing.join(" and ")}`)
          }
        }
        continue
      }
      // `export * as X from "./X.js"`: the barrel's entry for module X.
      const doc = jsDocBefore(text, node)
      if (!doc || !/@since\b/.test(doc)) problems.push(`${relative(file)}:${line}: re-export without @since`)
      continue
    }
    if (!isExported(node)) continue
    const name = nameOf(node)
    // Overloads and a namespace merged with a class or function share the first declaration's JSDoc.
    if (seen.has(name)) continue
    seen.add(name)
    const doc = jsDocBefore(text, node) ?? ""
    const missing = ["@since", ...(barrel ? [] : ["@category"])].filter((tag) => !new RegExp(`${tag}\\b`).test(doc))
    if (missing.length > 0) problems.push(`${relative(file)}:${line}: export ${name} without ${missing.join(" and ")}`)
  }
  return problems
}

const check = (files) => {
  const allowed = new Set(CATEGORIES)
  const problems = []
  for (const file of files) {
    const text = readFileSync(file, "utf8")
    for (const { line, name } of categoriesOf(text)) {
      if (!allowed.has(name)) {
        const hint = MAPPING[name] ? ` (node scripts/categories.mjs makes it ${MAPPING[name]})` : ""
        problems.push(`${relative(file)}:${line}: @category ${name} is not one of the list${hint}`)
      }
    }
    if (!file.split(Path.sep).includes("internal")) problems.push(...missingTags(file, text))
  }
  if (problems.length > 0) {
    console.error(`categories: ${problems.length} problem(s); the list is: ${CATEGORIES.join(", ")}`)
    for (const problem of problems) console.error(`  ${problem}`)
    return 1
  }
  console.log(`categories: ${files.length} file(s) checked`)
  return 0
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2)
  const checking = args.includes("--check")
  const given = args.filter((arg) => arg !== "--check").map((file) => Path.resolve(file))
  const files = given.length > 0 ? given : sourceFiles()
  process.exit(checking ? check(files) : rewrite(files))
}
