import type { TestProjectInlineConfiguration } from "vitest/config"

// Listed before Vite's own defaults (which setting `conditions` replaces): tests run in Vite's server environment.
const conditions = ["@websearch/source", "module", "node", "development|production"]

/**
 * The package projects that `vitest run` executes. Every project installs the loopback guard first, so a
 * regression that tries to reach the internet fails the test instead of sending a packet. Workspace packages
 * resolve to their sources through the `@websearch/source` export condition, so tests need no build; the CLI's
 * tests spawn its bin, which only loads the bundle, so that project rebuilds a stale bundle first.
 */
const project = (name: string): TestProjectInlineConfiguration => ({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name,
    root: `packages/${name}`,
    include: ["test/**/*.test.ts"],
    setupFiles: ["../../test-support/loopbackGuard.js"],
    testTimeout: 30_000,
    ...(name === "cli" ? { globalSetup: ["./scripts/bundle.mjs"] } : {})
  }
})

export default ["core", "extract", "node", "providers", "ai", "server", "cli"].map(project)
