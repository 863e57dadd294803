import { describe, expect, it } from "@effect/vitest"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { IncomingMessage, ServerResponse } from "node:http"
import * as zlib from "node:zlib"
import { refusedDials } from "../../../test-support/loopbackGuard.js"
import * as SafeTransport from "../src/SafeTransport.js"
import * as Support from "./support/transport.js"
import { recordingTracer } from "../../../test-support/recordingTracer.js"

const GiB = 1024 * 1024 * 1024

/** Builds a transport with a recording connector and resolver; the table maps test names to addresses. */
const setup = (
  policy: UrlPolicy.Options,
  table: Record<string, ReadonlyArray<string>> = {},
  options: Omit<SafeTransport.Options, "policy" | "lookup" | "connector"> & { readonly ca?: string } = {}
) =>
  Effect.gen(function* () {
    const connector = Support.recordingConnector(options.ca === undefined ? {} : { ca: options.ca })
    const resolver = Support.recordingLookup(table)
    const guardBefore = refusedDials.length
    const transport = yield* SafeTransport.make({
      ...options,
      policy: UrlPolicy.make(policy),
      lookup: resolver.lookup,
      connector: connector.connector
    })
    return {
      transport,
      dials: connector.dials,
      refused: connector.refused,
      asked: resolver.asked,
      /** Dials the global loopback guard refused since setup: must stay empty. */
      guardRefusals: () => refusedDials.slice(guardBefore)
    }
  })

const fail = <A>(effect: Effect.Effect<A, WebSearchError.RequestFailed>) => Effect.flip(effect)

const page =
  (body: string, headers: Record<string, string> = {}) =>
  (_: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers })
    response.end(body)
  }

const redirect =
  (status: number, location: string) =>
  (_: IncomingMessage, response: ServerResponse): void => {
    response.writeHead(status, { location })
    response.end("moved")
  }

/** Streams `a` bytes in 64 KiB chunks, up to 1 GiB, until the client goes away; counts what it wrote. */
const endless = (written: { bytes: number }) => (_: IncomingMessage, response: ServerResponse) => {
  response.writeHead(200, { "content-type": "application/octet-stream" })
  const chunk = Buffer.alloc(64 * 1024, 97)
  const pump = () => {
    while (written.bytes < GiB && !response.destroyed) {
      written.bytes += chunk.length
      if (!response.write(chunk)) {
        response.once("drain", pump)
        return
      }
    }
    response.end()
  }
  pump()
}

/** Sends the headers, then one byte every 50 ms, forever. */
const drip = (_: IncomingMessage, response: ServerResponse) => {
  response.writeHead(200, { "content-type": "text/plain" })
  const timer = setInterval(() => response.write("x"), 50)
  response.on("close", () => clearInterval(timer))
}

describe("SafeTransport", () => {
  describe("allowlisted pages and redirects", () => {
    it.scopedLive("serves a page from an allowlisted host, dialling the address the resolver gave", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve(page("<h1>hello</h1>"))
        const t = yield* setup({ allowHosts: [`allowed.test:${server.port}`] }, { "allowed.test": ["127.0.0.1"] })
        const response = yield* t.transport.request({
          url: `http://allowed.test:${server.port}/page?q=1`,
          headers: { Cookie: "a=b" }
        })
        expect(response.status).toBe(200)
        expect(Buffer.from(response.body).toString("utf8")).toBe("<h1>hello</h1>")
        expect(response.headers["content-type"]).toBe("text/html; charset=utf-8")
        expect(response.url).toBe(`http://allowed.test:${server.port}/page?q=1`)
        expect(response.redirects).toEqual([])
        expect(server.requests[0].url).toBe("/page?q=1")
        expect(server.requests[0].headers.host).toBe(`allowed.test:${server.port}`)
        expect(server.requests[0].headers["user-agent"]).toBe(SafeTransport.defaultUserAgent)
        expect(server.requests[0].headers.cookie).toBe("a=b")
        expect(t.asked).toEqual(["allowed.test"])
        expect(t.dials).toEqual([`127.0.0.1:${server.port}`])
        expect(t.refused).toEqual([])
      })
    )

    it.scopedLive("sends a configured User-Agent, and the caller's own over it", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve(page("ok"))
        const t = yield* setup(
          { allowHosts: [`allowed.test:${server.port}`] },
          { "allowed.test": ["127.0.0.1"] },
          { userAgent: "custom-agent/1" }
        )
        yield* t.transport.request({ url: `http://allowed.test:${server.port}/` })
        yield* t.transport.request({ url: `http://allowed.test:${server.port}/`, headers: { "User-Agent": "mine/2" } })
        expect(server.requests.map((r) => r.headers["user-agent"])).toEqual(["custom-agent/1", "mine/2"])
      })
    )

    it.scopedLive("follows relative redirects, re-resolving each hop, and reports the final URL", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve((request, response) => {
          if (request.url === "/a") return redirect(301, "/b?x=1")(request, response)
          if (request.url === "/b?x=1") return redirect(302, "c")(request, response)
          page("final")(request, response)
        })
        const t = yield* setup({ allowHosts: [`allowed.test:${server.port}`] }, { "allowed.test": ["127.0.0.1"] })
        const response = yield* t.transport.request({ url: `http://allowed.test:${server.port}/a` })
        expect(Buffer.from(response.body).toString()).toBe("final")
        expect(response.redirects).toEqual([
          `http://allowed.test:${server.port}/b?x=1`,
          `http://allowed.test:${server.port}/c`
        ])
        expect(response.url).toBe(`http://allowed.test:${server.port}/c`)
        expect(t.asked).toEqual(["allowed.test", "allowed.test", "allowed.test"])
      })
    )

    it.scopedLive("a request's checkRedirect sees each absolute target and may refuse one before it is sent", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve((request, response) => {
          if (request.url === "/a") return redirect(302, "/b")(request, response)
          if (request.url === "/b") return redirect(302, "/stop")(request, response)
          page("never")(request, response)
        })
        const t = yield* setup({ allowHosts: [`allowed.test:${server.port}`] }, { "allowed.test": ["127.0.0.1"] })
        const seen: Array<string> = []
        const error = yield* fail(
          t.transport.request({
            url: `http://allowed.test:${server.port}/a`,
            checkRedirect: (target) => {
              seen.push(target)
              return target.endsWith("/stop")
                ? WebSearchError.requestFailed("redirect_rejected", "the caller refuses this one")
                : undefined
            }
          })
        )
        expect([error.reason, error.message]).toEqual(["redirect_rejected", "the caller refuses this one"])
        expect(seen).toEqual([`http://allowed.test:${server.port}/b`, `http://allowed.test:${server.port}/stop`])
        expect(server.requests.map((r) => r.url)).toEqual(["/a", "/b"])
      })
    )

    it.scopedLive("refuses a redirect to a non-allowlisted loopback server without connecting to it", () =>
      Effect.gen(function* () {
        const other = yield* Support.serve(page("secret admin panel"))
        const server = yield* Support.serve(redirect(302, `http://127.0.0.1:${other.port}/admin`))
        const t = yield* setup(
          { allowHosts: [`allowed.test:${server.port}`], allowPorts: [other.port] },
          { "allowed.test": ["127.0.0.1"] }
        )
        const error = yield* fail(t.transport.request({ url: `http://allowed.test:${server.port}/` }))
        expect(error.reason).toBe("ssrf_rejected")
        expect(error.retryable).toBe(false)
        expect(error.message).toContain("redirect 1")
        expect(error.message).toContain("loopback")
        expect(other.connections()).toBe(0)
        expect(t.dials).toEqual([`127.0.0.1:${server.port}`])
      })
    )

    it.scopedLive("refuses a redirect to an allowlisted name on a port that is not allowed", () =>
      Effect.gen(function* () {
        const other = yield* Support.serve(page("other port"))
        const server = yield* Support.serve(redirect(302, `http://allowed.test:${other.port}/`))
        const t = yield* setup({ allowHosts: [`allowed.test:${server.port}`] }, { "allowed.test": ["127.0.0.1"] })
        const error = yield* fail(t.transport.request({ url: `http://allowed.test:${server.port}/` }))
        expect(error.reason).toBe("ssrf_rejected")
        expect(error.message).toContain(`port ${other.port}`)
        expect(error.message).toContain("redirect 1")
        expect(other.connections()).toBe(0)
      })
    )

    it.scopedLive("refuses a redirect to 169.254.169.254 and to a name resolving to it, dialling nothing else", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve((request, response) =>
          request.url === "/literal"
            ? redirect(302, "http://169.254.169.254/latest/meta-data/iam")(request, response)
            : redirect(307, "http://metadata.test/computeMetadata/v1/")(request, response)
        )
        const t = yield* setup(
          { allowHosts: [`allowed.test:${server.port}`] },
          { "allowed.test": ["127.0.0.1"], "metadata.test": ["169.254.169.254"] }
        )
        const literal = yield* fail(t.transport.request({ url: `http://allowed.test:${server.port}/literal` }))
        expect(literal.reason).toBe("ssrf_rejected")
        expect(literal.message).toContain("redirect 1")
        expect(literal.message).toContain("169.254.169.254")
        const named = yield* fail(t.transport.request({ url: `http://allowed.test:${server.port}/named` }))
        expect(named.reason).toBe("ssrf_rejected")
        expect(named.message).toContain("redirect 1")
        expect(named.message).toContain("metadata.test resolves to an address that is not public")
        expect(named.message).not.toContain("169.254")
        expect(t.refused).toEqual([])
        expect(t.dials.every((d) => d === `127.0.0.1:${server.port}`)).toBe(true)
        expect(t.guardRefusals()).toEqual([])
      })
    )

    it.scopedLive("refuses redirects to file:, javascript:, data: and ftp: as redirect_rejected", () =>
      Effect.gen(function* () {
        const targets = ["file:///etc/passwd", "javascript:alert(1)", "data:text/plain,hi", "ftp://example.com/x"]
        const server = yield* Support.serve((request, response) =>
          redirect(302, targets[Number(request.url?.slice(1))])(request, response)
        )
        const t = yield* setup({ allowHosts: [`allowed.test:${server.port}`] }, { "allowed.test": ["127.0.0.1"] })
        for (const [index, target] of targets.entries()) {
          const error = yield* fail(t.transport.request({ url: `http://allowed.test:${server.port}/${index}` }))
          expect(error.reason, target).toBe("redirect_rejected")
          expect(error.retryable).toBe(false)
          expect(error.message).toContain(new URL(target).protocol)
        }
        expect(t.asked.every((name) => name === "allowed.test")).toBe(true)
      })
    )

    it.scopedLive("refuses a redirect carrying credentials", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve(redirect(302, "http://user:hunter2@allowed.test/"))
        const t = yield* setup({ allowHosts: ["allowed.test"] }, { "allowed.test": ["127.0.0.1"] })
        const error = yield* fail(t.transport.request({ url: `http://allowed.test:${server.port}/` }))
        expect(error.reason).toBe("ssrf_rejected")
        expect(error.message).not.toContain("hunter2")
      })
    )

    it.scopedLive("refuses the sixth redirect (and the first with maxRedirects 0)", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve((request, response) => {
          const n = Number(request.url?.slice(1))
          redirect(302, `/${n + 1}`)(request, response)
        })
        const t = yield* setup({ allowHosts: [`allowed.test:${server.port}`] }, { "allowed.test": ["127.0.0.1"] })
        const error = yield* fail(t.transport.request({ url: `http://allowed.test:${server.port}/0` }))
        expect(error.reason).toBe("redirect_rejected")
        expect(error.message).toContain("more than 5 redirects")
        expect(server.requests.map((r) => r.url)).toEqual(["/0", "/1", "/2", "/3", "/4", "/5"])
        const strict = yield* setup(
          { allowHosts: [`allowed.test:${server.port}`] },
          { "allowed.test": ["127.0.0.1"] },
          { maxRedirects: 0 }
        )
        const none = yield* fail(strict.transport.request({ url: `http://allowed.test:${server.port}/0` }))
        expect(none.reason).toBe("redirect_rejected")
        expect(server.requests).toHaveLength(7)
      })
    )

    it.scopedLive("changes method and body across redirects as browsers do", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve((request, response) => {
          const match = /^\/(\d{3})$/.exec(request.url ?? "")
          if (match !== null) return redirect(Number(match[1]), "/target")(request, response)
          page("done")(request, response)
        })
        const t = yield* setup({ allowHosts: [`allowed.test:${server.port}`] }, { "allowed.test": ["127.0.0.1"] })
        const cases = [
          { status: 301, method: "POST", expected: "GET", body: "" },
          { status: 302, method: "POST", expected: "GET", body: "" },
          { status: 303, method: "POST", expected: "GET", body: "" },
          { status: 307, method: "POST", expected: "POST", body: "payload" },
          { status: 308, method: "POST", expected: "POST", body: "payload" },
          { status: 303, method: "HEAD", expected: "HEAD", body: "" },
          { status: 301, method: "GET", expected: "GET", body: "" }
        ] as const
        for (const c of cases) {
          const before = server.requests.length
          yield* t.transport.request({
            url: `http://allowed.test:${server.port}/${c.status}`,
            method: c.method,
            ...(c.method === "POST" ? { body: "payload", headers: { "content-type": "text/plain" } } : {})
          })
          const followed = server.requests[before + 1]
          expect(followed.method, `${c.method} ${c.status}`).toBe(c.expected)
          expect(followed.body, `${c.method} ${c.status}`).toBe(c.body)
          expect(followed.headers["content-type"], `${c.method} ${c.status}`).toBe(
            c.body === "" ? undefined : "text/plain"
          )
        }
      })
    )

    it.scopedLive("drops Authorization and Cookie on a cross-origin redirect, keeps them on a same-origin one", () =>
      Effect.gen(function* () {
        const other = yield* Support.serve(page("other"))
        const server = yield* Support.serve((request, response) =>
          request.url === "/same"
            ? redirect(302, "/landing")(request, response)
            : request.url === "/cross"
              ? redirect(302, `http://other.test:${other.port}/landing`)(request, response)
              : page("landed")(request, response)
        )
        const t = yield* setup(
          { allowHosts: [`allowed.test:${server.port}`, `other.test:${other.port}`] },
          { "allowed.test": ["127.0.0.1"], "other.test": ["127.0.0.1"] }
        )
        const headers = { Authorization: "Bearer token-1234", Cookie: "session=abcd", "X-Other": "kept" }
        yield* t.transport.request({ url: `http://allowed.test:${server.port}/same`, headers })
        const same = server.requests[1]
        expect(same.headers.authorization).toBe("Bearer token-1234")
        expect(same.headers.cookie).toBe("session=abcd")
        yield* t.transport.request({ url: `http://allowed.test:${server.port}/cross`, headers })
        const cross = other.requests[0]
        expect(cross.headers.authorization).toBeUndefined()
        expect(cross.headers.cookie).toBeUndefined()
        expect(cross.headers["x-other"]).toBe("kept")
        expect(cross.headers.host).toBe(`other.test:${other.port}`)
      })
    )
  })

  describe("resolution", () => {
    it.scopedLive("refuses a name that resolves to 127.0.0.1 when it is not allowlisted", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve(page("internal"))
        const t = yield* setup({ allowPorts: [server.port] }, { "rebind.example.com": ["127.0.0.1"] })
        const error = yield* fail(t.transport.request({ url: `http://rebind.example.com:${server.port}/` }))
        expect(error.reason).toBe("ssrf_rejected")
        expect(error.message).toContain("rebind.example.com resolves to an address that is not public")
        expect(error.message).not.toContain("127.0.0.1")
        expect(t.asked).toEqual(["rebind.example.com"])
        expect(t.dials).toEqual([])
        expect(server.connections()).toBe(0)
      })
    )

    it.scopedLive("refuses a name whose answers mix a public and a private address, whatever the order", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve(page("internal"))
        const t = yield* setup(
          { allowPorts: [server.port] },
          {
            "mixed.example.com": ["93.184.216.34", "10.0.0.1"],
            "mixed6.example.com": ["2606:2800:220:1:248:1893:25c8:1946", "::1"]
          }
        )
        for (const name of ["mixed.example.com", "mixed6.example.com"]) {
          const error = yield* fail(t.transport.request({ url: `http://${name}:${server.port}/` }))
          expect(error.reason, name).toBe("ssrf_rejected")
        }
        expect(t.dials).toEqual([])
        expect(t.refused).toEqual([])
        expect(server.connections()).toBe(0)
        expect(t.guardRefusals()).toEqual([])
      })
    )

    it.scopedLive("maps a name that does not resolve to dns_failed, and an empty answer too", () =>
      Effect.gen(function* () {
        const t = yield* setup({}, { "empty.example.com": [] })
        const missing = yield* fail(t.transport.request({ url: "https://missing.example.com/path?key=SECRET" }))
        expect(missing.reason).toBe("dns_failed")
        expect(missing.retryable).toBe(true)
        expect(missing.message).toContain("missing.example.com")
        expect(missing.message).not.toContain("SECRET")
        expect(missing.message).not.toContain("/path")
        const empty = yield* fail(t.transport.request({ url: "https://empty.example.com/" }))
        expect(empty.reason).toBe("dns_failed")
        expect(t.dials).toEqual([])
      })
    )

    it.scopedLive("refuses an answer that is not an IP address, and one that cannot be dialled", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve(page("never"))
        const t = yield* setup(
          { allowHosts: [`garbage.test:${server.port}`, `zoned.test:${server.port}`] },
          { "garbage.test": ["127.0.0.1", "not-an-address"], "zoned.test": ["fe80::1%lo"] }
        )
        const garbage = yield* fail(t.transport.request({ url: `http://garbage.test:${server.port}/` }))
        expect(garbage.reason).toBe("ssrf_rejected")
        expect(garbage.message).toContain("not an IP address")
        const zoned = yield* fail(t.transport.request({ url: `http://zoned.test:${server.port}/` }))
        expect(zoned.reason).toBe("dns_failed")
        expect(t.dials).toEqual([])
        expect(server.connections()).toBe(0)
      })
    )

    it.scopedLive("maps a resolver that throws or rejects to dns_failed", () =>
      Effect.gen(function* () {
        const throwing = yield* SafeTransport.make({
          policy: UrlPolicy.make(),
          lookup: () => {
            throw new Error("resolver bug")
          }
        })
        const thrown = yield* fail(throwing.request({ url: "https://example.com/" }))
        expect(thrown.reason).toBe("dns_failed")
        const rejecting = yield* SafeTransport.make({
          policy: UrlPolicy.make(),
          lookup: () => Promise.reject(Object.assign(new Error("queryA EAI_AGAIN"), { code: "EAI_AGAIN" }))
        })
        const rejected = yield* fail(rejecting.request({ url: "https://example.com/" }))
        expect(rejected.reason).toBe("dns_failed")
        expect(rejected.message).toContain("EAI_AGAIN")
      })
    )

    it.scopedLive("uses the system resolver by default (guarded: only loopback names resolve)", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve(page("via localhost"))
        const transport = yield* SafeTransport.make({
          policy: UrlPolicy.make({ allowHosts: [`localhost:${server.port}`] })
        })
        const response = yield* transport.request({ url: `http://localhost:${server.port}/` })
        expect(Buffer.from(response.body).toString()).toBe("via localhost")
      })
    )
  })

  describe("IP literals", () => {
    const spellings = (port: number) => [
      `http://2130706433:${port}/`,
      `http://0177.0.0.1:${port}/`,
      `http://0x7f.1:${port}/`,
      `http://0x7f000001:${port}/`,
      `http://127.1:${port}/`,
      `http://127.0.0.1.:${port}/`,
      `http://%31%32%37.0.0.1:${port}/`,
      `http://\uff11\uff12\uff17\uff0e\uff10\uff0e\uff10\uff0e\uff11:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::ffff:7f00:1]:${port}/`,
      `http://[::1]:${port}/`,
      `http://[0:0:0:0:0:0:0:1]:${port}/`,
      `http://[::127.0.0.1]:${port}/`,
      `http://[64:ff9b::a9fe:a9fe]:${port}/`,
      `http://[64:ff9b::127.0.0.1]:${port}/`,
      `http://[2002:7f00:1::]:${port}/`,
      `http://0.0.0.0:${port}/`,
      `http://0:${port}/`,
      `http://169.254.169.254/latest/meta-data/`,
      `http://0xa9fea9fe/`,
      `http://[fd00:ec2::254]/`,
      `http://100.100.100.200/`,
      `http://10.0.0.1:${port}/`,
      `http://192.168.1.1/`
    ]

    it.scopedLive("refuses every spelling of a non-public address without a look-up or a connection", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve(page("should never be reached"))
        const t = yield* setup({ allowPorts: [server.port] })
        for (const url of spellings(server.port)) {
          const error = yield* fail(t.transport.request({ url }))
          expect(error.reason, url).toBe("ssrf_rejected")
        }
        expect(t.asked).toEqual([])
        expect(t.dials).toEqual([])
        expect(t.refused).toEqual([])
        expect(server.connections()).toBe(0)
        expect(t.guardRefusals()).toEqual([])
      })
    )

    it.scopedLive("dials an allowlisted literal (allowCidrs) directly, without a look-up", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve(page("cidr"))
        const t = yield* setup({ allowCidrs: ["127.0.0.0/8"], allowPorts: [server.port] })
        const response = yield* t.transport.request({ url: `http://127.1:${server.port}/` })
        expect(Buffer.from(response.body).toString()).toBe("cidr")
        expect(t.asked).toEqual([])
        expect(t.dials).toEqual([`127.0.0.1:${server.port}`])
      })
    )

    it.scopedLive("dials an allowlisted IPv6 literal and an allowlisted name resolving to ::1", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve(page("six"), "::1")
        const t = yield* setup(
          { allowCidrs: ["::1/128"], allowHosts: [`six.test:${server.port}`], allowPorts: [server.port] },
          { "six.test": ["::1"] }
        )
        const literal = yield* t.transport.request({ url: `http://[::1]:${server.port}/` })
        expect(Buffer.from(literal.body).toString()).toBe("six")
        const named = yield* t.transport.request({ url: `http://six.test:${server.port}/` })
        expect(Buffer.from(named.body).toString()).toBe("six")
        expect(server.requests[1].headers.host).toBe(`six.test:${server.port}`)
        expect(t.asked).toEqual(["six.test"])
        expect(t.dials.every((d) => d === `::1:${server.port}`)).toBe(true)
      })
    )

    // Blocks from an independent table (RFC 6890 and friends), never from the policy under test.
    const blocked: ReadonlyArray<readonly [string, number]> = [
      ["0.0.0.0", 8],
      ["10.0.0.0", 8],
      ["100.64.0.0", 10],
      ["127.0.0.0", 8],
      ["169.254.0.0", 16],
      ["172.16.0.0", 12],
      ["192.0.0.0", 24],
      ["192.0.2.0", 24],
      ["192.168.0.0", 16],
      ["198.18.0.0", 15],
      ["198.51.100.0", 24],
      ["203.0.113.0", 24],
      ["224.0.0.0", 4],
      ["240.0.0.0", 4]
    ]
    const toInt = (dotted: string) => dotted.split(".").reduce((acc, octet) => acc * 256 + Number(octet), 0)
    const toDotted = (n: number) => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join(".")
    const blockedAddress = FastCheck.tuple(
      FastCheck.integer({ min: 0, max: blocked.length - 1 }),
      FastCheck.integer({ min: 0, max: 2 ** 32 - 1 })
    ).map(([index, random]) => {
      const [base, bits] = blocked[index]
      const size = 2 ** (32 - bits)
      return toDotted(toInt(base) + (random % size))
    })

    it.live.prop(
      "refuses random non-public IPv4 addresses, as literals and as resolver answers, without dialling",
      { address: blockedAddress, encoding: FastCheck.constantFrom("dotted", "decimal", "hex", "mapped") },
      ({ address, encoding }) =>
        Effect.gen(function* () {
          const t = yield* setup({ allowPorts: [8080] }, { "public-looking.example.com": [address] })
          const n = toInt(address)
          const host =
            encoding === "dotted"
              ? address
              : encoding === "decimal"
                ? String(n)
                : encoding === "hex"
                  ? `0x${n.toString(16)}`
                  : `[::ffff:${address}]`
          const literal = yield* fail(t.transport.request({ url: `http://${host}:8080/` }))
          expect(literal.reason).toBe("ssrf_rejected")
          expect(t.asked).toEqual([])
          const named = yield* fail(t.transport.request({ url: "http://public-looking.example.com:8080/" }))
          expect(named.reason).toBe("ssrf_rejected")
          expect(t.dials).toEqual([])
          expect(t.refused).toEqual([])
          expect(t.guardRefusals()).toEqual([])
        }).pipe(Effect.scoped),
      { fastCheck: { numRuns: 100 } }
    )
  })

  describe("limits", () => {
    it.scopedLive("stops an endless 1 GiB body at the cap, closing the socket", () =>
      Effect.gen(function* () {
        const written = { bytes: 0 }
        const server = yield* Support.serve(endless(written))
        const t = yield* setup({ allowHosts: [`allowed.test:${server.port}`] }, { "allowed.test": ["127.0.0.1"] })
        const error = yield* fail(t.transport.request({ url: `http://allowed.test:${server.port}/big` }))
        expect(error.reason).toBe("too_large")
        expect(error.retryable).toBe(false)
        expect(error.message).toContain(String(SafeTransport.defaultMaxBodyBytes))
        yield* Effect.promise(() => server.waitClosed(1))
        expect(server.closed()).toBe(1)
        // Socket buffers on both sides hold a few MiB at most; nowhere near the gigabyte on offer.
        expect(written.bytes).toBeLessThan(64 * 1024 * 1024)
      })
    )

    it.scopedLive("refuses a Content-Length above the cap before reading the body", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve((_, response) => {
          response.writeHead(200, { "content-length": String(2048) })
          response.write(Buffer.alloc(1024))
        })
        const t = yield* setup(
          { allowHosts: [`allowed.test:${server.port}`] },
          { "allowed.test": ["127.0.0.1"] },
          { maxBodyBytes: 1000 }
        )
        const error = yield* fail(t.transport.request({ url: `http://allowed.test:${server.port}/` }))
        expect(error.reason).toBe("too_large")
        expect(error.message).toContain("announced body of 2048 bytes")
        yield* Effect.promise(() => server.waitClosed(1))
      })
    )

    it.scopedLive("accepts a body exactly at the cap", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve((_, response) => response.end(Buffer.alloc(1000, 98)))
        const t = yield* setup(
          { allowHosts: [`allowed.test:${server.port}`] },
          { "allowed.test": ["127.0.0.1"] },
          { maxBodyBytes: 1000 }
        )
        const response = yield* t.transport.request({ url: `http://allowed.test:${server.port}/` })
        expect(response.body.byteLength).toBe(1000)
      })
    )

    it.scopedLive("asks for and decodes gzip, deflate and br; the cap counts decoded bytes (a gzip bomb stops)", () =>
      Effect.gen(function* () {
        const text = "compressed content ".repeat(2000)
        const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024))
        const server = yield* Support.serve((request, response) => {
          const coding = (request.url ?? "").slice(1)
          const body =
            coding === "bomb"
              ? bomb
              : coding === "gzip"
                ? zlib.gzipSync(text)
                : coding === "deflate"
                  ? zlib.deflateSync(text)
                  : zlib.brotliCompressSync(text)
          response.writeHead(200, {
            "content-type": "text/plain",
            "content-encoding": coding === "bomb" ? "gzip" : coding,
            "content-length": String(body.length)
          })
          response.end(request.method === "HEAD" ? undefined : body)
        })
        const t = yield* setup({ allowHosts: [`allowed.test:${server.port}`] }, { "allowed.test": ["127.0.0.1"] })
        for (const coding of ["gzip", "deflate", "br"]) {
          const response = yield* t.transport.request({ url: `http://allowed.test:${server.port}/${coding}` })
          expect(Buffer.from(response.body).toString(), coding).toBe(text)
          expect(response.headers["content-encoding"]).toBeUndefined()
          expect(response.headers["content-length"]).toBeUndefined()
        }
        expect(server.requests[0].headers["accept-encoding"]).toBe("gzip, deflate, br")
        const head = yield* t.transport.request({ url: `http://allowed.test:${server.port}/gzip`, method: "HEAD" })
        expect(head.body.byteLength).toBe(0)
        expect(bomb.length).toBeLessThan(SafeTransport.defaultMaxBodyBytes)
        const error = yield* fail(t.transport.request({ url: `http://allowed.test:${server.port}/bomb` }))
        expect(error.reason).toBe("too_large")
        const raw = yield* setup(
          { allowHosts: [`allowed.test:${server.port}`] },
          { "allowed.test": ["127.0.0.1"] },
          { decompress: false }
        )
        const encoded = yield* raw.transport.request({ url: `http://allowed.test:${server.port}/gzip` })
        expect(encoded.headers["content-encoding"]).toBe("gzip")
        expect(zlib.gunzipSync(encoded.body).toString()).toBe(text)
        expect(server.requests[server.requests.length - 1].headers["accept-encoding"]).toBeUndefined()
      })
    )

    it.scopedLive("times out a slow drip and closes the socket", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve(drip)
        const t = yield* setup(
          { allowHosts: [`allowed.test:${server.port}`] },
          { "allowed.test": ["127.0.0.1"] },
          { timeout: Duration.millis(400) }
        )
        const started = Date.now()
        const error = yield* fail(t.transport.request({ url: `http://allowed.test:${server.port}/drip?token=SECRET` }))
        expect(error.reason).toBe("timeout")
        expect(error.retryable).toBe(true)
        expect(error.message).not.toContain("SECRET")
        expect(Date.now() - started).toBeLessThan(3000)
        yield* Effect.promise(() => server.waitClosed(1))
      })
    )

    it.scopedLive("times out a server that never answers", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve(() => undefined)
        const t = yield* setup(
          { allowHosts: [`allowed.test:${server.port}`] },
          { "allowed.test": ["127.0.0.1"] },
          { timeout: Duration.millis(300) }
        )
        const error = yield* fail(t.transport.request({ url: `http://allowed.test:${server.port}/` }))
        expect(error.reason).toBe("timeout")
        yield* Effect.promise(() => server.waitClosed(1))
      })
    )

    it.scopedLive("interruption aborts the request and closes the socket; no error is reported", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve(drip)
        const t = yield* setup({ allowHosts: [`allowed.test:${server.port}`] }, { "allowed.test": ["127.0.0.1"] })
        const fiber = yield* Effect.fork(t.transport.request({ url: `http://allowed.test:${server.port}/` }))
        while (server.requests.length === 0) yield* Effect.sleep(Duration.millis(10))
        yield* Effect.sleep(Duration.millis(100))
        yield* Fiber.interrupt(fiber)
        const exit = yield* Fiber.await(fiber)
        expect(Exit.isInterrupted(exit)).toBe(true)
        // Nothing but the interruption: no timeout or network failure leaks into the error channel.
        expect(Exit.isFailure(exit) && Cause.isInterruptedOnly(exit.cause)).toBe(true)
        yield* Effect.promise(() => server.waitClosed(1))
        expect(server.closed()).toBe(1)
      })
    )
  })

  describe("errors", () => {
    it.scopedLive("maps statuses: 403, 404, 429 with Retry-After (seconds, date, capped), 503, 418, 200", () =>
      Effect.gen(function* () {
        const retryDate = new Date(Date.now() + 120_000).toUTCString()
        const server = yield* Support.serve((request, response) => {
          const [status, retryAfter] = (request.url ?? "").slice(1).split("/")
          response.writeHead(
            Number(status),
            retryAfter === undefined ? {} : { "retry-after": retryAfter === "date" ? retryDate : retryAfter }
          )
          response.end("body")
        })
        const t = yield* setup({ allowHosts: [`allowed.test:${server.port}`] }, { "allowed.test": ["127.0.0.1"] })
        const get = (path: string) =>
          t.transport
            .request({ url: `http://allowed.test:${server.port}/${path}` })
            .pipe(Effect.flatMap(SafeTransport.ensureOk))
        const ok = yield* get("200")
        expect(ok.status).toBe(200)
        const expectations = [
          ["403", "http_403", false, undefined],
          ["404", "http_404", false, undefined],
          ["429/30", "http_429", true, 30],
          ["503", "http_5xx", true, undefined],
          ["503/7", "http_5xx", true, 7],
          // The shared reading (core RetryAfter): a fractional delta rounds up, a wait of years is cut to a day.
          ["503/1.5", "http_5xx", true, 2],
          ["429/999999999", "http_429", true, 86_400],
          ["418", "http_status", false, undefined],
          ["408", "http_status", true, undefined]
        ] as const
        for (const [path, reason, retryable, retryAfter] of expectations) {
          const error = yield* fail(get(path))
          expect(error.reason, path).toBe(reason)
          expect(error.retryable, path).toBe(retryable)
          expect(error.retryAfter, path).toBe(retryAfter)
          expect(error.message, path).toContain(`HTTP ${path.split("/")[0]}`)
        }
        const dated = yield* fail(get("429/date"))
        expect(dated.reason).toBe("http_429")
        expect(dated.retryAfter).toBeGreaterThanOrEqual(115)
        expect(dated.retryAfter).toBeLessThanOrEqual(121)
      })
    )

    it.scopedLive("refuses a header with a line break as invalid_input, sending nothing", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve(page("never"))
        const t = yield* setup({ allowHosts: [`allowed.test:${server.port}`] }, { "allowed.test": ["127.0.0.1"] })
        const error = yield* fail(
          t.transport.request({
            url: `http://allowed.test:${server.port}/`,
            headers: { "x-injected": "a\r\nx-evil: 1" }
          })
        )
        expect(error.reason).toBe("invalid_input")
        expect(server.requests).toEqual([])
      })
    )

    it.scopedLive("maps a refused connection to network (retryable), naming only the host", () =>
      Effect.gen(function* () {
        const port = yield* Support.closedPort()
        const t = yield* setup({ allowHosts: [`allowed.test:${port}`] }, { "allowed.test": ["127.0.0.1"] })
        const error = yield* fail(
          t.transport.request({ url: `http://allowed.test:${port}/private/path?api_key=SECRET` })
        )
        expect(error.reason).toBe("network")
        expect(error.retryable).toBe(true)
        expect(error.message).toContain("ECONNREFUSED")
        expect(error.message).toContain(`allowed.test:${port}`)
        expect(error.message).not.toContain("SECRET")
        expect(error.message).not.toContain("/private")
      })
    )

    it.scopedLive("maps a connection closed short of the announced Content-Length to stream_incomplete", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve((_, response) => {
          response.writeHead(200, { "content-length": "100" })
          response.write("partial")
          setTimeout(() => response.socket?.destroy(), 20)
        })
        const t = yield* setup({ allowHosts: [`allowed.test:${server.port}`] }, { "allowed.test": ["127.0.0.1"] })
        const error = yield* fail(t.transport.request({ url: `http://allowed.test:${server.port}/` }))
        expect(error.reason).toBe("stream_incomplete")
        expect(error.message).toContain("after 7 of the announced 100 bytes")
        expect(error.retryable).toBe(true)
      })
    )

    it.scopedLive("maps an untrusted certificate to tls_failed (not retryable)", () =>
      Effect.gen(function* () {
        const server = yield* Support.serveTls(page("tls"))
        const t = yield* setup({ allowHosts: [`pinned.test:${server.port}`] }, { "pinned.test": ["127.0.0.1"] })
        const error = yield* fail(t.transport.request({ url: `https://pinned.test:${server.port}/` }))
        expect(error.reason).toBe("tls_failed")
        expect(error.retryable).toBe(false)
        expect(error.message).toContain("DEPTH_ZERO_SELF_SIGNED_CERT")
      })
    )

    it.scopedLive("verifies the certificate against the name while dialling the checked address", () =>
      Effect.gen(function* () {
        const server = yield* Support.serveTls((request, response) =>
          page(`sni ok ${request.headers.host}`)(request, response)
        )
        const t = yield* setup(
          { allowHosts: [`pinned.test:${server.port}`, `wrong-name.test:${server.port}`] },
          { "pinned.test": ["127.0.0.1"], "wrong-name.test": ["127.0.0.1"] },
          { ca: Support.certificate }
        )
        const response = yield* t.transport.request({ url: `https://pinned.test:${server.port}/` })
        expect(Buffer.from(response.body).toString()).toBe(`sni ok pinned.test:${server.port}`)
        expect(t.dials).toEqual([`127.0.0.1:${server.port}`])
        // The same address under a name the certificate does not cover must fail: the name, not the address, is checked.
        const error = yield* fail(t.transport.request({ url: `https://wrong-name.test:${server.port}/` }))
        expect(error.reason).toBe("tls_failed")
        expect(error.message).toContain("ERR_TLS_CERT_ALTNAME_INVALID")
      })
    )

    it.scopedLive("maps a server that does not speak TLS to tls_failed", () =>
      Effect.gen(function* () {
        const raw = yield* Support.serveRaw("HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n")
        const t = yield* setup({ allowHosts: [`allowed.test:${raw.port}`] }, { "allowed.test": ["127.0.0.1"] })
        const error = yield* fail(t.transport.request({ url: `https://allowed.test:${raw.port}/` }))
        expect(error.reason).toBe("tls_failed")
        expect(raw.connections()).toBe(1)
      })
    )
  })

  describe("proxy", () => {
    it.scopedLive("tunnels to the checked address (never the name) and sends the proxy's credentials", () =>
      Effect.gen(function* () {
        const proxy = yield* Support.serveProxy()
        const server = yield* Support.serve(page("through the proxy"))
        const t = yield* setup(
          { allowHosts: [`allowed.test:${server.port}`, `127.0.0.1:${proxy.port}`] },
          { "allowed.test": ["127.0.0.1"] },
          { proxy: `http://proxy-user:proxy-pass@127.0.0.1:${proxy.port}` }
        )
        const response = yield* t.transport.request({ url: `http://allowed.test:${server.port}/p` })
        expect(Buffer.from(response.body).toString()).toBe("through the proxy")
        expect(proxy.targets).toEqual([`127.0.0.1:${server.port}`])
        expect(proxy.authorizations).toEqual([`Basic ${Buffer.from("proxy-user:proxy-pass").toString("base64")}`])
        expect(server.requests[0].headers.host).toBe(`allowed.test:${server.port}`)
        expect(t.asked).toEqual(["allowed.test"])
        expect(t.dials).toEqual([`127.0.0.1:${proxy.port}`])
      })
    )

    it.scopedLive("reads a CONNECT reply trickled in pieces, its end split across them", () =>
      Effect.gen(function* () {
        // Pieces of 3 bytes split the blank line ending the head; the connector searches only the new bytes.
        const proxy = yield* Support.serveProxy({ trickle: 3, extraHead: "x-padding: " + "p".repeat(200) + "\r\n" })
        const server = yield* Support.serve(page("trickled tunnel"))
        const t = yield* setup(
          { allowHosts: [`allowed.test:${server.port}`, `127.0.0.1:${proxy.port}`] },
          { "allowed.test": ["127.0.0.1"] },
          { proxy: `http://127.0.0.1:${proxy.port}` }
        )
        const response = yield* t.transport.request({ url: `http://allowed.test:${server.port}/` })
        expect(Buffer.from(response.body).toString()).toBe("trickled tunnel")
        expect(proxy.targets).toEqual([`127.0.0.1:${server.port}`])
      })
    )

    it.scopedLive("refuses a CONNECT reply head over 16 KiB", () =>
      Effect.gen(function* () {
        const proxy = yield* Support.serveProxy({
          trickle: 1024,
          extraHead: "x-padding: " + "p".repeat(17_000) + "\r\n"
        })
        const server = yield* Support.serve(page("never"))
        const t = yield* setup(
          { allowHosts: [`allowed.test:${server.port}`, `127.0.0.1:${proxy.port}`] },
          { "allowed.test": ["127.0.0.1"] },
          { proxy: `http://127.0.0.1:${proxy.port}` }
        )
        const error = yield* Effect.flip(t.transport.request({ url: `http://allowed.test:${server.port}/` }))
        expect(error.message).toContain("oversized")
      })
    )

    it.scopedLive("still refuses a target that resolves to a non-public address, without asking the proxy", () =>
      Effect.gen(function* () {
        const proxy = yield* Support.serveProxy()
        const t = yield* setup(
          { allowPorts: [8080], allowHosts: [`127.0.0.1:${proxy.port}`] },
          { "rebind.example.com": ["127.0.0.1"] },
          { proxy: `http://127.0.0.1:${proxy.port}` }
        )
        const named = yield* fail(t.transport.request({ url: "http://rebind.example.com:8080/" }))
        expect(named.reason).toBe("ssrf_rejected")
        const literal = yield* fail(t.transport.request({ url: "http://169.254.169.254/" }))
        expect(literal.reason).toBe("ssrf_rejected")
        expect(proxy.targets).toEqual([])
        expect(t.dials).toEqual([])
      })
    )

    it.scopedLive("speaks TLS to the target through the tunnel, verifying the name", () =>
      Effect.gen(function* () {
        const proxy = yield* Support.serveProxy()
        const server = yield* Support.serveTls(page("tls via proxy"))
        const t = yield* setup(
          { allowHosts: [`pinned.test:${server.port}`, `127.0.0.1:${proxy.port}`] },
          { "pinned.test": ["127.0.0.1"] },
          { proxy: `http://127.0.0.1:${proxy.port}`, ca: Support.certificate }
        )
        const response = yield* t.transport.request({ url: `https://pinned.test:${server.port}/` })
        expect(Buffer.from(response.body).toString()).toBe("tls via proxy")
        expect(proxy.targets).toEqual([`127.0.0.1:${server.port}`])
      })
    )

    it.scopedLive("maps a proxy that refuses the tunnel to network, and an invalid proxy URL to a typed error", () =>
      Effect.gen(function* () {
        const proxy = yield* Support.serveProxy()
        // The test proxy refuses non-loopback targets: an allowlisted public literal is refused by it (never dialled).
        const t = yield* setup(
          { allowCidrs: ["93.184.216.0/24"], allowHosts: [`127.0.0.1:${proxy.port}`] },
          {},
          { proxy: `http://127.0.0.1:${proxy.port}` }
        )
        const error = yield* fail(t.transport.request({ url: "http://93.184.216.34/" }))
        expect(error.reason).toBe("network")
        expect(error.message).toContain("403")
        expect(proxy.targets).toEqual(["93.184.216.34:80"])
        expect(t.guardRefusals()).toEqual([])
        const bad = yield* setup({}, {}, { proxy: "socks5://127.0.0.1:1080" })
        const invalid = yield* fail(bad.transport.request({ url: "http://example.com/" }))
        // A proxy URL that is not http(s) is refused before anything is dialled, naming the option.
        expect(invalid.reason).toBe("invalid_input")
        expect(invalid.retryable).toBe(false)
        expect(invalid.message).toContain("proxy: the proxy uses socks5")
      })
    )
  })

  describe("HttpClient view", () => {
    it.scopedLive("sends requests through the transport: policy, pinned resolution, JSON bodies, statuses", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve((request, response, seen) => {
          if (request.url === "/missing") {
            response.writeHead(404)
            return response.end()
          }
          response.writeHead(200, { "content-type": "application/json" })
          response.end(JSON.stringify({ method: seen.method, type: seen.headers["content-type"], body: seen.body }))
        })
        const t = yield* setup({ allowHosts: [`allowed.test:${server.port}`] }, { "allowed.test": ["127.0.0.1"] })
        const client = SafeTransport.makeHttpClient(t.transport)
        const posted = yield* client.execute(
          HttpClientRequest.post(`http://allowed.test:${server.port}/echo`).pipe(
            HttpClientRequest.bodyUnsafeJson({ q: "effect" })
          )
        )
        expect(posted.status).toBe(200)
        expect(yield* posted.json).toEqual({ method: "POST", type: "application/json", body: '{"q":"effect"}' })
        const missing = yield* client.get(`http://allowed.test:${server.port}/missing`)
        expect(missing.status).toBe(404)
        expect(t.dials.every((d) => d === `127.0.0.1:${server.port}`)).toBe(true)
      })
    )

    it.scopedLive("fails a refused URL with a RequestError whose cause is the RequestFailed", () =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(
          HttpClient.get("http://169.254.169.254/latest/meta-data/").pipe(
            Effect.provide(
              SafeTransport.layerHttpClient.pipe(Layer.provide(SafeTransport.layer({ policy: UrlPolicy.make() })))
            )
          )
        )
        expect(error._tag).toBe("RequestError")
        const failed = SafeTransport.fromHttpClientError(error)
        expect(failed.reason).toBe("ssrf_rejected")
        expect(failed.message).toContain("169.254.169.254")
      })
    )
  })

  describe("spans", () => {
    it.scopedLive("records a span per request and per hop, with host, hop and status but no path or query", () =>
      Effect.gen(function* () {
        const server = yield* Support.serve((request, response) =>
          request.url?.startsWith("/start") === true
            ? redirect(302, "/end?token=SECRET")(request, response)
            : page("end")(request, response)
        )
        const t = yield* setup({ allowHosts: [`allowed.test:${server.port}`] }, { "allowed.test": ["127.0.0.1"] })
        const { spans, tracer } = yield* recordingTracer
        yield* Effect.withTracer(
          t.transport.request({ url: `http://allowed.test:${server.port}/start?key=SECRET` }),
          tracer
        )
        const request = spans.filter((s) => s.name === "websearch.transport.request")
        const hops = spans.filter((s) => s.name === "websearch.transport.hop")
        expect(request).toHaveLength(1)
        expect(request[0].attributes.get("url.host")).toBe(`allowed.test:${server.port}`)
        expect(hops.map((h) => h.attributes.get("websearch.hop"))).toEqual([0, 1])
        expect(hops.map((h) => h.attributes.get("http.response.status_code"))).toEqual([302, 200])
        for (const hop of hops) {
          expect(Option.getOrUndefined(Option.map(hop.parent, (p) => p.spanId))).toBe(request[0].spanId)
        }
        const everything = JSON.stringify(spans.map((s) => [...s.attributes.entries()]))
        expect(everything).not.toContain("SECRET")
        expect(everything).not.toContain("/start")
      })
    )
  })
})
