/**
 * The command line's tokens before `@effect/cli` reads them: where the command word is, the options that are
 * unknown (with the nearest known name) or belong to another command, `--name=value` given as two tokens, and `-`
 * kept an operand. `@effect/cli` takes a token that starts with `-` for an option and reads no option after it, so
 * `fetch - --format markdown` would fetch `--format` and `markdown`; each `-` operand travels as a stand-in instead.
 */
import * as Grammar from "./grammar.js"
import * as Suggest from "./suggest.js"

/** The built-in options every command takes. */
export const builtIns: ReadonlyArray<string> = ["--help", "-h", "--version"]

/**
 * What a `-` operand (standard input) is while `@effect/cli` reads the line. A process argument never holds a NUL,
 * so nothing typed can be mistaken for it.
 */
const stdinOperand = "\u0000-"

/**
 * What an operand that spells a boolean (`yes`, `0`, `off`, …) is while `@effect/cli` reads the line, when it
 * follows an option that takes no value: the parser would take it for that option's value (`search -q yes` searched
 * nothing). A NUL marks it, as for `-`.
 */
const literalOperand = "\u0000="

// What `@effect/cli` reads as a boolean option's value when it follows the option.
const booleanWords: ReadonlySet<string> = new Set(["true", "1", "y", "yes", "on", "false", "0", "n", "no", "off"])

/** The index of the command word: the first token that is neither an option nor an option's value. */
export const commandIndex = (argv: ReadonlyArray<string>): number => {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]
    if (token === "--") return -1
    if (!token.startsWith("-") || token === "-") return i
    const flag = Grammar.flagOf(token)
    if (flag?.value !== undefined && !token.includes("=")) i++
  }
  return -1
}

/** Whether `--format json` is on the line (as two tokens; `--format=json` is one). */
export const hasFormatJson = (argv: ReadonlyArray<string>): boolean =>
  argv.some((token, i) => token === "--format" && argv[i + 1] === "json")

const names = (flags: ReadonlyArray<Grammar.Flag>): Array<string> => [
  ...flags.flatMap((flag) => [`--${flag.name}`, ...(flag.alias === undefined ? [] : [`-${flag.alias}`])]),
  ...builtIns
]

const isOption = (token: string) => token.startsWith("-") && token !== "-"

/** The tokens before `--`, where options are. */
const optionPart = (tokens: ReadonlyArray<string>): ReadonlyArray<string> => {
  const dashDash = tokens.indexOf("--")
  return dashDash === -1 ? tokens : tokens.slice(0, dashDash)
}

/** The usage error for the first option no command knows, naming the nearest known one; none when all are known. */
export const unknownOption = (command: Grammar.CommandName | undefined, tokens: ReadonlyArray<string>) => {
  const unknown = optionPart(tokens).find(
    (token) => isOption(token) && !builtIns.includes(token) && Grammar.flagOf(token) === undefined
  )
  if (unknown === undefined) return undefined
  const typed = unknown.split("=")[0]
  const known = names(command === undefined ? Grammar.flags : Grammar.flagsOf(command))
  const see = command === undefined ? "" : ` (see websearch ${command} --help)`
  return `unknown option ${typed}${Suggest.didYouMean(typed, known)}${see}`
}

/** The usage error for options of other commands, naming them; none when every option applies. */
export const misplacedOptions = (command: Grammar.CommandName, tokens: ReadonlyArray<string>) => {
  const misplaced = optionPart(tokens)
    .map((token) => [token, Grammar.flagOf(token)] as const)
    .filter(([, flag]) => flag !== undefined && flag.commands !== "all" && !flag.commands.includes(command))
    .map(([token]) => token.split("=")[0])
  return misplaced.length === 0 ? undefined : `${[...new Set(misplaced)].join(", ")} does not apply to "${command}"`
}

/** The usage error for a switch given a value (`--json=true`): a switch is on when named, and takes none. */
export const switchWithValue = (tokens: ReadonlyArray<string>) => {
  const given = optionPart(tokens).find((token) => {
    const equals = token.indexOf("=")
    return token.startsWith("--") && equals !== -1 && Grammar.flagOf(token)?.value === undefined
  })
  if (given === undefined) return undefined
  const name = given.slice(0, given.indexOf("="))
  return `${name} takes no value (write ${name} alone)`
}

/**
 * The usage error for a repeatable option given an empty value (`--include ""`, `--include=`): `@effect/cli` drops
 * such a value, which would silently widen the request (no pattern at all), so it is refused by name.
 */
export const emptyRepeatedValue = (tokens: ReadonlyArray<string>) => {
  const part = optionPart(tokens)
  for (let i = 0; i < part.length; i++) {
    const flag = Grammar.flagOf(part[i])
    if (flag?.repeat !== true || flag.value === undefined) continue
    const equals = part[i].indexOf("=")
    const value = equals === -1 ? part[i + 1] : part[i].slice(equals + 1)
    if (value !== undefined && value.trim() === "")
      return `--${flag.name} takes a value (${flag.value}), not an empty one`
    if (equals === -1) i++
  }
  return undefined
}

/** The usage error for a word that is not a command, naming the nearest command. */
export const unknownCommand = (word: string): string => {
  const commands = Grammar.commandNames.filter((name) => name !== "help")
  return `unknown command "${word}"${Suggest.didYouMean(word, Grammar.commandNames, (name) => `"${name}"`)} (commands: ${commands.join(", ")})`
}

/**
 * The tokens as `@effect/cli` is given them: `--name=value` split in two (so an empty value is read as one and
 * refused by name), each `-` that is an operand (not an option's value) replaced by the stand-in, and an operand
 * spelling a boolean right after an option that takes no value, or starting with a dash after white space, marked as
 * an operand.
 */
export const forParser = (tokens: ReadonlyArray<string>): Array<string> => {
  const dashDash = tokens.indexOf("--")
  const out: Array<string> = []
  let valueNext = false
  let afterSwitch = false
  tokens.forEach((token, i) => {
    const operandsOnly = dashDash !== -1 && i > dashDash
    const switchBefore = afterSwitch
    afterSwitch = false
    if (valueNext) {
      valueNext = false
      out.push(token)
      return
    }
    if (token === "-") {
      out.push(stdinOperand)
      return
    }
    if (switchBefore && booleanWords.has(token)) {
      out.push(literalOperand + token)
      return
    }
    // `@effect/cli` trims what it reads, so an operand such as " - x" would turn into an option it does not know
    // and vanish from the operands: it is marked as one, as the boolean words are.
    if (!token.startsWith("-") && token.trimStart().startsWith("-")) {
      out.push(literalOperand + token)
      return
    }
    const flag = operandsOnly ? undefined : Grammar.flagOf(token)
    if (flag !== undefined && flag.value === undefined && !token.includes("=")) afterSwitch = true
    const equals = token.indexOf("=")
    if (flag?.value !== undefined && token.startsWith("--") && equals !== -1) {
      out.push(token.slice(0, equals), token.slice(equals + 1))
      return
    }
    if (flag?.value !== undefined) valueNext = true
    out.push(token)
  })
  return out
}

/** Operands as the parser gave them back, with each stand-in what was typed again. */
export const fromParser = (operands: ReadonlyArray<string>): Array<string> =>
  operands.map((operand) =>
    operand === stdinOperand ? "-" : operand.startsWith(literalOperand) ? operand.slice(literalOperand.length) : operand
  )
