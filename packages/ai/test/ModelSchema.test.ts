/**
 * Tool input schemas carry only text written for a model. Effect's filters label what they build
 * (`title: "maxItems(20)"`, `description: "an array of at most 20 item(s)"`); the tool's JSON Schema step drops
 * those labels and keeps every constraint and every description the toolkit wrote. Checked on generated schemas
 * (every Effect filter the tools use, nested in structs, arrays, optional fields and unions, described or not),
 * where the labels looked for are read off Effect's own filtered schemas, and on every tool as a model gets it.
 */
import * as Tool from "@effect/ai/Tool"
import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as JSONSchema from "effect/JSONSchema"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import * as ModelSchema from "../src/internal/modelSchema.js"
import * as WebSearchToolkit from "../src/WebSearchToolkit.js"

/** A schema to build: a leaf with one of Effect's filters, or a struct, array or union of such; maybe described. */
type Recipe =
  | { readonly kind: "string"; readonly filter: number; readonly n: number; readonly text?: string | undefined }
  | { readonly kind: "number"; readonly filter: number; readonly n: number; readonly text?: string | undefined }
  | { readonly kind: "literals"; readonly text?: string | undefined }
  | {
      readonly kind: "array"
      readonly filter: number
      readonly n: number
      readonly item: Recipe
      readonly text?: string | undefined
    }
  | {
      readonly kind: "struct"
      readonly fields: ReadonlyArray<{ readonly optional: boolean; readonly value: Recipe }>
      readonly text?: string | undefined
    }
  | { readonly kind: "union"; readonly members: readonly [Recipe, Recipe]; readonly text?: string | undefined }

const stringFilters = [
  (n: number) => Schema.maxLength(n),
  (n: number) => Schema.minLength(n),
  (n: number) => Schema.length(n),
  () => Schema.pattern(/^[a-z0-9][a-z0-9-]{0,63}$/),
  () => Schema.nonEmptyString(),
  () => Schema.trimmed(),
  () => Schema.lowercased()
] as const
const numberFilters = [
  (n: number) => Schema.between(0, n),
  () => Schema.int(),
  () => Schema.nonNegative(),
  () => Schema.positive(),
  (n: number) => Schema.lessThanOrEqualTo(n),
  (n: number) => Schema.greaterThan(-n)
] as const
const arrayFilters = [
  (n: number) => Schema.maxItems(n),
  (n: number) => Schema.minItems(n),
  (n: number) => Schema.itemsCount(n)
] as const

// A text a model reads: unique per node, so each one can be looked for in the output.
const text = FastCheck.option(
  FastCheck.string({ minLength: 1, maxLength: 12 }).map((s) => `For the model: ${s}`),
  {
    nil: undefined
  }
)
const n = FastCheck.integer({ min: 1, max: 50 })

const recipe: FastCheck.Arbitrary<Recipe> = FastCheck.letrec<{ node: Recipe }>((tie) => ({
  node: FastCheck.oneof(
    { depthSize: "small", withCrossShrink: true },
    FastCheck.record({
      kind: FastCheck.constant("string" as const),
      filter: FastCheck.nat(stringFilters.length - 1),
      n,
      text
    }),
    FastCheck.record({
      kind: FastCheck.constant("number" as const),
      filter: FastCheck.nat(numberFilters.length - 1),
      n,
      text
    }),
    FastCheck.record({ kind: FastCheck.constant("literals" as const), text }),
    FastCheck.record({
      kind: FastCheck.constant("array" as const),
      filter: FastCheck.nat(arrayFilters.length - 1),
      n,
      item: tie("node"),
      text
    }),
    FastCheck.record({
      kind: FastCheck.constant("struct" as const),
      fields: FastCheck.array(FastCheck.record({ optional: FastCheck.boolean(), value: tie("node") }), {
        minLength: 1,
        maxLength: 3
      }),
      text
    }),
    FastCheck.record({
      kind: FastCheck.constant("union" as const),
      members: FastCheck.tuple(tie("node"), tie("node")),
      text
    })
  )
})).node

/** Builds a recipe, recording the labels Effect's filters gave it and the texts written for the model. */
const build = (
  r: Recipe,
  found: { readonly labels: Set<string>; readonly texts: Array<string> }
): Schema.Schema.Any => {
  const labelled = (schema: Schema.Schema.Any) => {
    // Effect's own label, read off the schema it built.
    for (const id of [AST.TitleAnnotationId, AST.DescriptionAnnotationId]) {
      const label = schema.ast.annotations[id]
      if (typeof label === "string") found.labels.add(label)
    }
    return schema
  }
  const base = ((): Schema.Schema.Any => {
    switch (r.kind) {
      case "string":
        return labelled(Schema.String.pipe(stringFilters[r.filter]!(r.n)))
      case "number":
        return labelled(Schema.Number.pipe(numberFilters[r.filter]!(r.n)))
      case "literals":
        return Schema.Literal("a", "b")
      case "array":
        return labelled(Schema.Array(build(r.item, found)).pipe(arrayFilters[r.filter]!(r.n)))
      case "struct":
        return Schema.Struct(
          Object.fromEntries(
            r.fields.map((field, i) => {
              const value = build(field.value, found)
              return [`f${i}`, field.optional ? Schema.optional(value) : value]
            })
          )
        )
      case "union":
        return Schema.Union(build(r.members[0], found), build(r.members[1], found))
    }
  })()
  if (r.text === undefined) return base
  const written = `${r.text} #${found.texts.length}`
  found.texts.push(written)
  return base.annotations(ModelSchema.describe(written))
}

/** Every value under `key` anywhere in a JSON document. */
const valuesOf = (node: unknown, key: string, into: Array<unknown> = []): Array<unknown> => {
  if (Array.isArray(node)) node.forEach((item) => valuesOf(item, key, into))
  else if (node !== null && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === key) into.push(v)
      valuesOf(v, key, into)
    }
  }
  return into
}

/** A JSON document without titles and descriptions. */
const withoutTexts = (node: unknown): unknown =>
  Array.isArray(node)
    ? node.map(withoutTexts)
    : node !== null && typeof node === "object"
      ? Object.fromEntries(
          Object.entries(node)
            .filter(([k]) => k !== "title" && k !== "description")
            .map(([k, v]) => [k, withoutTexts(v)])
        )
      : node

const parametersOf = (r: Recipe) => {
  const found = { labels: new Set<string>(), texts: [] as Array<string> }
  const struct = Schema.Struct({ input: build(r, found) })
  return { found, struct }
}

describe("the tools' JSON Schema step", () => {
  it.prop(
    "no Effect label survives, every text written for the model does, and every constraint is Effect's own",
    [recipe],
    ([r]) => {
      const { found, struct } = parametersOf(r)
      const schema = Tool.getJsonSchemaFromSchemaAst(ModelSchema.parameters(struct).ast)
      expect(valuesOf(schema, "title")).toEqual([])
      const descriptions = valuesOf(schema, "description")
      for (const description of descriptions) expect(found.texts).toContain(description)
      for (const written of found.texts) expect(descriptions).toContain(written)
      // No label of Effect's anywhere, under any key.
      const all = JSON.stringify(schema)
      for (const label of found.labels) {
        if (!found.texts.includes(label)) expect(all).not.toContain(JSON.stringify(label))
      }
      // Only texts changed: the constraints are the ones Effect's own generation writes.
      expect(withoutTexts(schema)).toEqual(withoutTexts(JSONSchema.fromAST(struct.ast, { definitions: {} })))
    },
    { fastCheck: { numRuns: 300 } }
  )

  it.prop(
    "decoding is untouched: the pinned parameters accept and refuse exactly what the schema does",
    [recipe, FastCheck.anything()],
    ([r, value]) => {
      const { struct } = parametersOf(r)
      const pinned = ModelSchema.parameters(struct)
      const input = { input: value }
      expect(Schema.is(pinned)(input)).toBe(Schema.is(struct)(input))
    }
  )

  it("every tool, as a model or an MCP client gets it, has no title and only the toolkit's descriptions", () => {
    const tools = [
      ...Object.values(WebSearchToolkit.toolkit.tools),
      WebSearchToolkit.WebFetchToolWithoutPrompt
    ] as ReadonlyArray<Tool.Any>
    for (const tool of tools) {
      const schema = Tool.getJsonSchema(tool as typeof WebSearchToolkit.WebSearchTool)
      expect(valuesOf(schema, "title"), tool.name).toEqual([])
      for (const description of valuesOf(schema, "description")) {
        // Effect's phrasing ("a string at most 1000 character(s) long", "an array of at most 20 item(s)").
        expect(description, tool.name).not.toMatch(/^an? [a-z]|character\(s\)|item\(s\)/)
      }
    }
  })
})
