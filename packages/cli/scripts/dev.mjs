// `npm run websearch` inside the workspace: rebuilds the bundle when it is missing or older than any workspace
// source, then starts the command exactly as the installed bin does. Not shipped (package.json `files`).
import { bundleIfStale } from "./bundle.mjs"

await bundleIfStale()
await import("../bin/websearch.js")
