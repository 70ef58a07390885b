// What a serving instance keeps in memory of rows that other instances may change: entries in
// groups (a team, a site), each group dropped when a NOTIFY on `channel` names it. Such a
// notification is sent on the commit of the change (by a trigger or in the writing transaction),
// so every instance hears of it. While the listening connection is down nothing is kept, since
// notifications would be missed; a read that raced with a change is not kept (generation check);
// an entry lives `maxAgeMs` at most (less when `put` is given an earlier end).
import type { PgNotifier } from './pg-notifier.ts';

export interface NotifiedCacheOptions {
  channel: string;
  maxAgeMs: number;
  maxEntries: number;
}

export class NotifiedCache<V> {
  private readonly entries = new Map<string, { value: V; group: string; expiresAt: number }>();
  private readonly keysOfGroup = new Map<string, Set<string>>();
  private generation = 0;
  private listening = false;
  private readonly notifier: PgNotifier;
  private readonly options: NotifiedCacheOptions;

  constructor(notifier: PgNotifier, options: NotifiedCacheOptions) {
    this.notifier = notifier;
    this.options = options;
  }

  /** Starts listening; `changed` hears each group named, after its entries are dropped, and `null` when everything was dropped (the connection came back). */
  async start(changed?: (group: string | null) => void): Promise<void> {
    this.notifier.onDisconnect(() => this.clear());
    this.notifier.onReconnect(() => {
      this.clear();
      changed?.(null);
    });
    await this.notifier.listen(this.options.channel, (group) => {
      this.drop(group);
      changed?.(group);
    });
    this.listening = true;
  }

  /** the generation to hand back to `put`: a value read across a change is not kept */
  get current(): number {
    return this.generation;
  }

  get(key: string, now = Date.now()): V | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= now || !this.usable) {
      this.entries.delete(key);
      return null;
    }
    return entry.value;
  }

  put(group: string, key: string, value: V, generation: number, expiresAt = Infinity): void {
    if (!this.usable || generation !== this.generation) return;
    if (this.entries.size >= this.options.maxEntries) this.clear();
    this.entries.set(key, { value, group, expiresAt: Math.min(expiresAt, Date.now() + this.options.maxAgeMs) });
    let keys = this.keysOfGroup.get(group);
    if (!keys) this.keysOfGroup.set(group, (keys = new Set()));
    keys.add(key);
  }

  private get usable(): boolean {
    return this.listening && this.notifier.connected;
  }

  private drop(group: string): void {
    this.generation++;
    const keys = this.keysOfGroup.get(group);
    if (keys) for (const key of keys) this.entries.delete(key);
    this.keysOfGroup.delete(group);
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
    this.keysOfGroup.clear();
  }
}
