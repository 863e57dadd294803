/**
 * The local fetcher's environment variables (`FETCH_USER_AGENT`, `FETCH_RESPECT_ROBOTS_TXT`, `FETCH_RENDER`, the
 * last decoded by the options schema) and the Accept header it sends.
 */
import * as ConfigText from "@websearch/core/internal/configText"
import * as Config from "effect/Config"
import * as Option from "effect/Option"

const optionalVariable = (name: string) => Config.map(ConfigText.optionalString(name), Option.getOrUndefined)

/** The variables, unset or blank as `undefined`. */
export const variables = {
  userAgent: optionalVariable("FETCH_USER_AGENT"),
  respectRobotsTxt: Config.option(Config.boolean("FETCH_RESPECT_ROBOTS_TXT")).pipe(Config.map(Option.getOrUndefined)),
  render: optionalVariable("FETCH_RENDER")
}

/** Every kind of body the extractor reads, HTML first. */
export const accept =
  "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,application/json;q=0.8," +
  "application/xml;q=0.8,application/pdf;q=0.8,*/*;q=0.5"
