/**
 * Decodes the management routes' bodies (core's `CreateInstance`, `UpdateInstance`, `InstanceCredentials`) into
 * `RequestFailed/invalid_input` errors that name every field at fault. A problem under `credentials` is told by
 * its path and kind only, never with the schema's message, since that may quote the value: a key.
 */
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as ProviderStore from "@websearch/core/ProviderStore"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

// A body of 10^4 bad fields is 10^4 issues; the first few say what is wrong.
const maxIssues = 10
const maxMessage = 200

const secretProblem = (tag: ParseResult.ParseIssue["_tag"]): string => {
  switch (tag) {
    case "Missing":
      return "is required"
    case "Unexpected":
      return "is not a known field"
    default:
      return "must be a non-empty string without control characters (a list of them for apiKeys, at most 64)"
  }
}

/** One readable sentence of every issue, `path: problem`, with secrets' values never quoted. */
export const describe = (error: ParseResult.ParseError, root: string, secret: boolean): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const shown = issues.slice(0, maxIssues).map((issue) => {
    const path = [root, ...issue.path.map(String)].filter((part) => part.length > 0).join(".")
    const underSecret = secret || issue.path[0] === "credentials"
    const message = underSecret
      ? secretProblem(issue._tag)
      : issue.message.length > maxMessage
        ? `${issue.message.slice(0, maxMessage - 3)}...`
        : issue.message
    return `${path || "body"}: ${message}`
  })
  if (issues.length > maxIssues) shown.push(`and ${issues.length - maxIssues} more issues`)
  return shown.join("; ")
}

const decoder = <A, I>(schema: Schema.Schema<A, I>, what: string, root: string, secret: boolean) => {
  const decode = Schema.decodeUnknownEither(schema, { onExcessProperty: "error", errors: "all" })
  return (body: unknown): Effect.Effect<A, WebSearchError.RequestFailed> =>
    typeof body !== "object" || body === null || Array.isArray(body)
      ? Effect.fail(WebSearchError.requestFailed("invalid_input", `invalid ${what}: the body must be a JSON object`))
      : Either.match(decode(body), {
          onLeft: (error) =>
            Effect.fail(
              WebSearchError.requestFailed("invalid_input", `invalid ${what}: ${describe(error, root, secret)}`)
            ),
          onRight: Effect.succeed
        })
}

/** A `POST …/providers` body. */
export const decodeCreate = decoder(ProviderStore.CreateInstance, "provider instance", "", false)

/** A `PATCH …/providers/{id}` body. */
export const decodeUpdate = decoder(ProviderStore.UpdateInstance, "provider instance update", "", false)

/** A `PUT …/providers/{id}/credentials` body. */
export const decodeCredentials = decoder(ProviderInstance.InstanceCredentials, "credentials", "", true)

const decodeWorkspace = Schema.decodeUnknownEither(ProviderInstance.WorkspaceId)
const decodeId = Schema.decodeUnknownEither(ProviderInstance.InstanceId)

/** Whether a path segment is a valid workspace id (an invalid one can be nobody's workspace). */
export const isWorkspace = (value: string): value is ProviderInstance.WorkspaceId =>
  Either.isRight(decodeWorkspace(value))

/** Whether a path segment is a valid instance id (an invalid one can name no instance). */
export const isInstanceId = (value: string): boolean => Either.isRight(decodeId(value))
