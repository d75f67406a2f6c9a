/** Percentile of a sample, nearest-rank. */
export function percentile(sample: readonly number[], p: number): number {
  if (sample.length === 0) return Number.NaN;
  const sorted = [...sample].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const median = (sample: readonly number[]) => percentile(sample, 50);

/**
 * The mean of a sample and the half-width of its 95 % confidence interval (normal approximation, fine
 * from a few hundred values on).
 */
export function meanWithInterval(sample: readonly number[]): { mean: number; halfWidth: number } {
  const n = sample.length;
  const mean = sample.reduce((a, b) => a + b, 0) / n;
  const variance = sample.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  return { mean, halfWidth: 1.96 * Math.sqrt(variance / n) };
}

export const ms = (n: number) => `${n.toFixed(3)} ms`;
