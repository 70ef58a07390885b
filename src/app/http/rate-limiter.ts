// Token-bucket rate limiting per key (credential, or client address when anonymous).
// In memory per instance: N instances allow up to N times the limit; documented in docs/api/conventions.md.
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();
  private readonly refillPerMs: number;
  private readonly burst: number;

  constructor(perMinute: number, burst = perMinute) {
    this.burst = burst;
    this.refillPerMs = perMinute / 60_000;
  }

  /** Takes one token; returns 0 when allowed, otherwise the seconds to wait. */
  take(key: string, now = Date.now()): number {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size > 100_000) this.sweep(now);
      bucket = { tokens: this.burst, updatedAt: now };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs);
    bucket.updatedAt = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.refillPerMs / 1000));
  }

  /** Seconds until a token is available, without taking one (0: not limited). */
  wait(key: string, now = Date.now()): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return 0;
    const tokens = Math.min(this.burst, bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs);
    return tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / this.refillPerMs / 1000));
  }

  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.updatedAt > 60_000) this.buckets.delete(key);
    }
  }
}
