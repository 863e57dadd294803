import type { TestProjectInlineConfiguration } from "vitest/config"

/**
 * The package projects that `vitest run` executes. Every project installs the loopback guard first, so a
 * regression that tries to reach the internet fails the test instead of sending a packet.
 */
const project = (name: string): TestProjectInlineConfiguration => ({
  test: {
    name,
    root: `packages/${name}`,
    include: ["test/**/*.test.ts"],
    setupFiles: ["../../test-support/loopbackGuard.js"],
    testTimeout: 30_000
  }
})

export default ["core", "extract", "node", "providers", "ai", "server", "cli"].map(project)
