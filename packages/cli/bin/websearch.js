#!/usr/bin/env node
// Starts the CLI from its prebuilt bundle (a few files instead of several hundred modules keeps the cold start
// low). It only reads dist: an installed package never builds anything. Inside the workspace, `npm run websearch`
// (scripts/dev.mjs) and the CLI's tests rebuild the bundle first when sources are newer.
import * as Module from "node:module"

// Node 22.1+ keeps the code it compiles in a cache on disk (under the system's temporary directory, or
// NODE_COMPILE_CACHE), so every later start skips compiling the bundle again; NODE_DISABLE_COMPILE_CACHE=1 turns it
// off. Node 20 has no such cache. It must be on before the bundle loads, hence the dynamic import. The extraction
// worker threads read the directory from the environment.
const cache = Module.enableCompileCache?.()
if (cache?.directory !== undefined) process.env.NODE_COMPILE_CACHE = cache.directory
await import("../dist/websearch.mjs")
