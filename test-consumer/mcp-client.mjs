// Drives the installed `websearch mcp` over stdio with the official MCP SDK client (installed into the consumer
// project): lists the tools, reads a loopback page through web_fetch and crawls it (one page) through web_crawl.
// Prints one JSON line; run.mjs checks it.
//
//   node mcp-client.mjs http://127.0.0.1:PORT/page /path/to/@websearch/cli/bin/websearch.js
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"

const pageUrl = process.argv[2]
const bin = process.argv[3]
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [bin, "mcp", "--allow-host", "127.0.0.1"],
  env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
  stderr: "pipe"
})
const client = new Client({ name: "websearch-consumer", version: "1.0.0" })
const slow = { timeout: 120_000 }
await client.connect(transport, slow)
const { tools } = await client.listTools(undefined, slow)
const read = await client.callTool({ name: "web_fetch", arguments: { items: [{ url: pageUrl }] } }, undefined, slow)
const crawl = await client.callTool({ name: "web_crawl", arguments: { url: pageUrl, maxPages: 1 } }, undefined, slow)
await client.close()
process.stdout.write(
  `${JSON.stringify({
    tools: tools.map((t) => t.name),
    isError: read.isError,
    structuredContent: read.structuredContent,
    text: read.content?.[0]?.text,
    crawl: { isError: crawl.isError, structuredContent: crawl.structuredContent, text: crawl.content?.[0]?.text }
  })}\n`
)
