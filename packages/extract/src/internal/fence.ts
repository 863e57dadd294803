/** Wraps text in a fenced code block whose fence is longer than any backtick run inside. */
export const fence = (text: string, language: string): string => {
  let longest = 0
  for (const run of text.match(/`{3,}/g) ?? []) longest = Math.max(longest, run.length)
  const marker = "`".repeat(Math.max(3, longest + 1))
  return `${marker}${language}\n${text}\n${marker}`
}
