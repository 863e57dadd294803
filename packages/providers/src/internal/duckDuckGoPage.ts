/**
 * Reads the result page of DuckDuckGo's HTML endpoint (what the `duckduckgo` provider receives) as a DOM (linkedom):
 * each `.result` inside `#links` that is not an ad (`.result--ad`) gives its title and link from `a.result__a` and its
 * content from `.result__snippet` as plain text. A link is either the target itself or DuckDuckGo's redirect
 * `//duckduckgo.com/l/?uddg=<target>&rut=…`, which is unwrapped; only http(s) targets are kept. The provider loads
 * this module on its first search, so composing the providers loads no DOM.
 *
 * @since 0.2.0
 */
import { DOMParser } from "linkedom"
import * as Fields from "./resultFields.js"

/**
 * One result as the page shows it, before websearch's mapping.
 *
 * @since 0.2.0
 * @category models
 */
export interface PageResult {
  readonly title: string
  readonly snippet: string
  /** The target URL (redirects unwrapped), or undefined when the link is not an http(s) target. */
  readonly url: string | undefined
}

/**
 * What a DuckDuckGo HTML page holds:
 * - `Results`: the organic results in page order;
 * - `NoResults`: DuckDuckGo found nothing;
 * - `Blocked`: a challenge (anomaly) page served to a client taken for a bot, with the marker that gave it away;
 * - `Unrecognised`: none of these, so the markup has changed.
 *
 * @since 0.2.0
 * @category models
 */
export type Page =
  | { readonly _tag: "Results"; readonly results: ReadonlyArray<PageResult> }
  | { readonly _tag: "NoResults" }
  | { readonly _tag: "Blocked"; readonly marker: string }
  | { readonly _tag: "Unrecognised" }

const isDuckDuckGoHost = (host: string): boolean => host === "duckduckgo.com" || host.endsWith(".duckduckgo.com")

/**
 * The target of a result link: a direct http(s) URL as it is, DuckDuckGo's redirect (`//duckduckgo.com/l/?uddg=`
 * with or without a scheme) unwrapped; anything else (DuckDuckGo's own pages, ad clicks, other schemes) is
 * undefined.
 *
 * @since 0.2.0
 * @category encoding
 */
export const targetUrl = (href: string): string | undefined => {
  const raw = href.trim()
  const base = "https://duckduckgo.com/"
  if (raw === "" || !URL.canParse(raw, base)) return undefined
  const url = new URL(raw, base)
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined
  if (!isDuckDuckGoHost(url.hostname)) return Fields.httpUrl(url.href)
  if (url.pathname !== "/l/" && url.pathname !== "/l") return undefined
  const target = url.searchParams.get("uddg")
  return target === null ? undefined : Fields.httpUrl(target)
}

const text = (element: Element | null): string => (element?.textContent ?? "").replace(/\s+/gu, " ").trim()

// What DuckDuckGo's challenge page carries; any one of them means the results were withheld.
const challengeSelectors = [".anomaly-modal", "#challenge-form", 'form[action*="anomaly"]', ".anomaly-modal__title"]
const challengeText = "bots use DuckDuckGo too"

/**
 * Reads a DuckDuckGo HTML page (see `Page`).
 *
 * @since 0.2.0
 * @category encoding
 */
export const parse = (html: string): Page => {
  const document = new DOMParser().parseFromString(html, "text/html") as unknown as Document
  for (const selector of challengeSelectors) {
    if (document.querySelector(selector) !== null) return { _tag: "Blocked", marker: selector }
  }
  if ((document.documentElement?.textContent ?? "").includes(challengeText)) {
    return { _tag: "Blocked", marker: `"${challengeText}"` }
  }
  const links = document.querySelector("#links")
  if (document.querySelector(".no-results") !== null && (links?.querySelector(".result__a") ?? null) === null) {
    return { _tag: "NoResults" }
  }
  if (links === null) return { _tag: "Unrecognised" }
  const results: Array<PageResult> = []
  for (const item of Array.from(links.querySelectorAll(".result"))) {
    // Ads sit in the same list, marked as such; a nested .result is read once, as itself.
    if (item.classList.contains("result--ad") || item.classList.contains("result--no-result")) continue
    const anchor = item.querySelector("a.result__a")
    if (anchor === null) continue
    results.push({
      title: text(anchor),
      snippet: text(item.querySelector(".result__snippet")),
      url: targetUrl(anchor.getAttribute("href") ?? "")
    })
  }
  return { _tag: "Results", results }
}
