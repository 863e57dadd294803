import { describe, expect, it } from "@effect/vitest"
import * as esbuild from "esbuild"
// @ts-expect-error: a plain JavaScript build script, without declarations
import * as Bundle from "../scripts/bundle.mjs"

// What each command loads is part of its cold start: this builds the bundle as `prepack` does (in memory) and reads
// which modules every chunk of a command's path brings in statically, before anything it loads on first use.

interface Output {
  readonly entryPoint?: string
  readonly imports: ReadonlyArray<{ readonly path: string; readonly kind: string }>
  readonly inputs: Record<string, unknown>
}

let metafile: Promise<esbuild.Metafile> | undefined
// Built once for the file; the metafile's names are only compared with each other.
const meta = (): Promise<esbuild.Metafile> =>
  (metafile ??= esbuild
    .build({
      ...(Bundle as { options: () => esbuild.BuildOptions }).options(),
      write: false,
      metafile: true,
      logLevel: "silent"
    })
    .then((result) => result.metafile))

const built = async (): Promise<Record<string, Output>> => (await meta()).outputs as Record<string, Output>

/** The modules an entry point loads before its code runs: its chunk and every chunk it imports statically. */
const statically = (outputs: Record<string, Output>, entry: string): ReadonlyArray<string> => {
  const root = Object.keys(outputs).find((name) => outputs[name].entryPoint?.endsWith(entry) === true)
  expect(root, `no chunk starts at ${entry}`).toBeDefined()
  const seen = new Set<string>()
  const visit = (name: string) => {
    if (seen.has(name)) return
    seen.add(name)
    for (const imported of outputs[name].imports) {
      if (imported.kind === "import-statement" && outputs[imported.path] !== undefined) visit(imported.path)
    }
  }
  visit(root!)
  return [...seen].flatMap((name) => Object.keys(outputs[name].inputs))
}

const from = (modules: ReadonlyArray<string>, pattern: RegExp) => modules.filter((module) => pattern.test(module))

// The DOM, the article reader, PDF.js and the browser driver: the extractor's, loaded on the first extraction.
const extractor = /node_modules\/(linkedom|htmlparser2|cssomnom|@mozilla\/readability|pdfjs-dist|playwright-core)\//
// The HTTP and MCP servers and their transports.
const servers = /node_modules\/(ws|mime|find-my-way-ts|@effect\/ai|@effect\/rpc)\/|packages\/(server|ai)\/src\//

describe("what the bundled CLI loads for a command", { timeout: 120_000 }, () => {
  it("--help, --version and usage errors load the entry alone, no dependency", async () => {
    expect(from(statically(await built(), "src/bin.ts"), /node_modules\//)).toEqual([])
  })

  it("a command loads its runner without the extractor, the providers or the servers", async () => {
    const modules = statically(await built(), "src/Main.ts")
    expect(from(modules, extractor)).toEqual([])
    expect(from(modules, servers)).toEqual([])
    expect(from(modules, /packages\/providers\/src\/|node_modules\/undici\//)).toEqual([])
  })

  it("composing the providers loads no DOM (DuckDuckGo's page reader comes with its first search)", async () => {
    const all = await built()
    const providers = statically(all, "providers/src/Providers.ts")
    expect(from(providers, /packages\/providers\/src\/DuckDuckGo\.ts$/)).toHaveLength(1)
    expect(from(providers, extractor)).toEqual([])
    expect(from(statically(all, "providers/src/internal/duckDuckGoPage.ts"), /node_modules\/linkedom\//)).not.toEqual([])
  })

  it("the local fetcher loads its transport, not the extractor, until its first page", async () => {
    const modules = statically(await built(), "node/src/Fetch.ts")
    expect(from(modules, /packages\/node\/src\/SafeTransport\.ts$/)).toHaveLength(1)
    expect(from(modules, extractor)).toEqual([])
  })

  it("undici comes as its dispatchers only: none of its fetch, WebSocket, cache or mocks", async () => {
    const everything = Object.values(await built()).flatMap((output) => Object.keys(output.inputs))
    expect(from(everything, /node_modules\/undici\/lib\/dispatcher\/agent\.js$/)).toHaveLength(1)
    expect(
      from(everything, /node_modules\/undici\/(index\.js|lib\/(mock|cache|web\/websocket|web\/eventsource)\/)/)
    ).toEqual([])
  })

  it("linkedom's CSS parser (cssomnom) is required on first use, never imported at load", async () => {
    const { inputs } = await meta()
    const importers = Object.entries(inputs).flatMap(([name, input]) =>
      input.imports
        .filter((imported) => /node_modules\/cssomnom\//.test(imported.path))
        .map((imported) => ({ name, kind: imported.kind }))
    )
    expect(importers.map((importer) => importer.name.split("/").pop())).toContain("lazyCssParse.cjs")
    expect(importers.filter((importer) => !/node_modules\/cssomnom\//.test(importer.name))).toEqual([
      { name: expect.stringMatching(/scripts\/lazyCssParse\.cjs$/), kind: "require-call" }
    ])
  })
})
