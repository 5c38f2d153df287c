/**
 * Restart delays for a process that keeps dying: 1 s, 2 s, 4 s … up to 30 s; a process that ran
 * for a minute before it died starts again from 1 s.
 */
export class Backoff {
  private failures = 0;
  private startedAt = 0;

  constructor(
    private readonly firstMs = 1_000,
    private readonly maxMs = 30_000,
    private readonly healthyAfterMs = 60_000,
  ) {}

  started(now = Date.now()): void {
    this.startedAt = now;
  }

  /** The wait before the next start, after a process started with `started()` stopped. */
  next(now = Date.now()): number {
    if (now - this.startedAt >= this.healthyAfterMs) this.failures = 0;
    const delay = Math.min(this.maxMs, this.firstMs * 2 ** this.failures);
    this.failures += 1;
    return delay;
  }
}
