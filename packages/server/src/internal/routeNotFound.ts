/**
 * What the server answers a request no route takes, in the API's words instead of the router's empty 404: a path
 * of the API asked with another method is 405 with `Allow` (`RequestFailed/method_not_allowed`); any other path
 * is 404 (`RequestFailed/not_found`). Both bodies are the typed error, as every other error of the API.
 *
 * A router's global middleware sees the router's `RouteNotFound`. Mounted beside an application's own routes
 * (`WebSearchServer.routes`), only the API's own paths (its routes and anything under `/v1/`) are answered here;
 * the application's other paths stay the application's. The whole server (`WebSearchServer.layer`) answers
 * every path.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import { statusOf } from "../ErrorStatus.js"

/** A route: its method and its path's segments (`null` for a `:parameter`). */
interface Route {
  readonly method: string
  readonly segments: ReadonlyArray<string | null>
}

const segmentsOf = (path: string): ReadonlyArray<string> => path.split("/").slice(1)

/** The routes of an API, and the extra GET routes served beside it (the document, the reference page). */
export const routesOf = (api: HttpApi.HttpApi.Any, extraGets: ReadonlyArray<string>): ReadonlyArray<Route> => {
  const routes: Array<Route> = extraGets.map((path) => ({ method: "GET", segments: segmentsOf(path) }))
  HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      routes.push({
        method: endpoint.method,
        segments: segmentsOf(endpoint.path).map((segment) => (segment.startsWith(":") ? null : segment))
      })
    }
  })
  return routes
}

const matches = (route: Route, segments: ReadonlyArray<string>): boolean =>
  route.segments.length === segments.length &&
  route.segments.every((segment, index) => (segment === null ? segments[index] !== "" : segment === segments[index]))

// The path as the caller wrote it, without the query (which may carry anything, a key too), cut for the message.
const pathOf = (url: string): string => {
  const query = url.indexOf("?")
  const path = query === -1 ? url : url.slice(0, query)
  return path.length > 200 ? `${path.slice(0, 200)}…` : path
}

const respond = (error: WebSearchError.RequestFailed, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson(WebSearchError.toJson(error), { status: statusOf(error), headers })

/**
 * The answer to a request no route took, or `undefined` when it is not this API's to answer (`all` false and a
 * path that is neither one of the routes nor under `/v1/`).
 */
export const answer = (
  routes: ReadonlyArray<Route>,
  request: { readonly method: string; readonly url: string },
  all: boolean
): HttpServerResponse.HttpServerResponse | undefined => {
  const path = pathOf(request.url)
  const segments = segmentsOf(path)
  const methods = new Set(routes.filter((route) => matches(route, segments)).map((route) => route.method))
  if (methods.size > 0) {
    // The router answers HEAD wherever it answers GET.
    if (methods.has("GET")) methods.add("HEAD")
    const allow = Array.from(methods).join(", ")
    return respond(
      WebSearchError.requestFailed(
        "method_not_allowed",
        `${request.method} is not allowed on ${path}: it answers ${allow}`
      ),
      { allow }
    )
  }
  if (!all && !path.startsWith("/v1/")) return undefined
  return respond(
    WebSearchError.requestFailed(
      "not_found",
      `${request.method} ${path} is not a route of this API (the routes are listed in /openapi.json)`
    )
  )
}

/**
 * A global middleware of the router that answers what no route took (see `answer`); anything else, and a path
 * that is not the API's to answer, goes on as it was.
 */
export const layer = (
  routes: ReadonlyArray<Route>,
  all: boolean
): Layer.Layer<never, never, HttpLayerRouter.HttpRouter> =>
  HttpLayerRouter.middleware(
    (effect) =>
      Effect.catchAll(effect, (error) => {
        const response =
          HttpServerError.isServerError(error) && error._tag === "RouteNotFound"
            ? answer(routes, error.request, all)
            : undefined
        return response === undefined ? Effect.fail(error) : Effect.succeed(response)
      }),
    { global: true }
  )
