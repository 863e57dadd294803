/**
 * `websearch providers … --server URL`: every call carries the bearer token, and `set-key` the keys in its body,
 * so an answer that redirects (to another origin, or to the same one) is reported and never followed: the place it
 * points to receives nothing. The binary runs as a process against two local servers, the one named by `--server`
 * answering 307 and the other recording what reaches it.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { websearch } from "./support/process.js"

const token = "redirect-admin-token-7e41"
const apiKey = "sk-redirect-canary-2b9d"

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))
  )

let redirecting: Server
let elsewhere: Server
let redirectingOrigin = ""
let elsewhereOrigin = ""
const reachedElsewhere: Array<string> = []
const reachedRedirecting: Array<string> = []

beforeAll(async () => {
  elsewhere = createServer((request, response) => {
    let body = ""
    request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk))
    request.on("end", () => {
      reachedElsewhere.push(`${request.method} ${request.url} ${request.headers.authorization ?? ""} ${body}`)
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  elsewhereOrigin = await listen(elsewhere)
  redirecting = createServer((request, response) => {
    reachedRedirecting.push(`${request.method} ${request.url}`)
    // The credentials route goes to another origin; every other route to another path of this one.
    const location = request.url?.endsWith("/credentials")
      ? `${elsewhereOrigin}${request.url}`
      : `${request.url ?? "/"}-moved`
    response.writeHead(307, { location }).end()
  })
  redirectingOrigin = await listen(redirecting)
})

afterAll(async () => {
  await new Promise((resolve) => redirecting.close(resolve))
  await new Promise((resolve) => elsewhere.close(resolve))
})

const remote = (args: ReadonlyArray<string>, stdin?: string) =>
  websearch(
    ["providers", ...args, "--server", redirectingOrigin, "--token", token, "--workspace", "acme"],
    {},
    90_000,
    {
      stdin
    }
  )

describe("websearch providers --server and redirects", () => {
  it("set-key answered with a cross-origin 307 fails naming the redirect; the keys and token go nowhere else", async () => {
    const keyed = await remote(["set-key", "acme-tavily"], `${apiKey}\n`)
    expect(keyed.code).toBe(1)
    expect(keyed.stderr).toContain("redirect_rejected")
    expect(keyed.stderr).toContain("HTTP 307")
    expect(keyed.stderr).toContain(elsewhereOrigin)
    expect(keyed.stdout + keyed.stderr).not.toContain(apiKey)
    expect(keyed.stdout + keyed.stderr).not.toContain(token)
    const json = await remote(["set-key", "acme-tavily", "--json"], `${apiKey}\n`)
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout.trim())).toMatchObject({
      error: { _tag: "RequestFailed", reason: "redirect_rejected" }
    })
    expect(reachedElsewhere).toEqual([])
    expect(reachedRedirecting).toEqual([
      "PUT /v1/workspaces/acme/providers/acme-tavily/credentials",
      "PUT /v1/workspaces/acme/providers/acme-tavily/credentials"
    ])
  })

  it("a same-origin redirect of any other call is not followed either", async () => {
    reachedRedirecting.length = 0
    const listed = await remote(["list"])
    expect(listed.code).toBe(1)
    expect(listed.stderr).toContain("redirect_rejected")
    expect(reachedRedirecting).toEqual(["GET /v1/workspaces/acme/providers"])
    expect(reachedElsewhere).toEqual([])
  })
})
