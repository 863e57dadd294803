/**
 * Arbitraries for the fuzz suite: values shaped like requests but hostile. Strings carry what breaks naive
 * code (lone surrogates, bidi overrides, zero-width and NUL characters, emoji sequences, very long runs), URLs
 * cover every scheme and host spelling the policy must judge, and any field may hold the wrong type. Huge
 * arrays are built from a size and a template rather than drawn element by element, so 10^5 items cost one
 * allocation instead of 10^5 shrinkable values.
 */
import * as FastCheck from "effect/FastCheck"

// --- Strings ----------------------------------------------------------------------------------------------

const tricky = [
  "\u0000",
  "\uD800",
  "\uDFFF",
  "\uDBFF\uDC00",
  "\u202E",
  "\u202D",
  "\u2066",
  "\u200B",
  "\u200D",
  "\uFEFF",
  "\u00A0",
  "\u3000",
  "\u2028",
  "\t",
  "\n",
  "\r\n",
  " ",
  "👩‍👩‍👧‍👦",
  "🏳️‍🌈",
  "e\u0301",
  "עברית",
  "العربية",
  "中文",
  "Ω≈ç√",
  "%00",
  "%2e%2e/",
  "%",
  "\\",
  '"',
  "'",
  "<script>",
  "${x}",
  "__proto__",
  "constructor",
  "toString",
  "|",
  "*"
]

/** One hostile piece of text: a tricky character or token, a lone surrogate, or ordinary unicode. */
export const piece: FastCheck.Arbitrary<string> = FastCheck.oneof(
  FastCheck.constantFrom(...tricky),
  FastCheck.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
  FastCheck.string({ unit: "binary", maxLength: 8 }),
  FastCheck.string({ unit: "grapheme", maxLength: 8 }),
  FastCheck.stringMatching(/^[a-z0-9]{1,8}$/)
)

/** A hostile string: short pieces joined, sometimes empty or all white space, sometimes very long. */
export const hostileString: FastCheck.Arbitrary<string> = FastCheck.oneof(
  { arbitrary: FastCheck.array(piece, { maxLength: 12 }).map((parts) => parts.join("")), weight: 8 },
  { arbitrary: FastCheck.constantFrom("", " ", "\t\n", "\u200B\u200B", "\u3000 \u00A0"), weight: 1 },
  {
    arbitrary: FastCheck.tuple(piece, FastCheck.integer({ min: 900, max: 20_000 })).map(([p, n]) =>
      (p === "" ? "x" : p).repeat(Math.ceil(n / Math.max(1, p.length))).slice(0, n)
    ),
    weight: 1
  }
)

// --- URLs -------------------------------------------------------------------------------------------------

const schemes = ["http", "https", "HTTP", "hTtPs", "ftp", "file", "data", "javascript", "ws", "mailto", "blob:http"]

const hosts = [
  "example.com",
  "public.example",
  "ads.blocked.example",
  "www.blocked.example",
  "EXAMPLE.COM.",
  "münchen.de",
  "xn--mnchen-3ya.de",
  "xn--",
  "localhost",
  "LOCALHOST.",
  "foo.localhost",
  "metadata.google.internal",
  "printer.local",
  "127.0.0.1",
  "127.1",
  "2130706433",
  "0x7f.0.0.1",
  "0177.0.0.1",
  "10.0.0.1",
  "192.168.1.1",
  "172.16.0.1",
  "169.254.169.254",
  "100.64.0.1",
  "0.0.0.0",
  "8.8.8.8",
  "255.255.255.255",
  "256.1.1.1",
  "[::1]",
  "[::]",
  "[0:0:0:0:0:0:0:1]",
  "[::ffff:127.0.0.1]",
  "[::ffff:10.0.0.1]",
  "[fe80::1]",
  "[fe80::1%25eth0]",
  "[fc00::1]",
  "[2001:db8::1]",
  "[2606:4700::1111]",
  "[::1",
  "",
  "a..b",
  "-bad-.com",
  "a".repeat(300)
]

const ports = ["", ":0", ":80", ":443", ":8080", ":65535", ":65536", ":99999", ":-1", ":abc", ":"]

const userinfos = ["", "user@", "user:pass@", ":@", "@", "a%40b:c@"]

const pathPart: FastCheck.Arbitrary<string> = FastCheck.oneof(
  FastCheck.constantFrom(
    "",
    "/",
    "/a/b?c=d#e",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/%00",
    "/?q=%ZZ",
    "/#frag",
    "//x",
    "/..;/"
  ),
  hostileString.map((s) => `/${s}`)
)

/** A URL-ish string: any scheme, user info, host spelling, port, path, or a well-formed web URL. */
export const hostileUrl: FastCheck.Arbitrary<string> = FastCheck.oneof(
  {
    arbitrary: FastCheck.tuple(
      FastCheck.constantFrom(...schemes),
      FastCheck.constantFrom("://", ":", ":/", ":///", "//"),
      FastCheck.constantFrom(...userinfos),
      FastCheck.constantFrom(...hosts),
      FastCheck.constantFrom(...ports),
      pathPart
    ).map((parts) => parts.join("")),
    weight: 6
  },
  { arbitrary: FastCheck.webUrl({ withQueryParameters: true, withFragments: true }), weight: 3 },
  {
    arbitrary: FastCheck.constantFrom(
      "data:text/html,<script>alert(1)</script>",
      "javascript:alert(1)",
      "file:///etc/passwd",
      "//example.com/protocol-relative",
      "example.com",
      "http:/\\example.com",
      "https://example.com\\@evil.example",
      " https://example.com/padded \t",
      "https://example.com/\u0000",
      "http://[::1]:80/",
      "https://user:secret@example.com/"
    ),
    weight: 2
  },
  {
    // Around and over the 8192-character limit.
    arbitrary: FastCheck.integer({ min: 8_150, max: 9_000 }).map((n) => `https://example.com/${"a".repeat(n - 20)}`),
    weight: 1
  },
  { arbitrary: hostileString, weight: 1 }
)

// --- Values -----------------------------------------------------------------------------------------------

/** Any number a JSON decoder or a JS caller could hand over, including the non-finite ones. */
export const anyNumber: FastCheck.Arbitrary<number> = FastCheck.oneof(
  FastCheck.integer({ min: -100, max: 100 }),
  FastCheck.constantFrom(NaN, Infinity, -Infinity, -0, 0.5, 1e308, Number.MAX_SAFE_INTEGER + 2, 1e-300),
  FastCheck.double()
)

/** A value of the wrong type for any field. */
export const wrongType: FastCheck.Arbitrary<unknown> = FastCheck.oneof(
  FastCheck.constantFrom(null, undefined, true, false, 10n, Symbol("s"), () => "fn", new Date(NaN), new Map(), []),
  anyNumber,
  FastCheck.anything({ maxDepth: 2, withBigInt: true, withDate: true, withMap: true, withSet: true }),
  FastCheck.object({ maxDepth: 2 })
)

/** A value whose reading itself is hostile: throwing getters, proxies, cycles, symbol keys. */
export const trapped: FastCheck.Arbitrary<unknown> = FastCheck.constantFrom<() => unknown>(
  () => {
    const cyclic: Record<string, unknown> = { keywords: ["a"], urls: ["https://example.com/"], query: "q" }
    cyclic.self = cyclic
    return cyclic
  },
  () => ({ keywords: ["a"], [Symbol("extra")]: 1 }),
  () => ({ urls: ["https://example.com/"], [Symbol.iterator]: 1 }),
  () => ({
    get keywords(): unknown {
      throw new Error("getter throws")
    }
  }),
  () =>
    new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error("ownKeys trap")
        },
        // Only so fast-check can print a counterexample holding it.
        has: (_, key) => key === FastCheck.toStringMethod,
        get: (_, key) => (key === FastCheck.toStringMethod ? () => "Proxy(ownKeys throws)" : undefined)
      }
    ),
  () => Object.create(null) as unknown,
  () => Object.assign(Object.create({ keywords: ["inherited"] }) as object, { urls: ["https://example.com/"] }),
  () => {
    const list = ["a", "b"]
    Object.defineProperty(list, 0, {
      get: () => {
        throw new Error("index getter throws")
      }
    })
    return { keywords: list, urls: list, query: "q", allowedDomains: list }
  }
).map((make) => make())

/**
 * A huge array (10^4 to 10^5 items) described by its size and one template item, sometimes with every item
 * distinct. The array itself is built by `buildHuge` inside the test, so a failing run prints the short
 * description instead of 10^5 items, and a few dozen runs stay within memory.
 */
export interface Huge {
  readonly size: number
  readonly template: unknown
  readonly distinct: boolean
}

export const huge = (item: FastCheck.Arbitrary<unknown>): FastCheck.Arbitrary<Huge> =>
  FastCheck.record({
    size: FastCheck.integer({ min: 10_000, max: 100_000 }),
    template: item,
    distinct: FastCheck.boolean()
  })

/** The array a `Huge` describes. */
export const buildHuge = ({ distinct, size, template }: Huge): Array<unknown> =>
  Array.from({ length: size }, (_, index) =>
    distinct && typeof template === "string" ? `${template}${index}` : template
  )

/** A list of inputs: usually 0–25 items (the limit is 20), sometimes with wrong-typed items. */
export const inputList = (item: FastCheck.Arbitrary<string>): FastCheck.Arbitrary<ReadonlyArray<unknown>> =>
  FastCheck.oneof(
    { arbitrary: FastCheck.array(item, { minLength: 1, maxLength: 6 }), weight: 8 },
    { arbitrary: FastCheck.array(item, { minLength: 0, maxLength: 25 }), weight: 3 },
    { arbitrary: FastCheck.array(FastCheck.oneof(item, wrongType), { maxLength: 5 }), weight: 1 }
  )

/**
 * An optional field: absent, a generated good value, or a value of the wrong type. `undefined` here means the
 * key is left out.
 */
export const field = <A>(
  good: FastCheck.Arbitrary<A>,
  weightBad = 1
): FastCheck.Arbitrary<{ readonly value?: unknown }> =>
  FastCheck.oneof(
    { arbitrary: FastCheck.constant({}), weight: 4 },
    { arbitrary: good.map((value) => ({ value })), weight: 4 },
    { arbitrary: wrongType.map((value) => ({ value })), weight: weightBad }
  )

/** Builds a request object from optional fields and extra fields; `undefined` fields are left out. */
export const assemble = (
  fields: Readonly<Record<string, { readonly value?: unknown }>>,
  extra: Readonly<Record<string, unknown>>
): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...extra }
  for (const [key, f] of Object.entries(fields)) if ("value" in f) out[key] = f.value
  return out
}

/** Extra, unexpected fields (usually none). */
export const extraFields: FastCheck.Arbitrary<Readonly<Record<string, unknown>>> = FastCheck.oneof(
  { arbitrary: FastCheck.constant({}), weight: 9 },
  { arbitrary: FastCheck.dictionary(hostileString, wrongType, { maxKeys: 3 }), weight: 1 }
)

/** A stable, cheap hash of a string, to pick a driver behaviour per input independent of call order. */
export const hash = (text: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}
