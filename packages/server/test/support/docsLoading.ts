/**
 * Child process of DocsLoading.test.ts: records every module whose URL names Scalar (`HttpApiScalar`) that this
 * process resolves, starts the real server, calls `/health`, then `/docs`, and prints the Scalar modules resolved
 * before and after each as one JSON line. Run under the tsx loader with the `@websearch/source` condition.
 */
import * as Effect from "effect/Effect"
import { register } from "node:module"
import { MessageChannel, type MessagePort } from "node:worker_threads"

// Module hooks run on a thread of their own: they keep the list, and answer it when asked, after every resolution
// requested before the question.
const hooks = `
let port
const seen = []
export function initialize(data) {
  port = data.port
  port.on("message", () => port.postMessage([...seen]))
  port.unref()
}
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  if (resolved.url.includes("HttpApiScalar")) seen.push(resolved.url)
  return resolved
}
`
const { port1, port2 } = new MessageChannel()
register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { port: port2 }, transferList: [port2] })

const resolved = (port: MessagePort) =>
  new Promise<Array<string>>((resolve) => {
    port.once("message", resolve)
    port.postMessage("list")
  })

const Support = await import("./server.js")
const program = Effect.gen(function* () {
  const { driver } = Support.driver("tavily", { searchKeywords: (input) => Effect.succeed(Support.results(input)) })
  const base = yield* Support.start(
    { tokens: [Support.token] },
    Support.live([driver], { defaults: { searchKeywords: "tavily" }, providers: { tavily: { apiKeys: ["k"] } } })
  )
  const health = yield* Effect.promise(() => fetch(`${base}/health`))
  const atStart = yield* Effect.promise(() => resolved(port1))
  const page = yield* Effect.promise(() =>
    fetch(`${base}/docs`).then(async (r) => ({ status: r.status, html: await r.text() }))
  )
  const again = yield* Effect.promise(() => fetch(`${base}/docs`).then((r) => r.status))
  const afterDocs = yield* Effect.promise(() => resolved(port1))
  return {
    health: health.status,
    atStart,
    docs: page.status,
    docsHasScalar: page.html.includes('id="api-reference"'),
    again,
    afterDocs
  }
})
process.stdout.write(JSON.stringify(await Effect.runPromise(Effect.scoped(program))) + "\n")
port1.close()
