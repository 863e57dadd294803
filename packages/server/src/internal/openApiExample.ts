/**
 * One example body per request, shown by the docs page (and its "try it" client) and by code generators.
 */

/** An `OpenApi.Transform` that sets the operation's request-body example. */
export const withExample =
  (summary: string, value: unknown) =>
  (operation: Record<string, unknown>): Record<string, unknown> => {
    const content = (operation.requestBody as { content?: Record<string, Record<string, unknown>> } | undefined)
      ?.content?.["application/json"]
    if (content !== undefined) content.examples = { example: { summary, value } }
    return operation
  }
