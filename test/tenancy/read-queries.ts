// The query string each GET route is read with: the largest page where the route pages, plus what
// a route requires (a GET whose query cannot be empty must have a line here, or the suite fails
// naming it). `ids` are the reading team's own.
import type { RestRoute } from '../../rest-adapter/route.ts';

type QueryFor = (ids: Record<string, string>) => string;

const REQUIRED_QUERIES: Record<string, QueryFor> = {
  'GET /v1/data-records': (ids) => `dataCollectionSimplyId=${ids.dataCollectionSimplyId}&limit=100`,
  'GET /v1/team-schema/versions/compare': () => 'from=0&to=1',
  // the schema accepts none, the service wants exactly one of sinceVersion and since
  'GET /v1/team-schema/changed': () => 'sinceVersion=0',
  'GET /v1/users/me': () => 'expand=teams,rolePermissions,permissionSnapshot',
  'GET /v1/data-collections': () => 'limit=100&includeArchived=true',
  'GET /v1/files': () => 'page=1&pageSize=100&includeDeleted=true',
  'GET /v1/background-tasks': () => 'limit=500&includeArchived=true',
  'GET /v1/background-tasks/record-history': (ids) => `dataRecordSimplyId=${ids.dataRecordSimplyId}&limit=100`,
  'GET /v1/background-tasks/output-destinations/eligible': (ids) => `dataCollectionSimplyId=${ids.dataCollectionSimplyId}&enumBackgroundTaskTypeId=DOCUMENT_GENERATION&outputKey=document`,
  // the magic link: no link of the team exists, so this is a 401 for every reader
  'GET /v1/constituent-auth/verify': () => 'token=svc_cml_tenancy-probe',
};

/** `?…` for `route` (or '' when it takes none), or an Error naming what to add. */
export function readQuery(route: RestRoute, ids: Record<string, string>): string | Error {
  const key = `${route.method} ${route.path}`;
  const listed = REQUIRED_QUERIES[key];
  if (listed) return `?${listed(ids)}`;
  if (!route.query) return '';
  const paged = route.query.safeParse({ limit: '100' });
  if (paged.success) return (paged.data as { limit?: unknown }).limit === undefined ? '' : '?limit=100';
  // a strict query of optional filters only: read unfiltered
  if (route.query.safeParse({}).success) return '';
  return new Error(`${key}: its query cannot be empty; add it to REQUIRED_QUERIES in test/tenancy/read-queries.ts`);
}
