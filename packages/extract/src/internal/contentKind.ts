/**
 * What a body is: from its Content-Type, and by sniffing the first bytes when the type is absent or generic
 * (`application/octet-stream`, `binary/octet-stream`, ...), with the URL's extension as a tie-breaker for text.
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 *
 * @since 0.1.0
 */

/**
 * The kinds of content extraction understands.
 *
 * @since 0.1.0
 * @category models
 */
export type Kind = "html" | "text" | "markdown" | "json" | "xml" | "pdf"

/**
 * The media type of a Content-Type header, lower-cased, without parameters; `undefined` when absent or blank.
 *
 * @since 0.1.0
 * @category encoding
 */
export const mediaType = (contentType: string | undefined): string | undefined => {
  if (contentType === undefined) return undefined
  const type = contentType.split(";")[0].trim().toLowerCase()
  return type === "" ? undefined : type
}

const generic = new Set([
  "application/octet-stream",
  "binary/octet-stream",
  "application/unknown",
  "unknown/unknown",
  "application/x-unknown-content-type",
  "application/download",
  "application/force-download",
  "*/*"
])

const byType: ReadonlyMap<string, Kind> = new Map<string, Kind>([
  ["text/html", "html"],
  ["application/xhtml+xml", "html"],
  ["application/vnd.wap.xhtml+xml", "html"],
  ["text/markdown", "markdown"],
  ["text/x-markdown", "markdown"],
  ["application/json", "json"],
  ["text/json", "json"],
  ["application/xml", "xml"],
  ["text/xml", "xml"],
  ["application/pdf", "pdf"],
  ["application/x-pdf", "pdf"],
  ["application/javascript", "text"],
  ["application/x-javascript", "text"],
  ["application/ecmascript", "text"],
  ["application/x-sh", "text"],
  ["application/x-yaml", "text"],
  ["application/yaml", "text"],
  ["application/toml", "text"],
  ["application/x-ndjson", "text"],
  ["application/sql", "text"],
  ["application/graphql", "text"]
])

/**
 * The kind a media type declares; `undefined` for types we do not extract (images, video, archives, ...) and
 * `"sniff"` for absent or generic types, whose bytes decide.
 *
 * @since 0.1.0
 * @category guards
 */
export const fromMediaType = (type: string | undefined): Kind | "sniff" | undefined => {
  if (type === undefined || generic.has(type)) return "sniff"
  const known = byType.get(type)
  if (known !== undefined) return known
  if (type === "image/svg+xml") return undefined
  if (type.endsWith("+json")) return "json"
  if (type.endsWith("+xml")) return "xml"
  if (type.startsWith("text/")) return type === "text/markdown" ? "markdown" : "text"
  return undefined
}

const markdownPath = /\.(?:md|markdown|mdown|mkd|mdx)$/i

const extension = (url: string): string => {
  try {
    return new URL(url).pathname
  } catch {
    return url.split(/[?#]/)[0]
  }
}

/**
 * Whether a URL's path names a markdown file: a `text/plain` body from such a URL (raw files on GitHub) is
 * markdown.
 *
 * @since 0.1.0
 * @category guards
 */
export const isMarkdownUrl = (url: string): boolean => markdownPath.test(extension(url))

// First non-whitespace bytes after an optional UTF-8 BOM, as lower-case ASCII.
const start = (bytes: Uint8Array, length: number): string => {
  let i = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++
  let out = ""
  for (let end = Math.min(bytes.length, i + length); i < end; i++) out += String.fromCharCode(bytes[i])
  return out.toLowerCase()
}

/**
 * Whether the first bytes look like binary data: NUL bytes or many control characters. A UTF-16 body has NULs
 * but starts with a BOM, which the caller checks first.
 *
 * @since 0.1.0
 * @category guards
 */
export const looksBinary = (bytes: Uint8Array): boolean => {
  const end = Math.min(bytes.length, 1024)
  let control = 0
  for (let i = 0; i < end; i++) {
    const b = bytes[i]
    if (b === 0) return true
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) control++
  }
  return control > end / 20
}

const utf16Bom = (bytes: Uint8Array) =>
  bytes.length >= 2 && ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe))

/**
 * Sniffs the kind of a body whose type is absent or generic; `undefined` when it is binary we do not extract.
 *
 * @since 0.1.0
 * @category guards
 */
export const sniff = (bytes: Uint8Array, url: string): Kind | undefined => {
  const head = start(bytes, 512)
  if (head.startsWith("%pdf-")) return "pdf"
  if (!utf16Bom(bytes) && looksBinary(bytes)) return undefined
  if (/^(?:<!doctype html|<html|<head|<body|<!--|<meta|<title|<script|<div|<p[\s>]|<h1|<table|<a\s)/.test(head)) {
    return "html"
  }
  if (head.startsWith("<?xml") || /^<(?:rss|feed|rdf:rdf)[\s>]/.test(head)) return "xml"
  if (head.startsWith("{") || head.startsWith("[")) return "json"
  if (isMarkdownUrl(url)) return "markdown"
  return "text"
}

/**
 * The kind of a body from its Content-Type, its bytes and its URL; `undefined` when unsupported.
 *
 * @since 0.1.0
 * @category guards
 */
export const classify = (contentType: string | undefined, bytes: Uint8Array, url: string): Kind | undefined => {
  const declared = fromMediaType(mediaType(contentType))
  if (declared === "sniff") return sniff(bytes, url)
  if (declared === "text" && isMarkdownUrl(url)) return "markdown"
  return declared
}
