/**
 * A small, self-contained HTML page that documents the API from its OpenAPI document: every operation with its
 * summary, authentication, request schema and responses by status, then every schema. No script and no CDN, so
 * it works offline and costs nothing to ship (a full interactive UI such as Scalar is 3 MB of JavaScript, which
 * an application can still mount itself with `HttpApiScalar`).
 */
import type * as OpenApi from "@effect/platform/OpenApi"

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

const refName = (ref: string): string => decodeURIComponent(ref.split("/").pop()!.replace(/~1/g, "/"))

const anchor = (name: string): string => `schema-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`

const schemaLinks = (schema: unknown): string => {
  const refs = new Set<string>()
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk)
    else if (node !== null && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string") refs.add(refName(value))
        else walk(value)
      }
    }
  }
  walk(schema)
  return refs.size === 0
    ? `<code>${escape(JSON.stringify(schema))}</code>`
    : Array.from(refs, (name) => `<a href="#${anchor(name)}"><code>${escape(name)}</code></a>`).join(" or ")
}

const jsonSchemaOf = (content: unknown): unknown =>
  (content as { "application/json"?: { schema?: unknown } } | undefined)?.["application/json"]?.schema

/** Renders the docs page of an OpenAPI document. */
export const render = (spec: OpenApi.OpenAPISpec): string => {
  const operations: Array<string> = []
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, OpenApi.OpenAPISpecOperation>)) {
      if (typeof operation !== "object" || operation === null || !("responses" in operation)) continue
      const secured = (operation.security ?? spec.security ?? []).length > 0
      const body = jsonSchemaOf(operation.requestBody?.content)
      const responses = Object.entries(operation.responses)
        .map(
          ([status, response]) =>
            `<tr><td>${escape(status)}</td><td>${escape(response.description ?? "")}</td><td>${
              jsonSchemaOf(response.content) === undefined ? "" : schemaLinks(jsonSchemaOf(response.content))
            }</td></tr>`
        )
        .join("")
      operations.push(`<section class="op">
<h3><span class="method">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code></h3>
<p>${escape(operation.summary ?? operation.description ?? "")}</p>
<p class="auth">${secured ? "Needs <code>Authorization: Bearer &lt;token&gt;</code>" : "No token needed"}</p>
${body === undefined ? "" : `<p>Request body (JSON): ${schemaLinks(body)}</p>`}
<table><thead><tr><th>Status</th><th>Meaning</th><th>Body</th></tr></thead><tbody>${responses}</tbody></table>
</section>`)
    }
  }
  const schemas = Object.entries(spec.components.schemas)
    .map(
      ([name, schema]) =>
        `<details id="${anchor(name)}"><summary><code>${escape(name)}</code></summary><pre>${escape(
          JSON.stringify(schema, null, 2)
        )}</pre></details>`
    )
    .join("\n")
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(spec.info.title)} API</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
code,pre{font:13px ui-monospace,monospace}pre{background:#f5f5f7;padding:.75rem;overflow:auto}
.op{border-top:1px solid #ddd;padding:.5rem 0}.method{background:#1d1d1f;color:#fff;padding:0 .4rem;border-radius:3px}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
.auth{color:#555}
</style>
</head>
<body>
<h1>${escape(spec.info.title)} <small>${escape(spec.info.version)}</small></h1>
<p>${escape(spec.info.description ?? "")}</p>
<p>Machine-readable: <a href="openapi.json"><code>openapi.json</code></a>. Errors are the websearch errors
(<code>_tag</code>, <code>reason</code>, <code>message</code>, <code>retryable</code>, <code>retryAfter</code>);
a 429 carries <code>Retry-After</code>, a 401 carries <code>WWW-Authenticate: Bearer</code>.</p>
<h2>Operations</h2>
${operations.join("\n")}
<h2>Schemas</h2>
${schemas}
</body>
</html>
`
}
