/**
 * A real HTTP server on 127.0.0.1 for fetch tests: routes answer with a status, headers and a body (or a
 * function of the request), every request is recorded, and the server closes with the test's scope.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"

export interface Answer {
  readonly status?: number
  readonly headers?: Record<string, string>
  readonly body?: string | Uint8Array
  /** Milliseconds to wait before answering. */
  readonly delay?: number
}

export type Route = Answer | ((request: IncomingMessage) => Answer)

export interface LocalServer {
  readonly port: number
  /** `http://127.0.0.1:PORT` */
  readonly origin: string
  readonly url: (path: string) => string
  /** Every request path (with query) in arrival order. */
  readonly hits: ReadonlyArray<string>
  readonly count: (path: string) => number
}

/** Starts a server; unknown paths answer 404 with a small text body. */
export const start = (routes: Record<string, Route>): Effect.Effect<LocalServer, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<{ readonly server: ReturnType<typeof createServer>; readonly info: LocalServer }>((resume) => {
      const hits: Array<string> = []
      const server = createServer((request, response) => {
        const path = request.url ?? "/"
        hits.push(path)
        const route = routes[path]
        const answer: Answer =
          route === undefined
            ? { status: 404, headers: { "content-type": "text/plain" }, body: "not here" }
            : typeof route === "function"
              ? route(request)
              : route
        const send = () => {
          response.writeHead(answer.status ?? 200, answer.headers ?? {})
          response.end(answer.body ?? "")
        }
        if (answer.delay === undefined) send()
        else setTimeout(send, answer.delay)
      })
      server.listen(0, "127.0.0.1", () => {
        const port = (server.address() as AddressInfo).port
        const origin = `http://127.0.0.1:${port}`
        resume(
          Effect.succeed({
            server,
            info: {
              port,
              origin,
              url: (path) => `${origin}${path}`,
              hits,
              count: (path) => hits.filter((hit) => hit === path).length
            }
          })
        )
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ info }) => info))

export const html = (body: string, headers: Record<string, string> = {}): Answer => ({
  headers: { "content-type": "text/html; charset=utf-8", ...headers },
  body
})

/** An article page long enough for main-content detection to keep it. */
export const articlePage = (title: string, paragraphs: ReadonlyArray<string>): string =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>${title}</h1>
${paragraphs.map((p) => `<p>${p}</p>`).join("\n")}
</article>
<footer>Footer links</footer></body></html>`
