/**
 * Reading a secret from a terminal without showing it. A terminal in its usual (cooked) mode echoes every typed or
 * pasted character, so a key given to `providers set-key` would stay on the screen and in the scrollback. Raw mode
 * turns the echo off; the line editing it also turns off is redone here for the keys a user needs: Enter or a
 * pasted line break ends a line, Backspace removes the last character of the line, Ctrl-D ends the input and
 * Ctrl-C gives up.
 */
import { readSync } from "node:fs"
import type * as Io from "./io.js"

/** The bytes that mean something in raw mode; every other byte is text. */
const ctrlC = 0x03
const ctrlD = 0x04
const backspace = 0x08
const lineFeed = 0x0a
const carriageReturn = 0x0d
const delete_ = 0x7f

/** The terminal side this module needs: raw mode on and off, and the descriptor it reads. */
export interface Terminal {
  readonly setRawMode: (raw: boolean) => void
  readonly fd: number
}

/** How long to wait before reading again when a non-blocking descriptor has nothing yet, ms. */
const retryMillis = 10

const sleep = (millis: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, millis)

/**
 * Reads from the terminal with its echo off until Ctrl-D, writing `prompt` once raw mode is on (so that nothing the
 * user types after seeing it is echoed) and a line break after. Raw mode is turned off again whatever happens.
 */
export const read = (terminal: Terminal, write: (text: string) => void, prompt: string): Io.SecretInput => {
  terminal.setRawMode(true)
  try {
    write(prompt)
    const buffer = Buffer.alloc(4096)
    // Bytes, not characters: a multi-byte character split across two reads is decoded once, at the end.
    const bytes: Array<number> = []
    for (;;) {
      let count: number
      try {
        count = readSync(terminal.fd, buffer, 0, buffer.length, null)
      } catch (error) {
        // A terminal opened non-blocking has nothing yet: wait a little, as a blocking read would.
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") {
          sleep(retryMillis)
          continue
        }
        return { _tag: "Failed", message: error instanceof Error ? error.message : String(error) }
      }
      if (count === 0) return { _tag: "Text", text: Buffer.from(bytes).toString("utf8") }
      for (let i = 0; i < count; i++) {
        const byte = buffer[i]
        if (byte === ctrlC) return { _tag: "Interrupted" }
        if (byte === ctrlD) return { _tag: "Text", text: Buffer.from(bytes).toString("utf8") }
        if (byte === carriageReturn || byte === lineFeed) {
          bytes.push(lineFeed)
        } else if (byte === delete_ || byte === backspace) {
          // One character back, never past the line's start: drop continuation bytes, then the lead byte.
          while (bytes.length > 0 && (bytes[bytes.length - 1] & 0xc0) === 0x80) bytes.pop()
          if (bytes.length > 0 && bytes[bytes.length - 1] !== lineFeed) bytes.pop()
        } else {
          bytes.push(byte)
        }
      }
    }
  } finally {
    terminal.setRawMode(false)
    write("\n")
  }
}
