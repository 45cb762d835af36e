/** Colour of a usage percentage: red above 90%, yellow above 70%, else green. */
export function usageTone(percent: number): 'red' | 'yellow' | 'green' {
  if (percent > 90) return 'red';
  if (percent > 70) return 'yellow';
  return 'green';
}

/** Percentage of a plan limit used; null when the limit is -1 (unlimited) or not positive. */
export function usagePercent(used: number, limit: number): number | null {
  if (limit === -1 || limit <= 0) return null;
  return Math.min(100, (used / limit) * 100);
}
