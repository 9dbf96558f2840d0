/** Statistics of the benchmark's rounds (bench/http.ts), apart so that they can be tested. */

/** The median; NaN for no values. */
export function median(values: number[]): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * A distribution-free 95% confidence interval for the median of `values` (order statistics, binomial ranks):
 * [x(j), x(n+1-j)] for the largest j whose coverage is still >= 95%; with fewer than 6 values, [min, max]
 * (94% for 5, 88% for 4).
 */
export function medianInterval(values: number[]): [number, number] | [] {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (!n) return [];
  // [x(j), x(n+1-j)] holds the median with probability 1 - 2 P(X <= j - 1), X ~ Binomial(n, 1/2).
  let j = 1;
  let below = 1 / 2 ** n; // P(X <= j - 1)
  let coefficient = 1; // C(n, j - 1)
  while (j < Math.ceil(n / 2)) {
    coefficient = (coefficient * (n - j + 1)) / j;
    const next = below + coefficient / 2 ** n;
    if (1 - 2 * next < 0.95) break;
    below = next;
    j++;
  }
  return [sorted[j - 1]!, sorted[n - j]!];
}
