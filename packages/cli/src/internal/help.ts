/**
 * Each command's help, from the `@effect/cli` tree: its usage line, description, arguments and options, without the
 * generic sentences the library adds to every option (the flag table says more).
 */
import type * as CliConfig from "@effect/cli/CliConfig"
import * as HelpDoc from "@effect/cli/HelpDoc"
import type * as Span from "@effect/cli/HelpDoc/Span"
import * as Usage from "@effect/cli/Usage"

const helpText = (doc: HelpDoc.HelpDoc): string => HelpDoc.toAnsiText(doc)

export const plain = (doc: HelpDoc.HelpDoc): string =>
  // Our own help text, never remote input: the styles are removed to word the usage error on one line.
  helpText(doc)
    .replace(/\u001b\[[0-9;]*m/g, "")
    .trim()

// What @effect/cli says of every text or boolean option and every optional one: the flag table's own words say
// more, so these lines are left out of the help.
const boilerplate = new Set([
  "A user-defined piece of text.",
  "A true or false value.",
  "This setting is optional.",
  "This option may be repeated zero or more times.",
  "This argument may be repeated zero or more times."
])

const spanText = (span: Span.Span): string => {
  switch (span._tag) {
    case "Text":
    case "URI":
      return span.value
    case "Sequence":
      return spanText(span.left) + spanText(span.right)
    default:
      return "value" in span ? spanText(span.value as Span.Span) : ""
  }
}

const prune = (doc: HelpDoc.HelpDoc): HelpDoc.HelpDoc => {
  switch (doc._tag) {
    case "Paragraph":
      return boilerplate.has(spanText(doc.value)) ? HelpDoc.empty : doc
    case "Sequence": {
      const left = prune(doc.left)
      const right = prune(doc.right)
      return HelpDoc.isEmpty(left) ? right : HelpDoc.isEmpty(right) ? left : HelpDoc.sequence(left, right)
    }
    case "DescriptionList":
      return HelpDoc.descriptionList(
        doc.definitions.map(([span, inner]) => [span, prune(inner)] as [Span.Span, HelpDoc.HelpDoc]) as [
          [Span.Span, HelpDoc.HelpDoc],
          ...Array<[Span.Span, HelpDoc.HelpDoc]>
        ]
      )
    default:
      return doc
  }
}

/** The help of one command: its usage line, then its description, arguments and options. */
export const commandHelp = (
  directive: { readonly usage: Usage.Usage; readonly helpDoc: HelpDoc.HelpDoc },
  cliConfig: CliConfig.CliConfig
): string => {
  const lines = Usage.enumerate(directive.usage, cliConfig).map((span) =>
    HelpDoc.p(HelpDoc.getSpan(HelpDoc.p(`websearch ${spanText(span)}`)))
  )
  return `${helpText(HelpDoc.blocks([HelpDoc.h1("USAGE"), ...lines, prune(directive.helpDoc)]))}\n`
}
