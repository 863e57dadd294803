import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Cidr from "../src/internal/cidr.js"
import * as UrlPolicy from "../src/UrlPolicy.js"

const blocks = ["198.18.0.0/15", "10.0.0.0/8", "0.0.0.0/0", "fd00::/8", "::1/128", "::ffff:198.18.0.0/111"]
const notBlocks = [
  "10.0.0.0/33",
  "10.0.0.0",
  "example.com/8",
  "fd00::/129",
  "127.1/8", // a URL's short form
  "0x7f.0.0.0/8", // hex
  "010.0.0.0/8", // octal to inet_aton, decimal to others
  "[::1]/128",
  "fe80::1%eth0/64",
  "10.0.0.0/8/8",
  "10.0.0.0/-1"
]

describe("Cidr: one reading of a block for the policy, the settings and the CLI", () => {
  it("reads blocks and refuses what is not one, with one message", () => {
    for (const text of blocks) expect(Either.isRight(Cidr.parse(text)), text).toBe(true)
    for (const text of notBlocks) {
      expect(Cidr.parse(text), text).toEqual(Either.left(`"${text}" is not a CIDR block (198.18.0.0/15, fd00::/8)`))
    }
  })

  it("the schema accepts exactly what parse reads", () => {
    const decode = Schema.decodeUnknownEither(Cidr.CidrString)
    for (const text of blocks) expect(Either.isRight(decode(text)), text).toBe(true)
    for (const text of notBlocks) expect(Either.isLeft(decode(text)), text).toBe(true)
  })

  it("the URL policy's allowCidrs read blocks the same way: a refused block is a problem and allows nothing", () => {
    const policy = UrlPolicy.make({ allowCidrs: ["198.18.0.0/15", "010.0.0.0/8"] })
    expect(policy.problems.map((p) => p.field)).toEqual(["allowCidrs.1"])
    expect(UrlPolicy.isAllowedAddress(policy, "198.19.1.1")).toBe(true)
    expect(UrlPolicy.isAllowedAddress(policy, "8.0.0.1")).toBe(false)
    expect(UrlPolicy.isAllowedAddress(policy, "10.0.0.1")).toBe(false)
  })
})
