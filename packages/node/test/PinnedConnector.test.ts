import { describe, expect, it } from "@effect/vitest"
import type { Socket } from "node:net"
import type { buildConnector } from "undici"
import * as PinnedConnector from "../src/internal/connector.js"

/** A base connector that records what it was asked to dial and never opens anything. */
const recordingBase = () => {
  const asked: Array<string> = []
  const base: buildConnector.connector = (options, callback) => {
    asked.push(options.hostname)
    callback(new Error("not dialled in this test"), null)
  }
  return { base, asked }
}

const connect = (connector: buildConnector.connector, hostname: string) =>
  new Promise<Error | Socket>((resolve) =>
    connector({ hostname, host: hostname, protocol: "http:", port: "8080" }, (error, socket) =>
      resolve(error ?? (socket as Socket))
    )
  )

describe("pinned connector", () => {
  it("dials only IP literals that a request has pinned, until released", async () => {
    const { base, asked } = recordingBase()
    const pins = PinnedConnector.makePins()
    const connector = PinnedConnector.make({ base, pins, proxy: undefined, connectTimeoutMs: 1000 })

    const name = await connect(connector, "example.com")
    expect(name).toBeInstanceOf(PinnedConnector.DialRefused)
    const unpinned = await connect(connector, "127.0.0.1")
    expect(unpinned).toBeInstanceOf(PinnedConnector.DialRefused)
    expect(asked).toEqual([])

    const release = pins.pin("127.0.0.1")
    const second = pins.pin("127.0.0.1")
    await connect(connector, "127.0.0.1")
    expect(asked).toEqual(["127.0.0.1"])
    release()
    release() // a second release of the same pin changes nothing
    await connect(connector, "127.0.0.1")
    expect(asked).toEqual(["127.0.0.1", "127.0.0.1"])
    second()
    expect(await connect(connector, "127.0.0.1")).toBeInstanceOf(PinnedConnector.DialRefused)

    // undici hands IPv6 addresses over without brackets; a bracketed spelling is the same address.
    const releaseV6 = pins.pin("::1")
    await connect(connector, "::1")
    await connect(connector, "[::1]")
    expect(asked).toEqual(["127.0.0.1", "127.0.0.1", "::1", "[::1]"])
    releaseV6()
    expect(await connect(connector, "::1")).toBeInstanceOf(PinnedConnector.DialRefused)
  })

  it("parses proxy URLs, turning credentials into a Basic header and refusing other schemes", () => {
    expect(PinnedConnector.parseProxy("http://u%40x:p%3Ass@proxy.example:3128")).toEqual({
      protocol: "http:",
      hostname: "proxy.example",
      port: "3128",
      authorization: `Basic ${Buffer.from("u@x:p:ss").toString("base64")}`
    })
    expect(PinnedConnector.parseProxy("https://proxy.example")?.port).toBe("443")
    expect(PinnedConnector.parseProxy("http://proxy.example")?.authorization).toBeUndefined()
    expect(PinnedConnector.parseProxy("socks5://proxy.example:1080")).toBeUndefined()
    expect(PinnedConnector.parseProxy("not a url")).toBeUndefined()
  })
})
