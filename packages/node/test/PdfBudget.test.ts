import { beforeAll, describe, expect, it } from "@effect/vitest"
import * as Pdf from "@websearch/extract/Pdf"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as zlib from "node:zlib"
import * as PdfBudget from "../src/internal/pdfBudget.js"
import * as PdfFilters from "../src/internal/pdfFilters.js"
import * as PdfBuilder from "./support/pdfBuilder.js"

const MiB = 1024 * 1024
const over = `it decodes to more than ${PdfBudget.maxDecodedBytes} bytes`

/** Bytes with runs, repeats and noise: every branch of every encoder shows. */
const data = FastCheck.array(
  FastCheck.oneof(
    FastCheck.uint8Array({ maxLength: 200 }),
    FastCheck.tuple(FastCheck.constantFrom("BT ", "(text) Tj ", "\n", "\u00e9t\u00e9 "), FastCheck.nat(30)).map(
      ([word, times]) => Buffer.from(word.repeat(times))
    ),
    FastCheck.tuple(FastCheck.integer({ min: 0, max: 255 }), FastCheck.nat(700)).map(([byte, times]) =>
      new Uint8Array(times).fill(byte)
    )
  ),
  { maxLength: 30 }
).map((parts) => new Uint8Array(Buffer.concat(parts)))

/** Each filter by its PDF name, its encoder and its decoder. */
const filters = {
  FlateDecode: { encode: PdfBuilder.flate, decode: PdfFilters.flate },
  LZWDecode: { encode: PdfBuilder.lzw, decode: PdfFilters.lzw(1) },
  RunLengthDecode: { encode: PdfBuilder.runLength, decode: PdfFilters.runLength },
  ASCIIHexDecode: { encode: PdfBuilder.asciiHex, decode: PdfFilters.asciiHex },
  ASCII85Decode: { encode: PdfBuilder.ascii85, decode: PdfFilters.ascii85 }
} as const
type FilterName = keyof typeof filters
const filterName = FastCheck.constantFrom(...(Object.keys(filters) as Array<FilterName>))

/** `data` encoded for the chain `names` (the first name is the first decoded, so the last encoded). */
const encode = (bytes: Uint8Array, names: ReadonlyArray<FilterName>): Uint8Array =>
  names.reduceRight((encoded, name) => filters[name].encode(encoded), bytes)

describe("PDF filters, as PDF.js decodes them", () => {
  it.prop("each decodes what its encoder made, and counts as many bytes", [data, filterName], ([bytes, name]) => {
    const { decode, encode: encoder } = filters[name]
    const encoded = encoder(bytes)
    const decoded = decode(encoded, 16 * MiB, true)
    expect(Buffer.from(decoded.bytes ?? [])).toEqual(Buffer.from(bytes))
    expect(decode(encoded, 16 * MiB, false).size).toBe(bytes.length)
  })

  it.prop("stops a little past its limit and then gives no bytes", [data, filterName], ([bytes, name]) => {
    FastCheck.pre(bytes.length > 10)
    const { decode, encode: encoder } = filters[name]
    const decoded = decode(encoder(bytes), bytes.length - 10, true)
    expect(decoded.size).toBeGreaterThan(bytes.length - 10)
    expect(decoded.bytes).toBeUndefined()
  })

  it.prop(
    "never throws on arbitrary bytes",
    [FastCheck.uint8Array({ maxLength: 600 }), filterName],
    ([bytes, name]) => {
      for (const emit of [false, true]) {
        const output = filters[name].decode(bytes, 4096, emit)
        // A FlateDecode stream with a valid header that zlib refuses to inflate is uncountable (`NaN`), and the
        // budget refuses the PDF (seed 2109170879: [0x68, 0x05, 0x06]).
        if (name === "FlateDecode" && emit && Number.isNaN(output.size)) continue
        expect(output.size).toBeGreaterThanOrEqual(0)
      }
    }
  )

  it("a FlateDecode stream zlib refuses behind a valid header is uncountable when decoded, counted otherwise", () => {
    const refused = Uint8Array.from([0x68, 0x05, 0x06])
    expect(filters.FlateDecode.decode(refused, 4096, true).size).toBeNaN()
    expect(filters.FlateDecode.decode(refused, 4096, false).size).toBeGreaterThanOrEqual(0)
  })
})

describe("the PDF budget", () => {
  it.prop(
    "counts at least what a chain of filters decodes to: refused under it, read with room",
    [data, FastCheck.array(filterName, { minLength: 1, maxLength: 3 })],
    ([bytes, names]) => {
      FastCheck.pre(bytes.length > 0)
      const body = PdfBuilder.pdf({
        dict: `/Filter [${names.map((name) => `/${name}`).join(" ")}]`,
        data: encode(bytes, names)
      })
      expect(PdfBudget.refusal(body, bytes.length - 1)).toBe(`it decodes to more than ${bytes.length - 1} bytes`)
      expect(PdfBudget.refusal(body, 64 * MiB)).toBeUndefined()
    }
  )

  it.effect.prop(
    "a PDF within the budget is read by PDF.js through any chain of filters",
    [FastCheck.array(filterName, { minLength: 1, maxLength: 3 })],
    ([names]) =>
      Effect.promise(async () => {
        const body = PdfBuilder.pdf({
          dict: `/Filter [${names.map((name) => `/${name}`).join(" ")}]`,
          data: encode(PdfBuilder.showText("Hello chains"), names)
        })
        expect(PdfBudget.refusal(body)).toBeUndefined()
        const read = await Pdf.fromBytes(new Uint8Array(body))
        expect(read).toMatchObject({ markdown: "## Page 1\n\nHello chains" })
      }),
    { fastCheck: { numRuns: 20 } }
  )

  const zeros = (bytes: number) => new Uint8Array(bytes)
  // 1 GiB of zeros through zlib: about a megabyte.
  let deflatedZeros: Uint8Array = new Uint8Array(0)
  beforeAll(async () => {
    deflatedZeros = await PdfBuilder.flateZeros(1024 * MiB)
  })
  const bombs: ReadonlyArray<readonly [string, () => Uint8Array, string]> = [
    [
      "a FlateDecode stream of 1 GiB",
      () => PdfBuilder.pdf({ dict: "/Filter /FlateDecode", data: deflatedZeros }),
      over
    ],
    [
      // PDF.js does not check the window size of a zlib header; zlib does.
      "a FlateDecode stream whose header claims a window zlib refuses",
      () =>
        PdfBuilder.pdf({
          dict: "/Filter /FlateDecode",
          data: Buffer.concat([Uint8Array.of(0xf8, 0x00), deflatedZeros.subarray(2)])
        }),
      over
    ],
    [
      "FlateDecode twice (2 KB on the wire)",
      () => PdfBuilder.pdf({ dict: "/Filter [/FlateDecode /FlateDecode]", data: PdfBuilder.flate(deflatedZeros) }),
      over
    ],
    [
      "the abbreviations /F and /Fl",
      () => PdfBuilder.pdf({ dict: "/F [/Fl /Fl]", data: PdfBuilder.flate(deflatedZeros) }),
      over
    ],
    [
      "an LZWDecode stream of 1 GiB",
      () => PdfBuilder.pdf({ dict: "/Filter /LZWDecode", data: PdfBuilder.lzwZeros(1024 * MiB) }),
      over
    ],
    [
      "a RunLengthDecode stream of 4 MiB (256 MiB decoded)",
      () =>
        PdfBuilder.pdf({
          dict: "/Filter /RunLengthDecode",
          data: new Uint8Array(4 * MiB).map((_, i) => (i % 2 === 0 ? 129 : 0))
        }),
      over
    ],
    [
      "run lengths inside FlateDecode",
      () =>
        PdfBuilder.pdf({
          dict: "/Filter [/FlateDecode /RunLengthDecode]",
          data: PdfBuilder.flate(new Uint8Array(16 * MiB).map((_, i) => (i % 2 === 0 ? 129 : 0)))
        }),
      over
    ],
    [
      "a predictor whose rows are 128 MiB",
      () =>
        PdfBuilder.pdf({
          dict: "/Filter /FlateDecode /DecodeParms << /Predictor 12 /Colors 4 /Columns 33554432 >>",
          data: PdfBuilder.flate(zeros(64))
        }),
      over
    ],
    [
      "a filter chain in another object",
      () =>
        PdfBuilder.pdf({ dict: "/Filter 6 0 R", data: PdfBuilder.flate(deflatedZeros) }, [
          "[/FlateDecode /FlateDecode]"
        ]),
      over
    ],
    [
      "a comment between the dictionary and the stream keyword",
      () =>
        Buffer.from(
          Buffer.from(
            PdfBuilder.pdf({ dict: "/Filter [/FlateDecode /FlateDecode]", data: PdfBuilder.flate(deflatedZeros) })
          )
            .toString("latin1")
            .replace(">>\nstream\n", ">> % a comment\nstream\n"),
          "latin1"
        ),
      over
    ],
    [
      "a filter named in an object the body does not hold",
      () => PdfBuilder.pdf({ dict: "/Filter 99 0 R", data: PdfBuilder.flate(deflatedZeros) }),
      "a stream's filter is named in an object that could not be read"
    ],
    [
      "an image filter feeding another",
      () => PdfBuilder.pdf({ dict: "/Filter [/DCTDecode /FlateDecode]", data: deflatedZeros }),
      "an image filter feeds another filter"
    ]
  ]

  it.each(bombs)("refuses %s", (_, body, reason) => {
    expect(PdfBudget.refusal(body())).toBe(reason)
  })

  it("refuses streams that overlap, and an encryption it cannot read", () => {
    const plain = Buffer.from(
      PdfBuilder.pdf({ dict: "/Filter /FlateDecode", data: PdfBuilder.flate(PdfBuilder.showText("x")) })
    )
    expect(PdfBudget.refusal(plain)).toBeUndefined()
    const unreadable = Buffer.from(
      plain.toString("latin1").replace("/Root 1 0 R", "/Root 1 0 R /Encrypt 9 0 R"),
      "latin1"
    )
    expect(PdfBudget.refusal(unreadable)).toBe("it is encrypted, and its encryption dictionary could not be read")
    // A stream's data holding another stream, which a crafted cross-reference table can point PDF.js at.
    const inner = PdfBuilder.pdf({ dict: "/Filter /FlateDecode", data: PdfBuilder.flate(PdfBuilder.showText("y")) })
    const outer = PdfBuilder.pdf({
      dict: "",
      data: new Uint8Array(Buffer.concat([Buffer.from("q\n"), inner, Buffer.from("endstream")]))
    })
    expect(PdfBudget.refusal(outer)).toBe("its streams overlap")
  })

  const methods = ["rc4", "aes128", "aes256"] as const

  it.each(methods)("decrypts a PDF encrypted with %s and no user password, as PDF.js opens it", async (method) => {
    const readable = PdfBuilder.pdf(
      { dict: "/Filter /FlateDecode", data: PdfBuilder.flate(PdfBuilder.showText("Hello encrypted")) },
      [],
      { method }
    )
    expect(PdfBudget.refusal(readable)).toBeUndefined()
    expect(await Pdf.fromBytes(readable)).toMatchObject({ markdown: "## Page 1\n\nHello encrypted" })
    const bomb = PdfBuilder.pdf(
      { dict: "/Filter [/FlateDecode /FlateDecode]", data: PdfBuilder.flate(deflatedZeros) },
      [],
      { method }
    )
    expect(PdfBudget.refusal(bomb)).toBe(over)
    // Counted on the data in the clear: under a budget that fits it, the same PDF is read.
    expect(PdfBudget.refusal(readable, 40)).toBe("it decodes to more than 40 bytes")
  })

  it("finds the encryption under an escaped name, decrypts a stream that claims to be metadata, never throws", () => {
    const bomb = (method: "rc4" | "aes256", dict: string) =>
      Buffer.from(PdfBuilder.pdf({ dict, data: PdfBuilder.flate(deflatedZeros) }, [], { method })).toString("latin1")
    // `/Encr#79pt` is `/Encrypt` to PDF.js.
    const escaped = bomb("rc4", "/Filter [/FlateDecode /FlateDecode]").replace("/Encrypt ", "/Encr#79pt ")
    expect(PdfBudget.refusal(Buffer.from(escaped, "latin1"))).toBe(over)
    // PDF.js decrypts a content stream whatever its /Type says (RC4 encrypts metadata too).
    const metadata = bomb("rc4", "/Type /Metadata /Filter [/FlateDecode /FlateDecode]")
    expect(PdfBudget.refusal(Buffer.from(metadata, "latin1"))).toBe(over)
    // An AES-256 dictionary without /UE has no key to decrypt with: refused, not thrown.
    const noKey = bomb("aes256", "/Filter /FlateDecode").replace(/\/UE <[0-9a-f]+>/, "")
    expect(PdfBudget.refusal(Buffer.from(noKey, "latin1"))).toBe("its structure could not be checked")
  })

  it.each(["rc4", "aes128"] as const)(
    "lets a PDF encrypted with %s and a user password through: PDF.js opens nothing without it",
    async (method) => {
      const bomb = PdfBuilder.pdf(
        { dict: "/Filter [/FlateDecode /FlateDecode]", data: PdfBuilder.flate(deflatedZeros) },
        [],
        { method, userPassword: "secret" }
      )
      expect(PdfBudget.refusal(bomb)).toBeUndefined()
      expect(await Pdf.fromBytes(bomb)).toMatchObject({ _tag: "PdfError", reason: "encrypted" })
    }
  )

  it("counts an image filter's input but never decodes the image", () => {
    const jpeg = PdfBuilder.flate(zeros(10 * MiB))
    const body = PdfBuilder.pdf({ dict: "/Filter [/FlateDecode /DCTDecode]", data: jpeg })
    expect(PdfBudget.refusal(body, 10 * MiB)).toBeUndefined()
    expect(PdfBudget.refusal(body, 10 * MiB - 1)).toBe(`it decodes to more than ${10 * MiB - 1} bytes`)
  })

  it.prop(
    "never throws, whatever the body: arbitrary bytes, or a PDF with syntax cut and spliced in",
    [
      FastCheck.uint8Array({ maxLength: 2000 }),
      FastCheck.array(
        FastCheck.tuple(
          FastCheck.nat(),
          FastCheck.constantFrom(
            "stream\n",
            "endstream",
            "<<",
            ">>",
            "(",
            ")",
            "%",
            "[",
            "/Filter",
            " 6 0 R",
            "obj",
            "<"
          )
        ),
        { maxLength: 12 }
      )
    ],
    ([noise, splices]) => {
      let text = Buffer.from(
        PdfBuilder.pdf(
          { dict: "/Filter [/AHx /Fl]", data: encode(PdfBuilder.showText("z"), ["ASCIIHexDecode", "FlateDecode"]) },
          ["/FlateDecode"]
        )
      ).toString("latin1")
      for (const [at, piece] of splices) {
        const i = at % text.length
        text = text.slice(0, i) + piece + text.slice(i + (at % 3))
      }
      for (const body of [noise, new Uint8Array(Buffer.from(text, "latin1"))]) {
        const refusal = PdfBudget.refusal(body)
        expect(refusal === undefined || typeof refusal === "string").toBe(true)
      }
    }
  )
})

describe("the PDF budget, FlateDecode streams", () => {
  it("adds up every zlib stream of the PDF against the budget; data that is not zlib decodes to nothing", () => {
    const stream = { dict: "/Filter /FlateDecode", data: zlib.deflateSync(Buffer.alloc(600)) }
    expect(PdfBudget.refusal(PdfBuilder.pdf(stream), 1000)).toBeUndefined()
    expect(PdfBudget.refusal(PdfBuilder.pdf(stream, [stream]), 1000)).toBe("it decodes to more than 1000 bytes")
    // PDF.js refuses the header of a stream that is not zlib (an image's DCT data, say) and decodes nothing from it.
    const notZlib = { dict: "/Filter /FlateDecode", data: Buffer.alloc(5000, 0xff) }
    expect(PdfBudget.refusal(PdfBuilder.pdf(stream, [notZlib]), 1000)).toBeUndefined()
  })
})
