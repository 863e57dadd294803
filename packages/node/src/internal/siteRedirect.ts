/**
 * A crawl or map stays on its site: a redirect that leaves it (its host, `www.` or not, and its subdomains when the
 * request includes them) is refused before anything is sent there, `RequestFailed/redirect_rejected`. Given to the
 * transport as the request's `checkRedirect`, so the refusal happens at the hop, with no second fetch.
 */
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as SiteScopes from "@websearch/core/internal/siteScope"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as TransportError from "./transportError.js"

/** Whether a URL is on the site. */
export const onSite = (scope: ProviderDriver.SiteScope, url: string): boolean => {
  const parsed = SiteScopes.parse(url)
  return parsed !== undefined && SiteScopes.contains(scope, parsed)
}

/** The transport's `checkRedirect` for a site: refuses a redirect off it. */
export const check =
  (scope: ProviderDriver.SiteScope) =>
  (target: string): WebSearchError.RequestFailed | undefined =>
    onSite(scope, target)
      ? undefined
      : WebSearchError.requestFailed(
          "redirect_rejected",
          `a redirect to ${TransportError.describe(target)} leaves the site ${scope.host}${
            scope.includeSubdomains ? " (and its subdomains)" : ""
          }, so it is not followed`,
          { retryable: false }
        )
