/**
 * Sending one request to a provider and reading its answer: transport failures, the capped read, and a non-2xx
 * status turned into the websearch error of the refusal it carries. A 2xx answer is handed back to be decoded.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { type Answer, readCapped } from "./cappedRead.js"
import { parseJson } from "./jsonBody.js"
import { type Call, limits } from "./providerCall.js"
import { answerMessage, failure, type Refusal, refusalOf } from "./refusal.js"
import { transportFailure } from "./transportFailure.js"

/** How `send` reads an answer that is not a success. */
export interface SendOptions {
  /** Reads a non-2xx answer; return undefined for the default reading. */
  readonly refuse?: ((answer: Answer, json: unknown) => Refusal | undefined) | undefined
  /** An answer that is not a refusal of any kind (a configuration problem): its error, as it is. */
  readonly reject?: ((answer: Answer, json: unknown) => WebSearchError.WebSearchError | undefined) | undefined
  /** What the user can do, by kind of refusal, for a refusal that carries no hint of its own. */
  readonly hints?: Partial<Record<Refusal["kind"], string>> | undefined
  readonly maxBodyBytes?: number | undefined
}

/**
 * Sends one request and reads the answer. A non-2xx status fails with the error `reject` gives for it, else with
 * the refusal `refuse` reads from it (by default `refusalOf` with `messageOf` on the JSON body); a 2xx answer is
 * returned for the driver to decode. No span of its own: the pipeline's `websearch.provider.<capability>` span
 * (core's `callGuard`) already encloses the call, with the same attributes.
 */
export const send: (
  client: HttpClient.HttpClient,
  c: Call,
  request: HttpClientRequest.HttpClientRequest,
  options?: SendOptions
) => Effect.Effect<Answer, WebSearchError.WebSearchError> = Effect.fnUntraced(function* (client, c, request, options) {
  const response = yield* client.execute(request).pipe(Effect.mapError((error) => transportFailure(c, error)))
  const ok = response.status >= 200 && response.status < 300
  const text = yield* readCapped(
    c,
    response,
    ok ? (options?.maxBodyBytes ?? limits.maxBodyBytes) : limits.maxErrorBodyBytes,
    ok
  )
  const answer: Answer = { status: response.status, headers: response.headers, text }
  if (ok) return answer
  const json = Either.getOrUndefined(parseJson(text))
  const rejected = options?.reject?.(answer, json)
  if (rejected !== undefined) return yield* Effect.fail(rejected)
  const read =
    options?.refuse?.(answer, json) ?? refusalOf(response.status, response.headers, answerMessage(answer, json))
  const hint = read.hint ?? options?.hints?.[read.kind]
  return yield* Effect.fail(failure(c, hint === undefined ? read : { ...read, hint }))
})
