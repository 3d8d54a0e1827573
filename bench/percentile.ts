/** The p-th percentile of ascending `sorted` by nearest rank (NaN when empty): the figures every bench prints. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number) : NaN;
