import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Cli from "../src/internal/cli.js"

const ok = (argv: ReadonlyArray<string>) => {
  const parsed = Cli.parse(argv)
  if (Either.isLeft(parsed)) throw new Error(`expected a command, got: ${parsed.left.message}`)
  return parsed.right
}

const usageError = (argv: ReadonlyArray<string>) => {
  const parsed = Cli.parse(argv)
  if (Either.isRight(parsed)) throw new Error(`expected a usage error, got ${parsed.right._tag}`)
  return parsed.left.message
}

describe("Cli.parse", () => {
  it("collects repeatable --allow-host and --allow-cidr into the common options", () => {
    const command = ok([
      "fetch",
      "http://127.0.0.1:8080/",
      "--allow-host",
      "127.0.0.1",
      "--allow-cidr",
      "198.18.0.0/15"
    ])
    expect(command).toMatchObject({
      _tag: "Fetch",
      urls: ["http://127.0.0.1:8080/"],
      allowHosts: ["127.0.0.1"],
      allowCidrs: ["198.18.0.0/15"]
    })
    expect(ok(["search", "effect"])).toMatchObject({ allowHosts: [], allowCidrs: [] })
  })

  it("research takes --allow-domain, with --domain as an alias", () => {
    expect(ok(["research", "a", "brief", "--allow-domain", "a.example", "--domain", "b.example"])).toMatchObject({
      _tag: "Research",
      query: "a brief",
      domains: ["a.example", "b.example"]
    })
  })

  it("mcp serves stdio by default and HTTP on --http PORT", () => {
    expect(ok(["mcp"])).toMatchObject({ _tag: "Mcp", http: undefined })
    expect(ok(["mcp", "--http", "0", "--host", "::1"])).toMatchObject({ _tag: "Mcp", http: 0, host: "::1" })
    expect(usageError(["mcp", "--host", "::1"])).toContain("--host needs --http")
    expect(usageError(["mcp", "extra"])).toContain("mcp takes no arguments")
  })

  it("serve binds 127.0.0.1:8080 by default and needs an explicit flag to run without auth", () => {
    expect(ok(["serve"])).toMatchObject({ _tag: "Serve", port: 8080, host: "127.0.0.1", insecureNoAuth: false })
    expect(ok(["serve", "--port", "9000", "--host", "0.0.0.0", "--insecure-no-auth"])).toMatchObject({
      port: 9000,
      host: "0.0.0.0",
      insecureNoAuth: true
    })
  })

  it("refuses options on commands they do not apply to, naming them", () => {
    expect(usageError(["search", "x", "--port", "1"])).toBe('--port does not apply to "search"')
    expect(usageError(["fetch", "http://a.example/", "--allow-domain", "a.example"])).toBe(
      '--allow-domain does not apply to "fetch"'
    )
    expect(usageError(["serve", "--http", "1"])).toBe('--http does not apply to "serve"')
    expect(usageError(["nope"])).toContain(
      "commands: search, fetch, map, crawl, research, providers, check, mcp, serve"
    )
  })

  it.prop(
    "a port option accepts exactly the numbers 0-65535",
    [FastCheck.oneof(FastCheck.integer({ min: -10, max: 70_000 }).map(String), FastCheck.string({ maxLength: 6 }))],
    ([raw]) => {
      const parsed = Cli.parse(["serve", `--port=${raw}`])
      const valid = /^\d{1,5}$/.test(raw) && Number(raw) <= 65535
      expect(Either.isRight(parsed)).toBe(valid)
      if (Either.isLeft(parsed)) expect(parsed.left.message).toContain("--port takes a port number")
    }
  )
})
