/**
 * Tool parameters as a model reads them. Effect's filters label the schemas they build with their own names and
 * phrases (`title: "maxItems(20)"`, `description: "an array of at most 20 item(s)"`), and JSON Schema generation
 * copies them into a tool's input schema, where a model reads them as instructions. Here only text written for a
 * model survives: a description set with `describe` (and still the one set), nothing else; constraints
 * (`minItems`, `pattern`, …) stay as Effect writes them. A tool's JSON Schema is computed once, from its parameters
 * with the labels stripped, and pinned on its parameters schema, so every reader of the tool (the MCP server, an
 * `@effect/ai` provider sending the tool to its model) gets the same clean schema. Decoding is untouched.
 */
import * as Tool from "@effect/ai/Tool"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

// Holds the text a description was written as for a model; a description that differs from it is not ours.
const ModelTextId: unique symbol = Symbol.for("@websearch/ai/ModelText")

/** Annotations that describe a parameter for a model: pass to `.annotations(...)`. */
export const describe = (text: string): { readonly description: string; readonly [ModelTextId]: string } => ({
  description: text,
  [ModelTextId]: text
})

// A node's annotations without Effect's labels: no title (a parameter's name is its title), and a description
// only where it is the one written for a model.
const stripped = (annotated: AST.Annotated): { [key: string | symbol]: unknown } => {
  const out: { [key: string | symbol]: unknown } = { ...annotated.annotations }
  delete out[AST.TitleAnnotationId]
  if (out[AST.DescriptionAnnotationId] !== out[ModelTextId]) delete out[AST.DescriptionAnnotationId]
  return out
}

const leaf = (ast: AST.AST, annotations: AST.Annotations): AST.AST => {
  switch (ast._tag) {
    case "Literal":
      return new AST.Literal(ast.literal, annotations)
    case "UniqueSymbol":
      return new AST.UniqueSymbol(ast.symbol, annotations)
    case "Enums":
      return new AST.Enums(ast.enums, annotations)
    case "TemplateLiteral":
      return new AST.TemplateLiteral(ast.head, ast.spans, annotations)
    case "UndefinedKeyword":
      return new AST.UndefinedKeyword(annotations)
    case "VoidKeyword":
      return new AST.VoidKeyword(annotations)
    case "NeverKeyword":
      return new AST.NeverKeyword(annotations)
    case "UnknownKeyword":
      return new AST.UnknownKeyword(annotations)
    case "AnyKeyword":
      return new AST.AnyKeyword(annotations)
    case "StringKeyword":
      return new AST.StringKeyword(annotations)
    case "NumberKeyword":
      return new AST.NumberKeyword(annotations)
    case "BooleanKeyword":
      return new AST.BooleanKeyword(annotations)
    case "BigIntKeyword":
      return new AST.BigIntKeyword(annotations)
    case "SymbolKeyword":
      return new AST.SymbolKeyword(annotations)
    case "ObjectKeyword":
      return new AST.ObjectKeyword(annotations)
    default:
      return ast
  }
}

/** The same schema without Effect's labels, for JSON Schema generation only (its filters are kept as they are). */
export const unlabelled = (ast: AST.AST): AST.AST => {
  const annotations = stripped(ast)
  // A class schema is written as its surrogate (its fields' struct): that is what JSON Schema generation reads.
  const surrogate = AST.getSurrogateAnnotation(ast)
  if (Option.isSome(surrogate)) annotations[AST.SurrogateAnnotationId] = unlabelled(surrogate.value)
  switch (ast._tag) {
    case "TypeLiteral":
      return new AST.TypeLiteral(
        ast.propertySignatures.map(
          (p) => new AST.PropertySignature(p.name, unlabelled(p.type), p.isOptional, p.isReadonly, stripped(p))
        ),
        ast.indexSignatures.map((i) => new AST.IndexSignature(i.parameter, unlabelled(i.type), i.isReadonly)),
        annotations
      )
    case "TupleType":
      return new AST.TupleType(
        ast.elements.map((e) => new AST.OptionalType(unlabelled(e.type), e.isOptional, stripped(e))),
        ast.rest.map((r) => new AST.Type(unlabelled(r.type), stripped(r))),
        ast.isReadonly,
        annotations
      )
    case "Union":
      return AST.Union.make(ast.types.map(unlabelled), annotations)
    case "Refinement":
      return new AST.Refinement(unlabelled(ast.from), ast.filter, annotations)
    case "Transformation":
      return new AST.Transformation(unlabelled(ast.from), unlabelled(ast.to), ast.transformation, annotations)
    case "Suspend":
      return new AST.Suspend(() => unlabelled(ast.f()), annotations)
    case "Declaration":
      return new AST.Declaration(ast.typeParameters.map(unlabelled), ast.decodeUnknown, ast.encodeUnknown, annotations)
    default:
      return leaf(ast, annotations)
  }
}

/** The parameters of a tool with their JSON Schema (no Effect label in it) pinned on them. */
export const parameters = <Fields extends Schema.Struct.Fields>(schema: Schema.Struct<Fields>): Schema.Struct<Fields> =>
  schema.annotations({ jsonSchema: Tool.getJsonSchemaFromSchemaAst(unlabelled(schema.ast)) })

/** A tool whose parameters carry their JSON Schema without Effect's labels (see `parameters`). */
export const tool = <
  Name extends string,
  Fields extends Schema.Struct.Fields,
  Success extends Schema.Schema.Any,
  Failure extends Schema.Schema.All,
  Mode extends Tool.FailureMode,
  Requirements
>(
  self: Tool.Tool<
    Name,
    {
      readonly parameters: Schema.Struct<Fields>
      readonly success: Success
      readonly failure: Failure
      readonly failureMode: Mode
    },
    Requirements
  >
) => self.setParameters(parameters(self.parametersSchema))
