import quantile from '@stdlib/stats-base-dists-t-quantile';

/** A figure over repeated runs: its mean and the 95 % confidence interval of that mean. */
export interface Interval {
  mean: number;
  /** Bounds of the 95 % interval (Student's t over the runs); ±Infinity from a single run. */
  lo: number;
  hi: number;
  n: number;
}

/**
 * The mean of `values` with its 95 % confidence interval: mean ± t(0.975, n−1) · s/√n, s the
 * sample standard deviation. One value gives an unbounded interval: one run says nothing
 * about how much a figure varies.
 */
export function meanInterval(values: readonly number[]): Interval {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, lo: Number.NaN, hi: Number.NaN, n };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { mean, lo: Number.NEGATIVE_INFINITY, hi: Number.POSITIVE_INFINITY, n };
  const variance = values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1);
  const half = quantile(0.975, n - 1) * Math.sqrt(variance / n);
  return { mean, lo: mean - half, hi: mean + half, n };
}

/** `1.23 [0.98, 1.48]`, or `1.23 [n=1]` when there is no interval. */
export function showInterval(i: Interval, digits = 2): string {
  if (!Number.isFinite(i.hi)) return `${i.mean.toFixed(digits)} [n=${i.n}]`;
  return `${i.mean.toFixed(digits)} [${i.lo.toFixed(digits)}, ${i.hi.toFixed(digits)}]`;
}
