import { describe, expect, it } from "@effect/vitest"
import * as ResultMetadata from "@websearch/core/internal/resultMetadata"
import * as PageMetadata from "../src/internal/pageMetadata.js"

describe("PageMetadata", () => {
  it("reads a published time as ISO 8601 only from an ISO date or a date naming its year", () => {
    expect(ResultMetadata.publishedAt("2026-11-30T09:15:00+01:00")).toBe("2026-11-30T08:15:00.000Z")
    // A bare date stays a date (ISO 8601 has them): no midnight or zone is invented.
    expect(ResultMetadata.publishedAt("2012-05-31")).toBe("2012-05-31")
    expect(ResultMetadata.publishedAt("Mon, 30 Nov 2026 08:00:00 GMT")).toBe("2026-11-30T08:00:00.000Z")
    for (const bad of ["vor 2 Stunden", "Monday", "12", "", "2026-13-45", "3000-01-01", undefined])
      expect(ResultMetadata.publishedAt(bad)).toBeUndefined()
  })

  it("keeps a language tag only when it is one, and fields only when the page has them", () => {
    expect(ResultMetadata.language("de_DE")).toBe("de-DE")
    expect(ResultMetadata.language("en")).toBe("en")
    expect(ResultMetadata.language("english please")).toBeUndefined()
    const doc = {
      kind: "html" as const,
      title: "t",
      markdown: "m",
      byline: "  Jane   Doe ",
      publishedTime: undefined,
      siteName: "",
      lang: "fr",
      excerpt: undefined,
      pageType: "article" as const
    }
    expect(PageMetadata.fromDocument(doc)).toEqual({ author: "Jane Doe", language: "fr" })
  })
})
