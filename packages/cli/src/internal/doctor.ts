/**
 * `websearch doctor`: one line for the settings file in use, one per capability of every configured provider (the
 * provider's check: a real call with the check inputs), one per store (the persistent cache directory, Redis when
 * `REDIS_URL` is set), one for Chromium (needed only when pages are rendered) and one for the Node that runs it (a
 * warning on Node 20, past its end of life). The command exits 1 when a line is broken.
 *
 * A provider is configured when it has a key, when the settings or the environment name it (an override or a
 * default), or when it serves a capability by default.
 *
 * @since 0.2.0
 */
import * as Composition from "@websearch/core/Composition"
import * as ProviderChecks from "@websearch/core/ProviderChecks"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Settings from "@websearch/core/Settings"
import * as StoreHealth from "@websearch/core/StoreHealth"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { accessSync, constants, mkdirSync } from "node:fs"
import type * as Cli from "./cli.js"
import * as Live from "./live.js"
import * as PersistentCache from "./persistentCache.js"
import * as Render from "./render.js"

/**
 * One line of the report.
 *
 * @since 0.2.0
 * @category models
 */
export interface Line {
  readonly subject: string
  /** `warning`: it works, but should be changed (a Node past its end of life); only `broken` fails the command. */
  readonly status: "ok" | "broken" | "skipped" | "warning"
  readonly detail: string
}

/**
 * The report: every line, and whether none is broken.
 *
 * @since 0.2.0
 * @category models
 */
export interface Report {
  readonly ok: boolean
  readonly lines: ReadonlyArray<Line>
}

const line = (subject: string, status: Line["status"], detail: string): Line => ({ subject, status, detail })

const report = (lines: ReadonlyArray<Line>): Report => ({ ok: lines.every((l) => l.status !== "broken"), lines })

const chromium = (env: Readonly<Record<string, string | undefined>>, rendering: boolean): Line => {
  const path = env.WEBSEARCH_CHROMIUM_PATH ?? "/usr/bin/chromium"
  try {
    accessSync(path, constants.X_OK)
    return line("chromium", "ok", `${path} (for --render)`)
  } catch {
    return rendering
      ? line("chromium", "broken", `${path} is not an executable, and rendering is on (WEBSEARCH_CHROMIUM_PATH)`)
      : line("chromium", "skipped", `${path} not found; needed only for --render auto|always`)
  }
}

/**
 * The Node running the command: 20 works but is past its end of life (April 2026), so it is a warning that names
 * the versions to move to.
 *
 * @since 0.2.0
 * @category utils
 */
export const nodeLine = (version: string = process.versions.node): Line => {
  const major = Number(version.split(".")[0])
  return major < 22
    ? line(
        "node",
        "warning",
        `${version}: Node ${major} is past its end of life${major === 20 ? " (April 2026)" : ""}; websearch runs on ` +
          "it, but use Node 22 or 24"
      )
    : line("node", "ok", version)
}

const cacheLine = (env: Readonly<Record<string, string | undefined>>, persistent: boolean): Line => {
  const dir = PersistentCache.directory(env)
  if (!persistent) return line("cache", "skipped", "no persistent cache (settings cache.persistent)")
  try {
    mkdirSync(dir, { recursive: true })
    accessSync(dir, constants.W_OK)
    return line("cache", "ok", dir)
  } catch (error) {
    return line("cache", "broken", `${dir} cannot be written (${(error as NodeJS.ErrnoException).code ?? "error"})`)
  }
}

// Redis is what `serve` shares between replicas; it is checked only when REDIS_URL names one.
const redisLines = (env: Readonly<Record<string, string | undefined>>): Effect.Effect<ReadonlyArray<Line>> => {
  if (env.REDIS_URL === undefined || env.REDIS_URL.trim() === "") return Effect.succeed([])
  return Effect.gen(function* () {
    const SharedStores = yield* Effect.promise(() => import("@websearch/node/SharedStores"))
    const layer = SharedStores.layerConfig().pipe(
      Layer.provide(Layer.effect(Composition.Composition, Composition.make))
    )
    const statuses = yield* Effect.scoped(
      Effect.flatMap(Layer.build(layer), (context) =>
        Effect.flatMap(Effect.succeed(context), () => Effect.flatMap(StoreHealth.StoreHealth, (s) => s.check)).pipe(
          Effect.provide(context)
        )
      )
    )
    return statuses.map((s) =>
      line(`store ${s.name}`, s.status === "ok" ? "ok" : "broken", s.status === "ok" ? "reachable" : (s.message ?? ""))
    )
  }).pipe(Effect.catchAll((error) => Effect.succeed([line("store redis", "broken", error.message)])))
}

/**
 * Runs every check.
 *
 * @since 0.2.0
 * @category utils
 */
export const run = (
  command: Cli.CommonOptions,
  env: Readonly<Record<string, string | undefined>>,
  providers: Live.Providers
): Effect.Effect<Report> =>
  Effect.gen(function* () {
    const located = Live.settingsFile(command, env)
    const input = yield* Effect.either(Live.settingsInput(command, env))
    const built = yield* Effect.either(
      Effect.scoped(
        Effect.flatMap(Layer.build(Live.layer(command, env, providers)), (context) =>
          Effect.gen(function* () {
            const registry = yield* ProviderRegistry.ProviderRegistry
            const settings = yield* Settings.Settings
            const rows = registry
              .describe()
              .filter((row) => row.apiKeys > 0 || settings.overrides.has(row.id as never) || row.defaultFor.length > 0)
            const checks = yield* Effect.forEach(rows, (row) => Effect.either(ProviderChecks.check(row.id)), {
              concurrency: 4
            })
            const Fetch = yield* Effect.promise(() => import("@websearch/node/Fetch"))
            const render = yield* Effect.orElseSucceed(Fetch.renderMode(settings), () => "never" as const)
            return { checks, render }
          }).pipe(Effect.provide(context))
        )
      )
    )
    const where =
      located.path === undefined ? "none: the defaults and the environment apply" : `${located.path} (${located.from})`
    if (Either.isLeft(built)) {
      return report([line("config", "broken", `${where}: ${built.left.reason}: ${built.left.message}`), nodeLine()])
    }
    const lines: Array<Line> = [line("config", "ok", where)]
    for (const check of built.right.checks) {
      if (Either.isLeft(check)) {
        lines.push(line("provider", "broken", check.left.message))
        continue
      }
      for (const c of check.right.capabilities) {
        lines.push(
          c.ok
            ? line(`${check.right.providerId} ${c.capability}`, "ok", `${c.results} result(s) in ${c.durationMs} ms`)
            : line(
                `${check.right.providerId} ${c.capability}`,
                "broken",
                `${c.error?._tag}/${c.error?.reason}: ${c.error?.message}`
              )
        )
      }
    }
    const persistent = Either.isRight(input) && input.right.cache?.persistent === true
    lines.push(cacheLine(env, persistent), ...(yield* redisLines(env)))
    lines.push(
      chromium(env, command.render !== undefined ? command.render !== "never" : built.right.render !== "never"),
      nodeLine()
    )
    return report(lines)
  })

/**
 * The report as text: one line per check.
 *
 * @since 0.2.0
 * @category encoding
 */
export const render = (report: Report): string =>
  Render.terminalText(
    report.lines.map((l) => `${l.status.padEnd(7)} ${l.subject}: ${l.detail.replace(/\s+/g, " ")}`).join("\n") +
      `\n${report.ok ? "everything checked is working" : "something is broken (see the lines above)"}\n`
  )
