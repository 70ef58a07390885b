// The tags the resolve path has read recently, by simplyId, for a couple of seconds: a printed code
// scanned by a crowd costs one query per interval, not one per scan. A write on this server drops
// its tag at once; another server sees the change within TTL_MS.
import type pg from 'pg';
import type { LinkPageSettings } from './action-tags.input.ts';

export interface ResolvableTag {
  id: bigint;
  teamId: bigint;
  simplyId: string;
  status: string;
  actionType: string;
  actionUrl: string | null;
  linkPageSettings: LinkPageSettings | null;
}

const TTL_MS = 2000;
const MAX_ENTRIES = 20_000;
const cache = new Map<string, { tag: ResolvableTag | null; until: number }>();
const reading = new Map<string, Promise<ResolvableTag | null>>();

export function forgetResolvableTag(simplyId: string): void {
  cache.delete(simplyId);
  reading.delete(simplyId);
}

export async function resolvableTag(pool: pg.Pool, simplyId: string, now: number): Promise<ResolvableTag | null> {
  const hit = cache.get(simplyId);
  if (hit && hit.until > now) return hit.tag;
  // one query per tag at a time: a crowd scanning at once waits on the same read
  let read = reading.get(simplyId);
  if (!read) {
    read = readTag(pool, simplyId).finally(() => reading.delete(simplyId));
    reading.set(simplyId, read);
  }
  const tag = await read;
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(simplyId, { tag, until: now + TTL_MS });
  return tag;
}

async function readTag(pool: pg.Pool, simplyId: string): Promise<ResolvableTag | null> {
  const { rows } = await pool.query<{ id: string; teamId: string; status: string; actionType: string; actionUrl: string | null; linkPageSettings: LinkPageSettings | null }>(
    'SELECT id, "teamId", status, "actionType", "actionUrl", "linkPageSettings" FROM "ActionTag" WHERE "simplyId" = $1',
    [simplyId],
  );
  const row = rows[0];
  return row ? { ...row, id: BigInt(row.id), teamId: BigInt(row.teamId), simplyId } : null;
}
