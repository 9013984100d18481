/** Order statistics of repeated measurements (nearest-rank quantiles). */
export interface Spread {
  median: number;
  min: number;
  max: number;
  p95: number;
  n: number;
}

export function quantile(values: readonly number[], q: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function spread(values: readonly number[]): Spread {
  return {
    median: quantile(values, 0.5),
    min: Math.min(...values),
    max: Math.max(...values),
    p95: quantile(values, 0.95),
    n: values.length,
  };
}
