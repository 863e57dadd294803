// The cold-start baseline of `websearch mcp` (bench/cli.ts): an MCP server over stdio written with the official SDK,
// listing three tools of the same names with small input schemas, started as a plain script (no bundle). It answers
// `initialize` and `tools/list` and exits when its standard input ends.
//
//   node bench/support/plainMcp.mjs
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { z } from "zod"

const server = new McpServer({ name: "plain", version: "0.0.0" })
const text = (value) => ({ content: [{ type: "text", text: JSON.stringify(value) }] })
server.registerTool(
  "web_search",
  {
    description: "Search the web.",
    inputSchema: { keywords: z.array(z.string().max(1000)).min(1).max(20), maxResults: z.number().int().optional() }
  },
  async (input) => text(input)
)
server.registerTool(
  "web_fetch",
  {
    description: "Read web pages.",
    inputSchema: { urls: z.array(z.string()).min(1).max(20), maxLength: z.number().int().optional() }
  },
  async (input) => text(input)
)
server.registerTool(
  "web_research",
  { description: "Research a question.", inputSchema: { query: z.string().max(1000) } },
  async (input) => text(input)
)
const transport = new StdioServerTransport()
process.stdin.on("end", () => void server.close())
await server.connect(transport)
