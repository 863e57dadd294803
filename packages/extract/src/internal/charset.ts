/**
 * Bytes -> text with the right character encoding, decided the way a browser does: a byte-order mark wins, then
 * the `charset` of the Content-Type header, then (for HTML) a `<meta charset>` or `http-equiv` declaration, or
 * (for XML) the `encoding` of the XML declaration, in the first bytes of the body; otherwise UTF-8. An in-body
 * declaration of a legacy encoding loses to bytes that are valid, non-ASCII UTF-8: pages re-saved as UTF-8 keep
 * their old `<meta charset>`, and legacy text is practically never valid UTF-8 by accident. Labels are
 * WHATWG encoding labels (`latin1` means windows-1252, `sjis` means Shift_JIS, ...). Decoding never fails:
 * malformed sequences become U+FFFD.
 *
 * @internal Used by the extractor only, not part of the public API: it may change in any release.
 *
 * @since 0.1.0
 */

/**
 * Where the encoding came from.
 *
 * @since 0.1.0
 * @category models
 */
export type Source = "bom" | "header" | "meta" | "utf-8-content" | "default"

/**
 * @since 0.1.0
 * @category models
 */
export interface Decoded {
  readonly text: string
  /** The WHATWG name of the encoding used, e.g. `utf-8`, `windows-1252`, `shift_jis`. */
  readonly encoding: string
  readonly source: Source
}

/**
 * How far into the body a `<meta charset>` or XML declaration is looked for. The HTML standard says 1024 bytes;
 * real pages put long `<head>` preambles first, so look further, as browsers effectively do.
 *
 * @since 0.1.0
 * @category constants
 */
export const prescanBytes = 4096

/**
 * The WHATWG encoding name for a label, or `undefined` when the label names no encoding the platform decodes.
 *
 * @since 0.1.0
 * @category encoding
 */
export const normalizeLabel = (label: string): string | undefined => {
  const trimmed = label
    .trim()
    .replace(/^["']|["']$/g, "")
    .trim()
  if (trimmed === "" || trimmed.length > 40) return undefined
  // x-user-defined is a WHATWG label TextDecoder implementations often lack; browsers treat such pages as 1252.
  if (trimmed.toLowerCase() === "x-user-defined") return "windows-1252"
  try {
    return new TextDecoder(trimmed).encoding
  } catch {
    return undefined
  }
}

/**
 * The `charset` parameter of a Content-Type header, normalized, if it names a known encoding.
 *
 * @since 0.1.0
 * @category encoding
 */
export const fromContentType = (contentType: string | undefined): string | undefined => {
  if (contentType === undefined) return undefined
  const match = /;\s*charset\s*=\s*("[^"]*"|[^;\s]*)/i.exec(contentType)
  return match === null ? undefined : normalizeLabel(match[1])
}

/**
 * The encoding a byte-order mark announces, with the mark's length.
 *
 * @since 0.1.0
 * @category encoding
 */
export const fromBom = (bytes: Uint8Array): { readonly encoding: string; readonly length: number } | undefined => {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { encoding: "utf-8", length: 3 }
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf-16be", length: 2 }
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: "utf-16le", length: 2 }
  return undefined
}

// Every byte maps to one char, so ASCII markup in the prescan window reads the same whatever the real encoding.
// `apply` takes the bytes as they are: spreading a typed array runs its iterator, one result object per byte.
const latin1 = (bytes: Uint8Array): string => {
  let out = ""
  for (let i = 0; i < bytes.length; i += 1024) {
    out += String.fromCharCode.apply(
      null,
      bytes.subarray(i, Math.min(bytes.length, i + 1024)) as unknown as Array<number>
    )
  }
  return out
}

const metaTag = /<meta\b[^>]*>/gi
// A name starts where the previous character cannot be part of one: without the lookbehind, a long name with no
// `=` is read again from each of its characters (quadratic in the tag).
const attribute = /(?<![^\s"'>/=])([^\s"'>/=]+)\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)/g

const attributes = (tag: string): Map<string, string> => {
  const map = new Map<string, string>()
  for (const match of tag.slice(5).matchAll(attribute)) {
    const name = match[1].toLowerCase()
    if (!map.has(name)) map.set(name, match[2].replace(/^["']|["']$/g, ""))
  }
  return map
}

/**
 * The encoding declared by a `<meta charset>` or `<meta http-equiv="Content-Type" content="...; charset=...">`
 * in the first {@link prescanBytes} bytes of an HTML body. A declared UTF-16 means UTF-8 (the declaration itself
 * was readable as ASCII, so the bytes are not UTF-16), as the HTML standard says.
 *
 * @since 0.1.0
 * @category encoding
 */
export const fromHtmlMeta = (bytes: Uint8Array): string | undefined => {
  const head = latin1(bytes.subarray(0, prescanBytes)).replace(/<!--[\s\S]*?-->/g, "")
  for (const tag of head.match(metaTag) ?? []) {
    const attrs = attributes(tag)
    const label =
      attrs.get("charset") ??
      (attrs.get("http-equiv")?.trim().toLowerCase() === "content-type"
        ? /charset\s*=\s*["']?([^\s"';]+)/i.exec(attrs.get("content") ?? "")?.[1]
        : undefined)
    if (label === undefined) continue
    const encoding = normalizeLabel(label)
    if (encoding === undefined) continue
    return encoding.startsWith("utf-16") ? "utf-8" : encoding
  }
  return undefined
}

/**
 * The `encoding` of an XML declaration at the start of the body.
 *
 * @since 0.1.0
 * @category encoding
 */
export const fromXmlDeclaration = (bytes: Uint8Array): string | undefined => {
  const head = latin1(bytes.subarray(0, 256))
  const match = /^\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']([^"']+)["']/.exec(head)
  if (match === null) return undefined
  const encoding = normalizeLabel(match[1])
  return encoding?.startsWith("utf-16") ? "utf-8" : encoding
}

/**
 * Whether bytes without a byte-order mark can be UTF-16: any text in it that has markup, spaces or line breaks has
 * NUL bytes (the high half of ASCII code units) at even or odd offsets. A body declared UTF-16 without a single
 * NUL in its first {@link prescanBytes} bytes is ASCII-compatible text under a wrong label, which decoded as
 * UTF-16 would be CJK-looking garbage; the label is ignored, as browsers ignore an in-body UTF-16 declaration.
 *
 * @since 0.1.0
 * @category encoding
 */
export const mayBeUtf16 = (bytes: Uint8Array): boolean => {
  const end = Math.min(bytes.length, prescanBytes)
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true
  return false
}

/**
 * Which in-body declaration to look for besides the BOM and the header.
 *
 * @since 0.1.0
 * @category models
 */
export type Markup = "html" | "xml" | "none"

/**
 * Decides the encoding of a body.
 *
 * @since 0.1.0
 * @category encoding
 */
export const detect = (
  bytes: Uint8Array,
  contentType: string | undefined,
  markup: Markup
): { readonly encoding: string; readonly source: Source; readonly skip: number } => {
  const bom = fromBom(bytes)
  if (bom !== undefined) return { encoding: bom.encoding, source: "bom", skip: bom.length }
  const header = fromContentType(contentType)
  if (header !== undefined && !(header.startsWith("utf-16") && !mayBeUtf16(bytes))) {
    return { encoding: header, source: "header", skip: 0 }
  }
  const declared =
    markup === "html"
      ? (fromHtmlMeta(bytes) ?? fromXmlDeclaration(bytes))
      : markup === "xml"
        ? fromXmlDeclaration(bytes)
        : undefined
  if (declared !== undefined) return { encoding: declared, source: "meta", skip: 0 }
  return { encoding: "utf-8", source: "default", skip: 0 }
}

// windows-1252's 0x80-0x9F (WHATWG index); the five unassigned bytes map to their C1 controls.
const cp1252High =
  "\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F" +
  "\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178"

// Some TextDecoder implementations (Node before 22.x among them) decode windows-1252 as ISO-8859-1, turning
// €, “smart quotes” and – dashes into C1 controls; put the right characters back.
const repair1252 = (text: string): string =>
  /[\u0080-\u009F]/.test(text) ? text.replace(/[\u0080-\u009F]/g, (c) => cp1252High[c.charCodeAt(0) - 0x80]) : text

/**
 * Decodes a body to text. Never throws: unknown labels fall through to the next source, malformed bytes become
 * U+FFFD, and a leading BOM is not part of the text.
 *
 * @since 0.1.0
 * @category encoding
 */
export const decode = (bytes: Uint8Array, contentType: string | undefined, markup: Markup = "html"): Decoded => {
  const { encoding, skip, source } = detect(bytes, contentType, markup)
  if (source === "meta" && encoding !== "utf-8") {
    try {
      const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes)
      if (text.length < bytes.length) return { text, encoding: "utf-8", source: "utf-8-content" }
    } catch {
      // Not UTF-8: the declaration stands.
    }
  }
  let decoder: TextDecoder
  try {
    decoder = new TextDecoder(encoding, { fatal: false, ignoreBOM: true })
  } catch {
    decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true })
  }
  const text = decoder.decode(skip === 0 ? bytes : bytes.subarray(skip))
  return { text: decoder.encoding === "windows-1252" ? repair1252(text) : text, encoding: decoder.encoding, source }
}
