import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Terminal from "../src/internal/terminal.js"

const word = FastCheck.stringMatching(/^[a-z]{1,15}$/)
const sentence = FastCheck.array(word, { minLength: 1, maxLength: 40 }).map((words) => words.join(" "))

describe("terminal layout", () => {
  it.prop(
    "wrapping keeps every word in order and no line is wider than the width unless it is one word",
    [sentence, FastCheck.integer({ min: 20, max: 120 })],
    ([text, width]) => {
      const lines = Terminal.wrapLine(text, width, "  ")
      expect(lines.join(" ").split(/\s+/).filter(Boolean)).toEqual(text.split(" "))
      for (const line of lines) {
        if (line.trim().includes(" ")) expect([...line].length).toBeLessThanOrEqual(width)
      }
    }
  )

  it.prop("content keeps fenced code and tables as they are", [sentence], ([text]) => {
    const content = `${text}\n\`\`\`\n${text}\n\`\`\`\n| ${text} |`
    const wrapped = Terminal.wrapContent(content, 20).split("\n")
    expect(wrapped.slice(-4)).toEqual(["```", text, "```", `| ${text} |`])
  })

  it.prop(
    "colour only on a TTY or with FORCE_COLOR, never with NO_COLOR or TERM=dumb",
    [FastCheck.boolean(), FastCheck.boolean(), FastCheck.boolean(), FastCheck.boolean()],
    ([tty, force, noColour, dumb]) => {
      const env = {
        ...(force ? { FORCE_COLOR: "1" } : {}),
        ...(noColour ? { NO_COLOR: "1" } : {}),
        ...(dumb ? { TERM: "dumb" } : {})
      }
      expect(Terminal.look({ isTTY: tty, columns: 80 }, env).colour).toBe((tty || force) && !noColour && !dumb)
      expect(Terminal.style(Terminal.look({ isTTY: tty }, env), "bold", "x").includes("\u001b")).toBe(
        (tty || force) && !noColour && !dumb
      )
    }
  )

  it("the width is COLUMNS, else the terminal's, else none off a terminal", () => {
    expect(Terminal.look({ isTTY: false }, { COLUMNS: "50" }).width).toBe(50)
    expect(Terminal.look({ isTTY: true, columns: 90 }, {}).width).toBe(90)
    expect(Terminal.look({ isTTY: false, columns: 90 }, {}).width).toBeUndefined()
  })
})
