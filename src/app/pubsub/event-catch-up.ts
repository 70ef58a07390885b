// No silent misses: NOTIFYs sent while this instance's LISTEN connection was down are lost, so when
// it comes back the topics backed by the durable event log (DomainEvent rows, written in the same
// transaction as the change) are replayed from it, and the subscribers of every other topic are
// told to resync (resync.ts).
//
// Where to replay from: once a second, while listening, the highest DomainEvent id is sampled.
// Ids are taken before commit, so a row with a lower id can commit after a higher one; replay
// therefore starts at the sample taken LOOKBACK_MS before the last one that preceded the loss
// (transactions open longer than that are the documented limit). Events already delivered are
// recognised by eventId (kept as long as they may fall in that window) and not sent twice.
import type pg from 'pg';
import type { PgNotifier } from './pg-notifier.ts';
import type { SubscriberHub } from './subscriber-hub.ts';

export interface DurableEventRow {
  eventId: string;
  eventType: string;
  teamSimplyId: string;
  payload: unknown;
}

/** A topic whose events are DomainEvent rows: how a row becomes the topic's event. */
export interface ReplayableTopic {
  topic: string;
  eventTypes: readonly string[];
  eventIdOf(event: unknown): string;
  /** the topic id and event of a row, or null when the row is not an event of this topic */
  fromRow(row: DurableEventRow): { id: string; event: unknown } | null;
}

// registered by the modules that own the topics, when their schema files load
const replayable = new Map<string, ReplayableTopic>();

export function registerReplayableTopic(topic: ReplayableTopic): void {
  replayable.set(topic.topic, topic);
}

const PROBE_EVERY_MS = 1000;
export const LOOKBACK_MS = 10_000;
const PAGE = 1000;
/** More missed events than this and subscribers are told to resync instead. */
const MAX_REPLAYED = 50_000;

interface Probe {
  id: bigint;
  at: number;
}

export class EventCatchUp {
  private probes: Probe[] = [];
  /** eventIds of replayable topics already dispatched here → when */
  private readonly seen = new Map<string, number>();
  /** replay from here once the listener is back; null while nothing was lost */
  private replayFrom: bigint | null = null;
  private lost = false;
  private timer: NodeJS.Timeout | null = null;
  private recovering: Promise<void> = Promise.resolve();

  private readonly pool: pg.Pool;
  private readonly notifier: PgNotifier;
  private readonly hub: SubscriberHub;
  private readonly dispatch: (key: string, event: unknown) => void;
  private readonly log: (msg: string, err?: unknown) => void;

  constructor(options: { pool: pg.Pool; notifier: PgNotifier; hub: SubscriberHub; dispatch: (key: string, event: unknown) => void; log: (msg: string, err?: unknown) => void }) {
    this.pool = options.pool;
    this.notifier = options.notifier;
    this.hub = options.hub;
    this.dispatch = options.dispatch;
    this.log = options.log;
  }

  start(): void {
    this.notifier.onDisconnect(() => this.onLost());
    this.notifier.onReconnect(() => {
      this.recovering = this.recovering.then(() => this.recover());
    });
    this.timer = setInterval(() => void this.probe(), PROBE_EVERY_MS);
    this.timer.unref();
    void this.probe();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Whether `event` of `topic` is new here (and remembers it); true for topics not replayed. */
  firstSight(topic: string, event: unknown): boolean {
    const r = replayable.get(topic);
    if (!r) return true;
    const eventId = r.eventIdOf(event);
    if (this.seen.has(eventId)) return false;
    this.seen.set(eventId, Date.now());
    return true;
  }

  /** Waits for a catch-up under way (tests). */
  settled(): Promise<void> {
    return this.recovering;
  }

  private async probe(): Promise<void> {
    if (!this.notifier.connected || this.lost) return;
    try {
      const rows = await this.notifier.queryOnListener<{ id: string }>('SELECT coalesce(max(id), 0)::text AS id FROM "DomainEvent"');
      // the listener may have gone while the query ran: a sample counts only if it was up throughout
      if (!rows || !this.notifier.connected || this.lost) return;
      this.probes.push({ id: BigInt(rows[0]!.id), at: Date.now() });
      this.forgetOld();
    } catch {
      // the database away: the listener notices too, and the samples taken so far stay
    }
  }

  /** The sample replay would start from if the listener were lost now. */
  private safePosition(): Probe | null {
    const last = this.probes.at(-1);
    if (!last) return null;
    let safe = this.probes[0]!;
    for (const p of this.probes) if (p.at <= last.at - LOOKBACK_MS) safe = p;
    return safe;
  }

  private forgetOld(): void {
    const safe = this.safePosition();
    if (!safe) return;
    this.probes = this.probes.filter((p) => p.at >= safe.at);
    for (const [eventId, at] of this.seen) {
      if (at >= safe.at - PROBE_EVERY_MS) break;
      this.seen.delete(eventId);
    }
  }

  private onLost(): void {
    if (this.lost) return;
    this.lost = true;
    const safe = this.safePosition();
    // never sampled (lost within the first second): nothing to replay from, so resync
    const from = safe ? safe.id : -1n;
    this.replayFrom = this.replayFrom === null ? from : this.replayFrom < from ? this.replayFrom : from;
  }

  private async recover(): Promise<void> {
    this.lost = false;
    const from = this.replayFrom;
    this.replayFrom = null;
    // what was published on other topics while away is gone for good
    this.hub.resync((key) => !replayable.has(topicOf(key)));
    if (from === null) return;
    if (from < 0n) {
      this.hub.resync((key) => replayable.has(topicOf(key)));
      return;
    }
    try {
      const replayed = await this.replay(from);
      if (replayed > 0) this.log(`realtime catch-up replayed ${replayed} events after the listener reconnected`);
    } catch (error) {
      this.log('realtime catch-up failed; subscribers told to resync', error);
      this.hub.resync((key) => replayable.has(topicOf(key)));
    }
  }

  private async replay(from: bigint): Promise<number> {
    const byType = new Map<string, ReplayableTopic>();
    for (const r of replayable.values()) for (const t of r.eventTypes) byType.set(t, r);
    if (byType.size === 0) return 0;
    let after = from;
    let replayed = 0;
    for (let read = 0; read < MAX_REPLAYED; ) {
      const { rows } = await this.pool.query<DurableEventRow & { id: string }>(
        `SELECT e.id::text AS id, e."eventId", e."eventType", e.payload, t."simplyId" AS "teamSimplyId"
           FROM "DomainEvent" e JOIN "Team" t ON t.id = e."teamId"
          WHERE e.id > $1 AND e."eventType" = ANY($2::text[])
          ORDER BY e.id LIMIT ${PAGE}`,
        [String(after), [...byType.keys()]],
      );
      for (const row of rows) {
        const topic = byType.get(row.eventType)!;
        const found = topic.fromRow(row);
        if (!found) continue;
        const key = `${topic.topic}:${found.id}`;
        if (!this.firstSight(topic.topic, found.event) || !this.hub.has(key)) continue;
        this.dispatch(key, found.event);
        replayed++;
      }
      read += rows.length;
      if (rows.length < PAGE) return replayed;
      after = BigInt(rows.at(-1)!.id);
    }
    this.hub.resync((key) => replayable.has(topicOf(key)));
    return replayed;
  }
}

export function topicOf(key: string): string {
  const i = key.indexOf(':');
  return i < 0 ? key : key.slice(0, i);
}
