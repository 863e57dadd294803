/**
 * The cost of a run in milliseconds: the best of three, so that a pause of the machine's (a collection, another
 * process) does not count. The hostile-cost tests compare two such costs, never one against a clock figure.
 */
export const cost = (run: () => unknown): number => {
  let best = Number.POSITIVE_INFINITY
  for (let i = 0; i < 3; i++) {
    const start = performance.now()
    run()
    best = Math.min(best, performance.now() - start)
  }
  return best
}
