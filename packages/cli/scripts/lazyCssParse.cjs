// linkedom imports cssomnom's CSS parser for one getter, a <style> element's `sheet`, which nothing the CLI runs
// reads (the extractor looks at elements and their attributes). Required here on that first read, the parser is
// still in the bundle but no longer evaluated at every start (about 5 MiB of heap); the getter works as before.
// scripts/bundle.mjs routes linkedom's `cssomnom/parse` import to this file.
"use strict"

// A require, not an import: esbuild then evaluates the required module on that call instead of at load.
// eslint-disable-next-line @typescript-eslint/no-require-imports
exports.parse = (text) => require("cssomnom/parse").parse(text)
