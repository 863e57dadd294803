import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Redaction from "../src/internal/redaction.js"

const secret = FastCheck.string({ minLength: 4, maxLength: 40 }).filter((s) => s.trim().length >= 4)
const text = FastCheck.string({ maxLength: 60 })

describe("Redaction", () => {
  it.prop(
    "no form of the secret survives, whatever surrounds it",
    [secret, FastCheck.option(FastCheck.string({ minLength: 1, maxLength: 12 }), { nil: undefined }), text, text],
    ([key, username, before, after]) => {
      const forms = Redaction.forms(key, username)
      for (const form of forms) {
        const shown = Redaction.scrub(`${before}${form}${after}`, forms)
        expect(shown.toLowerCase()).not.toContain(key.toLowerCase())
        if (form.length >= 4) expect(shown).toContain(Redaction.placeholder)
      }
    }
  )

  it("forms: as sent, URL-encoded both ways, base64, basic auth", () => {
    expect(Redaction.forms("a/b c+d", "me")).toEqual([
      "a/b c+d",
      "a%2Fb%20c%2Bd",
      "a%2fb%20c%2bd",
      Buffer.from("a/b c+d").toString("base64"),
      Buffer.from("me:a/b c+d").toString("base64")
    ])
    expect(Redaction.forms("ключ-секрет")[3]).toBe(Buffer.from("ключ-секрет").toString("base64"))
  })

  it("short forms are left alone; any case is replaced", () => {
    expect(Redaction.scrub("the key abc", ["abc"])).toBe("the key abc")
    expect(Redaction.scrub("KEY=SK-LIVE-1234", Redaction.forms("sk-live-1234"))).toBe("KEY=[redacted]")
    // A secret the user chose (a Redis password) may be short: its caller scrubs every length.
    expect(Redaction.scrub("WRONGPASS pw", Redaction.forms("pw"), { minLength: 1 })).toBe("WRONGPASS [redacted]")
  })

  it("URLs: credential-named parameters and passwords are replaced, the rest kept", () => {
    const url = new URL("https://user:pw@api.example/search?q=x&api_key=abc&X-Subscription-Token=t")
    expect(Redaction.hasCredential(url)).toBe(true)
    expect(Redaction.hasCredential(new URL("https://api.example/search?q=x"))).toBe(false)
    const shown = Redaction.scrubUrl(url)
    expect(shown.searchParams.get("q")).toBe("x")
    expect(shown.searchParams.get("api_key")).toBe(Redaction.placeholder)
    expect(shown.searchParams.get("X-Subscription-Token")).toBe(Redaction.placeholder)
    expect(shown.password).toBe(encodeURIComponent(Redaction.placeholder))
  })
})
