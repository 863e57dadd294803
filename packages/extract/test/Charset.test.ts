import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Charset from "../src/internal/charset.js"

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0))
const concat = (...parts: ReadonlyArray<Uint8Array | ReadonlyArray<number>>) => {
  const out: Array<number> = []
  for (const part of parts) out.push(...part)
  return Uint8Array.from(out)
}

// "café €" in windows-1252: é = E9, € = 80 (which ISO-8859-1 would map to a C1 control).
const cafe1252 = [0x63, 0x61, 0x66, 0xe9, 0x20, 0x80]
// "日本語" in Shift_JIS and "中文" in GB18030 (the GBK subset).
const nihongoSjis = [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]
const chineseGb = [0xd6, 0xd0, 0xce, 0xc4]

describe("Charset", () => {
  it("uses the Content-Type charset", () => {
    const decoded = Charset.decode(Uint8Array.from(cafe1252), "text/html; charset=windows-1252")
    expect(decoded).toEqual({ text: "café €", encoding: "windows-1252", source: "header" })
  })

  it("maps WHATWG labels: latin1 and iso-8859-1 mean windows-1252, quoted labels work", () => {
    expect(Charset.decode(Uint8Array.from(cafe1252), 'text/plain; charset="ISO-8859-1"').text).toBe("café €")
    expect(Charset.fromContentType("text/html;charset=latin1")).toBe("windows-1252")
    expect(Charset.fromContentType("text/html; charset=sjis")).toBe("shift_jis")
    expect(Charset.fromContentType("text/html; charset=no-such-thing")).toBeUndefined()
    expect(Charset.fromContentType(undefined)).toBeUndefined()
  })

  it("decodes Shift_JIS and GB18030 from the header", () => {
    expect(Charset.decode(Uint8Array.from(nihongoSjis), "text/plain; charset=Shift_JIS").text).toBe("日本語")
    expect(Charset.decode(Uint8Array.from(chineseGb), "text/plain; charset=gb18030").text).toBe("中文")
    expect(Charset.decode(Uint8Array.from(chineseGb), "text/plain; charset=gb2312").text).toBe("中文")
  })

  it("reads <meta charset> and http-equiv declarations when the header has none", () => {
    const meta = concat(ascii('<html><head><meta charset="shift_jis"><title>'), nihongoSjis, ascii("</title>"))
    expect(Charset.decode(meta, "text/html")).toMatchObject({ encoding: "shift_jis", source: "meta" })
    expect(Charset.decode(meta, "text/html").text).toContain("日本語")
    const equiv = concat(
      ascii('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><p>'),
      cafe1252
    )
    expect(Charset.decode(equiv, undefined)).toMatchObject({ encoding: "windows-1252", source: "meta" })
    expect(Charset.decode(equiv, undefined).text).toContain("café €")
    // A commented-out declaration does not count.
    expect(Charset.fromHtmlMeta(ascii('<!-- <meta charset="koi8-r"> --><meta charset="gbk">'))).toBe("gbk")
  })

  it("looks for the declaration beyond the first 1024 bytes, up to the prescan limit", () => {
    const late = concat(ascii(`<!-- ${"x".repeat(2000)} --><meta charset="gb18030">`), chineseGb)
    expect(Charset.decode(late, "text/html")).toMatchObject({
      encoding: "gb18030",
      text: expect.stringContaining("中文")
    })
    const tooLate = concat(ascii(`<p>${"x".repeat(Charset.prescanBytes)}</p><meta charset="gb18030">`))
    expect(Charset.decode(tooLate, "text/html").source).toBe("default")
  })

  it("lets the header win over meta, and the BOM win over both", () => {
    const page = concat(ascii('<meta charset="shift_jis">'), cafe1252)
    expect(Charset.decode(page, "text/html; charset=windows-1252").encoding).toBe("windows-1252")
    const bom = concat([0xef, 0xbb, 0xbf], new TextEncoder().encode('<meta charset="windows-1252">naïve'))
    const decoded = Charset.decode(bom, "text/html; charset=windows-1252")
    expect(decoded).toMatchObject({ encoding: "utf-8", source: "bom" })
    expect(decoded.text).toBe('<meta charset="windows-1252">naïve')
  })

  it("decodes UTF-16 with a BOM, little and big endian, without the BOM in the text", () => {
    const le = concat([0xff, 0xfe], [0x3c, 0, 0x70, 0, 0x3e, 0, 0xe9, 0, 0x34, 0x6c])
    expect(Charset.decode(le, "text/html")).toEqual({ text: "<p>é水", encoding: "utf-16le", source: "bom" })
    const be = concat([0xfe, 0xff], [0, 0x68, 0, 0x69])
    expect(Charset.decode(be, undefined)).toEqual({ text: "hi", encoding: "utf-16be", source: "bom" })
  })

  it("ignores a Content-Type charset=utf-16 on a body without a NUL byte (ASCII under a wrong label)", () => {
    // Decoded as UTF-16 this came back as CJK-looking garbage, reported as success.
    const page = ascii('<html><meta charset="windows-1252"><p>Plain ASCII, caf\xe9</p></html>')
    for (const label of ["utf-16", "utf-16le", "UTF-16BE"]) {
      expect(Charset.decode(page, `text/html; charset=${label}`)).toEqual({
        text: '<html><meta charset="windows-1252"><p>Plain ASCII, café</p></html>',
        encoding: "windows-1252",
        source: "meta"
      })
      expect(Charset.decode(ascii("just text"), `text/plain; charset=${label}`)).toMatchObject({
        text: "just text",
        source: "default"
      })
    }
  })

  it("keeps a Content-Type charset=utf-16 on real UTF-16 without a BOM", () => {
    const le = Uint8Array.from([0x3c, 0, 0x70, 0, 0x3e, 0, 0xe9, 0, 0x34, 0x6c])
    expect(Charset.decode(le, "text/html; charset=utf-16le")).toEqual({
      text: "<p>é水",
      encoding: "utf-16le",
      source: "header"
    })
    const be = Uint8Array.from([0, 0x68, 0, 0x69])
    expect(Charset.decode(be, "text/plain; charset=utf-16be").text).toBe("hi")
  })

  it("treats a declared UTF-16 in <meta> as UTF-8 (the declaration was readable as ASCII)", () => {
    expect(Charset.fromHtmlMeta(ascii('<meta charset="utf-16">'))).toBe("utf-8")
  })

  it("prefers valid non-ASCII UTF-8 over a stale legacy <meta> declaration", () => {
    const resaved = new TextEncoder().encode('<meta charset="gb2312"><p>中文内容</p>')
    expect(Charset.decode(resaved, "text/html")).toMatchObject({ source: "utf-8-content", encoding: "utf-8" })
    expect(Charset.decode(resaved, "text/html").text).toContain("中文内容")
  })

  it("reads the XML declaration for XML", () => {
    const xml = concat(ascii('<?xml version="1.0" encoding="ISO-8859-1"?><a>'), cafe1252, ascii("</a>"))
    expect(Charset.decode(xml, "application/xml", "xml")).toMatchObject({ encoding: "windows-1252", source: "meta" })
  })

  it("falls back to UTF-8 and replaces malformed bytes with U+FFFD", () => {
    const decoded = Charset.decode(Uint8Array.from([0x68, 0xff, 0x69]), undefined, "none")
    expect(decoded).toEqual({ text: "h\uFFFDi", encoding: "utf-8", source: "default" })
  })

  it.prop(
    "never throws on random bytes and random Content-Types",
    [FastCheck.uint8Array({ maxLength: 600 }), FastCheck.option(FastCheck.string({ maxLength: 60 }))],
    ([bytes, contentType]) => {
      for (const markup of ["html", "xml", "none"] as const) {
        const decoded = Charset.decode(bytes, contentType ?? undefined, markup)
        expect(typeof decoded.text).toBe("string")
        expect(["bom", "header", "meta", "utf-8-content", "default"]).toContain(decoded.source)
      }
    },
    { fastCheck: { numRuns: 300 } }
  )

  it.prop(
    "a <meta charset> declaration is found whatever text precedes it in the prescan window",
    [
      FastCheck.constantFrom("windows-1252", "shift_jis", "gb18030", "euc-kr", "koi8-r"),
      FastCheck.string({ maxLength: 300 })
    ],
    ([label, noise]) => {
      const text = noise.replace(/[<>]/g, "")
      expect(Charset.fromHtmlMeta(new TextEncoder().encode(`<p>${text}</p><meta charset='${label}'>`))).toBe(label)
    }
  )
})
