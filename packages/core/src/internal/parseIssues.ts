/**
 * One readable sentence from a schema decoding failure, for `invalid_input` and `invalid_config` messages:
 * every issue as `path: message`, without the noise of optional fields' `undefined` alternative, and with
 * long offending values shortened so a message never echoes a whole oversized input.
 */
import * as ParseResult from "effect/ParseResult"

const maxValue = 80

// A request of 10^5 wrongly typed items has 10^5 issues; the first few say what is wrong, the rest is noise.
const maxIssues = 10

// A refinement's own message may quote the whole value (`"<value>" is not a domain name`), so every issue is
// bounded too, not only the "actual" part.
const maxMessage = 300

const shorten = (message: string): string => {
  const short = message.replace(/actual ([\s\S]*)$/, (whole, value: string) =>
    value.length > maxValue ? `actual ${value.slice(0, maxValue - 3)}... (${value.length} characters)` : whole
  )
  return short.length > maxMessage ? `${short.slice(0, maxMessage - 3)}... (${short.length} characters)` : short
}

/**
 * Formats a decoding failure; `root` names the whole value when an issue has an empty path, and every other path
 * is `root.path` when `nested` is set (a provider's options inside `providers.<id>`).
 */
export const format = (error: ParseResult.ParseError, root: string, nested = false): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
    // A key may be a symbol, which `join` cannot convert.
    path:
      issue.path.length === 0
        ? root
        : nested
          ? `${root}.${issue.path.map(String).join(".")}`
          : issue.path.map(String).join("."),
    message: shorten(issue.message)
  }))
  // An optional or nullable field reports its real problems and also "Expected undefined" or "Expected null";
  // those add nothing.
  const useful = issues.filter(
    (issue) =>
      !/^Expected (undefined|null),/.test(issue.message) ||
      !issues.some((o) => o !== issue && (o.path === issue.path || o.path.startsWith(`${issue.path}.`)))
  )
  const shown = useful.slice(0, maxIssues).map((issue) => `${issue.path}: ${issue.message}`)
  if (useful.length > maxIssues) shown.push(`and ${useful.length - maxIssues} more issues`)
  return shown.join("; ")
}
