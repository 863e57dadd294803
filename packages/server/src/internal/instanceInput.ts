/**
 * The checks of a management route's path segments, and the description of a type's options that fail its
 * schema. The bodies themselves are decoded by core's `ProviderStore.decodeCreateInstance` and friends.
 */
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

// A body of 10^4 bad fields is 10^4 issues; the first few say what is wrong.
const maxIssues = 10
const maxMessage = 200

/**
 * One readable sentence of every issue, `root.path: problem`. The offending value is not quoted (Effect's
 * messages end with `, actual <value>`): a type's options may hold something the caller would not have echoed.
 */
export const describe = (error: ParseResult.ParseError, root: string): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const shown = issues.slice(0, maxIssues).map((issue) => {
    const path = [root, ...issue.path.map(String)].join(".")
    const at = issue.message.indexOf(", actual ")
    const message = at < 0 ? issue.message : issue.message.slice(0, at)
    return `${path}: ${message.length > maxMessage ? `${message.slice(0, maxMessage - 3)}...` : message}`
  })
  if (issues.length > maxIssues) shown.push(`and ${issues.length - maxIssues} more issues`)
  return shown.join("; ")
}

const decodeWorkspace = Schema.decodeUnknownEither(ProviderInstance.WorkspaceId)
const decodeId = Schema.decodeUnknownEither(ProviderInstance.InstanceId)

/** Whether a path segment is a valid workspace id (an invalid one can be nobody's workspace). */
export const isWorkspace = (value: string): value is ProviderInstance.WorkspaceId =>
  Either.isRight(decodeWorkspace(value))

/** Whether a path segment is a valid instance id (an invalid one can name no instance). */
export const isInstanceId = (value: string): boolean => Either.isRight(decodeId(value))
