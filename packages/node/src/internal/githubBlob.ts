/**
 * GitHub `blob` pages wrap a file in several hundred kilobytes of application chrome; the raw file is what a
 * reader wants, so `https://github.com/OWNER/REPO/blob/REF/PATH` is read from `raw.githubusercontent.com`.
 */

/** Where raw files are served. */
export const rawOrigin = "https://raw.githubusercontent.com"

const githubHosts = new Set(["github.com", "www.github.com"])

/**
 * The raw-file URL of a GitHub `blob` URL, or `undefined` when the URL is not one. The ref and path are kept
 * as written (a ref may itself contain `/`, which the raw host resolves the same way); query and fragment are
 * dropped, since `?plain=1` and `#L10` only change how github.com renders the page.
 */
export const rawUrl = (url: string, origin: string = rawOrigin): string | undefined => {
  if (!URL.canParse(url)) return undefined
  const parsed = new URL(url)
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined
  if (!githubHosts.has(parsed.hostname) || parsed.port !== "") return undefined
  const segments = parsed.pathname.split("/").slice(1)
  const [owner, repo, kind, ref, ...path] = segments
  if (kind !== "blob" || owner === "" || repo === "" || ref === undefined || ref === "") return undefined
  if (path.length === 0 || path.every((segment) => segment === "")) return undefined
  return `${origin.replace(/\/+$/, "")}/${owner}/${repo}/${ref}/${path.join("/")}`
}
