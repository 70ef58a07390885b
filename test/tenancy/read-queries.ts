// The query string each GET route is read with: the largest page where the route pages, or what
// its area's kit gives (`readQueries` in test/<area>/<area>.kit.ts): required where a GET's query
// cannot be empty (the suite fails naming the kit), or a fuller read. `ids` are the reading team's own.
import type { RestRoute } from '../../rest-adapter/route.ts';
import { READ_QUERIES, kitFileFor } from '../support/area-kits.ts';

/** `?…` for `route` (or '' when it takes none), or an Error naming what to add. */
export function readQuery(route: RestRoute, ids: Record<string, string>): string | Error {
  const key = `${route.method} ${route.path}`;
  const listed = READ_QUERIES[key];
  if (listed) return `?${listed(ids)}`;
  if (!route.query) return '';
  const paged = route.query.safeParse({ limit: '100' });
  if (paged.success) return (paged.data as { limit?: unknown }).limit === undefined ? '' : '?limit=100';
  // a strict query of optional filters only: read unfiltered
  if (route.query.safeParse({}).success) return '';
  return new Error(`${key}: its query cannot be empty; add a query for \`${key}\` to readQueries in ${kitFileFor(route)}`);
}
