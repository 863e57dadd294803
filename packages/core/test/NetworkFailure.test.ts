import { describe, expect, it } from "@effect/vitest"
import * as net from "node:net"
import * as NetworkFailure from "../src/internal/networkFailure.js"

/** A loopback port nothing listens on: bound once, then closed. */
const closedPort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port
      server.close(() => resolve(port))
    })
  })

describe("NetworkFailure", () => {
  it("maps every resolver outcome to dns_failed, EAI_NONAME included", () => {
    for (const code of ["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_NODATA", "EAI_FAIL", "ENODATA", "ESERVFAIL"]) {
      expect(NetworkFailure.fromCode(code)).toEqual({ reason: "dns_failed", retryable: true, code })
    }
  })

  it("tells timeouts, refused requests and connection faults apart", () => {
    expect(NetworkFailure.fromCode("ETIMEDOUT").reason).toBe("timeout")
    expect(NetworkFailure.fromCode("UND_ERR_HEADERS_TIMEOUT").reason).toBe("timeout")
    expect(NetworkFailure.fromCode("ERR_INVALID_CHAR")).toEqual({
      reason: "invalid_input",
      retryable: false,
      code: "ERR_INVALID_CHAR"
    })
    for (const code of ["ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "UND_ERR_SOCKET", "SOMETHING_NEW"]) {
      expect(NetworkFailure.fromCode(code)).toEqual({ reason: "network", retryable: true, code })
    }
    expect(NetworkFailure.fromCode(undefined)).toEqual({ reason: "network", retryable: true, code: undefined })
  })

  it("keeps a certificate verdict from being retried, unlike a handshake cut short", () => {
    for (const code of ["CERT_HAS_EXPIRED", "DEPTH_ZERO_SELF_SIGNED_CERT", "ERR_TLS_CERT_ALTNAME_INVALID"]) {
      expect(NetworkFailure.fromCode(code)).toEqual({ reason: "tls_failed", retryable: false, code })
    }
    for (const code of ["EPROTO", "ERR_SSL_WRONG_VERSION_NUMBER", "ERR_TLS_HANDSHAKE_TIMEOUT"]) {
      expect(NetworkFailure.fromCode(code)).toEqual({ reason: "tls_failed", retryable: true, code })
    }
  })

  it("reads the code on the cause chain of what fetch rejects with", async () => {
    const port = await closedPort()
    const error = await fetch(`http://127.0.0.1:${port}/`).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(TypeError)
    expect(NetworkFailure.classify(error)).toEqual({ reason: "network", retryable: true, code: "ECONNREFUSED" })
  })
})
