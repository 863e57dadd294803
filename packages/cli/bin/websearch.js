#!/usr/bin/env node
// Starts the CLI from its one-file bundle (fast cold start). The bundle is rebuilt first when it is missing or
// older than any workspace source file, so the command works right after `npm ci` and after every edit.
import { readdirSync, statSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"

const here = fileURLToPath(new URL("..", import.meta.url))
const bundlePath = `${here}dist/websearch.mjs`
const packagesDir = fileURLToPath(new URL("../..", import.meta.url))

const newestSource = () => {
  let newest = 0
  const walk = (dir) => {
    let entries
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      const path = `${dir}/${entry.name}`
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs)
    }
  }
  for (const pkg of readdirSync(packagesDir)) {
    walk(`${packagesDir}${pkg}/src`)
    try {
      newest = Math.max(newest, statSync(`${packagesDir}${pkg}/package.json`).mtimeMs)
    } catch {
      // not a package folder
    }
  }
  return newest
}

const bundleTime = () => {
  try {
    return statSync(bundlePath).mtimeMs
  } catch {
    return -1
  }
}

if (bundleTime() < newestSource()) {
  const { bundle } = await import("../scripts/bundle.mjs")
  await bundle()
}
await import(pathToFileURL(bundlePath).href)
