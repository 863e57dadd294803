/**
 * The `@effect/platform` `HttpClient` view of a safe transport: requests are encoded to bytes, sent through the
 * transport (its policy, pinning, redirects, cap and timeout) and its answer handed back as a web `Response`.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as TransportModel from "./transportModel.js"
import * as TransportError from "./transportError.js"

const nullBodyStatuses = new Set([101, 103, 204, 205, 304])

const bodyBytes = (
  request: HttpClientRequest.HttpClientRequest
): Effect.Effect<Uint8Array | string | undefined, HttpClientError.RequestError> => {
  const body = request.body
  const encodeError = (description: string, cause?: unknown) =>
    new HttpClientError.RequestError({ request, reason: "Encode", description, cause })
  switch (body._tag) {
    case "Empty":
      return Effect.succeed(undefined)
    case "Uint8Array":
      return Effect.succeed(body.body)
    case "Raw":
      return typeof body.body === "string" || body.body instanceof Uint8Array
        ? Effect.succeed(body.body)
        : Effect.fail(encodeError("only string and Uint8Array raw bodies are supported"))
    case "FormData":
      return Effect.tryPromise({
        try: async () => new Uint8Array(await new globalThis.Response(body.formData).arrayBuffer()),
        catch: (cause) => encodeError("the form data could not be encoded", cause)
      })
    case "Stream":
      return body.stream.pipe(
        Stream.runFold([] as Array<Uint8Array>, (acc, chunk) => {
          acc.push(chunk)
          return acc
        }),
        Effect.map((chunks) => Buffer.concat(chunks)),
        Effect.mapError((cause) => encodeError("the request body stream failed", cause))
      )
  }
}

/** The `HttpClient` over `transport`; a transport failure is a `RequestError` whose `cause` is the `RequestFailed`. */
export const make = (transport: TransportModel.Transport): HttpClient.HttpClient =>
  // No trace context (`traceparent`, `b3`) goes to the sites and providers it reaches.
  HttpClient.withTracerPropagation(
    HttpClient.make((request, url) =>
      Effect.gen(function* () {
        if (!TransportModel.methods.has(request.method)) {
          return yield* new HttpClientError.RequestError({
            request,
            reason: "Encode",
            description: `the method ${request.method} is not supported by the safe transport`
          })
        }
        const body = yield* bodyBytes(request)
        const headers: Record<string, string> = { ...request.headers }
        const contentType = request.body._tag === "Empty" ? undefined : request.body.contentType
        if (contentType !== undefined && contentType !== "" && headers["content-type"] === undefined) {
          // FormData carries its boundary in the encoded body's own content type, set by the web Response.
          if (request.body._tag !== "FormData") headers["content-type"] = contentType
        }
        if (request.body._tag === "FormData") {
          headers["content-type"] = new globalThis.Response(request.body.formData).headers.get("content-type") ?? ""
        }
        const response = yield* transport
          .request({ url: url.href, method: request.method as TransportModel.Method, headers, body })
          .pipe(
            Effect.mapError(
              (cause) =>
                new HttpClientError.RequestError({ request, reason: "Transport", cause, description: cause.message })
            )
          )
        if (response.status < 200 || response.status > 599) {
          return yield* new HttpClientError.RequestError({
            request,
            reason: "Transport",
            description: `the server answered with status ${response.status}`
          })
        }
        const web = new globalThis.Response(
          nullBodyStatuses.has(response.status) ? null : (response.body as Uint8Array<ArrayBuffer>),
          {
            status: response.status,
            headers: response.headers
          }
        )
        return HttpClientResponse.fromWeb(request, web)
      })
    ),
    false
  )

/** The `RequestFailed` behind a client error of `make`, or a `RequestFailed/network` naming the request's host. */
export const fromHttpClientError = (error: HttpClientError.HttpClientError): WebSearchError.RequestFailed => {
  if (error._tag === "RequestError" && error.cause instanceof WebSearchError.RequestFailed) return error.cause
  const where = `${error.request.method} ${TransportError.describe(error.request.url)}`
  if (error._tag === "ResponseError") {
    return WebSearchError.requestFailed("network", `${where}: the response could not be read (${error.reason})`)
  }
  return WebSearchError.requestFailed("network", `${where}: the request failed (${error.reason})`, {
    retryable: error.reason === "Transport"
  })
}
