/**
 * Fuzz suite of the public API: more than 10 000 generated, hostile requests (random unicode, every kind of URL,
 * wrong types, extra fields, huge arrays, throwing getters) through `SearchKeywords`, `FetchUrls`, `Research` and
 * the promise `WebSearchClient`, over in-memory drivers that succeed, fail with each of the four errors, die,
 * throw, return results outside the contract or fail with foreign values, chosen per input. Every outcome must be
 * a success that satisfies the response contract, or exactly one typed error with a documented reason; never a
 * defect, and never a secret.
 *
 * Seeds are fixed so a failure reproduces; fast-check prints the seed and the shrunk counterexample.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Blacklist from "../src/internal/blacklist.js"
import * as FetchUrls from "../src/FetchUrls.js"
import * as PostProcessing from "../src/internal/postProcessing.js"
import * as ProviderChecks from "../src/ProviderChecks.js"
import type { DriverContext, DriverResult, ProviderDriver } from "../src/ProviderDriver.js"
import * as Research from "../src/Research.js"
import * as SearchKeywords from "../src/SearchKeywords.js"
import type * as Settings from "../src/Settings.js"
import * as UrlPolicy from "../src/UrlPolicy.js"
import * as WebSearchClient from "../src/WebSearchClient.js"
import * as WebSearchError from "../src/WebSearchError.js"
import * as WebSearchRequest from "../src/WebSearchRequest.js"
import * as WebSearchResponse from "../src/WebSearchResponse.js"
import * as Drivers from "./support/drivers.js"
import * as Hostile from "./support/hostile.js"

// --- Settings and secrets ---------------------------------------------------------------------------------

const tavilyKey = "tvly-FUZZ-CANARY-7f3a9c1e5b2d"
const openaiKey = "sk-FUZZ-CANARY-2d8e4b6a0c9f"
const secrets = [tavilyKey, openaiKey]

const settingsInput: Settings.SettingsInput = {
  defaults: { searchKeywords: "duckduckgo", fetchUrls: "fetch", research: "openai" },
  // A request that fails as a whole on DuckDuckGo is tried on Tavily, so fallback runs are fuzzed too.
  fallbacks: { searchKeywords: ["tavily"] },
  providers: { tavily: { apiKeys: [tavilyKey] }, openai: { apiKeys: [openaiKey] } },
  blacklist: ["*.blocked.example"],
  maxResults: 7,
  concurrency: 4
}

const settingsMaxResults = 7
const filter: Blacklist.UrlFilter = {
  blacklist: Either.getOrThrow(Blacklist.compile(["*.blocked.example"])),
  allowlist: Blacklist.empty
}
const urlPolicy = UrlPolicy.make()

// --- Driver behaviours ------------------------------------------------------------------------------------

/** What a driver does for one input. */
type Behaviour =
  | { readonly _tag: "Succeed"; readonly results: ReadonlyArray<DriverResult> }
  | { readonly _tag: "Fail"; readonly error: WebSearchError.WebSearchError }
  | { readonly _tag: "Die"; readonly defect: unknown }
  | { readonly _tag: "Throw"; readonly thrown: unknown }
  | { readonly _tag: "Malformed"; readonly results: unknown }
  | { readonly _tag: "FailForeign"; readonly error: unknown }

const reasons = {
  Unavailable: WebSearchError.UnavailableReason.literals,
  RequestFailed: WebSearchError.RequestFailedReason.literals,
  ResponseInvalid: WebSearchError.ResponseInvalidReason.literals,
  Aborted: WebSearchError.AbortedReason.literals
} as const

type Tag = keyof typeof reasons

const tags = Object.keys(reasons) as ReadonlyArray<Tag>

const isKnownReason = (tag: string, reason: string): boolean =>
  tag in reasons && (reasons[tag as Tag] as ReadonlyArray<string>).includes(reason)

/** Stands for the key the driver was called with; replaced at call time (a driver only ever sees its own key). */
const keyToken = "{KEY}"

/** A message that sometimes quotes the key, as careless providers do. */
const message = FastCheck.oneof(
  { arbitrary: Hostile.hostileString, weight: 3 },
  { arbitrary: FastCheck.constant(`rejected key ${keyToken}`), weight: 1 }
)

const typedError: FastCheck.Arbitrary<WebSearchError.WebSearchError> = FastCheck.constantFrom(...tags).chain((tag) =>
  FastCheck.record({
    reason: FastCheck.constantFrom(...reasons[tag]),
    message,
    retryAfter: FastCheck.option(Hostile.anyNumber, { nil: undefined })
  }).map(({ message, reason, retryAfter }): WebSearchError.WebSearchError => {
    switch (tag) {
      case "Unavailable":
        return WebSearchError.unavailable(reason as WebSearchError.UnavailableReason, message)
      case "RequestFailed":
        return WebSearchError.requestFailed(reason as WebSearchError.RequestFailedReason, message, { retryAfter })
      case "ResponseInvalid":
        return WebSearchError.responseInvalid(reason as WebSearchError.ResponseInvalidReason, message)
      case "Aborted":
        return WebSearchError.aborted(message)
    }
  })
)

const resultUrl = FastCheck.oneof(
  FastCheck.constantFrom(
    "https://ok.example/a",
    "https://OK.example/a#dup",
    "https://ok.example/b?x=1",
    "https://www.blocked.example/ad",
    "http://blocked.example/",
    "javascript:alert(1)",
    "not a url",
    ""
  ),
  Hostile.hostileUrl
)

// Result text is hostile but mostly short: long content runs through compression, whose cost is not the subject.
const resultText = FastCheck.oneof(
  { arbitrary: FastCheck.array(Hostile.piece, { maxLength: 12 }).map((parts) => parts.join("")), weight: 12 },
  { arbitrary: Hostile.hostileString, weight: 1 }
)

const driverResult: FastCheck.Arbitrary<DriverResult> = FastCheck.record({
  title: resultText,
  content: resultText,
  url: resultUrl
})

const foreignValue: FastCheck.Arbitrary<unknown> = FastCheck.oneof(
  Hostile.wrongType,
  FastCheck.constantFrom<() => unknown>(
    () => new Error(`plain error quoting ${keyToken}`),
    () => ({ _tag: "RequestFailed", reason: "not-a-reason", message: "looks typed" }),
    () => ({ _tag: "RequestFailed", reason: "http_5xx", message: `shaped like ours ${keyToken}`, retryable: true }),
    () => Object.create(null) as unknown,
    () => ({
      toString: () => {
        throw new Error("toString throws")
      }
    })
  ).map((make) => make())
)

const behaviour: FastCheck.Arbitrary<Behaviour> = FastCheck.oneof(
  {
    arbitrary: FastCheck.array(driverResult, { maxLength: 12 }).map((results) => ({
      _tag: "Succeed" as const,
      results
    })),
    weight: 8
  },
  { arbitrary: typedError.map((error) => ({ _tag: "Fail" as const, error })), weight: 4 },
  { arbitrary: foreignValue.map((defect) => ({ _tag: "Die" as const, defect })), weight: 1 },
  { arbitrary: foreignValue.map((thrown) => ({ _tag: "Throw" as const, thrown })), weight: 1 },
  { arbitrary: foreignValue.map((error) => ({ _tag: "FailForeign" as const, error })), weight: 1 },
  {
    arbitrary: FastCheck.oneof(
      Hostile.wrongType,
      FastCheck.array(
        FastCheck.oneof(
          driverResult.map((r): unknown => r),
          Hostile.wrongType
        ),
        { maxLength: 3 }
      ),
      FastCheck.constant([{ title: "t", content: 5, url: "https://ok.example/" }])
    ).map((results) => ({ _tag: "Malformed" as const, results })),
    weight: 1
  }
)

/** One plan per run: a behaviour per input, picked by a hash of the input so the call order does not matter. */
const plan = FastCheck.array(behaviour, { minLength: 1, maxLength: 6 })

interface Current {
  plan: ReadonlyArray<Behaviour>
  /** Every input any driver was called with in this run, with the provider that was called. */
  readonly calls: Array<{ readonly providerId: string; readonly input: string }>
}

const current: Current = { plan: [{ _tag: "Succeed", results: [] }], calls: [] }

const behaviourFor = (input: string): Behaviour => current.plan[Hostile.hash(input) % current.plan.length]

const quoteKey = (u: unknown, key: string): unknown => {
  if (typeof u === "string") return u.split(keyToken).join(key)
  if (u instanceof Error && !WebSearchError.isWebSearchError(u) && u.message.includes(keyToken)) {
    return new Error(u.message.split(keyToken).join(key))
  }
  if (isPlainRecord(u) && typeof u.message === "string") return { ...u, message: quoteKey(u.message, key) }
  return u
}

/** The behaviour with the key the driver was called with written into its messages. */
const withKey = (b: Behaviour, ctx: DriverContext): Behaviour => {
  const key = Option.match(ctx.apiKey, { onNone: () => "no-key", onSome: Redacted.value })
  switch (b._tag) {
    case "Fail":
      return b.error.message.includes(keyToken)
        ? {
            _tag: "Fail",
            error: WebSearchError.annotate(b.error, { message: quoteKey(b.error.message, key) as string })
          }
        : b
    case "Die":
      return { _tag: "Die", defect: quoteKey(b.defect, key) }
    case "Throw":
      return { _tag: "Throw", thrown: quoteKey(b.thrown, key) }
    case "FailForeign":
      return { _tag: "FailForeign", error: quoteKey(b.error, key) }
    default:
      return b
  }
}

const toScript = (b: Behaviour): Drivers.Script => {
  switch (b._tag) {
    case "Succeed":
      return Drivers.results(b.results)
    case "Fail":
      return Drivers.fail(b.error)
    case "Die":
      return Drivers.die(b.defect)
    case "Malformed":
      return Drivers.results(b.results as ReadonlyArray<DriverResult>)
    case "FailForeign":
      return Drivers.fail(b.error as WebSearchError.WebSearchError)
    case "Throw":
      // Thrown by the wrapper below, before the scripted driver is reached.
      return Drivers.succeed(0)
  }
}

/**
 * A scripted driver for a preset, wrapped so a `Throw` behaviour throws synchronously (as a plain JavaScript
 * driver might) and every call is recorded with its provider.
 */
const fuzzDriver = (providerId: string, capabilities: ReadonlyArray<"searchKeywords" | "fetchUrls" | "research">) => {
  const script = (input: string, ctx: DriverContext) => toScript(withKey(behaviourFor(input), ctx))
  const { driver } = Drivers.makeDriver(
    providerId,
    Object.fromEntries(capabilities.map((c) => [c, script])) as Drivers.DriverOptions
  )
  const guard = (input: string, ctx: DriverContext) => {
    current.calls.push({ providerId, input })
    const b = withKey(behaviourFor(input), ctx)
    if (b._tag === "Throw") throw b.thrown
  }
  const wrapped: { -readonly [K in keyof ProviderDriver]: ProviderDriver[K] } = { preset: driver.preset }
  const { fetchUrls, research, searchKeywords } = driver
  if (searchKeywords) {
    wrapped.searchKeywords = (keyword, ctx) => {
      guard(keyword, ctx)
      return searchKeywords(keyword, ctx)
    }
  }
  if (fetchUrls) {
    wrapped.fetchUrls = (url, ctx) => {
      guard(url, ctx)
      return fetchUrls(url, ctx)
    }
  }
  if (research) {
    wrapped.research = (request, ctx) => {
      guard(request.query, ctx)
      return research(request, ctx)
    }
  }
  return wrapped
}

const drivers = [
  fuzzDriver("duckduckgo", ["searchKeywords"]),
  fuzzDriver("tavily", ["searchKeywords", "fetchUrls"]),
  fuzzDriver("fetch", ["fetchUrls"]),
  fuzzDriver("openai", ["research"])
]

// Every log line of every run is captured and checked: a key a driver quoted must not reach the logs either.
const logs = Drivers.captureLogs()

const Live = Layer.merge(Drivers.layer(drivers, settingsInput).pipe(Layer.orDie), logs.layer)

const startRun = (next: ReadonlyArray<Behaviour>) => {
  current.plan = next
  current.calls.length = 0
  logs.entries.length = 0
}

// --- Requests ---------------------------------------------------------------------------------------------

// The services are typed for well-formed requests; the fuzz hands them anything.
type SearchInput = Parameters<SearchKeywords.SearchKeywords.Service["searchKeywords"]>[0]
type FetchInput = Parameters<FetchUrls.FetchUrls.Service["fetchUrls"]>[0]
type ResearchInput = Parameters<Research.Research.Service["research"]>[0]

const providerId: FastCheck.Arbitrary<unknown> = FastCheck.oneof(
  FastCheck.constantFrom("duckduckgo", "tavily", "fetch", "openai"),
  // Known but not registered, or without a key, or not offering the capability.
  FastCheck.constantFrom("brave", "exa", "searxng", "jina"),
  FastCheck.constantFrom("Not An Id", "", "DUCKDUCKGO", "duckduckgo\u0000", "../tavily", "__proto__", "a".repeat(500)),
  Hostile.hostileString
)

const maxResults: FastCheck.Arbitrary<unknown> = FastCheck.oneof(
  { arbitrary: FastCheck.integer({ min: 1, max: 50 }), weight: 4 },
  { arbitrary: Hostile.anyNumber, weight: 2 },
  { arbitrary: FastCheck.constantFrom("10", null, 10n), weight: 1 }
)

/** A required field: nearly always present, sometimes missing or of the wrong type. */
const required = <A>(good: FastCheck.Arbitrary<A>) =>
  FastCheck.oneof(
    { arbitrary: good.map((value): { readonly value?: unknown } => ({ value })), weight: 14 },
    { arbitrary: FastCheck.constant({}), weight: 1 },
    { arbitrary: Hostile.wrongType.map((value) => ({ value })), weight: 1 }
  )

/** The request object, or (rarely) a value that is not an object, or one whose reading is a trap. */
const rootOf = (
  hostile: FastCheck.Arbitrary<Record<string, unknown>>,
  plausible: FastCheck.Arbitrary<Record<string, unknown>>
): FastCheck.Arbitrary<unknown> =>
  FastCheck.oneof(
    { arbitrary: hostile, weight: 15 },
    // Hostile content in a well-formed request, so that about half the runs get past validation to the drivers.
    { arbitrary: plausible, weight: 15 },
    { arbitrary: Hostile.wrongType, weight: 1 },
    { arbitrary: Hostile.trapped, weight: 1 }
  )

/** An optional field that is either left out or holds a value of the contract. */
const maybe = <A>(good: FastCheck.Arbitrary<A>) =>
  FastCheck.oneof(
    FastCheck.constant({}),
    good.map((value): { readonly value?: unknown } => ({ value }))
  )

const present = <A>(good: FastCheck.Arbitrary<A>) => good.map((value): { readonly value?: unknown } => ({ value }))

/** Short hostile text: any piece but seldom a long run, so the length limits rarely refuse it. */
const shortText = FastCheck.array(Hostile.piece, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(""))

const registered = FastCheck.constantFrom("duckduckgo", "tavily", "fetch", "openai")

const searchRequest = rootOf(
  FastCheck.record({
    providerId: Hostile.field(providerId),
    keywords: required(Hostile.inputList(Hostile.hostileString)),
    maxResults: Hostile.field(maxResults),
    extra: Hostile.extraFields
  }).map(({ extra, ...fields }) => Hostile.assemble(fields, extra)),
  FastCheck.record({
    providerId: maybe(registered),
    keywords: present(FastCheck.array(shortText, { minLength: 1, maxLength: 8 })),
    maxResults: maybe(FastCheck.integer({ min: 1, max: 50 }))
  }).map((fields) => Hostile.assemble(fields, {}))
)

/** Fetch inputs mix hostile URLs with ones the drivers will accept. */
const fetchUrl = FastCheck.oneof(
  { arbitrary: Hostile.hostileUrl, weight: 3 },
  { arbitrary: FastCheck.webUrl(), weight: 2 },
  { arbitrary: FastCheck.constantFrom("https://ok.example/page", "https://www.blocked.example/x"), weight: 1 }
)

const fetchRequest = rootOf(
  FastCheck.record({
    providerId: Hostile.field(providerId),
    urls: required(Hostile.inputList(fetchUrl)),
    extra: Hostile.extraFields
  }).map(({ extra, ...fields }) => Hostile.assemble(fields, extra)),
  FastCheck.record({
    providerId: maybe(registered),
    urls: present(
      FastCheck.array(
        FastCheck.oneof(
          FastCheck.webUrl({ withQueryParameters: true, withFragments: true }),
          FastCheck.constantFrom(
            "https://ok.example/page",
            "https://www.blocked.example/x",
            "http://10.0.0.1/",
            "http://[::1]/",
            "https://münchen.de/ü?q=%E2%9C%93",
            " https://ok.example/padded ",
            "HTTPS://OK.EXAMPLE:443/Case"
          ),
          shortText.map((path) => `https://ok.example/${path}`)
        ),
        { minLength: 1, maxLength: 8 }
      )
    )
  }).map((fields) => Hostile.assemble(fields, {}))
)

const domain = FastCheck.oneof(
  FastCheck.constantFrom(
    "example.com",
    "EXAMPLE.com.",
    "sub.example.org",
    "localhost",
    "http://x.com",
    "ex ample.com",
    "münchen.de",
    "xn--mnchen-3ya.de",
    `${"a".repeat(64)}.com`,
    "192.168.0.1",
    ""
  ),
  FastCheck.domain(),
  Hostile.hostileString
)

const researchRequest = rootOf(
  FastCheck.record({
    providerId: Hostile.field(providerId),
    query: required(Hostile.hostileString),
    allowedDomains: required(
      FastCheck.oneof(
        { arbitrary: FastCheck.array(domain, { maxLength: 4 }), weight: 5 },
        { arbitrary: FastCheck.array(domain, { maxLength: 25 }), weight: 1 }
      )
    ),
    extra: Hostile.extraFields
  }).map(({ extra, ...fields }) => Hostile.assemble(fields, extra)),
  FastCheck.record({
    providerId: maybe(registered),
    query: present(shortText),
    allowedDomains: present(FastCheck.array(FastCheck.domain(), { maxLength: 3 }))
  }).map((fields) => Hostile.assemble(fields, {}))
)

// --- Assertions -------------------------------------------------------------------------------------------

const allowedKeys = {
  searchKeywords: ["providerId", "keywords", "maxResults"],
  fetchUrls: ["providerId", "urls"],
  research: ["providerId", "query", "allowedDomains"]
} as const

type Kind = keyof typeof allowedKeys

/** A request's own numeric field (after a successful decode, reading it again cannot throw). */
const ownNumber = (request: unknown, key: string): number | undefined => {
  if (typeof request !== "object" || request === null || !Object.hasOwn(request, key)) return undefined
  const value = (request as Record<string, unknown>)[key]
  return typeof value === "number" ? value : undefined
}

const isPlainRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u) && Object.getPrototypeOf(u) === Object.prototype

/**
 * Whether the request breaks a documented rule of its contract beyond doubt (checked independently of the
 * schema): not an object, an unknown key, a list that is missing (but research's optional allowedDomains), empty or
 * too long, a maxResults outside 1–50,
 * a providerId that is not text. Such a request must fail `RequestFailed/invalid_input` before any driver call.
 */
const plainlyInvalid = (kind: Kind, request: unknown): boolean => {
  if (typeof request !== "object" || request === null) return true
  try {
    // Only own properties count, as for the schema; reading may throw (a getter, a proxy), which is invalid too.
    const own = (key: string): unknown =>
      Object.hasOwn(request, key) ? (request as Record<string, unknown>)[key] : undefined
    if (Object.keys(request).some((key) => !(allowedKeys[kind] as ReadonlyArray<string>).includes(key))) return true
    const provider = own("providerId")
    if (provider !== undefined && typeof provider !== "string") return true
    const list = own(kind === "searchKeywords" ? "keywords" : kind === "fetchUrls" ? "urls" : "allowedDomains")
    // A research brief's allowedDomains is optional (none: the open web); the other lists are required.
    if (!(kind === "research" && list === undefined)) {
      if (!Array.isArray(list) || list.length > 20) return true
      if (kind !== "research" && list.length === 0) return true
    }
    if (kind === "research" && typeof own("query") !== "string") return true
    const n = own("maxResults")
    if (kind === "searchKeywords" && n !== undefined) {
      if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 50) return true
    }
    return false
  } catch {
    return true
  }
}

const text = (u: unknown): string => {
  try {
    return JSON.stringify(u) ?? String(u)
  } catch {
    return String(u)
  }
}

const assertNoSecret = (label: string, value: string) => {
  for (const secret of secrets)
    expect(value.includes(secret), `${label} leaks a secret: ${value.slice(0, 500)}`).toBe(false)
}

const encodeError = Schema.encodeEither(WebSearchError.WebSearchError)
const decodeError = Schema.decodeUnknownEither(WebSearchError.WebSearchError)

/** A typed error as the contract describes it: known tag and reason, a message, schema round trip, no secret. */
const assertTypedError = (error: unknown): WebSearchError.WebSearchError => {
  expect(WebSearchError.isWebSearchError(error), `not a websearch error: ${text(error)}`).toBe(true)
  const e = error as WebSearchError.WebSearchError
  expect(tags).toContain(e._tag)
  expect(isKnownReason(e._tag, e.reason), `${e._tag}/${e.reason}`).toBe(true)
  expect(typeof e.message === "string" && e.message.length > 0, "empty message").toBe(true)
  const encoded = encodeError(e)
  expect(Either.isRight(encoded), `does not encode: ${text(e)}`).toBe(true)
  if (Either.isRight(encoded)) {
    const decoded = decodeError(JSON.parse(JSON.stringify(encoded.right)))
    expect(Either.isRight(decoded), `does not decode from JSON: ${text(encoded.right)}`).toBe(true)
  }
  for (const failure of e.failures ?? []) {
    expect(isKnownReason(failure._tag, failure.reason), `failure ${failure._tag}/${failure.reason}`).toBe(true)
    expect(failure.message.length).toBeGreaterThan(0)
  }
  assertNoSecret("error", `${text(encoded)} ${String(e)} ${e.message} ${e.input ?? ""}`)
  return e
}

/** The exit holds exactly one typed failure: no defect, no interruption, no second failure. */
const assertTypedFailure = <A>(exit: Exit.Exit<A, unknown>): WebSearchError.WebSearchError => {
  expect(Exit.isFailure(exit)).toBe(true)
  if (Exit.isSuccess(exit)) throw new Error("unreachable")
  const defects = [...Cause.defects(exit.cause)]
  expect(defects, `defect: ${Cause.pretty(exit.cause).slice(0, 2000)}`).toEqual([])
  expect(Cause.isInterruptedOnly(exit.cause)).toBe(false)
  const failures = [...Cause.failures(exit.cause)]
  expect(failures).toHaveLength(1)
  return assertTypedError(failures[0])
}

const assertLogsClean = () => {
  for (const entry of logs.entries) assertNoSecret(`log entry (${entry.level})`, entry.text)
}

const isResponse = Schema.is(WebSearchResponse.WebSearchResponse)
const isResearchResponse = Schema.is(WebSearchResponse.ResearchResponse)

/**
 * What an input's outcome must be: refused before any call (fetchUrls only), or the outcome of the behaviour the
 * driver was scripted with for it.
 */
const assertFailureMatches = (failure: {
  readonly input?: string | undefined
  readonly _tag: string
  readonly reason: string
}) => {
  const input = failure.input ?? ""
  if (!current.calls.some((call) => call.input === input)) {
    expect([failure._tag, failure.reason, input]).toEqual([
      "RequestFailed",
      expect.stringMatching(/^(blacklisted|ssrf_rejected)$/),
      input
    ])
    return
  }
  const b = behaviourFor(input)
  switch (b._tag) {
    case "Succeed":
      // A succeeding call never fails.
      expect.fail(`input ${JSON.stringify(input)} was answered but reported as ${failure._tag}/${failure.reason}`)
      return
    case "Fail":
      expect([failure._tag, failure.reason]).toEqual([b.error._tag, b.error.reason])
      return
    case "Die":
    case "Throw":
      expect([failure._tag, failure.reason]).toEqual(["ResponseInvalid", "parse_failed"])
      return
    case "Malformed":
      expect(failure._tag).toBe("ResponseInvalid")
      expect(["decode_failed", "parse_failed"]).toContain(failure.reason)
      return
    case "FailForeign":
      // A value shaped like one of the four errors is rebuilt as that error; anything else is the driver's bug.
      expect(tags).toContain(failure._tag)
      return
  }
}

/**
 * The results the scripted driver answered an input with, up to the requested count (as the scripted driver
 * builds them: a fetch answers its first result, or the page of the URL itself). A `Malformed` answer that happens
 * to satisfy the contract is an answer too.
 */
const offeredBy = (kind: "searchKeywords" | "fetchUrls", input: string, limit: number): ReadonlyArray<DriverResult> => {
  const b = behaviourFor(input)
  if (b._tag !== "Succeed" && b._tag !== "Malformed") return []
  const results = b.results as ReadonlyArray<DriverResult> | null | undefined
  if (kind === "fetchUrls") return [results?.[0] ?? Drivers.fetchedPage(input)]
  return Array.isArray(results) ? results.slice(0, limit) : []
}

/** The invariants of a successful `searchKeywords` or `fetchUrls` response. */
const assertListResponse = (kind: "searchKeywords" | "fetchUrls", request: unknown, response: unknown) => {
  expect(isResponse(response), `response outside its schema: ${text(response).slice(0, 1000)}`).toBe(true)
  const r = response as WebSearchResponse.WebSearchResponse
  expect(r.capability).toBe(kind)
  assertNoSecret("response", text(r))
  // Inputs: 1–20, distinct, non-empty and already normalised.
  expect(r.inputs.length).toBeGreaterThanOrEqual(1)
  expect(r.inputs.length).toBeLessThanOrEqual(WebSearchRequest.maxInputs)
  expect(new Set(r.inputs).size).toBe(r.inputs.length)
  expect(r.query).toBe(WebSearchResponse.joinQuery(r.inputs))
  for (const input of r.inputs) {
    expect(input.length).toBeGreaterThan(0)
    if (kind === "searchKeywords") expect(WebSearchRequest.normalizeKeyword(input)).toBe(input)
    else expect(WebSearchRequest.normalizeUrl(input)).toEqual(Either.right(input))
  }
  // Failures name inputs that exist, once each, with a documented reason; a failed input has no results.
  const failed = new Set(r.failures.map((f) => f.input))
  expect(failed.size).toBe(r.failures.length)
  expect(failed.size).toBeLessThan(r.inputs.length)
  for (const failure of r.failures) {
    expect(r.inputs).toContain(failure.input)
    expect(isKnownReason(failure._tag, failure.reason), `${failure._tag}/${failure.reason}`).toBe(true)
    assertFailureMatches(failure)
  }
  const limit = kind === "fetchUrls" ? 1 : (ownNumber(request, "maxResults") ?? settingsMaxResults)
  const perInput = new Map<string, number>()
  const seen = new Set<string>()
  for (const result of r.results) {
    expect(r.inputs).toContain(result.sourceInput)
    expect(failed.has(result.sourceInput)).toBe(false)
    perInput.set(result.sourceInput, (perInput.get(result.sourceInput) ?? 0) + 1)
    // Every result came from the driver's answer for its input, within the requested count.
    const offered = offeredBy(kind, result.sourceInput, limit)
    expect(
      offered.some((o) => o.url === result.url && o.title === result.title),
      `result ${result.url} not offered by the driver`
    ).toBe(true)
    // The blacklist holds, and no URL appears twice.
    expect(Blacklist.isAllowed(filter, result.url), `blacklisted result ${result.url}`).toBe(true)
    const key = PostProcessing.normalizeUrlForDedupe(result.url)
    expect(seen.has(key), `duplicate result ${result.url}`).toBe(false)
    seen.add(key)
  }
  for (const count of perInput.values()) expect(count).toBeLessThanOrEqual(limit)
  if (kind === "fetchUrls") {
    // No driver was ever handed a URL the policy refuses or the blacklist names.
    for (const call of current.calls) {
      expect(Either.isRight(UrlPolicy.checkUrl(urlPolicy, call.input)), `driver got refused ${call.input}`).toBe(true)
      expect(Blacklist.isAllowed(filter, call.input), `driver got blacklisted ${call.input}`).toBe(true)
    }
  }
}

const assertResearchResponse = (request: unknown, response: unknown) => {
  expect(isResearchResponse(response), `research response outside its schema: ${text(response).slice(0, 500)}`).toBe(
    true
  )
  const r = response as WebSearchResponse.ResearchResponse
  const query = (request as { readonly query?: unknown }).query
  expect(typeof query).toBe("string")
  if (typeof query === "string") expect(r.query).toBe(query.trim())
  // Only a driver that answered can have produced a report (results outside the list contract may still make one).
  expect(["Succeed", "Malformed"]).toContain(behaviourFor(r.query)._tag)
  assertNoSecret("research response", text(r))
}

/** Checks one exit of a capability call against the contract. */
const assertOutcome = (kind: Kind, request: unknown, exit: Exit.Exit<unknown, unknown>) => {
  assertLogsClean()
  if (Exit.isSuccess(exit)) {
    expect(plainlyInvalid(kind, request), `invalid request succeeded: ${text(request).slice(0, 300)}`).toBe(false)
    if (kind === "research") assertResearchResponse(request, exit.value)
    else assertListResponse(kind, request, exit.value)
    return
  }
  const error = assertTypedFailure(exit)
  if (plainlyInvalid(kind, request)) {
    expect([error._tag, error.reason], error.message).toEqual(["RequestFailed", "invalid_input"])
    expect(current.calls).toEqual([])
  }
  if (error._tag === "RequestFailed" && error.reason === "invalid_input") {
    expect(error.capability).toBe(kind)
  }
  if (kind === "research" && current.calls.length > 0) {
    // One call, so the error is the driver's outcome (a report without sources is outside the contract).
    expect(current.calls).toHaveLength(1)
    const b = behaviourFor(current.calls[0].input)
    if (b._tag === "Succeed") expect([error._tag, error.reason]).toEqual(["ResponseInvalid", "decode_failed"])
    else assertFailureMatches({ ...error, input: current.calls[0].input })
  }
  // A request that failed as a whole because every input failed names each input's failure.
  for (const failure of error.failures ?? []) assertFailureMatches(failure)
}

// --- Properties -------------------------------------------------------------------------------------------

/** Generated requests per property; their sum is the suite's total (10 040). */
const runs = { searchKeywords: 3000, fetchUrls: 3000, research: 1500, client: 2500, huge: 40 } as const

layer(Live)("fuzz: public capability services", (it) => {
  it.effect.prop(
    "searchKeywords: hostile requests end in a contract-valid response or one typed error",
    { request: searchRequest, plan },
    ({ plan, request }) =>
      Effect.gen(function* () {
        startRun(plan)
        const exit = yield* Effect.exit(Effect.suspend(() => SearchKeywords.searchKeywords(request as SearchInput)))
        assertOutcome("searchKeywords", request, exit)
      }),
    { timeout: 120_000, fastCheck: { numRuns: runs.searchKeywords, seed: 81_001 } }
  )

  it.effect.prop(
    "fetchUrls: hostile URLs end in a contract-valid response or one typed error; no refused URL reaches a driver",
    { request: fetchRequest, plan },
    ({ plan, request }) =>
      Effect.gen(function* () {
        startRun(plan)
        const exit = yield* Effect.exit(Effect.suspend(() => FetchUrls.fetchUrls(request as FetchInput)))
        assertOutcome("fetchUrls", request, exit)
      }),
    { timeout: 120_000, fastCheck: { numRuns: runs.fetchUrls, seed: 81_002 } }
  )

  it.effect.prop(
    "research: hostile briefs and domains end in a contract-valid report or one typed error",
    { request: researchRequest, plan },
    ({ plan, request }) =>
      Effect.gen(function* () {
        startRun(plan)
        const exit = yield* Effect.exit(Effect.suspend(() => Research.research(request as ResearchInput)))
        assertOutcome("research", request, exit)
      }),
    { timeout: 120_000, fastCheck: { numRuns: runs.research, seed: 81_003 } }
  )

  it.effect.prop(
    "huge arrays (10^4–10^5 items) are refused as invalid_input with a bounded message, before any driver call",
    {
      kind: FastCheck.constantFrom<Kind>("searchKeywords", "fetchUrls", "research"),
      huge: Hostile.huge(
        FastCheck.oneof(
          { arbitrary: Hostile.piece, weight: 3 },
          { arbitrary: Hostile.hostileUrl, weight: 3 },
          { arbitrary: FastCheck.oneof(FastCheck.integer(), FastCheck.constant(null)), weight: 1 }
        )
      )
    },
    ({ huge, kind }) =>
      Effect.gen(function* () {
        const items = Hostile.buildHuge(huge)
        startRun([{ _tag: "Succeed", results: [] }])
        const call: Effect.Effect<
          unknown,
          WebSearchError.WebSearchError,
          SearchKeywords.SearchKeywords | FetchUrls.FetchUrls | Research.Research
        > =
          kind === "searchKeywords"
            ? SearchKeywords.searchKeywords({ keywords: items as Array<string> })
            : kind === "fetchUrls"
              ? FetchUrls.fetchUrls({ urls: items as Array<string> })
              : Research.research({ query: "q", allowedDomains: items as Array<string> })
        const exit = yield* Effect.exit(call)
        const error = assertTypedFailure(exit)
        expect([error._tag, error.reason]).toEqual(["RequestFailed", "invalid_input"])
        // The message names the problem without echoing 10^5 items.
        expect(error.message.length).toBeLessThan(5_000)
        expect(current.calls).toEqual([])
      }),
    { timeout: 120_000, fastCheck: { numRuns: runs.huge, seed: 81_004 } }
  )
})

// --- Promise client ---------------------------------------------------------------------------------------

const clientCall = FastCheck.oneof(
  searchRequest.map((request) => ({ method: "searchKeywords" as const, request })),
  fetchRequest.map((request) => ({ method: "fetchUrls" as const, request })),
  researchRequest.map((request) => ({ method: "research" as const, request })),
  providerId.map((request) => ({ method: "check" as const, request }))
)

const callOptions: FastCheck.Arbitrary<unknown> = FastCheck.oneof(
  { arbitrary: FastCheck.constant(undefined), weight: 10 },
  { arbitrary: FastCheck.constant("aborted"), weight: 1 },
  { arbitrary: Hostile.wrongType.map((signal) => ({ signal })), weight: 1 },
  { arbitrary: Hostile.wrongType, weight: 1 }
)

const errorClasses = [
  WebSearchError.Unavailable,
  WebSearchError.RequestFailed,
  WebSearchError.ResponseInvalid,
  WebSearchError.Aborted
]

describe("fuzz: WebSearchClient", () => {
  const client = WebSearchClient.make(Layer.merge(Drivers.layer(drivers, settingsInput), logs.layer))

  it.effect.prop(
    "every call returns a promise that resolves with a valid answer or rejects with one of the four errors",
    { call: clientCall, options: callOptions, plan },
    ({ call, options, plan }) =>
      Effect.gen(function* () {
        startRun(plan)
        const signal = options === "aborted" ? { signal: AbortSignal.abort() } : options
        // Nothing may throw synchronously out of the client.
        const promise = (client[call.method] as (request: unknown, options: unknown) => Promise<unknown>)(
          call.request,
          signal
        )
        expect(promise).toBeInstanceOf(Promise)
        const settled = yield* Effect.promise(() =>
          promise.then(
            (value) => Either.right(value),
            (error: unknown) => Either.left(error)
          )
        )
        assertLogsClean()
        if (Either.isLeft(settled)) {
          expect(
            errorClasses.some((c) => settled.left instanceof c),
            `rejected with a foreign value: ${text(settled.left)}`
          ).toBe(true)
          const error = assertTypedError(settled.left)
          if (options === "aborted") expect(error._tag).toBe("Aborted")
          return
        }
        expect(options).not.toBe("aborted")
        const value = settled.right
        switch (call.method) {
          case "check":
            expect(Schema.is(ProviderChecks.ProviderCheck)(value)).toBe(true)
            assertNoSecret("check", text(value))
            return
          case "research":
            return assertResearchResponse(call.request, value)
          default:
            return assertListResponse(call.method, call.request, value)
        }
      }),
    { timeout: 120_000, fastCheck: { numRuns: runs.client, seed: 81_005 } }
  )

  it("dispose ends the client; later calls reject with Aborted", async () => {
    await client.dispose()
    const error = await client.searchKeywords({ keywords: ["after"] }).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(WebSearchError.Aborted)
  })
})

// --- Regressions ------------------------------------------------------------------------------------------

layer(Live)("fuzz regressions", (it) => {
  it.effect("a request with a symbol key is invalid_input (the issue path held a symbol, and join threw)", () =>
    Effect.gen(function* () {
      startRun([{ _tag: "Succeed", results: [] }])
      const error = yield* Effect.flip(
        SearchKeywords.searchKeywords({ keywords: ["a"], [Symbol("extra")]: 1 } as unknown as SearchInput)
      )
      expect([error._tag, error.reason]).toEqual(["RequestFailed", "invalid_input"])
      expect(error.message).toContain("Symbol(extra)")
    })
  )

  it.effect("a request whose getter throws is invalid_input, not a defect", () =>
    Effect.gen(function* () {
      const request = {
        get keywords(): Array<string> {
          throw new Error("getter throws")
        }
      }
      const exit = yield* Effect.exit(SearchKeywords.searchKeywords(request))
      const error = assertTypedFailure(exit)
      expect([error._tag, error.reason, error.message]).toEqual([
        "RequestFailed",
        "invalid_input",
        "invalid searchKeywords request: the request could not be read"
      ])
    })
  )

  it.effect("20 wrongly typed keywords: the message lists the first issues and counts the rest", () =>
    Effect.gen(function* () {
      const keywords = Array.from({ length: 20 }, (_, i) => i) as unknown as Array<string>
      const error = yield* Effect.flip(SearchKeywords.searchKeywords({ keywords }))
      expect(error.reason).toBe("invalid_input")
      expect(error.message).toContain("keywords[0]: not a string")
      expect(error.message).toContain("and 10 more issues")
      expect(error.message.length).toBeLessThan(1_000)
    })
  )

  it.effect("10^4 unknown fields are refused on their count, before any field is decoded", () =>
    Effect.gen(function* () {
      const request: Record<string, unknown> = { keywords: ["a"] }
      for (let i = 0; i < 10_000; i++) request[`k${i}`] = null
      const error = yield* Effect.flip(SearchKeywords.searchKeywords(request as never))
      expect([error.reason, error.message]).toEqual([
        "invalid_input",
        "invalid searchKeywords request: 10001 fields, where a request has a few"
      ])
    })
  )

  it.effect("10^5 wrongly typed keywords are refused on their count, before any item is decoded", () =>
    Effect.gen(function* () {
      const keywords = Array.from({ length: 100_000 }, (_, i) => i) as unknown as Array<string>
      const error = yield* Effect.flip(SearchKeywords.searchKeywords({ keywords }))
      expect([error.reason, error.message]).toEqual([
        "invalid_input",
        "invalid searchKeywords request: keywords: at most 20 keywords per request"
      ])
    })
  )

  it.effect("a driver that throws instead of returning an effect fails its input with parse_failed", () =>
    Effect.gen(function* () {
      startRun([{ _tag: "Throw", thrown: new Error(`sync throw quoting ${tavilyKey}`) }])
      const error = yield* Effect.flip(SearchKeywords.searchKeywords({ keywords: ["boom"], providerId: "tavily" }))
      expect([error._tag, error.reason, error.providerId]).toEqual(["ResponseInvalid", "parse_failed", "tavily"])
      expect(error.message).toContain("Tavily")
      expect(error.message).toContain("[redacted]")
      assertNoSecret("error", error.message)
      // The defect was logged (so the capture is live), scrubbed.
      expect(logs.entries.some((e) => e.level === "ERROR" && e.message.includes("[redacted]"))).toBe(true)
      assertLogsClean()
    })
  )

  it.effect("a research driver that throws fails with parse_failed naming the provider", () =>
    Effect.gen(function* () {
      startRun([{ _tag: "Throw", thrown: "research throws" }])
      const error = yield* Effect.flip(Research.research({ query: "q", allowedDomains: [] }))
      expect([error._tag, error.reason, error.providerId]).toEqual(["ResponseInvalid", "parse_failed", "openai"])
    })
  )

  it.effect("results outside the contract (content not text) fail the input with decode_failed", () =>
    Effect.gen(function* () {
      startRun([{ _tag: "Malformed", results: [{ title: "t", content: 5, url: "https://ok.example/" }] }])
      const error = yield* Effect.flip(SearchKeywords.searchKeywords({ keywords: ["x"] }))
      expect([error._tag, error.reason]).toEqual(["ResponseInvalid", "decode_failed"])
      startRun([{ _tag: "Malformed", results: { title: "t" } }])
      const notAList = yield* Effect.flip(SearchKeywords.searchKeywords({ keywords: ["x"] }))
      expect(notAList.reason).toBe("decode_failed")
      // A page type no surface could encode (every surface's schema has the closed list).
      startRun([
        { _tag: "Malformed", results: [{ title: "t", content: "c", url: "https://ok.example/", pageType: "recipe" }] }
      ])
      const unknownType = yield* Effect.flip(SearchKeywords.searchKeywords({ keywords: ["x"] }))
      expect(unknownType.reason).toBe("decode_failed")
      expect(unknownType.message).toContain("a known pageType")
    })
  )

  it.effect("a driver failing with a foreign value: parse_failed; one shaped like ours is rebuilt", () =>
    Effect.gen(function* () {
      startRun([{ _tag: "FailForeign", error: { message: "not ours" } }])
      const foreign = assertTypedFailure(yield* Effect.exit(SearchKeywords.searchKeywords({ keywords: ["x"] })))
      expect([foreign._tag, foreign.reason]).toEqual(["ResponseInvalid", "parse_failed"])
      startRun([
        { _tag: "FailForeign", error: { _tag: "RequestFailed", reason: "http_5xx", message: "m", retryable: true } }
      ])
      const shaped = assertTypedFailure(yield* Effect.exit(SearchKeywords.searchKeywords({ keywords: ["x"] })))
      expect([shaped._tag, shaped.reason, shaped.retryable]).toEqual(["RequestFailed", "http_5xx", true])
      expect(shaped).toBeInstanceOf(WebSearchError.RequestFailed)
    })
  )

  it.effect("a defect whose conversion to text throws still becomes parse_failed", () =>
    Effect.gen(function* () {
      startRun([{ _tag: "Die", defect: Object.create(null) }])
      const error = assertTypedFailure(yield* Effect.exit(SearchKeywords.searchKeywords({ keywords: ["x"] })))
      expect([error._tag, error.reason]).toEqual(["ResponseInvalid", "parse_failed"])
      expect(error.message).toContain("a value that cannot be shown")
    })
  )
})

describe("fuzz regressions: WebSearchClient", () => {
  it("a signal that is not an AbortSignal rejects with invalid_input instead of throwing", async () => {
    const client = WebSearchClient.make(Drivers.layer(drivers, settingsInput))
    try {
      const error = await client.searchKeywords({ keywords: ["x"] }, { signal: "soon" as unknown as AbortSignal }).then(
        () => undefined,
        (e: unknown) => e
      )
      expect(error).toBeInstanceOf(WebSearchError.RequestFailed)
      expect((error as WebSearchError.RequestFailed).reason).toBe("invalid_input")
    } finally {
      await client.dispose()
    }
  })
})
