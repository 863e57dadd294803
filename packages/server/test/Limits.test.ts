import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as net from "node:net"
import * as Support from "./support/server.js"

const settings = {
  defaults: { searchKeywords: "tavily" },
  providers: { tavily: { apiKeys: [Support.canaryKey] } }
} as const

/**
 * Sends a request over a raw socket: the head, then `chunk` repeatedly until the server answers or closes (or
 * `maxBytes` have been written). Resolves with what the server sent and how many body bytes were written.
 */
const rawUpload = (
  base: string,
  head: string,
  chunk: Buffer,
  maxBytes: number
): Promise<{ readonly response: string; readonly written: number }> =>
  new Promise((resolve) => {
    const url = new URL(base)
    const socket = net.connect(Number(url.port), "127.0.0.1")
    let response = ""
    let written = 0
    let done = false
    const finish = () => {
      if (done) return
      done = true
      socket.destroy()
      resolve({ response, written })
    }
    socket.on("data", (data) => {
      response += data.toString("latin1")
      // The whole answer has arrived once the JSON body closed.
      if (/\r\n\r\n[\s\S]*}$/.test(response.replace(/\r\n0\r\n\r\n$/, ""))) setTimeout(finish, 20)
    })
    socket.on("error", finish)
    socket.on("close", finish)
    const pump = () => {
      while (!done && written < maxBytes) {
        written += chunk.length
        if (!socket.write(chunk)) {
          socket.once("drain", pump)
          return
        }
      }
    }
    socket.write(head, pump)
  })

describe("request body limit", () => {
  it.scoped("a declared Content-Length over the limit is refused with 413 before the body is read", () =>
    Effect.gen(function* () {
      const { driver, recorder } = Support.driver("tavily", { searchKeywords: () => Effect.succeed([]) })
      const base = yield* Support.start(
        { tokens: [Support.token], maxBodyBytes: 4096 },
        Support.live([driver], settings)
      )
      const gib = 1024 * 1024 * 1024
      const head =
        `POST /v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${Support.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${gib}\r\n\r\n`
      const { response, written } = yield* Effect.promise(() =>
        rawUpload(base, head, Buffer.alloc(64 * 1024, 0x20), 64 * 1024 * 1024)
      )
      expect(response).toMatch(/^HTTP\/1\.1 413 /)
      expect(response.toLowerCase()).toContain("connection: close")
      expect(response).toContain('"reason":"too_large"')
      expect(response).toContain("4096 bytes")
      // The answer came long before the declared gibibyte (or even the 64 MiB this client would send).
      expect(written).toBeLessThan(64 * 1024 * 1024)
      expect(recorder.calls).toHaveLength(0)
    })
  )

  it.scoped("a chunked body is cut off once it passes the limit with 413, not buffered to the end", () =>
    Effect.gen(function* () {
      const { driver, recorder } = Support.driver("tavily", { searchKeywords: () => Effect.succeed([]) })
      const base = yield* Support.start(
        { tokens: [Support.token], maxBodyBytes: 4096 },
        Support.live([driver], settings)
      )
      const head =
        `POST /v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${Support.token}\r\n` +
        `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`
      const piece = Buffer.alloc(16 * 1024, 0x20)
      const chunk = Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")])
      const { response, written } = yield* Effect.promise(() => rawUpload(base, head, chunk, 256 * 1024 * 1024))
      // The server stops reading at the first chunk past the limit and answers 413, as for a declared length,
      // then closes the connection: at most socket buffers' worth is ever written, never 256 MiB.
      expect(response).toMatch(/^HTTP\/1\.1 413 /)
      expect(response.toLowerCase()).toContain("connection: close")
      expect(response).toContain('"reason":"too_large"')
      expect(written).toBeLessThan(32 * 1024 * 1024)
      expect(recorder.calls).toHaveLength(0)
    })
  )

  it.scoped("a body at the limit is accepted", () =>
    Effect.gen(function* () {
      const { driver } = Support.driver("tavily", { searchKeywords: (input) => Effect.succeed(Support.results(input)) })
      const base = yield* Support.start(
        { tokens: [Support.token], maxBodyBytes: 4096 },
        Support.live([driver], settings)
      )
      const json = JSON.stringify({ keywords: ["q"] })
      const padded = json.slice(0, -1) + " ".repeat(4096 - json.length) + "}"
      expect(Buffer.byteLength(padded)).toBe(4096)
      const response = yield* Effect.promise(() => Support.post(`${base}/v1/search`, padded))
      expect(response.status).toBe(200)
      const over = yield* Effect.promise(() => Support.post(`${base}/v1/search`, ` ${padded}`))
      expect(over.status).toBe(413)
      expect(yield* Effect.promise(() => over.json())).toMatchObject({ _tag: "RequestFailed", reason: "too_large" })
    })
  )
})

describe("client disconnect", () => {
  it.scopedLive("aborting the request interrupts the provider call in flight", () =>
    Effect.gen(function* () {
      const { driver, recorder } = Support.driver("tavily", { searchKeywords: () => Effect.never })
      const base = yield* Support.start({ tokens: [Support.token] }, Support.live([driver], settings))
      const controller = new AbortController()
      const pending = fetch(`${base}/v1/search`, {
        method: "POST",
        headers: { authorization: `Bearer ${Support.token}`, "content-type": "application/json" },
        body: JSON.stringify({ keywords: ["slow one", "slow two"] }),
        signal: controller.signal
      }).catch((error: unknown) => error)
      yield* waitFor(() => recorder.calls.length === 2, "both provider calls to start")
      controller.abort()
      yield* Effect.promise(() => pending)
      yield* waitFor(() => recorder.interrupted.length === 2, "both provider calls to be interrupted")
      expect(recorder.interrupted.sort()).toEqual(["slow one", "slow two"])
      expect(recorder.completed).toEqual([])
    })
  )
})

const waitFor = (condition: () => boolean, what: string) =>
  Effect.gen(function* () {
    for (let i = 0; i < 250; i++) {
      if (condition()) return
      yield* Effect.sleep("20 millis")
    }
    return yield* Effect.dieMessage(`timed out waiting for ${what}`)
  })
