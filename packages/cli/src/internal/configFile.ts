/**
 * Where `websearch` finds its settings file: `--config FILE`, else `WEBSEARCH_CONFIG`, else
 * `$XDG_CONFIG_HOME/websearch/config.json` (`~/.config/websearch/config.json` without XDG_CONFIG_HOME) when that
 * file exists. `websearch config path` prints the answer and `websearch config init` writes a commented starting
 * file there (JSON with `//` comments, which the settings reader accepts), never over an existing one.
 *
 * @since 0.2.0
 */
import { existsSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"

/**
 * The settings file of a command line and how it was found; `path` is `undefined` when there is none.
 *
 * @since 0.2.0
 * @category models
 */
export interface Located {
  readonly path: string | undefined
  readonly from: "--config" | "WEBSEARCH_CONFIG" | "XDG_CONFIG_HOME" | "none"
  /** The default location, whether or not a file is there (where `config init` writes). */
  readonly defaultPath: string
}

/**
 * The default location of the settings file.
 *
 * @since 0.2.0
 * @category utils
 */
export const defaultPath = (env: Readonly<Record<string, string | undefined>>): string => {
  const xdg = env.XDG_CONFIG_HOME
  // The XDG base directory rule: a relative value is ignored.
  const base = xdg !== undefined && xdg.startsWith("/") ? xdg : join(env.HOME ?? homedir(), ".config")
  return join(base, "websearch", "config.json")
}

/**
 * Finds the settings file: the flag, else the variable, else the default location when a file is there.
 *
 * @since 0.2.0
 * @category utils
 */
export const locate = (
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  exists: (path: string) => boolean = existsSync
): Located => {
  const fallback = defaultPath(env)
  if (flag !== undefined && flag !== "") return { path: flag, from: "--config", defaultPath: fallback }
  const variable = env.WEBSEARCH_CONFIG
  if (variable !== undefined && variable !== "")
    return { path: variable, from: "WEBSEARCH_CONFIG", defaultPath: fallback }
  return exists(fallback)
    ? { path: fallback, from: "XDG_CONFIG_HOME", defaultPath: fallback }
    : { path: undefined, from: "none", defaultPath: fallback }
}

/**
 * The starting file `websearch config init` writes: every setting left at its default, commented. Each commented
 * setting is one line that gives valid settings once its comment marks are removed, alone or with the others.
 *
 * @since 0.2.0
 * @category constants
 */
export const template = `// websearch settings. Environment variables (<PROVIDER>_API_KEY, ...) are laid over this file.
// Every key is optional; remove the comment marks of what you want to set (each line works on its own).
// \`websearch doctor\` checks the result.
{
  // Which provider serves a capability when --provider is not given (research needs OPENAI_API_KEY).
  // "defaults": { "searchKeywords": "duckduckgo", "fetchUrls": "fetch", "research": "openai" },

  // Keys and endpoints per provider; keys are better kept in the environment (TAVILY_API_KEY=...). An endpoint on
  // this network (http://searxng:8080) also needs its host in urlPolicy.allowHosts.
  // "providers": { "searxng": { "capabilities": { "searchKeywords": { "apiHost": "https://searx.example.org" } } } },

  // Hosts and address ranges fetching and endpoints may reach although they are not public (like --allow-host,
  // --allow-cidr): a host, or host:port for one port; a CIDR range.
  // "urlPolicy": { "allowHosts": ["searxng:8080"], "allowCidrs": ["198.18.0.0/15"] },

  // Results per keyword (1-50) and inputs worked on at once (1-20).
  // "maxResults": 10,
  // "concurrency": 5,

  // Each provider call's time limit in milliseconds (like --timeout, which takes seconds).
  // "timeouts": { "searchKeywords": 20000, "fetchUrls": 15000, "research": 300000 },

  // A persistent cache for the command line, kept in $XDG_CACHE_HOME/websearch (~/.cache/websearch): a repeated
  // search or fetch is answered locally for these times; --no-cache bypasses it for one run.
  "cache": {
    "persistent": false,
    "searchKeywords": "10 minutes",
    "fetchUrls": "1 hour",
    "failures": "30 seconds"
  }
}
`
