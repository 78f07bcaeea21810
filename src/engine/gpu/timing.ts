/** The median of timing samples (the upper middle one for an even count): robust to a slow outlier. */
export function median(xs: readonly number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}
