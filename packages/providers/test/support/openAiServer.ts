/**
 * A local stand-in for OpenAI's Responses endpoint on 127.0.0.1: it records every request (method, path, headers,
 * JSON body), answers with a scripted handler, and records when the client closes a connection before the answer
 * finished. Streams are built from the recorded fixture (`fixtures/openai_responses_web_search.json`, a real
 * gpt-5-nano run captured by vercel/ai, trimmed by the fixture's authors) and variants derived from it.
 */
import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

// --- the fixture -------------------------------------------------------------------------------------------

type Json = Record<string, unknown>

const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/openai_responses_web_search.json", import.meta.url), "utf8")
) as { response: { events: Array<Json> } }

/** The report text of the recorded run: its one `output_text.delta` (the fixture kept a single delta). */
export const fixtureReport = fixture.response.events
  .filter((e) => e.type === "response.output_text.delta")
  .map((e) => e.delta as string)
  .join("")

// The fixture's authors replaced the full text in `.done` events by placeholders; put the streamed text back so
// the recorded run is self-consistent (done text = concatenated deltas, as on the wire).
const repair = (value: unknown): unknown => {
  if (typeof value === "string") {
    return value === "<full text>" || value.startsWith("<full concatenated text") ? fixtureReport : value
  }
  if (Array.isArray(value)) return value.map(repair)
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, repair(v)]))
  }
  return value
}

/** The recorded events, repaired; a fresh deep copy on every call so variants can mutate it. */
export const fixtureEvents = (): Array<Json> => repair(structuredClone(fixture.response.events)) as Array<Json>

/** Frames events as SSE: `event: <type>` + `data: <json>` + blank line. */
export const toSse = (events: ReadonlyArray<Json>, options?: { readonly eol?: string }): string => {
  const eol = options?.eol ?? "\n"
  return events.map((e) => `event: ${String(e.type)}${eol}data: ${JSON.stringify(e)}${eol}${eol}`).join("")
}

/** Rewrites every url_citation annotation, wherever it appears (annotation events and finished items). */
export const mapCitations = (events: Array<Json>, f: (annotation: Json) => Json | undefined): Array<Json> => {
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      return value.map((v) => (isCitation(v) ? f(v) : visit(v))).filter((v) => v !== undefined)
    }
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isCitation(v) ? f(v) : visit(v)]))
    }
    return value
  }
  return events
    .map((e) => visit(e) as Json)
    .filter((e) => !(e.type === "response.output_text.annotation.added" && e.annotation === undefined))
}

const isCitation = (v: unknown): v is Json => v !== null && typeof v === "object" && (v as Json).type === "url_citation"

/** Sets the text of the report everywhere it appears (deltas and finished items). */
export const withReport = (events: Array<Json>, text: string): Array<Json> =>
  events.map((e) => {
    const s = JSON.stringify(e)
    return JSON.parse(
      s.split(JSON.stringify(fixtureReport).slice(1, -1)).join(JSON.stringify(text).slice(1, -1))
    ) as Json
  })

// --- the server --------------------------------------------------------------------------------------------

/** One request as the server received it. */
export interface Recorded {
  readonly method: string
  readonly path: string
  readonly headers: IncomingMessage["headers"]
  readonly body: Json | undefined
}

/** A scripted answer. It may write and end the response, or write part of it and stall. */
export type Handler = (request: Recorded, res: ServerResponse) => void

/** The running server. */
export interface OpenAiServer {
  readonly url: string
  readonly requests: Array<Recorded>
  /** Resolves when the client closes a connection whose answer had not finished. */
  readonly clientClosed: () => Promise<void>
  handle: Handler
  readonly close: () => Promise<void>
}

/** Answers with a full SSE stream. */
export const sse =
  (body: string, options?: { readonly chunk?: number; readonly contentType?: string }): Handler =>
  (_, res) => {
    res.writeHead(200, { "content-type": options?.contentType ?? "text/event-stream; charset=utf-8" })
    const size = options?.chunk ?? body.length
    const bytes = Buffer.from(body, "utf8")
    const step = Math.max(1, size)
    // Odd chunk sizes split UTF-8 sequences and CRLF pairs between writes, as a real network does.
    for (let i = 0; i < bytes.length; i += step) res.write(bytes.subarray(i, i + step))
    res.end()
  }

/** Writes a prefix of the stream and then never ends it. */
export const stall =
  (prefix: string): Handler =>
  (_, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" })
    res.write(prefix)
  }

/** Answers with a status, headers and a JSON body. */
export const status =
  (code: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_, res) => {
    res.writeHead(code, { "content-type": "application/json", ...headers })
    res.end(typeof body === "string" ? body : JSON.stringify(body))
  }

/** Starts a server on 127.0.0.1 with an ephemeral port. */
export const start = async (handle: Handler = sse(toSse(fixtureEvents()))): Promise<OpenAiServer> => {
  const requests: Array<Recorded> = []
  let closes = 0
  const waiting: Array<() => void> = []
  const state: OpenAiServer = {
    url: "",
    requests,
    clientClosed: () => (closes > 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve))),
    handle,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8")
      let body: Json | undefined
      try {
        body = text === "" ? undefined : (JSON.parse(text) as Json)
      } catch {
        body = undefined
      }
      const recorded: Recorded = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body }
      requests.push(recorded)
      res.on("close", () => {
        if (!res.writableFinished) {
          closes++
          for (const wake of waiting.splice(0)) wake()
        }
      })
      state.handle(recorded, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const { port } = server.address() as AddressInfo
  return Object.assign(state, { url: `http://127.0.0.1:${port}` })
}
