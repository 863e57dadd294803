/**
 * The documents of the kinds that need no DOM (text, markdown, JSON), before the common end (`documentEnd`):
 * what `ExtractPlain.extractSync` and `ExtractCore` share. May throw on hostile input (as deep as a JSON parser
 * goes); both callers catch it.
 */
import * as Charset from "./charset.js"
import * as Json from "./json.js"
import * as PlainText from "./plainText.js"
import * as DocumentEnd from "./documentEnd.js"

const none = DocumentEnd.none

/** What of a body these kinds read. */
interface Body {
  readonly body: Uint8Array
  readonly contentType: string | undefined
}

/** An `ExtractPlain.Document` of one of these kinds, without the metadata only a document head has. */
type Plain = typeof none & {
  readonly kind: "text" | "markdown" | "json"
  readonly title: string
  readonly markdown: string
  readonly pageType: "other"
}

/** The document of a body already classified as `kind`. */
export const fromKind = (input: Body, kind: "text" | "markdown" | "json"): Plain => {
  switch (kind) {
    case "json": {
      const text = Charset.decode(input.body, input.contentType, "none").text
      const markdown = Json.toMarkdown(text)
      return markdown === undefined
        ? { kind: "text", ...none, title: "", markdown: PlainText.clean(text), pageType: "other" }
        : { kind: "json", ...none, title: "", markdown, pageType: "other" }
    }
    case "markdown": {
      const { body, title } = PlainText.frontMatter(
        PlainText.clean(Charset.decode(input.body, input.contentType, "none").text)
      )
      return {
        kind: "markdown",
        ...none,
        title: title ?? PlainText.markdownTitle(body),
        markdown: body.trim(),
        pageType: "other"
      }
    }
    case "text": {
      const text = PlainText.clean(Charset.decode(input.body, input.contentType, "none").text)
      return { kind: "text", ...none, title: "", markdown: text, pageType: "other" }
    }
  }
}
