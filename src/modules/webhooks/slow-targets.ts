// The slow lane. A batch handler holds its worker slot until its slowest attempt ends, so a target
// that answers slowly (or not at all, until timeoutSeconds) would, one job in each batch, hold
// every slot the healthy targets need. A target with an attempt in flight for more than SLOW_MS
// is therefore marked slow in this instance for SLOW_FOR_MS (renewed by each slow attempt, ended
// by a fast one): its jobs fetched from the main queue are moved, without an attempt, to the queue
// webhooks.deliver-slow, whose own few slots are all it can hold. The mark is this instance's
// own knowledge: another instance learns it from its own attempts.
import type { TargetKey } from './webhooks.sql.ts';

export const SLOW_MS = 2000;
const SLOW_FOR_MS = 5 * 60_000;
/** bound on remembered targets (oldest forgotten first) */
const MAX_TARGETS = 10_000;

const keyOf = (target: TargetKey) => `${target.teamId}\n${target.origin}`;

export class SlowTargets {
  private readonly until = new Map<string, number>();

  isSlow(target: TargetKey, now = Date.now()): boolean {
    const until = this.until.get(keyOf(target));
    if (until === undefined) return false;
    if (until > now) return true;
    this.until.delete(keyOf(target));
    return false;
  }

  markSlow(target: TargetKey, now = Date.now()): void {
    const key = keyOf(target);
    this.until.delete(key);
    this.until.set(key, now + SLOW_FOR_MS);
    if (this.until.size > MAX_TARGETS) this.until.delete(this.until.keys().next().value!);
  }

  markFast(target: TargetKey): void {
    this.until.delete(keyOf(target));
  }

  /**
   * Marks the target slow if `attempt` is still running after SLOW_MS, and fast if it ends sooner;
   * resolves with the attempt.
   */
  watch<T>(target: TargetKey | null, attempt: Promise<T>): Promise<T> {
    if (!target) return attempt;
    const timer = setTimeout(() => this.markSlow(target), SLOW_MS);
    const started = Date.now();
    return attempt.finally(() => {
      clearTimeout(timer);
      if (Date.now() - started < SLOW_MS) this.markFast(target);
    });
  }
}

/** one per process: every batch of both lanes reads and updates it */
export const slowTargets = new SlowTargets();
