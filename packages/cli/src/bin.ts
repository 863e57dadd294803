/**
 * The process entry of `websearch`: runs the command line with the process streams and sets the exit code.
 * Ctrl-C interrupts in-flight provider calls; what was already received is printed, then it exits 130.
 *
 * @since 0.1.0
 */
import { readFileSync } from "node:fs"
import * as HiddenInput from "./internal/hiddenInput.js"
import * as QuickAnswer from "./internal/quickAnswer.js"

const argv = process.argv.slice(2)
const quick = QuickAnswer.answer(argv)
if (quick !== undefined) {
  process.stdout.write(quick.stdout)
  process.exitCode = quick.code
} else if (!(await commandHelp())) {
  await runCommand()
}

// A command's help needs the command tree only, not the capabilities: answered without loading them.
async function commandHelp(): Promise<boolean> {
  if (!argv.includes("--help") && !argv.includes("-h") && argv[0] !== "help") return false
  const [Cli, Terminal] = await Promise.all([import("./internal/cli.js"), import("./internal/terminal.js")])
  const parsed = Cli.parse(argv)
  if (parsed._tag === "Left" || parsed.right._tag !== "Help") return false
  const look = Terminal.look({ isTTY: process.stdout.isTTY, columns: process.stdout.columns }, process.env)
  process.stdout.write(Cli.helpOutput(parsed.right, look.colour))
  return true
}

async function runCommand() {
  const controller = new AbortController()
  process.once("SIGINT", () => controller.abort())
  // Everything else (the command tree, Effect, the providers on first use) is loaded only for a real command.
  const [Effect, Main] = await Promise.all([import("effect/Effect"), import("./Main.js")])

  await Effect.runPromise(
    Main.run(
      process.argv.slice(2),
      {
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
        env: process.env,
        // Read only when an input is `-`.
        stdin: () => readFileSync(0, "utf8"),
        stdinIsTTY: process.stdin.isTTY,
        stdinSecret: process.stdin.isTTY
          ? (prompt) => HiddenInput.read(process.stdin, (text) => process.stderr.write(text), prompt)
          : undefined,
        stdoutIsTTY: process.stdout.isTTY,
        stderrIsTTY: process.stderr.isTTY,
        columns: process.stdout.columns
      },
      { signal: controller.signal }
    )
  ).then((code) => {
    process.exitCode = code
    process.removeAllListeners("SIGINT")
  })
}
