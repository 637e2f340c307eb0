/** The Gini coefficient of non-negative values: 0 when all are equal, towards 1 when one holds all. */
export function gini(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const total = sorted.reduce((s, v) => s + v, 0);
  if (sorted.length === 0 || total === 0) return 0;
  const weighted = sorted.reduce((s, v, i) => s + (i + 1) * v, 0);
  return (2 * weighted) / (sorted.length * total) - (sorted.length + 1) / sorted.length;
}
