/**
 * Turning a provider's result fields into websearch's title/content/url: snippets lose the markup some providers
 * put in them (Brave's `<strong>`, DuckDuckGo's `<b>`, entities), URLs must be absolute http(s), and a missing
 * title falls back to the URL so a result is never untitled.
 */
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as ResultMetadata from "@websearch/core/internal/resultMetadata"

const named: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  laquo: "«",
  raquo: "»",
  middot: "·",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“"
}

/** Decodes HTML character references (named ones in common use, and every numeric one). */
export const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref.startsWith("#")) {
      const code = ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1))
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : "\uFFFD"
    }
    return named[ref.toLowerCase()] ?? whole
  })

/** Removes tags, decodes entities and folds white space: a snippet as plain text. */
export const plainText = (html: string): string =>
  decodeEntities(html.replace(/<[^>]*>/g, ""))
    .replace(/\s+/gu, " ")
    .trim()

/** Trims text, folding runs of white space inside lines but keeping line breaks (for page content). */
export const tidy = (text: string): string =>
  text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t\f\v]+/g, " ")
    .replace(/\n{3,}/g, "\n\n")
    .trim()

/** The URL when it is an absolute http(s) URL, as the WHATWG parser writes it. */
export const httpUrl = (raw: string | null | undefined): string | undefined => {
  if (raw === null || raw === undefined) return undefined
  let url: URL
  try {
    // One parse: `URL.canParse` first would parse every result's URL twice (Node 20 has no `URL.parse`).
    url = new URL(raw.trim())
  } catch {
    return undefined
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined
}

/**
 * One result from a provider's fields, or undefined when it has no usable URL (the driver counts those). The
 * title falls back to the URL; the published time, author, site name and language are kept where usable (see
 * `resultMetadata`).
 */
export const result = (
  fields: {
    readonly title?: string | null | undefined
    readonly content?: string | null | undefined
    readonly url?: string | null | undefined
  } & ResultMetadata.RawMetadata
): ProviderDriver.DriverResult | undefined => {
  const url = httpUrl(fields.url)
  if (url === undefined) return undefined
  const title = (fields.title ?? "").trim()
  return {
    title: title === "" ? url : title,
    content: (fields.content ?? "").trim(),
    url,
    ...ResultMetadata.metadata(fields)
  }
}

/**
 * The page a fetch returned: the provider's fields when its URL is usable, else the same fields at the URL that was
 * asked for (a provider may leave the final URL out or send an unusable one), titled by that URL at worst.
 */
export const page = (input: string, fields: Parameters<typeof result>[0]): ProviderDriver.DriverResult =>
  result(fields) ?? result({ ...fields, url: input }) ?? { title: input, content: fields.content ?? "", url: input }

/**
 * Maps a provider's items to results, dropping those without a usable URL; returns how many were dropped so the
 * driver can log them instead of losing them silently.
 */
export const results = <A>(
  items: ReadonlyArray<A>,
  f: (item: A) => Parameters<typeof result>[0]
): { readonly results: ReadonlyArray<ProviderDriver.DriverResult>; readonly dropped: number } => {
  const out: Array<ProviderDriver.DriverResult> = []
  for (const item of items) {
    const mapped = result(f(item))
    if (mapped !== undefined) out.push(mapped)
  }
  return { results: out, dropped: items.length - out.length }
}
