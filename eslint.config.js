import tseslint from "typescript-eslint"

// ARCHITECTURE.md, "Rules": runtime internals library code may not use (they have no Effect 4 equivalent).
const runtimeInternals = [
  {
    selector: "MemberExpression[property.name='unsafeMap']",
    message: "ARCHITECTURE.md: no context probing (`unsafeMap`); pass the service, or read it with Effect.serviceOption"
  },
  {
    selector: "MemberExpression[object.name='FiberRef'][property.name=/^unsafe/]",
    message: "ARCHITECTURE.md: no `FiberRef.unsafe*`; build the FiberRef in a layer (FiberRef.make) or use a service"
  },
  {
    selector: "MemberExpression[property.name=/^(unsafeAddObserver|addObserver)$/]",
    message: "ARCHITECTURE.md: no fiber observers; use Effect.timeout*, Effect.onExit or Fiber.await"
  },
  {
    // An asynchronous run in a callback loses the application's tracer, logger and config provider; a
    // synchronous run of a pure effect (the CLI parsing its command line) has none to lose.
    selector: "MemberExpression[object.name='Effect'][property.name=/^run(Promise|PromiseExit|Fork|Callback)$/]",
    message:
      "ARCHITECTURE.md: no run on the default runtime in library code; capture Effect.runtime() and use Runtime.run*"
  }
]

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/build/**",
      "**/dist/**",
      ".tsbuild/**",
      ".cache/**",
      "docs/**",
      "packages/*/docs/**"
    ]
  },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-namespace": "off",
      "@typescript-eslint/no-empty-object-type": "off",
      "no-console": "error"
    }
  },
  {
    files: [
      "packages/cli/src/**/*.ts",
      "bench/**/*.ts",
      "test-support/**/*.ts",
      "**/test/**/*.ts",
      "test-consumer/**/*.ts"
    ],
    rules: { "no-console": "off" }
  },
  // ARCHITECTURE.md, "Rules": what each package may import, and the runtime internals library code may not use.
  ...Object.entries({
    core: [],
    extract: ["core"],
    providers: ["core"],
    node: ["core", "extract"],
    ai: ["core"],
    server: ["core"],
    cli: ["core", "extract", "node", "providers", "ai", "server"]
  }).map(([pkg, allowed]) => ({
    files: [`packages/${pkg}/src/**/*.ts`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^@websearch/(?!(?:${[pkg, ...allowed].join("|")})(?:/|$))`,
              message: `ARCHITECTURE.md: @websearch/${pkg} may import ${allowed.length === 0 ? "no other websearch package" : allowed.map((a) => `@websearch/${a}`).join(", ")}`
            }
          ]
        }
      ]
    }
  })),
  {
    files: ["packages/*/src/**/*.ts"],
    rules: {
      "no-restricted-syntax": ["error", ...runtimeInternals],
      "max-lines": ["error", { max: 450 }]
    }
  },
  {
    // The server keeps its own contract: a body is decoded by the endpoint's declared payload (the handlers'
    // `payloads` table, typed from the endpoint) and an answer encoded by its declared success schema.
    files: ["packages/server/src/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...runtimeInternals,
        {
          // The handler (the call's function argument), not the call: a chain's callee holds the earlier handlers.
          selector:
            "CallExpression[callee.property.name='handleRaw'] > :function:not(:has(MemberExpression[object.name='payloads']))",
          message:
            "ARCHITECTURE.md: a handleRaw handler decodes its body with its endpoint's payload (payloads.<endpoint>)"
        },
        {
          selector: "MemberExpression[object.name='HttpServerResponse'][property.name='unsafeJson']",
          message: "ARCHITECTURE.md: answer with a value the endpoint's success schema encodes, not unsafeJson"
        }
      ]
    }
  },
  {
    // Paths outside the API have no endpoint, hence no schema: their 404/405 is written directly.
    files: ["packages/server/src/internal/routeNotFound.ts"],
    rules: { "no-restricted-syntax": ["error", ...runtimeInternals] }
  },
  {
    // The process's entry point runs the program on the default runtime: there is no application runtime above it.
    files: ["packages/cli/src/bin.ts"],
    rules: { "no-restricted-syntax": "off" }
  },
  {
    // Generated barrels (`npm run codegen`) list every module of a package.
    files: ["packages/*/src/index.ts"],
    rules: { "max-lines": "off" }
  }
)
