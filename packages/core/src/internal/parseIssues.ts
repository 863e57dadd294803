/**
 * One readable sentence from a schema decoding failure, for `invalid_input` and `invalid_config` messages:
 * every issue as `path: message`, without the noise of optional fields' `undefined` alternative, and with
 * long offending values shortened so a message never echoes a whole oversized input.
 */
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as AST from "effect/SchemaAST"

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

// --- requests: the API's own words ----------------------------------------------------------------------------

type Found = { readonly path: ReadonlyArray<PropertyKey>; readonly message: string }

// What a value of this schema is, as a noun phrase a JSON caller understands (never an Effect type name).
const noun = (ast: AST.AST): string => {
  switch (ast._tag) {
    case "StringKeyword":
    case "TemplateLiteral":
      return "a string"
    case "NumberKeyword":
      return "a number"
    case "BooleanKeyword":
      return "true or false"
    case "Literal":
      return JSON.stringify(ast.literal)
    case "Enums":
      return `one of ${ast.enums.map(([, value]) => JSON.stringify(value)).join(", ")}`
    case "TupleType":
      return "a list"
    case "TypeLiteral":
      return "an object"
    case "Union": {
      const members = ast.types.filter((member) => member._tag !== "UndefinedKeyword")
      return members.every((member) => member._tag === "Literal")
        ? `one of ${members.map((member) => noun(member)).join(", ")}`
        : Array.from(new Set(members.map(noun))).join(" or ")
    }
    case "Refinement":
      return jsonType(ast) === "integer" ? "an integer" : noun(ast.from)
    case "Transformation":
      return noun(ast.from)
    case "Suspend":
      return noun(ast.f())
    default:
      return Option.getOrElse(
        Option.orElse(AST.getDescriptionAnnotation(ast), () => AST.getTitleAnnotation(ast)),
        () => "a valid value"
      )
  }
}

const jsonSchemaOf = (ast: AST.AST): Record<string, unknown> =>
  Option.getOrElse(AST.getJSONSchemaAnnotation(ast), () => ({})) as Record<string, unknown>

const jsonType = (ast: AST.Refinement): unknown => jsonSchemaOf(ast).type

const plural = (n: unknown, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`

// Why a value failed a refinement, from the constraint the refinement declares for JSON Schema.
const constraint = (ast: AST.Refinement, actual: unknown): string => {
  const schema = jsonSchemaOf(ast)
  if (schema.type === "integer") return "not an integer"
  if (schema.maxLength !== undefined) {
    const has = typeof actual === "string" ? ` (it has ${actual.length})` : ""
    return `at most ${plural(schema.maxLength, "character")}${has}`
  }
  if (schema.minLength !== undefined) {
    return schema.minLength === 1 ? "must not be empty" : `at least ${plural(schema.minLength, "character")}`
  }
  if (schema.maxItems !== undefined) {
    return `at most ${plural(schema.maxItems, "item")}${Array.isArray(actual) ? ` (it has ${actual.length})` : ""}`
  }
  if (schema.minItems !== undefined) return `at least ${plural(schema.minItems, "item")}`
  if (schema.minimum !== undefined && schema.maximum !== undefined) {
    return `must be from ${schema.minimum} to ${schema.maximum}`
  }
  if (schema.maximum !== undefined) return `must be at most ${schema.maximum}`
  if (schema.minimum !== undefined) return `must be at least ${schema.minimum}`
  if (typeof schema.pattern === "string") return `does not match ${schema.pattern}`
  return Option.match(AST.getDescriptionAnnotation(ast), {
    onNone: () => "is not valid",
    onSome: (description) => `not ${description}`
  })
}

const fieldsOf = (ast: AST.AST): ReadonlyArray<string> | undefined =>
  ast._tag === "TypeLiteral" ? ast.propertySignatures.map((p) => String(p.name)) : undefined

// Whether the issue's schema has a message of its own that the formatters would show for it (a refinement's for
// its own predicate, a transformation's for its own step), as Effect's formatters decide it.
const hasMessage = (issue: ParseResult.ParseIssue): boolean =>
  ((issue._tag === "Refinement" && issue.kind === "Predicate") ||
    (issue._tag === "Transformation" && issue.kind === "Transformation") ||
    issue._tag === "Type") &&
  Option.isSome(AST.getMessageAnnotation(issue.ast))

// A value that matched no alternative because it has another JSON type: one issue per alternative, each a type
// mismatch (or the `undefined` of an optional field).
const isTypeMismatch = (issue: ParseResult.ParseIssue): boolean =>
  issue._tag === "Type" && issue.ast._tag !== "Refinement"

const walk = (
  issue: ParseResult.ParseIssue,
  path: ReadonlyArray<PropertyKey>,
  fields: ReadonlyArray<string> | undefined
): Array<Found> => {
  // A schema's own message says it best (`at most 20 keywords per request`).
  if (hasMessage(issue)) {
    return ParseResult.ArrayFormatter.formatIssueSync(issue).map((found) => ({
      path: [...path, ...found.path],
      message: found.message
    }))
  }
  switch (issue._tag) {
    case "Pointer":
      // An unknown key's issue sits under its own pointer: the object's fields go down to it.
      return walk(issue.issue, [...path, ...(Array.isArray(issue.path) ? issue.path : [issue.path])], fields)
    case "Missing":
      return [
        {
          path,
          message: Option.match(AST.getMissingMessageAnnotation(issue.ast), {
            onNone: () => "is required",
            onSome: (annotation) => {
              const message = annotation()
              return typeof message === "string" ? message : "is required"
            }
          })
        }
      ]
    case "Unexpected":
      return [
        {
          path,
          message:
            fields === undefined ? "is not a known field" : `is not a known field (the fields are ${fields.join(", ")})`
        }
      ]
    case "Forbidden":
      return [{ path, message: "could not be checked" }]
    case "Type":
      // A sentence of the schema's own (a transformation failing with a message) says what is wrong.
      if (issue.message !== undefined) return [{ path, message: issue.message }]
      // A filter's own sentence (a predicate answering a string) is the Type issue's message.
      if (issue.ast._tag === "Refinement") {
        return [{ path, message: issue.message ?? constraint(issue.ast, issue.actual) }]
      }
      return [{ path, message: `not ${noun(issue.ast)}` }]
    case "Refinement":
      // A failed predicate's issue is a Type issue of the refinement itself (handled above).
      return walk(issue.issue, path, fields)
    case "Transformation":
      return walk(issue.issue, path, fields)
    case "Composite": {
      const issues = Array.isArray(issue.issues) ? issue.issues : [issue.issues as ParseResult.ParseIssue]
      if (issue.ast._tag === "Union") {
        // The alternatives the value got past its type with say what is wrong; when none did, the value has
        // the wrong JSON type and the union's own description says what was expected.
        const deeper = issues.filter((member) => !isTypeMismatch(member))
        if (deeper.length === 0) return [{ path, message: `not ${noun(issue.ast)}` }]
        return deeper.flatMap((member) => walk(member, path, fields))
      }
      const inner = fieldsOf(issue.ast) ?? fields
      return issues.flatMap((member) => walk(member, path, inner))
    }
  }
}

const formatPath = (path: ReadonlyArray<PropertyKey>, root: string): string =>
  path.length === 0
    ? root
    : path
        .map((key, i) => {
          if (typeof key === "number") return `[${key}]`
          // A field name comes from the caller (an unknown key): a long one is shortened like any echoed value.
          const name = shortenName(String(key))
          return i === 0 ? name : `.${name}`
        })
        .join("")

const maxNameLength = 80

const shortenName = (name: string): string =>
  name.length <= maxNameLength ? name : `${name.slice(0, maxNameLength)}… (${name.length} characters)`

/**
 * Formats a request's decoding failure in the API's own words, naming each field the way a JSON caller writes it
 * (`keywords[3]: at most 1000 characters`, `maxResults: not an integer`, `depth: is not a known field (the fields
 * are ...)`), never with Effect's type names. `root` names the whole value when an issue has an empty path.
 */
export const formatRequest = (error: ParseResult.ParseError, root: string): string => {
  const found = walk(error.issue, [], undefined)
  const shown = found.slice(0, maxIssues).map((issue) => `${formatPath(issue.path, root)}: ${shorten(issue.message)}`)
  if (found.length > maxIssues) shown.push(`and ${found.length - maxIssues} more issues`)
  return shown.join("; ")
}
