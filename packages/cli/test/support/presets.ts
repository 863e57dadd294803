/**
 * The presets of every provider the `websearch` binary composes (the remote providers' catalogue and the local
 * fetcher), for tests that iterate over them or build a stand-in driver for one.
 */
import type * as Preset from "@websearch/core/Preset"
import * as Fetch from "@websearch/node/Fetch"
import * as Providers from "@websearch/providers/Providers"

export const all: ReadonlyArray<Preset.Preset> = [...Providers.presets, Fetch.preset]

export const byId: ReadonlyMap<string, Preset.Preset> = new Map(all.map((preset) => [preset.id, preset]))
