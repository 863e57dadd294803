/**
 * Where a command's output goes: the binary passes the process streams, tests and embedders capture them. Its own
 * module so that the commands `Main` loads on demand (`Mcp`, `Serve`) take it without importing `Main` back.
 *
 * @since 0.2.0
 */

/**
 * The streams and environment of one command line.
 *
 * @since 0.2.0
 * @category models
 */
export interface Io {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  /** Environment variables, for the settings file named by `WEBSEARCH_CONFIG`. */
  readonly env: Readonly<Record<string, string | undefined>>
  /** All of standard input, read when an input is `-` (none: `-` is refused). */
  readonly stdin?: (() => string) | undefined
  /** Whether standard input is a terminal (`providers set-key` then says what it waits for). */
  readonly stdinIsTTY?: boolean | undefined
  /**
   * Standard input read as a secret when it is a terminal: `prompt` shown, then what is typed read without
   * echoing it (`providers set-key`), until Ctrl-D. When absent, `stdin` is read, and a terminal echoes the key.
   */
  readonly stdinSecret?: ((prompt: string) => SecretInput) | undefined
  /** Whether stdout and stderr are terminals, and stdout's width: colour and wrapping follow them. */
  readonly stdoutIsTTY?: boolean | undefined
  readonly stderrIsTTY?: boolean | undefined
  readonly columns?: number | undefined
}

/**
 * What a user gave at a secret prompt: the text (lines joined by `\n`), Ctrl-C, or a terminal that could not be
 * read (its message).
 *
 * @since 0.2.0
 * @category models
 */
export type SecretInput =
  | { readonly _tag: "Text"; readonly text: string }
  | { readonly _tag: "Interrupted" }
  | { readonly _tag: "Failed"; readonly message: string }
