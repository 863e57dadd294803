/**
 * The content hard cap, in one dependency-free place: `ContentBudget` enforces it and `Paging` pages by it, and
 * `WebSearchRequest` reads `Paging` without pulling in the budget's composition imports (which would make a cycle).
 */

/** Most characters (UTF-16 code units) of content one response may carry in total. */
export const hardCapChars = 200_000
