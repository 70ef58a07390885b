// Keeps checked credentials in memory so a warm request costs no database round trip.
// Correctness on revoke/rotate/role change: every such write invalidates the team (or user)
// here at once and, through PostgreSQL NOTIFY, in every other instance. A load that raced
// with an invalidation is not cached (generation check). TTL bounds staleness should a
// notification ever be missed; after a listener reconnect the whole cache is dropped.
import { LRUCache } from 'lru-cache';

export interface CacheTags {
  teamId?: bigint | null;
  userId?: bigint | null;
}

interface Entry<V> {
  value: V;
  teamId: string | null;
  userId: string | null;
}

export class CredentialCache<V extends object> {
  private readonly entries: LRUCache<string, Entry<V>>;
  private generationCounter = 0;

  constructor(options: { maxEntries?: number; ttlMs: number }) {
    this.entries = new LRUCache<string, Entry<V>>({
      max: options.maxEntries ?? 10_000,
      ttl: Math.max(options.ttlMs, 1),
      ttlAutopurge: false,
    });
    this.enabled = options.ttlMs > 0;
  }

  private readonly enabled: boolean;

  /** lookups answered from memory and lookups that were not (the hit-rate metric) */
  hits = 0;
  misses = 0;

  get(key: string): V | undefined {
    const value = this.entries.get(key)?.value;
    if (value) this.hits++;
    else this.misses++;
    return value;
  }

  generation(): number {
    return this.generationCounter;
  }

  /** Stores the value unless an invalidation happened since `generation` was read. */
  set(key: string, value: V, tags: CacheTags, generation: number): void {
    if (!this.enabled || generation !== this.generationCounter) return;
    this.entries.set(key, {
      value,
      teamId: tags.teamId == null ? null : String(tags.teamId),
      userId: tags.userId == null ? null : String(tags.userId),
    });
  }

  invalidate(tags: CacheTags): void {
    this.generationCounter++;
    const teamId = tags.teamId == null ? null : String(tags.teamId);
    const userId = tags.userId == null ? null : String(tags.userId);
    for (const [key, entry] of this.entries.entries()) {
      if ((teamId !== null && entry.teamId === teamId) || (userId !== null && entry.userId === userId)) {
        this.entries.delete(key);
      }
    }
  }

  clear(): void {
    this.generationCounter++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
