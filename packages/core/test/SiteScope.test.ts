import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as PathPattern from "../src/internal/pathPattern.js"
import * as SiteScope from "../src/internal/siteScope.js"

const segment = FastCheck.stringMatching(/^[a-z0-9-]{1,8}$/)
const path = FastCheck.array(segment, { minLength: 0, maxLength: 5 }).map((parts) => `/${parts.join("/")}`)
const query = FastCheck.array(FastCheck.tuple(segment, segment), { maxLength: 3 })

describe("the site's scope and dedupe key", () => {
  it.prop(
    "fragments, tracking parameters, www., the scheme, a trailing slash and parameter order do not change the key",
    [path, query, segment],
    ([p, q, fragment]) => {
      const search = q.map(([k, v]) => `${k}=${v}`).join("&")
      const plain = new URL(`https://example.com${p}${search === "" ? "" : `?${search}`}`)
      const noisy = new URL(
        `http://www.example.com${p}${p.endsWith("/") ? "" : "/"}?utm_source=x&${[...q]
          .reverse()
          .map(([k, v]) => `${k}=${v}`)
          .join("&")}#${fragment}`
      )
      // Reversing equal keys' values changes their order; only distinct names are order-free.
      if (new Set(q.map(([k]) => k)).size !== q.length) return
      expect(SiteScope.dedupeKey(noisy)).toBe(SiteScope.dedupeKey(plain))
    }
  )

  it.prop(
    "a site holds its own URLs, with www. or not, and its subdomains only when asked",
    [path, segment],
    ([p, sub]) => {
      const scope = SiteScope.of("https://example.com/", false)
      const wide = SiteScope.of("https://www.example.com/", true)
      expect(SiteScope.contains(scope, new URL(`https://www.example.com${p}`))).toBe(true)
      expect(SiteScope.contains(scope, new URL(`https://${sub}.example.com${p}`))).toBe(sub === "www")
      expect(SiteScope.contains(wide, new URL(`https://${sub}.example.com${p}`))).toBe(true)
      expect(SiteScope.contains(wide, new URL(`https://${sub}example.com${p}`))).toBe(false)
      expect(SiteScope.contains(scope, new URL(`ftp://example.com${p}`))).toBe(false)
    }
  )

  it.prop(
    "no pattern keeps every URL; a path's own anchored pattern includes or excludes exactly it",
    [path, path],
    ([a, b]) => {
      const url = new URL(`https://example.com${a}`)
      expect(SiteScope.kept({ includePaths: [], excludePaths: [] }, url)).toBe(true)
      expect(SiteScope.kept({ includePaths: [`${a}$`], excludePaths: [] }, url)).toBe(true)
      expect(SiteScope.kept({ includePaths: [], excludePaths: [`${a}$`] }, url)).toBe(false)
      expect(SiteScope.kept({ includePaths: [`${b}$`], excludePaths: [] }, url)).toBe(a === b)
    }
  )

  it.prop("a pattern is a prefix unless anchored, and * matches any run", [path, segment], ([p, tail]) => {
    expect(PathPattern.matches(p, `${p}${tail}`)).toBe(true)
    expect(PathPattern.matches(`${p}$`, `${p}${tail}`)).toBe(false)
    expect(PathPattern.matches(`/*${tail}`, `${p}/${tail}`)).toBe(true)
  })

  it("matching is linear in hostile patterns and paths: a long run of stars against a long near-miss", () => {
    const pattern = `/${"*a".repeat(100)}b`
    const hostile = `/${"a".repeat(200_000)}`
    // Counts, not time: the answer is right, and the work is bounded by the matcher's linear design.
    expect(PathPattern.matches(pattern, hostile)).toBe(false)
    expect(PathPattern.matches(pattern, `${hostile}b`)).toBe(true)
  })
})
