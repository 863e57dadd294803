/**
 * The command line's tokens (issue 36): `-` is one operand among the others wherever it stands, an option's value
 * is never taken for one, and a mistyped option or command names the nearest known one (and only a near one).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Cli from "../src/internal/cli.js"
import * as Grammar from "../src/internal/grammar.js"
import * as Suggest from "../src/internal/suggest.js"

// An operand as typed: not an option, never holding a NUL (a process argument cannot).
const word = FastCheck.string({ minLength: 1, maxLength: 12 }).filter(
  (w) => !w.startsWith("-") && !w.includes("\u0000") && w.trim().length > 0
)
// Words `@effect/cli` reads as a boolean's value when they follow a switch (`search -q yes` searched nothing).
const booleanWord = FastCheck.constantFrom("true", "1", "y", "yes", "on", "false", "0", "n", "no", "off")
const operand = FastCheck.oneof(FastCheck.constant("-"), booleanWord, word)

describe("'-' among options", () => {
  it("an operand that starts with a dash after white space stays an operand (the parser trims what it reads)", () => {
    const parsed = Cli.parse(["search", "--max-results", "1", " - !", "-", "\t-x"])
    if (Either.isLeft(parsed)) throw new Error(parsed.left.message)
    expect(parsed.right).toMatchObject({ _tag: "Search", keywords: [" - !", "-", "\t-x"], maxResults: 1 })
  })

  it.prop(
    "search's operands keep their order whatever options stand between them; the options keep their values",
    [
      FastCheck.array(operand, { minLength: 1, maxLength: 6 }),
      FastCheck.integer({ min: 1, max: 50 }),
      FastCheck.boolean(),
      FastCheck.boolean(),
      FastCheck.nat()
    ],
    ([operands, max, quiet, json, seed]) => {
      const options: Array<ReadonlyArray<string>> = [["--max-results", String(max)], ...(quiet ? [["-q"]] : [])]
      if (json) options.push(["--json"])
      // Each option lands before some operand, or after all of them.
      const argv: Array<string> = []
      const at = options.map((_, i) => (seed + i * 7) % (operands.length + 1))
      operands.forEach((o, i) => {
        options.forEach((option, j) => (at[j] === i ? argv.push(...option) : undefined))
        argv.push(o)
      })
      options.forEach((option, j) => (at[j] === operands.length ? argv.push(...option) : undefined))
      const parsed = Cli.parse(["search", ...argv])
      if (Either.isLeft(parsed)) throw new Error(`${JSON.stringify(argv)}: ${parsed.left.message}`)
      expect(parsed.right).toMatchObject({ _tag: "Search", keywords: operands, maxResults: max, quiet, json })
    }
  )

  it("a '-' after an option that takes a value is that value; after '--' every token is an operand", () => {
    expect(Cli.parse(["fetch", "--provider", "-", "-", "--json"])).toMatchObject({
      right: { _tag: "Fetch", provider: "-", urls: ["-"], json: true }
    })
    expect(Cli.parse(["fetch", "--provider=-", "-"])).toMatchObject({ right: { provider: "-", urls: ["-"] } })
    expect(Cli.parse(["search", "--", "-", "x"])).toMatchObject({ right: { keywords: ["-", "x"] } })
  })

  it("a word spelling a boolean after a switch is an operand; a switch given a value is a usage error", () => {
    expect(Cli.parse(["search", "-q", "yes"])).toMatchObject({ right: { quiet: true, keywords: ["yes"] } })
    expect(Cli.parse(["search", "--max-results", "1", "--json", "0"])).toMatchObject({
      right: { json: true, maxResults: 1, keywords: ["0"] }
    })
    for (const token of ["--json=true", "--json=x", "--no-cache=1"]) {
      const name = token.split("=")[0]
      expect(Cli.parse(["search", token, "x"])).toMatchObject({
        left: { message: `${name} takes no value (write ${name} alone)` }
      })
    }
  })
})

const optionNames = [...Grammar.flags.map((flag) => `--${flag.name}`), "--help", "--version"]

// One edit of a name: a deletion, an insertion, a substitution or a swap of neighbours (not of the leading dashes).
const edited = (name: string) =>
  FastCheck.tuple(
    FastCheck.integer({ min: 0, max: 3 }),
    FastCheck.integer({ min: 2, max: 40 }),
    FastCheck.constantFrom(..."abcdefghijklmnopqrstuvwxyz-")
  ).map(([kind, at, c]) => {
    const i = 2 + (at % (name.length - 2))
    switch (kind) {
      case 0:
        return name.slice(0, i) + name.slice(i + 1)
      case 1:
        return name.slice(0, i) + c + name.slice(i)
      case 2:
        return name.slice(0, i) + c + name.slice(i + 1)
      default:
        return i + 1 < name.length ? name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2) : name
    }
  })

describe("did you mean", () => {
  it.prop(
    "one edit of a known option of five or more letters gets a suggestion at most one edit away",
    [
      FastCheck.constantFrom(...optionNames.filter((n) => n.length > 6))
        .chain((name) => FastCheck.tuple(FastCheck.constant(name), edited(name)))
        .filter(([name, typo]) => typo !== name && !optionNames.includes(typo))
    ],
    ([[name, typo]]) => {
      const near = Suggest.nearest(typo, optionNames)
      expect(near).toBeDefined()
      // The name it came from is within reach; the suggestion is it, or another name as near.
      expect(Suggest.nearest(typo, [name])).toBe(name)
      expect(Suggest.nearest(typo, [near!])).toBe(near)
    }
  )

  it.prop(
    "a suggestion is always a known name, never the word itself",
    [FastCheck.string({ maxLength: 20 })],
    ([w]) => {
      const near = Suggest.nearest(w, optionNames)
      if (near !== undefined) {
        expect(optionNames).toContain(near)
        expect(near).not.toBe(w)
      }
    }
  )

  it("the usual slips, and nothing for a word that is not near; a 100k-character word costs no more than a short one", () => {
    expect(Suggest.nearest("--max-result", optionNames)).toBe("--max-results")
    expect(Suggest.nearest("--JSON", optionNames)).toBe("--json")
    expect(Suggest.nearest("serach", Grammar.commandNames)).toBe("search")
    expect(Suggest.nearest("fecth", Grammar.commandNames)).toBe("fetch")
    expect(Suggest.nearest("--zzzzzzzz", optionNames)).toBeUndefined()
    expect(Suggest.nearest("x".repeat(100_000), optionNames)).toBeUndefined()
    expect(Suggest.nearest(`--${"max-results".repeat(10_000)}`, optionNames)).toBeUndefined()
    const refused = Cli.parse(["search", "x", `--${"a".repeat(100_000)}`])
    expect(Either.isLeft(refused) && refused.left.message.startsWith("unknown option --aaa")).toBe(true)
  })
})
