// Everything a team can read about itself, through every GET route of the table with its own ids
// and both of its credentials: taken before and after another team's attempts, the two must match.
import { fillPath, type RouteWorld, servedRoutes } from '../support/route-world.ts';
import type { TestServer } from '../support/server.ts';
import { readQuery } from './read-queries.ts';
import { callersOf, exchange } from './tenant-answers.ts';

/** fields that change by reading or per request, not by writing (presigned URLs are minted per read, with their expiry) */
const VOLATILE = new Set(['requestId', 'lastUsedAt', 'lastLoggedIn', 'url', 'originalUrl', 'thumbnailUrl', 'expiresAt']);

function withoutVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutVolatile);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !VOLATILE.has(k)).map(([k, v]) => [k, withoutVolatile(v)]));
  }
  return value;
}

/** read → `status body` (volatile fields left out) */
export async function readTeamState(server: TestServer, world: RouteWorld): Promise<Map<string, string>> {
  const state = new Map<string, string>();
  const reads = servedRoutes.filter((r) => r.method === 'GET');
  await Promise.all(
    callersOf(world.team).flatMap((caller) =>
      reads.map(async (route) => {
        const query = readQuery(route, world.ids);
        if (query instanceof Error) throw query;
        const x = await exchange(server, caller, { method: 'GET', path: `${fillPath(route, world.ids)}${query}` });
        state.set(`[${caller.name}] GET ${x.sent.path}`, `${x.response.status} ${JSON.stringify(withoutVolatile(x.response.body))}`);
      }),
    ),
  );
  return state;
}

/** one line per read whose answer changed */
export function stateChanges(before: Map<string, string>, after: Map<string, string>): string[] {
  const changes: string[] = [];
  for (const [read, was] of before) {
    const now = after.get(read);
    if (now !== was) changes.push(`${read}\n    before: ${was.slice(0, 600)}\n    after:  ${(now ?? '(not read)').slice(0, 600)}`);
  }
  return changes;
}
