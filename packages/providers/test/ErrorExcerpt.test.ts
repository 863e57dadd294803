/**
 * What an error quotes of a provider's answer: an endpoint may be anything a workspace admin set (an internal
 * service behind a proxy), so a refusal quotes at most a short, control-free excerpt of what answered there, never
 * the body. Real drivers over real HTTP against a local server answering hostile error bodies, and the excerpt
 * rule itself as a property.
 */
import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Brave from "../src/Brave.js"
import * as Excerpt from "../src/internal/excerpt.js"
import * as OpenAiErrors from "../src/internal/openAiErrors.js"
import * as SearXng from "../src/SearXng.js"
import * as Serper from "../src/Serper.js"
import * as Tavily from "../src/Tavily.js"
import * as Server from "./support/providerServer.js"

// Control and format characters: terminal escapes, bidirectional overrides, zero-width characters.
const controls = /[\p{Cc}\p{Cf}]/u

// An internal service's answer: its first words, then what must never reach the caller.
const internal = (tail: string) =>
  `internal admin console: ${"\u001b[31m"}DB_PASSWORD${"\u202e"}=hunter2\u200b ${"x".repeat(200)} ${tail}`

const bodies = [
  ["a JSON message", (tail: string) => ({ message: internal(tail) })],
  ["a JSON error object", (tail: string) => ({ error: { message: internal(tail), code: 500 } })],
  ["plain text", (tail: string) => `${internal(tail)}\nroot:x:0:0:root:/root:/bin/bash\n`]
] as const

const drivers = [
  ["brave", Brave.layer],
  ["tavily", Tavily.layer],
  ["serper", Serper.layer],
  ["searxng", SearXng.layer]
] as const

describe("provider error text", () => {
  for (const [providerId, layer] of drivers) {
    for (const [shape, body] of bodies) {
      for (const status of [400, 401, 404, 429, 500, 503]) {
        it(`${providerId} quotes a short, control-free excerpt of ${shape} (HTTP ${status})`, async () => {
          const server = await Server.start(Server.reply(status, body("INTERNAL-TAIL-7f3a")))
          try {
            const error = Server.failure(
              await Server.search(server, providerId, layer, ["query"], {
                keys: ["provider-key-0123456789"],
                capabilities: ["searchKeywords"]
              })
            )
            expect(error.message).not.toContain("INTERNAL-TAIL-7f3a")
            expect(error.message).not.toContain("root:x:0:0")
            expect(error.message).not.toMatch(controls)
            // At most an excerpt of the body, within the driver's own words (a status, a hint where to look).
            expect(error.message.match(/x+/g)?.every((run) => run.length < Excerpt.maxChars) ?? true).toBe(true)
            expect(error.message.length).toBeLessThanOrEqual(Excerpt.maxChars + 300)
          } finally {
            await server.close()
          }
        })
      }
    }
  }

  it.prop(
    "an excerpt is at most 160 characters, has no control or format character and no secret, in any form",
    [FastCheck.string({ unit: "binary", maxLength: 2000 }), FastCheck.string({ minLength: 8, maxLength: 40 })],
    ([text, secret]) => {
      const clean = secret.replace(/[\s\p{Cc}\p{Cf}]/gu, "x")
      const shown = Excerpt.excerpt(`${text}${clean}${text}`, [clean])
      expect(shown.length).toBeLessThanOrEqual(Excerpt.maxChars)
      expect(shown).not.toMatch(controls)
      expect(shown).not.toContain(clean)
      // A cut never leaves half a surrogate pair behind.
      if (shown.length === Excerpt.maxChars) expect(shown.slice(0, -3)).not.toMatch(/[\ud800-\udbff]$/)
    }
  )

  it("OpenAI's messages are excerpted the same way, its key shapes removed", () => {
    const shown = OpenAiErrors.providerText(internal("sk-proj-abcdefghijklmnop INTERNAL-TAIL"), "the-key")
    expect(shown.length).toBeLessThanOrEqual(Excerpt.maxChars)
    expect(shown).not.toMatch(controls)
    expect(shown).not.toContain("INTERNAL-TAIL")
  })

  it("is linear in hostile text: a 100k run of one character and of near-miss escapes", () => {
    for (const text of ["\u001b".repeat(100_000), " \u202e".repeat(50_000), "a".repeat(100_000)]) {
      const shown = Excerpt.excerpt(text, ["aaaaaaaab"])
      expect(shown.length).toBeLessThanOrEqual(Excerpt.maxChars)
    }
  })
})
