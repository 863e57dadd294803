/**
 * Path patterns, as robots.txt writes them and as a site map or crawl filters its URLs (`includePaths`,
 * `excludePaths`): `*` matches any run of characters, a trailing `$` anchors the end, anything else matches as a
 * prefix of the path with its query.
 */

/**
 * Whether a path pattern matches a path (with its query): `*` matches any run of characters, a trailing `$` anchors
 * the end, anything else matches as a prefix. A two-pointer match with one backtrack point, linear-ish and never
 * exponential, so a hostile robots.txt cannot make matching expensive (a regular expression could).
 */
export const matches = (pattern: string, path: string): boolean => {
  const anchored = pattern.endsWith("$")
  const body = anchored ? pattern.slice(0, -1) : `${pattern}*`
  let p = 0
  let s = 0
  let star = -1
  let resume = 0
  while (s < path.length) {
    if (p < body.length && body[p] !== "*" && body[p] === path[s]) {
      p++
      s++
    } else if (p < body.length && body[p] === "*") {
      star = p++
      resume = s
    } else if (star !== -1) {
      p = star + 1
      s = ++resume
    } else return false
  }
  while (p < body.length && body[p] === "*") p++
  return p === body.length
}

/**
 * The pattern as a regular expression source, for a hosted crawler that takes regular expressions (Firecrawl's
 * `includePaths`, Tavily's `select_paths`): every character literal but `*` (any run) and a trailing `$`,
 * anchored at the start of the path.
 */
export const toRegExpSource = (pattern: string): string => {
  const anchored = pattern.endsWith("$")
  const body = anchored ? pattern.slice(0, -1) : pattern
  let out = "^"
  for (const ch of body) out += ch === "*" ? ".*" : "\\^$.|?+()[]{}/-".includes(ch) ? `\\${ch}` : ch
  return anchored ? `${out}$` : out
}
