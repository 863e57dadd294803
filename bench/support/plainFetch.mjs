// The cold-start baseline of `websearch fetch` (bench/cli.ts): the same job as a plain script would do it, loaded
// from node_modules as it is written (no bundle, no compile cache). undici's fetch reads the page, linkedom parses
// it, Readability finds the article and turndown writes it as markdown, printed with its title and URL.
//
//   node bench/support/plainFetch.mjs URL
import { Readability } from "@mozilla/readability"
import { parseHTML } from "linkedom"
import TurndownService from "turndown"
import { fetch } from "undici"

const url = process.argv[2]
const response = await fetch(url)
if (!response.ok) throw new Error(`${url} answered ${response.status}`)
const { document } = parseHTML(await response.text())
const article = new Readability(document).parse()
if (article === null || article.content == null) throw new Error(`${url} has no readable text`)
const markdown = new TurndownService({ headingStyle: "atx" }).turndown(article.content)
process.stdout.write(`${article.title}\n${url}\n\n${markdown}\n`)
