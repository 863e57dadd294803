import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Metadata from "@websearch/core/internal/resultMetadata"
import * as Fields from "../src/internal/resultFields.js"

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
const pad = (n: number, width = 2) => String(n).padStart(width, "0")

// A calendar date that exists, in the years web pages have.
const date = FastCheck.date({
  min: new Date(Date.UTC(1990, 0, 1)),
  max: new Date(Date.UTC(2100, 11, 31, 23, 59, 59)),
  noInvalidDate: true
})
// Far enough from the ends that a zone's offset cannot move the local date out of the years kept.
const inner = FastCheck.date({
  min: new Date(Date.UTC(1991, 0, 1)),
  max: new Date(Date.UTC(2099, 11, 31)),
  noInvalidDate: true
})

describe("resultMetadata.publishedAt", () => {
  it.prop(
    "a zoned ISO time comes back as the same instant in UTC",
    [inner, FastCheck.integer({ min: -12, max: 14 })],
    ([d, hours]) => {
      const offset = hours * 60
      const local = new Date(d.getTime() + offset * 60_000)
      const sign = offset < 0 ? "-" : "+"
      const zone = `${sign}${pad(Math.abs(hours))}:00`
      const written = `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${zone}`
      expect(Metadata.publishedAt(written)).toBe(new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString())
    }
  )

  it.prop("a date is read the same in ISO, Google's and European order, and without leading zeros", [date], ([d]) => {
    const y = d.getUTCFullYear()
    const m = d.getUTCMonth() + 1
    const day = d.getUTCDate()
    const iso = `${y}-${pad(m)}-${pad(day)}`
    expect(Metadata.publishedAt(iso)).toBe(iso)
    expect(Metadata.publishedAt(`${y}-${m}-${day}`)).toBe(iso)
    expect(Metadata.publishedAt(`${months[m - 1]} ${day}, ${y}`)).toBe(iso)
    expect(Metadata.publishedAt(`${day} ${months[m - 1]} ${y}`)).toBe(iso)
  })

  it.prop(
    "a time without a zone stays local, to the millisecond",
    [date, FastCheck.integer({ min: 0, max: 9_999_999 })],
    ([d, fraction]) => {
      const written = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(fraction, 7)}`
      expect(Metadata.publishedAt(written)).toBe(written.slice(0, 23))
      expect(Metadata.publishedAt(written.replace("T", " ").slice(0, 16))).toBe(`${written.slice(0, 16)}:00`)
    }
  )

  it.prop("Unix seconds and milliseconds are the same instant", [date], ([d]) => {
    const seconds = Math.floor(d.getTime() / 1000)
    const expected = new Date(seconds * 1000).toISOString()
    expect(Metadata.publishedAt(seconds)).toBe(expected)
    expect(Metadata.publishedAt(seconds * 1000)).toBe(expected)
    expect(Metadata.publishedAt(String(seconds))).toBe(expected)
  })

  it.prop("anything returned is ISO 8601, and nothing throws", [FastCheck.string({ maxLength: 80 })], ([s]) => {
    const out = Metadata.publishedAt(s)
    if (out !== undefined) expect(out).toMatch(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{3})?Z?)?$/)
  })

  it("drops what is no date: relative ages, impossible days, years no page has, weekdays", () => {
    for (const s of [
      "2 days ago",
      "3 hours ago",
      "yesterday",
      "Monday",
      "2025-02-30",
      "2025-13-01",
      "1969-07-20",
      "2025-04-27T25:00:00",
      "N/A",
      ""
    ]) {
      expect(Metadata.publishedAt(s)).toBeUndefined()
    }
    expect(Metadata.publishedAt("Tue, 14 May 2024 12:00:00 GMT")).toBe("2024-05-14T12:00:00.000Z")
    expect(Metadata.publishedAt("2024-05-14T12:00:00+0800")).toBe("2024-05-14T04:00:00.000Z")
  })
})

describe("resultFields.result with metadata", () => {
  it("keeps usable fields, folds white space and leaves out the rest", () => {
    expect(
      Fields.result({
        title: "T",
        url: "https://example.com/",
        publishedAt: "3 days ago",
        author: "  Ann \n Lee ",
        siteName: " ",
        language: "en_US"
      })
    ).toEqual({ title: "T", content: "", url: "https://example.com/", author: "Ann Lee", language: "en-US" })
  })
})
