import tseslint from "typescript-eslint"

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
  }
)
