/**
 * Keeping credentials out of spans and logs, for every provider at once. `@effect/platform`'s HttpClient copies
 * every request and response header into its client span (`http.request.header.*`) and redacts only
 * `authorization`, `cookie`, `set-cookie` and `x-api-key`; Brave's `x-subscription-token`, Bing's
 * `ocp-apim-subscription-key` and the like went out in clear. It also puts the whole URL (`url.full`,
 * `url.query`) in the span, with a key sent as a query parameter (Google's `key=`, SerpApi's `api_key=`).
 *
 * So the provider client (`Http.client`) redacts every header whose name says it carries a credential, and a
 * request with a credential query parameter is spanned by a span of ours whose URL has that parameter's value
 * replaced. Provider-written text (error messages) is scrubbed of every form a provider echoes a secret in:
 * as sent, URL-encoded, in another case, and as the base64 of `user:password` (basic auth).
 */
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"

/** A header or query parameter name that carries a credential (`x-subscription-token`, `api_key`, `key`, …). */
export const credentialName = /auth|key|token|secret|passw|signature|credential|session|cookie/i

/** What replaces a credential. */
export const placeholder = "[redacted]"

const credentialParams = (url: URL): boolean => {
  for (const name of url.searchParams.keys()) if (credentialName.test(name)) return true
  return false
}

/** Whether the request carries a credential in its URL: a credential-named query parameter, or a password. */
export const hasCredentialInUrl = (request: HttpClientRequest.HttpClientRequest): boolean =>
  request.urlParams.some(([name]) => credentialName.test(name)) ||
  (URL.canParse(request.url) && (credentialParams(new URL(request.url)) || new URL(request.url).password !== ""))

/** The URL to show: credential-named query parameters and any password replaced. */
export const scrubUrl = (url: URL): URL => {
  const shown = new URL(url)
  for (const name of new Set(shown.searchParams.keys())) {
    if (credentialName.test(name)) shown.searchParams.set(name, placeholder)
  }
  if (shown.password !== "") shown.password = placeholder
  return shown
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * Every form a provider may echo a secret in: as sent, URL-encoded (both spellings of the escapes), its base64,
 * and for basic auth the base64 of `user:password` (the `Authorization: Basic` value).
 */
export const forms = (secret: string, username?: string): ReadonlyArray<string> => {
  const encoded = encodeURIComponent(secret)
  return [
    secret,
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    Buffer.from(secret).toString("base64"),
    ...(username === undefined ? [] : [Buffer.from(`${username}:${secret}`).toString("base64")])
  ]
}

/**
 * Replaces every occurrence of each form, in any case. Longer forms first, so a form that contains another is
 * replaced whole. Forms shorter than 4 characters are left (they would redact ordinary words).
 */
export const scrub = (text: string, secretForms: ReadonlyArray<string>): string => {
  const usable = [...new Set(secretForms.filter((form) => form.length >= 4))].sort((a, b) => b.length - a.length)
  if (usable.length === 0) return text
  // A literal alternation: matched in linear time (no quantifier to backtrack on).
  return text.replace(new RegExp(usable.map(escape).join("|"), "gi"), placeholder)
}
