/**
 * The standard security handler of PDF, as far as PDF.js opens a document with it and no password: for
 * `pdfBudget`, which must see a stream's data decrypted before it can count what the data decodes to. Many PDFs on
 * the web are encrypted with an empty user password (to restrict printing or copying), and PDF.js reads them; one
 * that needs a password PDF.js cannot open, and then decodes nothing. Revisions 2 to 4 (RC4 and AES-128, keys from
 * MD5) and 5 and 6 (AES-256, keys from SHA-2) are followed the way PDF.js follows them, crypt filters included.
 * RC4 is written out here: OpenSSL 3 keeps it in its legacy provider, which Node does not load.
 */
import { createCipheriv, createDecipheriv, createHash } from "node:crypto"
import type * as PdfSyntax from "./pdfSyntax.js"

/** How a document's streams are decrypted: for the stream of object `num gen`, its data in the clear. */
export type Decrypt = (data: Uint8Array, num: number, gen: number) => Uint8Array

/** An opened document: how its streams are decrypted, and whether its metadata stream is. */
export interface Opened {
  readonly decrypt: Decrypt
  readonly encryptMetadata: boolean
}

/**
 * What PDF.js does with a document whose trailer names the encryption dictionary `dict` and the file identifier
 * `fileId`: "locked" when it cannot open it without a password (it then reads nothing), "unsupported" when it
 * refuses the handler, else how it decrypts streams.
 */
export const open = (
  dict: ReadonlyMap<string, PdfSyntax.Value>,
  fileId: Uint8Array,
  resolve: (value: PdfSyntax.Value | undefined) => PdfSyntax.Value | undefined
): Opened | "locked" | "unsupported" => {
  const get = (key: string) => resolve(dict.get(key))
  const filter = get("Filter")
  const algorithm = number(get("V"))
  if (filter?._tag !== "Name" || filter.name !== "Standard") return "unsupported"
  if (algorithm !== 1 && algorithm !== 2 && algorithm !== 4 && algorithm !== 5) return "unsupported"
  const cf = get("CF")
  const filters = cf?._tag === "Dict" ? cf.entries : undefined
  const stmf = get("StmF")
  let keyLength = number(get("Length")) || 0
  if (keyLength === 0) {
    if (algorithm <= 3) keyLength = 40
    else if (filters !== undefined && stmf?._tag === "Name") {
      const handler = resolve(filters.get(stmf.name))
      keyLength = (handler?._tag === "Dict" ? number(resolve(handler.entries.get("Length"))) : 0) || 128
      if (keyLength < 40) keyLength <<= 3
    }
  }
  if (!Number.isInteger(keyLength) || keyLength < 40 || keyLength % 8 !== 0) return "unsupported"
  const owner = bytes(get("O"))
  const user = bytes(get("U"))
  const revision = number(get("R"))
  const encryptMetadata = get("EncryptMetadata")
  const metadata = (algorithm === 4 || algorithm === 5) && !(encryptMetadata?._tag === "Bool" && !encryptMetadata.value)
  const key =
    algorithm === 5
      ? keyOf20(revision, user, bytes(get("UE")))
      : keyOf17(fileId, owner.subarray(0, 32), user.subarray(0, 32), number(get("P")), revision, keyLength, metadata)
  if (key === undefined) return "locked"
  const decrypt = decryptOf(algorithm, key, filters, stmf, resolve)
  return decrypt === undefined ? "unsupported" : { decrypt, encryptMetadata: metadata }
}

/** How streams are decrypted with the file key `key`; `undefined` for a crypt method PDF.js does not know. */
const decryptOf = (
  algorithm: number,
  key: Uint8Array,
  filters: ReadonlyMap<string, PdfSyntax.Value> | undefined,
  stmf: PdfSyntax.Value | undefined,
  resolve: (value: PdfSyntax.Value | undefined) => PdfSyntax.Value | undefined
): Decrypt | undefined => {
  if (algorithm < 4) return (data, num, gen) => rc4(objectKey(key, num, gen, false), data)
  // Revisions 4 and later name a crypt filter for streams: none ("Identity"), RC4, AES-128 or AES-256.
  const method = stmf?._tag === "Name" && stmf.name !== "Identity" ? filters?.get(stmf.name) : undefined
  const handler = resolve(method)
  const cfm = handler?._tag === "Dict" ? resolve(handler.entries.get("CFM")) : undefined
  const name = cfm?._tag === "Name" ? cfm.name : "None"
  if (name === "None") return (data) => data
  if (name === "V2") return (data, num, gen) => rc4(objectKey(key, num, gen, false), data)
  if (name === "AESV2") return (data, num, gen) => aes("aes-128-cbc", objectKey(key, num, gen, true), data)
  if (name === "AESV3") return (data) => aes("aes-256-cbc", key, data)
  return undefined
}

const number = (value: PdfSyntax.Value | undefined): number => (value?._tag === "Number" ? value.value : Number.NaN)
const bytes = (value: PdfSyntax.Value | undefined): Uint8Array =>
  value?._tag === "String" ? value.bytes : new Uint8Array(0)

export const md5 = (data: Uint8Array): Uint8Array => createHash("md5").update(data).digest()

/** The padding the standard handler puts after a password (all of it for an empty one). */
export const padding = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00,
  0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a
])

/** The file key of revisions 2 to 4 for the empty user password, when `U` confirms it (else `undefined`). */
const keyOf17 = (
  fileId: Uint8Array,
  owner: Uint8Array,
  user: Uint8Array,
  flags: number,
  revision: number,
  keyLength: number,
  encryptMetadata: boolean
): Uint8Array | undefined => {
  const p = flags | 0
  const input = Buffer.concat([
    padding,
    owner,
    Uint8Array.of(p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff, (p >>> 24) & 0xff),
    fileId,
    revision >= 4 && !encryptMetadata ? Uint8Array.of(0xff, 0xff, 0xff, 0xff) : new Uint8Array(0)
  ])
  const length = keyLength >> 3
  let hash = md5(input)
  if (revision >= 3) for (let i = 0; i < 50; i++) hash = md5(hash.subarray(0, length))
  const key = hash.subarray(0, length)
  let check: Uint8Array
  if (revision >= 3) {
    check = rc4(key, md5(Buffer.concat([padding, fileId])))
    for (let i = 1; i <= 19; i++)
      check = rc4(
        key.map((byte) => byte ^ i),
        check
      )
  } else check = rc4(key, padding)
  return check.every((byte, i) => user[i] === byte) ? key : undefined
}

/** The file key of revisions 5 and 6 for the empty user password, when `U` confirms it (else `undefined`). */
const keyOf20 = (revision: number, user: Uint8Array, userEncryption: Uint8Array): Uint8Array | undefined => {
  const hash = (input: Uint8Array) => (revision === 6 ? hash20(input) : createHash("sha256").update(input).digest())
  const expected = user.subarray(0, 32)
  const computed = hash(user.subarray(32, 40))
  if (expected.length !== 32 || !Buffer.from(computed).equals(expected)) return undefined
  const key = hash(user.subarray(40, 48))
  const decipher = createDecipheriv("aes-256-cbc", key, new Uint8Array(16)).setAutoPadding(false)
  const whole = userEncryption.subarray(0, userEncryption.length - (userEncryption.length % 16))
  return Buffer.concat([decipher.update(whole), decipher.final()])
}

/** Revision 6's hash of the empty password with `salt` (ISO 32000-2, algorithm 2.B), as PDF.js computes it. */
export const hash20 = (salt: Uint8Array): Uint8Array => {
  let k: Uint8Array = createHash("sha256").update(salt).digest()
  let e: Uint8Array = Uint8Array.of(0)
  for (let i = 0; i < 64 || e[e.length - 1] > i - 32; i++) {
    // The password (empty here), then the whole of K (32, 48 or 64 bytes), 64 times; AES-128-CBC keyed by K.
    const cipher = createCipheriv("aes-128-cbc", k.subarray(0, 16), k.subarray(16, 32)).setAutoPadding(false)
    const repeated = Buffer.concat(Array.from({ length: 64 }, () => k))
    e = Buffer.concat([cipher.update(repeated), cipher.final()])
    const remainder = e.subarray(0, 16).reduce((sum, byte) => sum + byte, 0) % 3
    k = createHash(remainder === 0 ? "sha256" : remainder === 1 ? "sha384" : "sha512")
      .update(e)
      .digest()
  }
  return k.subarray(0, 32)
}

/** An object's RC4 or AES-128 key: the file key, the object's number and generation, for AES the salt `sAlT`. */
export const objectKey = (key: Uint8Array, num: number, gen: number, isAes: boolean): Uint8Array => {
  const input = Buffer.concat([
    key,
    Uint8Array.of(num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff),
    isAes ? Uint8Array.of(0x73, 0x41, 0x6c, 0x54) : new Uint8Array(0)
  ])
  return md5(input).subarray(0, Math.min(key.length + 5, 16))
}

/** RC4 (the same for both directions). */
export const rc4 = (key: Uint8Array, data: Uint8Array): Uint8Array => {
  const s = new Uint8Array(256)
  for (let i = 0; i < 256; i++) s[i] = i
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 0xff
    const t = s[i]
    s[i] = s[j]
    s[j] = t
  }
  const out = new Uint8Array(data.length)
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff
    j = (j + s[i]) & 0xff
    const t = s[i]
    s[i] = s[j]
    s[j] = t
    out[n] = data[n] ^ s[(s[i] + s[j]) & 0xff]
  }
  return out
}

/**
 * AES-CBC as PDF.js decrypts a stream: the first 16 bytes are the IV, whole blocks only, and the padding of the last
 * block removed when it is well formed.
 */
const aes = (algorithm: "aes-128-cbc" | "aes-256-cbc", key: Uint8Array, data: Uint8Array): Uint8Array => {
  if (data.length < 32) return new Uint8Array(0)
  const body = data.subarray(16, data.length - ((data.length - 16) % 16))
  const decipher = createDecipheriv(algorithm, key, data.subarray(0, 16)).setAutoPadding(false)
  const plain = Buffer.concat([decipher.update(body), decipher.final()])
  const pad = plain[plain.length - 1]
  if (pad === undefined || pad > 16) return plain
  for (let i = plain.length - pad; i < plain.length; i++) if (plain[i] !== pad) return plain
  return plain.subarray(0, plain.length - pad)
}
