/**
 * Every provider, every capability: a provider that quotes our key back (in a 401 body, in an HTTP 200 error body,
 * in an undecodable answer) or a connection that fails with the key in the URL never puts the key in an error, a
 * failure list or a log line. Basic-auth passwords (SearXNG) are checked the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Providers from "../src/Providers.js"
import * as Modules from "./support/modules.js"
import * as Server from "./support/providerServer.js"

const canary = Server.canary

// Every field where a provider might quote the key back.
const echo = {
  error: { message: `invalid key ${canary}`, code: "1000", error: `invalid key ${canary}` },
  message: `Invalid API key: ${canary}`,
  detail: { error: `key ${canary} rejected` },
  readableMessage: `AuthenticationFailedError: ${canary}`,
  error_code: 401,
  error_msg: `bad key ${canary}`,
  code: 401,
  msg: canary
}

let server: Server.ProviderServer
let closedPort: string
beforeAll(async () => {
  server = await Server.start()
  const closed = await Server.start()
  closedPort = closed.url
  await closed.close()
})
afterAll(() => server.close())

const ids = Providers.ids.filter((id) => id !== "openai")

const optionsFor = (id: string) => {
  if (id === "searxng") return { keys: [], override: { basicAuthUsername: "user", basicAuthPassword: canary } }
  if (id === "google") return { override: { engineId: "cx-0001" } }
  return {}
}

const scenarios: ReadonlyArray<readonly [string, Server.Handler]> = [
  ["a 401 quoting the key", Server.reply(401, echo)],
  ["a 429 quoting the key", Server.reply(429, echo, { "retry-after": "1" })],
  ["a 200 error body quoting the key", Server.json(echo)],
  ["an undecodable 200 quoting the key", Server.html(200, `<html>${canary}</html>`)],
  ["a 500 in plain text quoting the key", Server.reply(500, `internal error for key ${canary}`)]
]

describe.each(ids)("%s never shows its key", (id) => {
  const preset = Modules.presets.get(id)!
  const capabilities = preset.capabilities
    .map((c) => c.feature)
    // The whole-site capabilities (mapSite, crawlSite) are checked driver by driver in FirecrawlSite and TavilySite.
    .filter((c): c is "searchKeywords" | "fetchUrls" => c === "searchKeywords" || c === "fetchUrls")

  for (const capability of capabilities) {
    const run = (options: Server.HarnessOptions = {}) =>
      capability === "searchKeywords"
        ? Server.search(server, id, Providers.layer, ["canary query"], {
            ...optionsFor(id),
            ...options,
            capabilities: [capability]
          })
        : Server.fetch(server, id, Providers.layer, ["https://example.com/page"], {
            ...optionsFor(id),
            ...options,
            capabilities: [capability]
          })

    it.each(scenarios)(`${capability}: %s`, async (_, handler) => {
      server.handle = handler
      server.requests.length = 0
      const outcome = await run()
      // The provider was really called with the secret (so the answer quoting it came back through the driver).
      expect(server.requests.length).toBeGreaterThan(0)
      const sent = JSON.stringify(server.requests.map((r) => [r.headers, r.query.toString(), r.text]))
      // DuckDuckGo is keyless: a key configured by mistake is never sent at all.
      if (id === "duckduckgo") expect(sent).not.toContain(canary)
      else expect(sent).toContain(id === "searxng" ? Buffer.from(`user:${canary}`).toString("base64") : canary)
      expect(Server.visible(outcome)).not.toContain(canary)
    })

    it(`${capability}: a refused connection (the key may be in the URL)`, async () => {
      const outcome =
        capability === "searchKeywords"
          ? await Server.search(
              { ...server, url: closedPort, hostPort: closedPort.slice(7) },
              id,
              Providers.layer,
              ["q"],
              {
                ...optionsFor(id),
                capabilities: [capability]
              }
            )
          : await Server.fetch(
              { ...server, url: closedPort, hostPort: closedPort.slice(7) },
              id,
              Providers.layer,
              ["https://example.com/"],
              {
                ...optionsFor(id),
                capabilities: [capability]
              }
            )
      expect(Server.failure(outcome)).toMatchObject({ _tag: "RequestFailed", reason: "network" })
      expect(Server.visible(outcome)).not.toContain(canary)
    })
  }
})
