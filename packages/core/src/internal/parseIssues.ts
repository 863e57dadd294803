/**
 * One readable sentence from a schema decoding failure, for `invalid_input` and `invalid_config` messages:
 * every issue as `path: message`, without the noise of optional fields' `undefined` alternative, and with
 * long offending values shortened so a message never echoes a whole oversized input.
 */
import * as ParseResult from "effect/ParseResult"

const maxValue = 80

const shorten = (message: string): string =>
  message.replace(/actual ([\s\S]*)$/, (whole, value: string) =>
    value.length > maxValue ? `actual ${value.slice(0, maxValue - 3)}... (${value.length} characters)` : whole
  )

/** Formats a decoding failure; `root` names the whole value when an issue has an empty path. */
export const format = (error: ParseResult.ParseError, root: string): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
    path: issue.path.length > 0 ? issue.path.join(".") : root,
    message: shorten(issue.message)
  }))
  // An optional or nullable field reports its real problems and also "Expected undefined" or "Expected null";
  // those add nothing.
  const useful = issues.filter(
    (issue) =>
      !/^Expected (undefined|null),/.test(issue.message) ||
      !issues.some((o) => o !== issue && (o.path === issue.path || o.path.startsWith(`${issue.path}.`)))
  )
  return useful.map((issue) => `${issue.path}: ${issue.message}`).join("; ")
}
