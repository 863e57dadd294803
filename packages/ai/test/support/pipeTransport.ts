/**
 * The client side of an in-process stdio pipe, framed as the MCP SDK's stdio transport frames it (one JSON-RPC
 * message per line), for the official client against `WebSearchMcp.layerStdio` on PassThrough streams.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import type { PassThrough } from "node:stream"

/** The client side of the pipe, as the SDK's stdio transport frames it. */
export class PipeTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void
  onclose?: () => void
  onerror?: (error: Error) => void
  private buffer = ""
  constructor(
    private readonly toServer: PassThrough,
    private readonly fromServer: PassThrough
  ) {}
  start(): Promise<void> {
    this.fromServer.on("data", (chunk: Buffer) => {
      this.buffer += chunk.toString()
      let end = this.buffer.indexOf("\n")
      while (end >= 0) {
        const line = this.buffer.slice(0, end).trim()
        this.buffer = this.buffer.slice(end + 1)
        if (line !== "") this.onmessage?.(JSON.parse(line) as JSONRPCMessage)
        end = this.buffer.indexOf("\n")
      }
    })
    return Promise.resolve()
  }
  send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(`${JSON.stringify(message)}\n`)
    return Promise.resolve()
  }
  close(): Promise<void> {
    this.toServer.end()
    this.onclose?.()
    return Promise.resolve()
  }
}
