/**
 * The completion scripts `@effect/cli` generates, kept to the options websearch accepts: it adds `--completions`,
 * `--log-level` and `--wizard` to every command, which websearch refuses (it never prompts, and logs with
 * `--verbose`).
 */
const refusedBuiltIns = ["completions", "log-level", "wizard"]

/** A generated completion script, as lines, without the built-in options the command line refuses. */
export const accepted = (shell: "bash" | "fish" | "zsh", lines: ReadonlyArray<string>): Array<string> => {
  switch (shell) {
    case "bash": {
      // Each command's options are one `opts="..."` line of words.
      const refused = new Set(refusedBuiltIns.map((name) => `--${name}`))
      return lines.map((line) =>
        line.trimStart().startsWith('opts="')
          ? line.replace(
              /"([^"]*)"/,
              (_, words: string) =>
                `"${words
                  .split(" ")
                  .filter((w) => !refused.has(w))
                  .join(" ")}"`
            )
          : line
      )
    }
    case "zsh":
      // One `'--name[description]...' \` line per option.
      return lines.filter((line) => !refusedBuiltIns.some((name) => line.trimStart().startsWith(`'--${name}[`)))
    case "fish":
      // One `complete -c websearch ... -l name ...` line per option.
      return lines.filter((line) => !refusedBuiltIns.some((name) => line.includes(` -l ${name} `)))
  }
}
