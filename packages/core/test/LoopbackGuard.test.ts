import { describe, expect, it } from "@effect/vitest"
import dns from "node:dns"
import { createServer } from "node:http"
import net from "node:net"
import { isLoopbackHost, refusedDials } from "../../../test-support/loopbackGuard.js"

// The guard is installed by the vitest setup file of every project; these tests prove it is active and that it
// refuses before anything leaves the machine. The targets are chosen so that even a broken guard sends nothing
// off this machine: 0.0.0.0 dials the local host, and `.invalid` names (RFC 6761) never resolve.
describe("loopback guard", () => {
  it("classifies loopback hosts", () => {
    for (const host of [
      "127.0.0.1",
      "127.8.9.10",
      "::1",
      "[::1]",
      "localhost",
      "::ffff:127.0.0.1",
      "0:0:0:0:0:0:0:1"
    ]) {
      expect(isLoopbackHost(host), host).toBe(true)
    }
    for (const host of ["10.0.0.1", "192.168.1.1", "8.8.8.8", "example.com", "::", "::2", "128.0.0.1", "fe80::1"]) {
      expect(isLoopbackHost(host), host).toBe(false)
    }
  })

  it("refuses a TCP dial to a non-loopback address and records it", async () => {
    const before = refusedDials.length
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => {
      const socket = net.connect({ host: "0.0.0.0", port: 9 })
      socket.on("error", resolve)
      socket.on("connect", () => resolve(new Error("connected") as NodeJS.ErrnoException))
    })
    expect(error.message).toContain("loopback guard")
    expect(refusedDials.slice(before)).toContain("0.0.0.0")
  })

  it("refuses global fetch to a non-loopback address", async () => {
    const before = refusedDials.length
    await expect(fetch("http://0.0.0.0:65000/")).rejects.toThrow()
    expect(refusedDials.slice(before)).toContain("0.0.0.0")
  })

  it("refuses DNS look-ups of non-loopback names", async () => {
    const before = refusedDials.length
    await expect(dns.promises.lookup("guard-test.invalid")).rejects.toThrow(/loopback guard/)
    const callbackError = await new Promise<Error | null>((resolve) =>
      dns.lookup("guard-test-2.invalid", (e) => resolve(e))
    )
    expect(callbackError?.message).toContain("loopback guard")
    expect(refusedDials.slice(before)).toEqual(["guard-test.invalid", "guard-test-2.invalid"])
  })

  it("lets loopback traffic through", async () => {
    const server = createServer((_, res) => res.end("ok"))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.address() as net.AddressInfo
    try {
      const response = await fetch(`http://127.0.0.1:${port}/`)
      expect(await response.text()).toBe("ok")
    } finally {
      server.close()
    }
  })
})
