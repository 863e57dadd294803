/**
 * A bound on what a PDF's streams decode to. The body cap counts bytes on the wire, and PDF.js decodes a stream
 * into one growing ArrayBuffer, which no worker heap limit bounds: a 2 MB PDF of a 2 GiB stream of zeros took a
 * fetch to 3.2 GB of memory. Before PDF.js sees a body, every stream's filters are followed as PDF.js would apply
 * them (`/Filter` or `/F`, a name or an array, direct or a reference), and what each decodes to is counted
 * (`pdfFilters`: FlateDecode without inflating, LZW, run-length, hex and base-85 step by step; a filter whose
 * output another filter reads is decoded, and its output counts too, since PDF.js keeps it as well). A PDF whose
 * streams decode to more than the budget in total is refused, and so is one that hides what they decode to: a
 * stream dictionary that cannot be read, a filter named through an object the body does not hold in the clear, an
 * image filter followed by another, an encryption PDF.js would open but this cannot read, streams that overlap
 * (only a crafted file has them, and counting each would cost more than linear time). An encrypted PDF that PDF.js
 * opens without a password is decrypted first (`pdfCrypt`); one that needs a password is let through, since PDF.js
 * reads nothing from it. Image filters (DCT, JPX, JBIG2, CCITT) end the count: text extraction never decodes an
 * image, only the bytes that feed it.
 *
 * This count is the first filter, not the whole bound: PDF.js's reading of a crafted file has ways to allocate that
 * no count ahead of it follows exactly (a stream drawn many times into a page's joined contents, streams inside
 * object streams, a deflate stream its inflater reads further than the format allows, images sized by their
 * dictionary). On an extraction worker, `allocationCap` also refuses any single buffer over the budget while
 * PDF.js reads; on the calling thread (when workers cannot start) this count is all there is.
 *
 * Counting used to inflate each stream with node:zlib and drop the output: 80 ms of CPU per 128 MiB counted, on
 * the libuv thread pool, at the process's priority whichever worker asked. The count now runs on the extraction
 * worker's own thread, at its lane's priority, in milliseconds; every step is linear in the body.
 */
import * as PdfCrypt from "./pdfCrypt.js"
import * as PdfFilters from "./pdfFilters.js"
import * as PdfSyntax from "./pdfSyntax.js"

/** The most a PDF's streams may decode to, in total: 128 MiB. */
export const maxDecodedBytes = 128 * 1024 * 1024

/** More definitions of one object than this, and it is not followed. */
const maxDefinitions = 16

/**
 * Why a PDF is refused, in words for an error message; `undefined` when it is within the budget. Never throws: a
 * body that makes any step fail is refused.
 */
export const refusal = (body: Uint8Array, budget: number = maxDecodedBytes): string | undefined => {
  try {
    return count(body, budget)
  } catch {
    return "its structure could not be checked"
  }
}

const count = (body: Uint8Array, budget: number): string | undefined => {
  let objects: ReadonlyMap<number, ReadonlyArray<PdfSyntax.Region>> | undefined
  const resolved = new Map<number, PdfSyntax.Value | undefined>()
  // A reference's value when the body holds its object in the clear, once per object number; `undefined` when it
  // does not, or holds it more than a few times (incremental updates redefine an object once or twice), or with
  // different values.
  const resolve = (value: PdfSyntax.Value | undefined): PdfSyntax.Value | undefined => {
    if (value?._tag !== "Ref") return value
    if (resolved.has(value.num)) return resolved.get(value.num)
    objects ??= PdfSyntax.objects(body)
    const regions = objects.get(value.num) ?? []
    const values =
      regions.length > maxDefinitions ? [] : regions.map((region) => PdfSyntax.parseAt(body, region.start, region.end))
    const first = values[0]
    const same = first !== undefined && values.every((other) => other !== undefined && PdfSyntax.equal(other, first))
    resolved.set(value.num, same ? first : undefined)
    return same ? first : undefined
  }
  // Read once: the trailers of cross-reference streams are among them, and the encryption comes before the count.
  const streams = [...PdfSyntax.streams(body)]
  const encryption = encryptionOf(body, streams, resolve)
  // PDF.js cannot open it without a password, and then decodes nothing: it says so itself.
  if (encryption === "locked") return undefined
  if (typeof encryption === "string") return encryption
  let total = 0
  let previousEnd = 0
  for (const stream of streams) {
    if (typeof stream.dict === "string") return stream.dict
    const dict = stream.dict
    // PDF.js reads `/Length` bytes when `endstream` follows them, else up to the first `endstream`. Whitespace
    // before that `endstream` is looked through for a little way only (each stream's would be read again): past
    // that, the longer of the two is counted.
    const length = resolve(dict.get("Length"))
    const declared = length?._tag === "Number" && length.value >= 0 ? stream.start + length.value : undefined
    const end =
      declared === undefined || declared > body.length
        ? stream.end
        : PdfSyntax.endsAt(body, declared)
          ? declared
          : Math.max(declared, stream.end)
    // Only a crafted file has a stream inside another's data (a cross-reference table can point PDF.js at it), and
    // counting each would read the same bytes again and again.
    if (stream.start < previousEnd) return "its streams overlap"
    previousEnd = end
    const chain = filters(dict, resolve)
    if (typeof chain === "string") return chain
    const data = body.subarray(stream.start, end)
    // PDF.js reads a cross-reference stream before it knows of the encryption, and the metadata stream without
    // decrypting it when the dictionary says it is not encrypted.
    // Either may be what PDF.js reads (a stream may claim to be one): both are counted, and the larger kept.
    const type = resolve(dict.get("Type"))
    const maybeClear =
      type?._tag === "Name" && (type.name === "XRef" || (type.name === "Metadata" && !encryption?.encryptMetadata))
    const readings: Array<Uint8Array> = []
    if (encryption === undefined || maybeClear) readings.push(data)
    if (encryption !== undefined) {
      if (stream.object === undefined) return "a stream of an encrypted PDF is not an object of it"
      readings.push(encryption.decrypt(data, stream.object.num, stream.object.gen))
    }
    let size = 0
    for (const reading of readings) {
      const counted = decodedSize(reading, chain, budget - total, resolve)
      if (typeof counted === "string") return counted
      size = Math.max(size, counted)
    }
    if (typeof size === "string") return size
    total += size
    if (total > budget) return `it decodes to more than ${budget} bytes`
  }
  return undefined
}

/**
 * The encryption PDF.js applies to the body's streams: `undefined` for none, "locked" when it cannot open the body
 * without a password, a reason when it cannot be known. PDF.js takes it from the trailer (a `trailer` dictionary
 * or a cross-reference stream's): when the body holds several, they must agree.
 */
const encryptionOf = (
  body: Uint8Array,
  streams: ReadonlyArray<PdfSyntax.Stream>,
  resolve: (value: PdfSyntax.Value | undefined) => PdfSyntax.Value | undefined
): PdfCrypt.Opened | "locked" | string | undefined => {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  // Names may escape any letter (`/Encr#79pt`): the trailers are read whether or not the plain name shows.
  const trailers: Array<ReadonlyMap<string, PdfSyntax.Value>> = []
  // Each `trailer` dictionary is read no further than the next `trailer` keyword, so the reads stay linear.
  for (let at = text.indexOf("trailer"); at !== -1;) {
    const next = text.indexOf("trailer", at + 7)
    const value = PdfSyntax.parseAt(body, at + 7, next === -1 ? body.length : next)
    if (value?._tag === "Dict") trailers.push(value.entries)
    at = next
  }
  for (const stream of streams) {
    const type = typeof stream.dict === "string" ? undefined : stream.dict.get("Type")
    if (typeof stream.dict !== "string" && type?._tag === "Name" && type.name === "XRef") trailers.push(stream.dict)
  }
  const named = trailers.filter((trailer) => trailer.has("Encrypt"))
  const last = named[named.length - 1]
  if (last === undefined) {
    return text.includes("/Encrypt") ? "it is encrypted, and its trailer could not be read" : undefined
  }
  // The first file identifier makes the key; the second changes with every incremental update.
  const firstId = (trailer: ReadonlyMap<string, PdfSyntax.Value>) => {
    const ids = resolve(trailer.get("ID"))
    return ids?._tag === "Array" ? resolve(ids.items[0]) : undefined
  }
  const same = (a: PdfSyntax.Value | undefined, b: PdfSyntax.Value | undefined) =>
    a === undefined ? b === undefined : b !== undefined && PdfSyntax.equal(a, b)
  if (
    !named.every(
      (trailer) => same(trailer.get("Encrypt"), last.get("Encrypt")) && same(firstId(trailer), firstId(last))
    )
  ) {
    return "its trailers name different encryptions"
  }
  const raw = last.get("Encrypt")
  const dict = resolve(raw)
  if (dict === undefined) return "it is encrypted, and its encryption dictionary could not be read"
  if (dict._tag !== "Dict") return undefined
  const first = firstId(last)
  const opened = PdfCrypt.open(dict.entries, first?._tag === "String" ? first.bytes : new Uint8Array(0), resolve)
  return opened === "unsupported" ? "it is encrypted in a way PDF.js does not open" : opened
}

interface Stage {
  readonly name: string
  /** Its `/DecodeParms`, references followed. */
  readonly params: PdfSyntax.Value | undefined
}

/** A stream's filters and their parameters, as PDF.js finds them; a reason when they cannot be known. */
const filters = (
  dict: ReadonlyMap<string, PdfSyntax.Value>,
  resolve: (value: PdfSyntax.Value | undefined) => PdfSyntax.Value | undefined
): ReadonlyArray<Stage> | string => {
  const key = dict.has("F") ? "F" : "Filter"
  const raw = dict.get(key)
  if (raw === undefined) return []
  const filter = resolve(raw)
  const params = resolve(dict.get(dict.has("DP") ? "DP" : "DecodeParms"))
  if (filter === undefined) return "a stream's filter is named in an object that could not be read"
  if (filter._tag === "Name") return [{ name: filter.name, params }]
  // PDF.js reads `/F` as the filter too, where the format means a file: any other value is no filter to it.
  if (filter._tag !== "Array") return []
  const stages: Array<Stage> = []
  for (const [i, item] of filter.items.entries()) {
    const name = resolve(item)
    if (name?._tag !== "Name") return "a stream's filter is named in an object that could not be read"
    stages.push({ name: name.name, params: params?._tag === "Array" ? resolve(params.items[i]) : undefined })
  }
  return stages
}

const images = new Set(["DCT", "DCTDecode", "JPX", "JPXDecode", "CCF", "CCITTFaxDecode", "JBIG2Decode"])

/** A filter as PDF.js builds it: the decoder, and for FlateDecode and LZWDecode a predictor after it. */
interface Step {
  readonly decoder: PdfFilters.Filter
  /** What the predictor makes of the decoder's `size` bytes (PDF.js keeps both); absent without one. */
  readonly predicted?: ((size: number) => number) | undefined
}

/**
 * The step PDF.js builds for a stage: `undefined` for a name it passes the bytes through unchanged, "image" for an
 * image filter, a reason when its parameters cannot be known.
 */
const stepOf = (
  stage: Stage,
  resolve: (value: PdfSyntax.Value | undefined) => PdfSyntax.Value | undefined
): Step | "image" | string | undefined => {
  const params = stage.params?._tag === "Dict" ? stage.params.entries : undefined
  // A parameter as PDF.js reads it (`Dict.get`, references followed); `NaN` for a value that is no number.
  // `orFallback`: PDF.js's `get(key) || fallback`, which a 0 does not survive.
  const number = (key: string, fallback: number, orFallback = true): number | string => {
    const raw = params?.get(key)
    if (raw === undefined) return fallback
    const value = resolve(raw)
    if (value === undefined) return `a stream's /${key} is in an object that could not be read`
    if (value._tag !== "Number") return Number.NaN
    return orFallback ? value.value || fallback : value.value
  }
  const predicted = (): Step["predicted"] | string => {
    if (params === undefined) return undefined
    const predictor = number("Predictor", 1)
    if (typeof predictor === "string" || predictor <= 1 || Number.isNaN(predictor)) {
      return typeof predictor === "string" ? predictor : undefined
    }
    // PDF.js refuses other predictors when it builds the stream, and then decodes nothing from it.
    if (predictor !== 2 && (predictor < 10 || predictor > 15)) return () => 0
    const colors = number("Colors", 1)
    const bits = params.has("BPC") ? number("BPC", 8) : number("BitsPerComponent", 8)
    const columns = number("Columns", 1)
    if (typeof colors === "string" || typeof bits === "string" || typeof columns === "string") {
      return [colors, bits, columns].find((value) => typeof value === "string") as string
    }
    // A row of `rowBytes` bytes is made (and its buffer grown) for each row of input, however short the last; the
    // TIFF predictor grows the buffer once more at the end. PDF.js computes the row in 32-bit integers, as here.
    const rowBytes = (columns * colors * bits + 7) >> 3
    if (!(rowBytes > 0)) return () => 0
    return predictor === 2
      ? (size) => (Math.ceil(size / rowBytes) + 1) * rowBytes
      : (size) => Math.ceil(size / (rowBytes + 1)) * rowBytes
  }
  switch (stage.name) {
    case "Fl":
    case "FlateDecode": {
      const predictor = predicted()
      return typeof predictor === "string" ? predictor : { decoder: PdfFilters.flate, predicted: predictor }
    }
    case "LZW":
    case "LZWDecode": {
      const earlyChange = number("EarlyChange", 1, false)
      if (typeof earlyChange === "string") return earlyChange
      // PDF.js takes `/EarlyChange` as it is, `false` included; only a number is known here.
      if (Number.isNaN(earlyChange)) return "a stream's /EarlyChange is not a number"
      const predictor = predicted()
      return typeof predictor === "string" ? predictor : { decoder: PdfFilters.lzw(earlyChange), predicted: predictor }
    }
    case "RL":
    case "RunLengthDecode":
      return { decoder: PdfFilters.runLength }
    case "AHx":
    case "ASCIIHexDecode":
      return { decoder: PdfFilters.asciiHex }
    case "A85":
    case "ASCII85Decode":
      return { decoder: PdfFilters.ascii85 }
  }
  return images.has(stage.name) ? "image" : undefined
}

/**
 * What `data` decodes to through `chain`, every stage's output counted, a little over `limit` at most when past
 * it; a reason when it cannot be known.
 */
const decodedSize = (
  data: Uint8Array,
  chain: ReadonlyArray<Stage>,
  limit: number,
  resolve: (value: PdfSyntax.Value | undefined) => PdfSyntax.Value | undefined
): number | string => {
  const steps: Array<Step | "image"> = []
  for (const stage of chain) {
    const step = stepOf(stage, resolve)
    if (typeof step === "string" && step !== "image") return step
    if (step !== undefined) steps.push(step)
  }
  let input = data
  let total = 0
  for (const [i, step] of steps.entries()) {
    if (step === "image") return i === steps.length - 1 ? total : "an image filter feeds another filter"
    // The last filter, or the last before an image's, is only counted; any other is decoded for the next one.
    const last = i === steps.length - 1 || steps[i + 1] === "image"
    if (!last && step.predicted !== undefined) return "a predicted stream feeds another filter"
    const output = step.decoder(input, limit - total, !last)
    if (Number.isNaN(output.size)) return "a stream another filter reads from does not decode"
    total += output.size + (step.predicted?.(output.size) ?? 0)
    if (total > limit || last) return total
    if (output.bytes === undefined) return "a stream another filter reads from does not decode"
    input = output.bytes
  }
  return total
}
