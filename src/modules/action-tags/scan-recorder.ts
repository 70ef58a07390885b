// Scans leave the request path (docs/api/action-tags.md "Scans"): a resolution only appends to
// this server's in-memory batch, and a timer (ACTION_TAGS_SCAN_FLUSH_MS) writes the batch in one
// transaction: the scan rows, the daily aggregate rows analytics read, and each tag's lifetime
// count. The server flushes once more when it stops. At-least-once: a batch is kept until its
// transaction commits and retried on the next tick if it fails; a crash loses at most the scans
// of the last interval; a batch whose commit succeeded but whose acknowledgement was lost is
// written again (counted twice: at least once, never lost). A flood beyond MAX_PENDING drops
// the oldest scans rather than slowing the API (counted in the warning log).
import type pg from 'pg';
import { inTransaction } from '../../app/transaction.ts';
import { insertScanEvents } from './action-tag-events.ts';
import { placesOf } from './scan-geo.ts';
import type { InteractionSource, TrafficClass } from './scan-traffic.ts';

export type ResolveStatus = 'RESOLVED' | 'DISABLED';

export interface PendingScan {
  teamId: bigint;
  tagId: bigint;
  tagSimplyId: string;
  scannedAt: Date;
  resolveStatus: ResolveStatus;
  resolvedDestination: string | null;
  source: InteractionSource;
  trafficClass: TrafficClass;
  counted: boolean;
  /**
   * the client's address, in this server's memory only until the batch is located (placesOf, just
   * before it is written): it is never written, logged or answered
   */
  address?: string;
  city?: string | null;
  region?: string | null;
  country?: string | null;
  referrer: string | null;
  userAgent: string | null;
  abuseHash: string | null;
}

export interface ScannedAggregate {
  teamId: bigint;
  tagId: bigint;
  tagSimplyId: string;
  scans: number;
  interactions: number;
}

const MAX_PENDING = 200_000;
// a batch is written in slices: building one slice's statement parameters holds the event loop for
// a moment, and requests waiting meanwhile should wait for one slice, not the whole backlog
const CHUNK = 500;
/** one visitor's projections of one tag within this window count as one interaction */
export const DEDUP_WINDOW_MS = 30 * 60 * 1000;
const MAX_VISITORS = 200_000;

const ts = (d: Date) => d.toISOString().replace('Z', '');
const day = (d: Date) => d.toISOString().slice(0, 10);

export class ScanRecorder {
  private pending: PendingScan[] = [];
  private readonly visitors = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  dropped = 0;

  private readonly pool: pg.Pool;
  private readonly onError: (err: unknown, message: string) => void;

  constructor(pool: pg.Pool, onError: (err: unknown, message: string) => void) {
    this.pool = pool;
    this.onError = onError;
  }

  /** Whether this visitor's scan of the tag is a new interaction (not a second projection within the window). */
  firstInWindow(visitor: string, now: number): boolean {
    const until = this.visitors.get(visitor);
    if (until !== undefined && until > now) return false;
    if (this.visitors.size >= MAX_VISITORS) {
      // the oldest entries go first: Map keeps insertion order
      for (const key of this.visitors.keys()) {
        this.visitors.delete(key);
        if (this.visitors.size < MAX_VISITORS * 0.9) break;
      }
    }
    this.visitors.delete(visitor);
    this.visitors.set(visitor, now + DEDUP_WINDOW_MS);
    return true;
  }

  record(scan: PendingScan): void {
    if (this.pending.length >= MAX_PENDING) {
      this.pending.shift();
      this.dropped++;
    }
    this.pending.push(scan);
  }

  get size(): number {
    return this.pending.length;
  }

  start(intervalMs: number): void {
    this.timer ??= setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Writes what is pending (one flush at a time); kept for the next tick when it fails. */
  flush(): Promise<void> {
    this.flushing ??= this.writePending().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Each scan's approximate place from its address, which it then forgets. */
  private async locate(batch: PendingScan[]): Promise<void> {
    const unlocated = batch.filter((scan) => scan.address !== undefined);
    if (unlocated.length === 0) return;
    const places = await placesOf(
      unlocated.map((scan) => scan.address!),
      (err) => this.onError(err, 'the IP location database did not open: scans have no place'),
    );
    unlocated.forEach((scan, i) => {
      Object.assign(scan, places[i]);
      delete scan.address;
    });
  }

  private async writePending(): Promise<void> {
    if (this.dropped > 0) {
      this.onError(null, `action-tag scans dropped under load: ${this.dropped}`);
      this.dropped = 0;
    }
    while (this.pending.length > 0) {
      const batch = this.pending.slice(0, CHUNK);
      try {
        await this.locate(batch);
        await inTransaction(this.pool, (client) => writeBatch(client, batch));
        this.pending.splice(0, batch.length);
        await new Promise((resolve) => setImmediate(resolve));
      } catch (err) {
        this.onError(err, 'action-tag scans not written yet; retried on the next tick');
        return;
      }
    }
  }
}

async function writeBatch(client: pg.PoolClient, batch: PendingScan[]): Promise<ScannedAggregate[]> {
  const col = <K extends keyof PendingScan>(k: K) => batch.map((s) => s[k] ?? null);
  // scans of a tag deleted meanwhile are left out by the join
  await client.query(
    `INSERT INTO "ActionTagScan" ("teamId", "actionTagId", "scannedAt", "resolveStatus", "resolvedDestination", "interactionSource", "trafficClass",
       "countedAsInteraction", city, region, country, referrer, "userAgent", "abuseHash")
     SELECT u.team, u.tag, u.at, u.status, u.dest, u.source, u.class, u.counted, u.city, u.region, u.country, u.referrer, u.ua, u.hash
       FROM unnest($1::bigint[], $2::bigint[], $3::timestamp(3)[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[])
         WITH ORDINALITY AS u(team, tag, at, status, dest, source, class, counted, city, region, country, referrer, ua, hash, n)
       JOIN "ActionTag" t ON t.id = u.tag AND t."teamId" = u.team
      ORDER BY u.n`,
    [
      col('teamId').map(String),
      col('tagId').map(String),
      batch.map((s) => ts(s.scannedAt)),
      col('resolveStatus'),
      col('resolvedDestination'),
      col('source'),
      col('trafficClass'),
      col('counted'),
      col('city'),
      col('region'),
      col('country'),
      col('referrer'),
      col('userAgent'),
      col('abuseHash'),
    ],
  );
  const daily = new Map<string, { s: PendingScan; scans: number; interactions: number }>();
  const perTag = new Map<bigint, ScannedAggregate & { last: Date }>();
  for (const s of batch) {
    const key = [s.teamId, s.tagId, day(s.scannedAt), s.source, s.trafficClass, s.resolveStatus, s.country ?? '', s.region ?? '', s.city ?? ''].join('\0');
    const d = daily.get(key) ?? { s, scans: 0, interactions: 0 };
    d.scans++;
    if (s.counted) d.interactions++;
    daily.set(key, d);
    const t = perTag.get(s.tagId) ?? { teamId: s.teamId, tagId: s.tagId, tagSimplyId: s.tagSimplyId, scans: 0, interactions: 0, last: s.scannedAt };
    t.scans++;
    if (s.counted) t.interactions++;
    if (s.scannedAt > t.last) t.last = s.scannedAt;
    perTag.set(s.tagId, t);
  }
  const rows = [...daily.values()];
  await client.query(
    `INSERT INTO "ActionTagDailyStat" ("teamId", "actionTagId", day, "interactionSource", "trafficClass", "resolveStatus", country, region, city, scans, interactions)
     SELECT u.team, u.tag, u.day, u.source, u.class, u.status, u.country, u.region, u.city, u.scans, u.interactions FROM unnest($1::bigint[], $2::bigint[], $3::date[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::int[], $11::int[])
       AS u(team, tag, day, source, class, status, country, region, city, scans, interactions)
     JOIN "ActionTag" t ON t.id = u.tag AND t."teamId" = u.team
     ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9
     ON CONFLICT ("teamId", "actionTagId", day, "interactionSource", "trafficClass", "resolveStatus", country, region, city)
     DO UPDATE SET scans = "ActionTagDailyStat".scans + EXCLUDED.scans, interactions = "ActionTagDailyStat".interactions + EXCLUDED.interactions`,
    [
      rows.map((r) => String(r.s.teamId)),
      rows.map((r) => String(r.s.tagId)),
      rows.map((r) => day(r.s.scannedAt)),
      rows.map((r) => r.s.source),
      rows.map((r) => r.s.trafficClass),
      rows.map((r) => r.s.resolveStatus),
      rows.map((r) => r.s.country ?? ''),
      rows.map((r) => r.s.region ?? ''),
      rows.map((r) => r.s.city ?? ''),
      rows.map((r) => r.scans),
      rows.map((r) => r.interactions),
    ],
  );
  const tags = [...perTag.values()].sort((a, b) => (a.tagId < b.tagId ? -1 : 1));
  await client.query(
    `UPDATE "ActionTag" t SET "lifetimeScans" = t."lifetimeScans" + u.n, "lastScannedAt" = GREATEST(t."lastScannedAt", u.last)
       FROM unnest($1::bigint[], $2::int[], $3::timestamp(3)[]) AS u(id, n, last) WHERE t.id = u.id`,
    [tags.map((t) => String(t.tagId)), tags.map((t) => t.scans), tags.map((t) => ts(t.last))],
  );
  // lifecycle webhooks hear of scans in aggregate: one event per tag, committed with the batch
  await insertScanEvents(client, tags);
  return tags.map(({ last: _last, ...a }) => a);
}
