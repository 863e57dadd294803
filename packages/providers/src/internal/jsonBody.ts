/**
 * Decoding a provider's JSON answer with its schema (`Schema.parseJson`): text that is not JSON and JSON of
 * another shape are the provider's fault, so both become `ResponseInvalid/decode_failed` (naming the content type,
 * or the first problem); a defect thrown by our own schema code stays a defect.
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { Answer } from "./cappedRead.js"
import { type Call, errorContext, providerText } from "./providerCall.js"
import { failure, type Refusal } from "./refusal.js"

const decodeJson = Schema.decodeUnknownEither(Schema.parseJson())

/** Parses JSON without throwing; the left is why the text is not JSON. */
export const parseJson = (text: string): Either.Either<unknown, string> =>
  Either.mapLeft(decodeJson(text), (error) => ParseResult.TreeFormatter.formatErrorSync(error))

const notJson = (c: Call, answer: Answer): WebSearchError.ResponseInvalid => {
  const type = answer.headers["content-type"] ?? "no content type"
  return WebSearchError.responseInvalid(
    "decode_failed",
    `${c.providerName} answered with a body that is not JSON (${providerText(c, type)}, ${answer.text.length} characters)`,
    errorContext(c)
  )
}

// A path as code would write it: `results[0].url`.
const placeOf = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((key, i) => (typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${String(key)}`)).join("")

// The first problems, one per place, each as its path and what is wrong there (`results[0].url: is missing`): the
// path first, so a short excerpt still says where; the whole is quoted as provider text (a message may quote the
// provider's values). A union's alternatives fail at the same place: the first of them stands for all.
const shapeProblems = (issue: ParseResult.ParseIssue): string => {
  const byPlace = new Map<string, string>()
  for (const problem of ParseResult.ArrayFormatter.formatIssueSync(issue)) {
    const place = problem.path.length === 0 ? "(the answer)" : placeOf(problem.path)
    if (!byPlace.has(place)) byPlace.set(place, problem.message)
    if (byPlace.size === 3) break
  }
  return Array.from(byPlace, ([place, message]) => `${place}: ${message}`).join("; ")
}

const unexpectedShape = (c: Call, issue: ParseResult.ParseIssue): WebSearchError.ResponseInvalid =>
  WebSearchError.responseInvalid(
    "decode_failed",
    `${c.providerName} answered with an unexpected shape: ${providerText(c, shapeProblems(issue))}`,
    errorContext(c)
  )

// `Schema.parseJson(schema)` is a transformation: a failure of its schema side (kind "Type") holds the schema's own
// issue, reported as if decoded alone; a failure of its JSON side means the text is not JSON. One decoder per
// schema, made once: building it is the costly part of a decode.
const decoders = new WeakMap<Schema.Schema.Any, (text: string) => Either.Either<unknown, ParseResult.ParseError>>()
const decoderOf = <A, I>(schema: Schema.Schema<A, I>) => {
  let decoder = decoders.get(schema)
  if (decoder === undefined) {
    // Every problem, not the first: the message names up to three places, each once.
    decoder = Schema.decodeUnknownEither(Schema.parseJson(schema), { errors: "all" })
    decoders.set(schema, decoder)
  }
  return decoder as (text: string) => Either.Either<A, ParseResult.ParseError>
}

/**
 * Decodes a 2xx answer with `Schema.parseJson(schema)`: `ResponseInvalid/decode_failed` naming the content type
 * when it is not JSON, or the first problem when it has another shape.
 */
export const decode = <A, I>(
  c: Call,
  schema: Schema.Schema<A, I>,
  answer: Answer
): Effect.Effect<A, WebSearchError.ResponseInvalid> =>
  Effect.suspend(() =>
    Either.match(decoderOf(schema)(answer.text), {
      onLeft: ({ issue }) =>
        Effect.fail(
          issue._tag !== "Transformation"
            ? unexpectedShape(c, issue)
            : issue.kind === "Type"
              ? unexpectedShape(c, issue.issue)
              : notJson(c, answer)
        ),
      onRight: Effect.succeed
    })
  )

/**
 * Decodes an already-parsed value with a schema; `ResponseInvalid/decode_failed` names the first problem.
 */
export const decodeValue = <A, I>(
  c: Call,
  schema: Schema.Schema<A, I>,
  value: unknown
): Effect.Effect<A, WebSearchError.ResponseInvalid> =>
  Effect.suspend(() =>
    Either.match(Schema.decodeUnknownEither(schema, { errors: "all" })(value), {
      onLeft: (error) => Effect.fail(unexpectedShape(c, error.issue)),
      onRight: Effect.succeed
    })
  )

/**
 * Decodes a 2xx answer that may still carry a refusal in its body: the JSON is parsed once, `inBody` reads a
 * refusal from it (failing the call), and otherwise the schema decodes it, as `decode` does.
 */
export const decodeUnlessRefused = <A, I>(
  c: Call,
  schema: Schema.Schema<A, I>,
  answer: Answer,
  inBody: (json: unknown) => Refusal | undefined
): Effect.Effect<A, WebSearchError.WebSearchError> =>
  Effect.flatMap(decode(c, Schema.Unknown, answer), (json) => {
    const refusal = inBody(json)
    return refusal === undefined ? decodeValue(c, schema, json) : Effect.fail(failure(c, refusal))
  })
