/**
 * A settings file is read within bounds (size and nesting) and every value sent in an HTTP header is refused at
 * load when it holds a control character, naming the field and never showing the value.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import * as Settings from "../src/Settings.js"
import * as Registry from "./support/registry.js"

const tempFile = (contents: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), "websearch-settings-bounds-"))
      const file = path.join(dir, "settings.json")
      await fs.writeFile(file, contents)
      return { dir, file }
    }),
    ({ dir }) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
  ).pipe(Effect.map(({ file }) => file))

const loadFile = (file: string) =>
  Effect.flip(Effect.provide(Settings.Settings, Settings.layerFile(file))).pipe(Effect.provide(NodeFileSystem.layer))

const canary = "k-canary-7f3a9c"

describe("Settings within bounds", () => {
  it.scoped("a deeply nested file is invalid_config naming the file, not a stack overflow", () =>
    Effect.gen(function* () {
      const depth = 20_000
      const file = yield* tempFile(`{"providers":${"[".repeat(depth)}${"]".repeat(depth)}}`)
      const error = yield* loadFile(file)
      expect(error._tag).toBe("Unavailable")
      expect(error.reason).toBe("invalid_config")
      expect(error.message).toContain(file)
      expect(error.message).toMatch(/levels deep/)
      // Brackets inside strings are text, not nesting.
      const quoted = yield* tempFile(JSON.stringify({ blacklist: [`/${"[{".repeat(400)}/`] }))
      expect((yield* loadFile(quoted)).message).not.toMatch(/levels deep/)
    })
  )

  it.scoped("a file over 1 MiB is refused naming the file, even when it is valid JSON", () =>
    Effect.gen(function* () {
      const file = yield* tempFile(`{"maxResults": 5${" ".repeat(1024 * 1024)}}`)
      const error = yield* loadFile(file)
      expect(error.reason).toBe("invalid_config")
      expect(error.message).toContain(file)
      expect(error.message).toMatch(/larger than 1 MiB/)
      const small = yield* tempFile(`{"maxResults": 5${" ".repeat(1000)}}`)
      const settings = yield* Effect.provide(Settings.Settings, Settings.layerFile(small)).pipe(
        Effect.provide(NodeFileSystem.layer)
      )
      expect(settings.maxResults).toBe(5)
    })
  )

  it.effect("/dev/zero (an endless device) fails fast as too large", () =>
    Effect.gen(function* () {
      const error = yield* loadFile("/dev/zero")
      expect(error.reason).toBe("invalid_config")
      expect(error.message).toMatch(/\/dev\/zero is larger than 1 MiB/)
    })
  )

  for (const [name, bad] of [
    ["CR LF", `${canary}\r\nX-Injected: 1`],
    ["LF", `${canary}\nx`],
    ["NUL", `${canary}\u0000x`],
    ["ESC", `${canary}\u001b[2J`],
    ["C1 CSI", `${canary}\u009bx`]
  ] as const) {
    it.effect(`a header-bound value with ${name} is refused at load, naming the field, not the value`, () =>
      Effect.gen(function* () {
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ providers: { brave: { apiKeys: ["ok-key-0001", bad] } } }, "providers.brave.apiKeys.1"],
          [{ providers: { fetch: { userAgent: bad } } }, "providers.fetch.userAgent"],
          [
            { providers: { searxng: { basicAuthUsername: bad, basicAuthPassword: "pw-0001" } } },
            "providers.searxng.basicAuthUsername"
          ],
          [
            { providers: { searxng: { basicAuthUsername: "user", basicAuthPassword: bad } } },
            "providers.searxng.basicAuthPassword"
          ]
        ]
        for (const [input, field] of cases) {
          // The common fields are refused when the settings load; a provider's own option (the local fetcher's
          // userAgent) when the application composing it starts. Both say which field, never the value.
          const error = yield* Effect.flip(Registry.load(input))
          expect(error.reason).toBe("invalid_config")
          expect(error.message).toContain(field)
          expect(error.message).toMatch(/control characters/)
          expect(error.message).not.toContain(canary)
        }
      })
    )
  }

  it.effect("a key with CR LF from the environment is refused too", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Registry.fromLayer(Settings.layerConfig())).pipe(
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["BRAVE_API_KEY", `${canary}\r\nX-Injected: 1`]])))
      )
      expect(error.reason).toBe("invalid_config")
      expect(error.message).toMatch(/brave/)
      expect(error.message).toMatch(/control characters/)
      expect(error.message).not.toContain(canary)
    })
  )
})
