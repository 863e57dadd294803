/**
 * The process entry of `websearch`: runs the command line with the process streams and sets the exit code.
 * Ctrl-C interrupts in-flight provider calls and reports `Aborted`.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Main from "./Main.js"

const controller = new AbortController()
process.once("SIGINT", () => controller.abort())

Effect.runPromise(
  Main.run(
    process.argv.slice(2),
    {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      env: process.env
    },
    { signal: controller.signal }
  )
).then((code) => {
  process.exitCode = code
  process.removeAllListeners("SIGINT")
})
