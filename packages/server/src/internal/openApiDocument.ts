/**
 * The last pass over the generated OpenAPI document, so that it passes a standard OpenAPI linter:
 *
 * - Component names must match `^[a-zA-Z0-9.\-_]+$`. A schema's identifier may be a namespaced tag
 *   (`@websearch/core/Unavailable`, a TaggedError's default); it is renamed to its last segment, or pointed at the
 *   component already under that name when both describe the same JSON.
 * - The platform declares `HttpApiDecodeError` (400) on every endpoint, but no endpoint of this API can answer it:
 *   the capability bodies are read and validated by the core schemas (`RequestFailed/invalid_input`), and the
 *   other inputs (a path id) accept any string. Listing it would tell clients of a body they never get, and put
 *   a 400 on `/health`.
 * - Effect writes `Schema.Unknown`, `Schema.Any` and their kin with a fixed `$id` (`/schemas/unknown`) and title.
 *   In a 2020-12 document an `$id` names a resource, so two of them with the same `$id` make the document
 *   invalid (Ajv refuses it): they are written as the plain schemas they are (`{}` for unknown).
 * - Components nothing refers to any more are dropped.
 */
import type * as OpenApi from "@effect/platform/OpenApi"

const validName = /^[a-zA-Z0-9.\-_]+$/

const prefix = "#/components/schemas/"

const refOf = (name: string): string => `${prefix}${name.replace(/~/g, "~0").replace(/\//g, "~1")}`

const nameOf = (ref: string): string => ref.slice(prefix.length).replace(/~1/g, "/").replace(/~0/g, "~")

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

// Rewrites every `$ref` through `rename` (a ref mapped to undefined is kept), in place.
const rewriteRefs = (node: unknown, rename: (name: string) => string | undefined): void => {
  if (Array.isArray(node)) return node.forEach((item) => rewriteRefs(item, rename))
  if (node === null || typeof node !== "object") return
  const record = node as Record<string, unknown>
  for (const [key, value] of Object.entries(record)) {
    if (key === "$ref" && typeof value === "string" && value.startsWith(prefix)) {
      const renamed = rename(nameOf(value))
      if (renamed !== undefined) record[key] = refOf(renamed)
    } else rewriteRefs(value, rename)
  }
}

const referenced = (node: unknown, into: Set<string>): Set<string> => {
  if (Array.isArray(node)) node.forEach((item) => referenced(item, into))
  else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith(prefix)) into.add(nameOf(value))
      else referenced(value, into)
    }
  }
  return into
}

// Effect's fixed identifiers of its keyword schemas, each with the title it writes beside it.
const effectIds: Readonly<Record<string, string>> = {
  "/schemas/never": "never",
  "/schemas/any": "any",
  "/schemas/unknown": "unknown",
  "/schemas/void": "void",
  "/schemas/object": "object",
  "/schemas/%7B%7D": "{}"
}

// Drops Effect's fixed `$id`s, and the title that came with each, in place.
const withoutEffectIds = (node: unknown): void => {
  if (Array.isArray(node)) return node.forEach(withoutEffectIds)
  if (node === null || typeof node !== "object") return
  const record = node as Record<string, unknown>
  const id = record.$id
  if (typeof id === "string" && Object.hasOwn(effectIds, id)) {
    delete record.$id
    if (record.title === effectIds[id]) delete record.title
  }
  for (const value of Object.values(record)) withoutEffectIds(value)
}

const decodeError = "HttpApiDecodeError"

// Removes the decode error from one response's schema: a lone reference goes with its response, an alternative
// of an `anyOf` goes alone.
const withoutDecodeError = (responses: Record<string, OpenApi.OpenApiSpecResponse>): void => {
  for (const [status, response] of Object.entries(responses)) {
    const media = response.content?.["application/json"] as { schema?: Record<string, unknown> } | undefined
    const schema = media?.schema
    if (schema === undefined) continue
    if (schema.$ref === refOf(decodeError)) {
      delete responses[status]
      continue
    }
    const anyOf = schema.anyOf as Array<{ $ref?: string }> | undefined
    if (anyOf === undefined) continue
    const rest = anyOf.filter((alternative) => alternative.$ref !== refOf(decodeError))
    if (rest.length === anyOf.length) continue
    media!.schema = rest.length === 1 ? (rest[0] as Record<string, unknown>) : { ...schema, anyOf: rest }
    // The description was the decode error's own ("The request did not match the expected schema").
    if (rest.length === 1) delete (response as { description?: string }).description
  }
}

/**
 * Makes the generated document lint-clean; returns the same document, changed in place. `descriptions` gives the
 * description of a response by the component its body is, for the responses whose description was the decode
 * error's.
 */
export const tidy = (
  spec: OpenApi.OpenAPISpec,
  descriptions: Readonly<Record<string, string>>
): OpenApi.OpenAPISpec => {
  const schemas = spec.components.schemas as Record<string, unknown>
  withoutEffectIds(spec)
  const renames = new Map<string, string>()
  for (const name of Object.keys(schemas)) {
    if (validName.test(name)) continue
    const short = name
      .split("/")
      .pop()!
      .replace(/[^a-zA-Z0-9.\-_]/g, "_")
    let target = short
    for (let n = 2; target in schemas && !sameJson(schemas[target], schemas[name]); n++) target = `${short}_${n}`
    if (!(target in schemas)) schemas[target] = schemas[name]
    delete schemas[name]
    renames.set(name, target)
  }
  rewriteRefs(spec, (name) => renames.get(name))
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item as Record<string, OpenApi.OpenAPISpecOperation>)) {
      if (typeof operation !== "object" || operation === null || !("responses" in operation)) continue
      withoutDecodeError(operation.responses)
      // A response whose description was the decode error's gets its remaining schema's description back.
      for (const response of Object.values(operation.responses)) {
        if (response.description !== undefined) continue
        const ref = (response.content?.["application/json"]?.schema as { $ref?: string } | undefined)?.$ref
        response.description = (ref === undefined ? undefined : descriptions[nameOf(ref)]) ?? "Error"
      }
    }
  }
  // Dropping a component can leave its own references unused: repeat until nothing more goes.
  for (let dropped = true; dropped;) {
    dropped = false
    const used = referenced({ paths: spec.paths, components: { ...spec.components, schemas: {} } }, new Set())
    for (const schema of Object.values(schemas)) referenced(schema, used)
    for (const name of Object.keys(schemas)) {
      if (!used.has(name)) {
        delete schemas[name]
        dropped = true
      }
    }
  }
  return spec
}
