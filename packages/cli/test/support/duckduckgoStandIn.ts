/**
 * A stand-in for DuckDuckGo's HTML endpoint (`DUCKDUCKGO_API_HOST` pointed at a local server): it answers the
 * recorded fixture page for the posted keyword, each keyword's result URLs under a host named for it, so a search's
 * de-duplication across keywords keeps every group.
 */
import { readFileSync } from "node:fs"
import type { IncomingMessage, ServerResponse } from "node:http"

const page = readFileSync(new URL("../../../providers/test/fixtures/duckduckgo.html", import.meta.url), "utf8")

/** Whether the request is DuckDuckGo's (`/html/`); when it is, it is answered and its keyword given to `onKeyword`. */
export const answer = (
  request: IncomingMessage,
  response: ServerResponse,
  onKeyword: (keyword: string) => void = () => undefined
): boolean => {
  if (!(request.url ?? "").startsWith("/html/")) return false
  let body = ""
  request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk))
  request.on("end", () => {
    const keyword = new URLSearchParams(body).get("q") ?? "x"
    onKeyword(keyword)
    response
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end(page.replaceAll('href="https://', `href="https://${keyword}.`))
  })
  return true
}
