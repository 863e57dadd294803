/**
 * Reading environment text: an optional variable (blank counts as unset, the value trimmed) and a comma-separated
 * list. One copy for the settings' own variables and the per-provider ones.
 */
import * as Config from "effect/Config"
import * as Option from "effect/Option"

/** An optional variable: unset or blank is none; the value is trimmed. */
export const optionalString = (name: string): Config.Config<Option.Option<string>> =>
  Config.option(Config.string(name)).pipe(
    Config.map(Option.flatMap((s) => (s.trim() === "" ? Option.none() : Option.some(s.trim()))))
  )

/** A comma-separated list, items trimmed, empty items dropped. */
export const splitList = (s: string): Array<string> =>
  s
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0)
