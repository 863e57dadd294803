/**
 * A cap on the typed arrays and ArrayBuffers allocated in one piece while a PDF is read, in the extraction
 * worker's own realm. PDF.js decodes streams and images into buffers that grow by doubling, and no heap limit
 * bounds them: `pdfBudget` counts what the streams decode to before PDF.js starts, but PDF.js's reading of a
 * crafted file has more ways to allocate than any count ahead of it can follow (one stream drawn many times into a
 * page's joined contents, object streams holding streams, images sized by their dictionary rather than their
 * data). So while a job runs under `run`, a request for a single buffer over the cap throws a `RangeError` where it
 * is made, and the job is reported as refused; what PDF.js made of the document before is dropped with it.
 *
 * The worker's global constructors are replaced by subclasses that check the size first (`instanceof` still holds
 * for every array of the realm, whichever constructor made it); Node's own code uses the originals it captured at
 * start, and the worker runs nothing but extraction. Only allocations of a size: a view on an existing buffer is
 * free.
 */

/** The constructors checked, and the bytes of one element of each. */
const kinds = [
  ["Int8Array", 1],
  ["Uint8Array", 1],
  ["Uint8ClampedArray", 1],
  ["Int16Array", 2],
  ["Uint16Array", 2],
  ["Int32Array", 4],
  ["Uint32Array", 4],
  ["Float32Array", 4],
  ["Float64Array", 8],
  ["BigInt64Array", 8],
  ["BigUint64Array", 8],
  ["ArrayBuffer", 1]
] as const

/** The error thrown where an allocation goes over the cap. */
export class OverCap extends RangeError {
  constructor(readonly bytes: number) {
    super(`an allocation of ${bytes} bytes is over the cap`)
    this.name = "OverCap"
  }
}

/** The cap of the running job, in bytes; `Infinity` between jobs. */
let cap = Number.POSITIVE_INFINITY
/** The largest allocation refused since the job started, in bytes; 0 when none was. */
let refused = 0
let installed = false

/**
 * The bytes a constructor call with this first argument allocates: a length, or a copy of an array-like; none for
 * a view on a buffer (or anything else).
 */
const requested = (first: unknown, elementBytes: number, isBuffer: boolean): number => {
  if (typeof first === "number") return first * elementBytes
  if (isBuffer || typeof first !== "object" || first === null) return 0
  if (first instanceof ArrayBuffer || first instanceof SharedArrayBuffer) return 0
  const length = (first as { readonly length?: unknown }).length
  return typeof length === "number" ? length * elementBytes : 0
}

/** Replaces the realm's constructors with checked ones, once. */
const install = (): void => {
  if (installed) return
  installed = true
  const realm = globalThis as unknown as Record<string, new (...args: Array<unknown>) => object>
  for (const [name, elementBytes] of kinds) {
    const Original = realm[name]
    if (Original === undefined) continue
    const isBuffer = name === "ArrayBuffer"
    // Fixed parameters rather than a rest one: PDF.js makes many small arrays, and spreading arguments cost it a
    // fifth of its time.
    const Checked = class extends Original {
      constructor(first?: unknown, second?: unknown, third?: unknown) {
        if (cap !== Number.POSITIVE_INFINITY) {
          const bytes = typeof first === "number" ? first * elementBytes : requested(first, elementBytes, isBuffer)
          if (bytes > cap) {
            refused = Math.max(refused, bytes)
            throw new OverCap(bytes)
          }
        }
        super(first, second, third)
      }
      static override [Symbol.hasInstance](value: unknown): boolean {
        return value instanceof Original
      }
    }
    Object.defineProperty(Checked, "name", { value: name })
    realm[name] = Checked
  }
}

/**
 * Runs `job` with every allocation in one piece capped at `maxBytes`, one job at a time: the largest allocation it
 * was refused (0 when none was) comes back beside its result.
 */
export const run = async <A>(
  maxBytes: number,
  job: () => Promise<A>
): Promise<{ readonly result: A; readonly refused: number }> => {
  install()
  cap = maxBytes
  refused = 0
  try {
    const result = await job()
    return { result, refused }
  } finally {
    cap = Number.POSITIVE_INFINITY
  }
}
