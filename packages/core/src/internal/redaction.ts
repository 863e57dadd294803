/**
 * Keeping credentials out of spans, logs, errors and stores: one copy of the rules for every package.
 *
 * `@effect/platform`'s HttpClient copies every request and response header into its client span
 * (`http.request.header.*`) and redacts only `authorization`, `cookie`, `set-cookie` and `x-api-key`; a provider's
 * `x-subscription-token` or `ocp-apim-subscription-key` would go out in clear, as would a key sent as a query
 * parameter in `url.full`. Text written by a remote party (an error message) may echo a secret in another form:
 * URL-encoded, in another case, base64, or as the base64 of `user:password` (basic auth).
 *
 * @example
 * ```ts
 * import * as Redaction from "@websearch/core/internal/redaction"
 *
 * const shown = Redaction.scrub("bad key sk-live-1234", Redaction.forms("sk-live-1234"))
 * // "bad key [redacted]"
 * ```
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 *
 * @since 0.2.0
 */

/**
 * A header or query parameter name that carries a credential (`x-subscription-token`, `api_key`, `key`, …).
 *
 * @since 0.2.0
 * @category constants
 */
export const credentialName: RegExp = /auth|key|token|secret|passw|signature|credential|session|cookie/i

/**
 * What replaces a credential.
 *
 * @since 0.2.0
 * @category constants
 */
export const placeholder = "[redacted]"

/**
 * Whether a header or query parameter of this name carries a credential.
 *
 * @since 0.2.0
 * @category guards
 */
export const isCredentialName = (name: string): boolean => credentialName.test(name)

/**
 * Whether a URL carries a credential: a credential-named query parameter, or a password.
 *
 * @since 0.2.0
 * @category guards
 */
export const hasCredential = (url: URL): boolean => {
  if (url.password !== "") return true
  for (const name of url.searchParams.keys()) if (isCredentialName(name)) return true
  return false
}

/**
 * The URL to show: credential-named query parameters and any password replaced by the placeholder.
 *
 * @since 0.2.0
 * @category utils
 */
export const scrubUrl = (url: URL): URL => {
  const shown = new URL(url)
  for (const name of new Set(shown.searchParams.keys())) {
    if (isCredentialName(name)) shown.searchParams.set(name, placeholder)
  }
  if (shown.password !== "") shown.password = placeholder
  return shown
}

// The base64 of the text's UTF-8 bytes, without Node's Buffer (core runs anywhere).
const base64 = (text: string): string => {
  let binary = ""
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/**
 * Every form a remote party may echo a secret in: as sent, URL-encoded (both spellings of the escapes), its
 * base64, and for basic auth the base64 of `user:password` (the `Authorization: Basic` value).
 *
 * @since 0.2.0
 * @category utils
 */
export const forms = (secret: string, username?: string): ReadonlyArray<string> => {
  const encoded = encodeURIComponent(secret)
  return [
    secret,
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    base64(secret),
    ...(username === undefined ? [] : [base64(`${username}:${secret}`)])
  ]
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * Replaces every occurrence of each form, in any case, by the placeholder. Longer forms first, so a form that
 * contains another is replaced whole. Forms shorter than `minLength` (default 4) are left alone: they would redact
 * ordinary words, and no provider issues a key that short; a secret the user chose (a Redis password) may be
 * shorter, and its caller passes 1.
 *
 * @since 0.2.0
 * @category utils
 */
export const scrub = (
  text: string,
  secretForms: ReadonlyArray<string>,
  options?: { readonly minLength?: number | undefined }
): string => {
  const minLength = Math.max(1, options?.minLength ?? 4)
  const usable = [...new Set(secretForms.filter((form) => form.length >= minLength))].sort(
    (a, b) => b.length - a.length
  )
  if (usable.length === 0) return text
  // A literal alternation: matched in linear time (no quantifier to backtrack on).
  return text.replace(new RegExp(usable.map(escape).join("|"), "gi"), placeholder)
}
