/**
 * Counts failures per key (a client IP) in a sliding window, in memory. One server instance's view: a client
 * spreading attempts over several instances gets more tries, but every account still locks after 5 failures
 * (that count is in the database), which is the protection that matters. See docs/decisions/0008.
 */
export class FailureThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** True when the key has used up its failures in the window. */
  blocked(key: string, now = Date.now()): boolean {
    return this.recent(key, now).length >= this.max;
  }

  fail(key: string, now = Date.now()): void {
    const list = this.recent(key, now);
    list.push(now);
    this.failures.set(key, list);
    if (this.failures.size > 50_000) this.prune(now);
  }

  private prune(now: number): void {
    for (const key of [...this.failures.keys()]) this.recent(key, now);
  }
}
