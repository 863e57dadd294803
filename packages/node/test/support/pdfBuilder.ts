/**
 * PDFs for tests of the PDF budget: a one-page PDF whose content stream is given (its dictionary entries and its
 * data), with a cross-reference table PDF.js accepts, and the encoders of PDF's filters (LZW, run-length, hex,
 * base-85) to make that data. The encoders are the plain textbook ones; bombs are built from them.
 */
import { createCipheriv, randomBytes } from "node:crypto"
import * as zlib from "node:zlib"
import * as PdfCrypt from "../../src/internal/pdfCrypt.js"

/** A stream object: its dictionary's entries (without `/Length`) and its data. */
export interface StreamObject {
  readonly dict: string
  readonly data: Uint8Array
}

/**
 * How a test PDF is encrypted by the standard security handler: RC4 (revision 3), AES-128 (revision 4) or AES-256
 * (revision 6), with this user password (empty: PDF.js opens it without one).
 */
export interface Encryption {
  readonly method: "rc4" | "aes128" | "aes256"
  readonly userPassword?: string | undefined
}

/**
 * A one-page PDF showing `content` (its dictionary entries and data) with Helvetica as `/F1`; `extra` objects
 * (numbered from 6, in order) may be referenced from the dictionary, and may be streams. With `encryption`, every
 * stream is encrypted and the trailer names the encryption dictionary and the file identifier. `contents` is the
 * page's `/Contents` (an array may name the content stream, object 4, more than once).
 */
export const pdf = (
  content: StreamObject,
  extra: ReadonlyArray<string | StreamObject> = [],
  encryption?: Encryption,
  contents = "4 0 R"
): Uint8Array => {
  const fileId = randomBytes(16)
  const security = encryption === undefined ? undefined : securityHandler(encryption, fileId)
  const parts: Array<Buffer> = []
  const offsets: Array<number> = []
  let length = 0
  const add = (part: string | Uint8Array) => {
    const buffer = typeof part === "string" ? Buffer.from(part, "latin1") : Buffer.from(part)
    parts.push(buffer)
    length += buffer.length
  }
  const object = (n: number, body: string | StreamObject) => {
    offsets[n] = length
    if (typeof body === "string") return add(`${n} 0 obj\n${body}\nendobj\n`)
    const data = security === undefined ? body.data : security.encrypt(body.data, n)
    add(`${n} 0 obj\n<< ${body.dict} /Length ${data.length} >>\nstream\n`)
    add(data)
    add("\nendstream\nendobj\n")
  }
  add("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
  object(1, "<< /Type /Catalog /Pages 2 0 R >>")
  object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
  object(
    3,
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents ${contents} >>`
  )
  object(4, content)
  object(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
  extra.forEach((body, i) => object(6 + i, body))
  if (security !== undefined) object(6 + extra.length, security.dict)
  const size = 6 + extra.length + (security === undefined ? 0 : 1)
  const xref = length
  add(`xref\n0 ${size}\n0000000000 65535 f \n`)
  for (let n = 1; n < size; n++) add(`${String(offsets[n]).padStart(10, "0")} 00000 n \n`)
  const encrypt =
    security === undefined
      ? ""
      : ` /Encrypt ${size - 1} 0 R /ID [<${fileId.toString("hex")}> <${fileId.toString("hex")}>]`
  add(`trailer\n<< /Size ${size} /Root 1 0 R${encrypt} >>\nstartxref\n${xref}\n%%EOF\n`)
  return Buffer.concat(parts)
}

/** A content stream that shows `text` (ASCII, no parentheses or backslashes) at the top of the page. */
export const showText = (text: string): Uint8Array => Buffer.from(`BT /F1 12 Tf 72 712 Td (${text}) Tj ET\n`, "latin1")

/** FlateDecode's encoder: zlib. */
export const flate = (data: Uint8Array): Uint8Array => zlib.deflateSync(data, { level: 9 })

/** `bytes` zeros through zlib, streamed a MiB at a time (the zeros are never held at once): about 1 KB a MiB. */
export const flateZeros = async (bytes: number): Promise<Uint8Array> => {
  const deflate = zlib.createDeflate({ level: 9 })
  const chunks: Array<Buffer> = []
  deflate.on("data", (chunk: Buffer) => chunks.push(chunk))
  const zeros = Buffer.alloc(Math.min(bytes, 1024 * 1024))
  for (let left = bytes; left > 0; left -= zeros.length) {
    if (!deflate.write(zeros.subarray(0, Math.min(left, zeros.length)))) {
      await new Promise((resolve) => deflate.once("drain", resolve))
    }
  }
  // The last bytes (the final block's end and the checksum) arrive before "end", which may come after "finish".
  const ended = new Promise((resolve) => deflate.once("end", resolve))
  deflate.end()
  await ended
  return Buffer.concat(chunks)
}

/** Writes codes of varying width, most significant bit first, as LZWDecode reads them. */
class CodeWriter {
  private readonly out: Array<number> = []
  private acc = 0
  private bits = 0
  write(code: number, width: number): void {
    this.acc = (this.acc << width) | code
    this.bits += width
    while (this.bits >= 8) {
      this.out.push((this.acc >>> (this.bits - 8)) & 0xff)
      this.bits -= 8
      this.acc &= (1 << this.bits) - 1
    }
  }
  bytes(): Uint8Array {
    if (this.bits > 0) this.out.push((this.acc << (8 - this.bits)) & 0xff)
    return Uint8Array.from(this.out)
  }
}

/** The width of the next code after `nextCode` entries, as LZWDecode (`/EarlyChange 1`) widens it. */
const widthFor = (nextCode: number): number =>
  nextCode + 1 >= 2048 ? 12 : nextCode + 1 >= 1024 ? 11 : nextCode + 1 >= 512 ? 10 : 9

/** LZWDecode's encoder (`/EarlyChange 1`): the textbook one, clearing the table when it is full. */
export const lzw = (data: Uint8Array): Uint8Array => {
  const writer = new CodeWriter()
  let table = new Map<string, number>()
  let nextCode = 258
  writer.write(256, 9)
  let prefix = ""
  for (const byte of data) {
    const extended = prefix + String.fromCharCode(byte)
    if (prefix === "" || table.has(extended)) {
      prefix = extended
      continue
    }
    writer.write(prefix.length === 1 ? prefix.charCodeAt(0) : table.get(prefix)!, widthFor(nextCode - 1))
    table.set(extended, nextCode++)
    if (nextCode + 1 >= 4096) {
      writer.write(256, 12)
      table = new Map()
      nextCode = 258
    }
    prefix = String.fromCharCode(byte)
  }
  if (prefix !== "")
    writer.write(prefix.length === 1 ? prefix.charCodeAt(0) : table.get(prefix)!, widthFor(nextCode - 1))
  writer.write(257, widthFor(nextCode))
  return writer.bytes()
}

/**
 * An LZWDecode bomb: codes for runs of 1, 2, 3, … zeros fill the table, then the longest run (3,839 zeros) is
 * sent again and again until `bytes` are reached, 12 bits for each.
 */
export const lzwZeros = (bytes: number): Uint8Array => {
  const writer = new CodeWriter()
  let nextCode = 258
  let decoded = 0
  let first = true
  const send = (code: number, length: number) => {
    writer.write(code, widthFor(nextCode - (first ? 1 : 0)))
    decoded += length
    if (!first) nextCode++
    first = false
  }
  send(0, 1)
  for (let code = 258; code < 4096 && decoded < bytes; code++) send(code, code - 256)
  while (decoded < bytes) send(4095, 3839)
  return writer.bytes()
}

/** RunLengthDecode's encoder: runs of 2 to 128 equal bytes, literal stretches of up to 128 between. */
export const runLength = (data: Uint8Array): Uint8Array => {
  const out: Array<number> = []
  let at = 0
  while (at < data.length) {
    let run = 1
    while (at + run < data.length && data[at + run] === data[at] && run < 128) run++
    if (run >= 2) {
      out.push(257 - run, data[at])
      at += run
      continue
    }
    let end = at + 1
    while (end < data.length && end - at < 128 && !(end + 1 < data.length && data[end] === data[end + 1])) end++
    out.push(end - at - 1, ...data.subarray(at, end))
    at = end
  }
  out.push(128)
  return Uint8Array.from(out)
}

/** ASCIIHexDecode's encoder, with a line break every 64 digits. */
export const asciiHex = (data: Uint8Array): Uint8Array =>
  Buffer.from(
    `${(
      Buffer.from(data)
        .toString("hex")
        .match(/.{1,64}/g) ?? []
    ).join("\n")}>`,
    "latin1"
  )

/** ASCII85Decode's encoder: `z` for four zeros, the last group short. */
export const ascii85 = (data: Uint8Array): Uint8Array => {
  let out = ""
  for (let at = 0; at < data.length; at += 4) {
    const group = data.subarray(at, at + 4)
    let t = 0
    for (let i = 0; i < 4; i++) t = t * 256 + (group[i] ?? 0)
    if (group.length === 4 && t === 0) {
      out += "z"
      continue
    }
    const digits: Array<string> = []
    for (let i = 0; i < 5; i++) {
      digits.unshift(String.fromCharCode((t % 85) + 0x21))
      t = Math.floor(t / 85)
    }
    out += digits.slice(0, group.length + 1).join("")
  }
  return Buffer.from(`${out}~>`, "latin1")
}

const hex = (bytes: Uint8Array) => `<${Buffer.from(bytes).toString("hex")}>`

/** A password padded (or cut) to 32 bytes with the handler's padding. */
const padded = (password: string) => Buffer.concat([Buffer.from(password, "latin1"), PdfCrypt.padding]).subarray(0, 32)

const aesEncrypt = (algorithm: "aes-128-cbc" | "aes-256-cbc", key: Uint8Array, data: Uint8Array) => {
  const iv = randomBytes(16)
  const cipher = createCipheriv(algorithm, key, iv)
  return Buffer.concat([iv, cipher.update(data), cipher.final()])
}

/**
 * The encryption dictionary and the stream encryption of `encryption`, by the textbook algorithms of ISO 32000
 * (the owner password is "owner"; revision 6's owner entries are random, as PDF.js reads only the user's).
 */
const securityHandler = (
  encryption: Encryption,
  fileId: Uint8Array
): { readonly dict: string; readonly encrypt: (data: Uint8Array, num: number) => Uint8Array } => {
  const user = encryption.userPassword ?? ""
  if (encryption.method === "aes256") {
    const fileKey = randomBytes(32)
    const validationSalt = randomBytes(8)
    const keySalt = randomBytes(8)
    const hash = (salt: Uint8Array) => PdfCrypt.hash20(Buffer.concat([Buffer.from(user, "utf8"), salt]))
    // The empty password hashes as the salt alone; another password is not supported by this builder.
    if (user !== "") throw new Error("pdfBuilder: AES-256 with a user password is not built")
    const u = Buffer.concat([hash(validationSalt), validationSalt, keySalt])
    const wrap = createCipheriv("aes-256-cbc", hash(keySalt), new Uint8Array(16)).setAutoPadding(false)
    const ue = Buffer.concat([wrap.update(fileKey), wrap.final()])
    return {
      dict:
        "<< /Filter /Standard /V 5 /R 6 /Length 256 /P -1 /CF << /StdCF << /CFM /AESV3 /Length 32 >> >> " +
        `/StmF /StdCF /StrF /StdCF /O ${hex(randomBytes(48))} /U ${hex(u)} /OE ${hex(randomBytes(32))} ` +
        `/UE ${hex(ue)} /Perms ${hex(randomBytes(16))} >>`,
      encrypt: (data) => aesEncrypt("aes-256-cbc", fileKey, data)
    }
  }
  const revision = encryption.method === "rc4" ? 3 : 4
  const p = -4
  // Algorithm 3: the owner entry, RC4 of the padded user password under the owner password's key.
  let ownerKey = PdfCrypt.md5(padded("owner"))
  for (let i = 0; i < 50; i++) ownerKey = PdfCrypt.md5(ownerKey)
  let o = PdfCrypt.rc4(ownerKey, padded(user))
  for (let i = 1; i <= 19; i++)
    o = PdfCrypt.rc4(
      ownerKey.map((byte) => byte ^ i),
      o
    )
  // Algorithm 2: the file key from the user password.
  const flags = Uint8Array.of(p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff, (p >>> 24) & 0xff)
  let key = PdfCrypt.md5(Buffer.concat([padded(user), o, flags, fileId]))
  for (let i = 0; i < 50; i++) key = PdfCrypt.md5(key)
  // Algorithm 5: the user entry.
  let u = PdfCrypt.rc4(key, PdfCrypt.md5(Buffer.concat([PdfCrypt.padding, fileId])))
  for (let i = 1; i <= 19; i++)
    u = PdfCrypt.rc4(
      key.map((byte) => byte ^ i),
      u
    )
  const entries = `/O ${hex(o)} /U ${hex(Buffer.concat([u, new Uint8Array(16)]))} /P ${p}`
  if (revision === 3) {
    return {
      dict: `<< /Filter /Standard /V 2 /R 3 /Length 128 ${entries} >>`,
      encrypt: (data, num) => PdfCrypt.rc4(PdfCrypt.objectKey(key, num, 0, false), data)
    }
  }
  return {
    dict:
      "<< /Filter /Standard /V 4 /R 4 /Length 128 /CF << /StdCF << /CFM /AESV2 /Length 16 >> >> " +
      `/StmF /StdCF /StrF /StdCF ${entries} >>`,
    encrypt: (data, num) => aesEncrypt("aes-128-cbc", PdfCrypt.objectKey(key, num, 0, true), data)
  }
}
