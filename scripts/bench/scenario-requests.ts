// What each `npm run bench` scenario sends, and how its check request's answer is judged before
// the scenario is loaded. Which scenarios run where, and against which baseline: ./plan.ts.
import type { RequestVariant } from './load-generator.ts';

export interface ScenarioRequest {
  title: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** requests cycle through these (path, body); the check request uses the first */
  variants?: RequestVariant[];
  /** checks one response (status and body) before the scenario is measured; null: fine */
  expect: (status: number, body: any) => string | null;
  /** a line about the checked response for the report (rows matched, …) */
  note?: (body: any) => string;
  /** searches: how many records the check request's filters matched */
  matched?: (body: any) => number;
}

/** The GraphQL twin of a REST route: its operation text, with the variables the route builds from the same input. */
export type GraphqlBody = (method: string, path: string, query: string, params?: Record<string, string>) => string;

const GQL_HEADERS = { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' };
const noErrors = (body: any) => (body?.errors ? `GraphQL errors: ${JSON.stringify(body.errors)}` : null);
const unexpected = (status: number, body: unknown) => `unexpected ${status} ${JSON.stringify(body).slice(0, 2000)}`;

export function coreScenarioRequests(c: {
  team: { teamId: bigint; teamSimplyId: string; userSimplyId: string; apiKey: string };
  userToken: string;
  graphqlBody: GraphqlBody;
}): Record<string, ScenarioRequest> {
  const { team } = c;
  const userHeaders = { authorization: `Bearer ${c.userToken}`, 'x-team-id': team.teamSimplyId };
  const keyHeaders = { authorization: `Bearer ${team.apiKey}` };
  return {
    baseline: {
      title: 'baseline: bare server + pg SELECT of the team',
      method: 'GET',
      path: `/teams/${encodeURIComponent(team.teamSimplyId)}`,
      headers: {},
      expect: (status, body) => (status === 200 && body?.data?.id === String(team.teamId) ? null : unexpected(status, body)),
    },
    healthz: {
      title: 'platform GET /healthz (no auth, no DB)',
      method: 'GET',
      path: '/healthz',
      headers: {},
      expect: (status, body) => (status === 200 && body?.data?.status === 'ok' ? null : unexpected(status, body)),
    },
    'rest-me': {
      title: 'REST GET /v1/users/me (user JWT + X-Team-Id)',
      method: 'GET',
      path: '/v1/users/me',
      headers: userHeaders,
      expect: (status, body) =>
        status === 200 && body?.data?.userSimplyId === team.userSimplyId && body.data.selectedTeam?.teamSimplyId === team.teamSimplyId ? null : unexpected(status, body),
    },
    'graphql-me': {
      title: 'GraphQL me (same selection, user JWT)',
      method: 'POST',
      path: '/graphql',
      headers: { ...userHeaders, ...GQL_HEADERS },
      body: c.graphqlBody('GET', '/v1/users/me', ''),
      expect: (status, body) => noErrors(body) ?? (status === 200 && body?.data?.me?.userSimplyId === team.userSimplyId ? null : unexpected(status, body)),
    },
    'rest-team-roles': {
      title: 'REST GET /v1/team-roles?limit=25 (API key)',
      method: 'GET',
      path: '/v1/team-roles?limit=25',
      headers: keyHeaders,
      expect: (status, body) => (status === 200 && Array.isArray(body?.data) && body.data.length === 10 ? null : unexpected(status, body)),
    },
    'graphql-team-roles': {
      title: 'GraphQL teamRoles(limit: 25) (same selection, API key)',
      method: 'POST',
      path: '/graphql',
      headers: { ...keyHeaders, ...GQL_HEADERS },
      body: c.graphqlBody('GET', '/v1/team-roles', 'limit=25'),
      expect: (status, body) => noErrors(body) ?? (status === 200 && body?.data?.teamRoles?.nodes?.length === 10 ? null : unexpected(status, body)),
    },
  };
}

export function recordScenarioRequests(c: {
  apiKey: string;
  graphqlBody: GraphqlBody;
  /** the seeded collection */
  collection: { id: bigint; simplyId: string; records: number; fields: Record<'email' | 'status' | 'amount', string> };
  /** record simplyIds the gets cycle through */
  ids: string[];
  /** batch create bodies, in turn */
  batchBodies: string[];
}): Record<string, ScenarioRequest> {
  const { collection, ids, batchBodies } = c;
  const f = collection.fields;
  const keyHeaders = { authorization: `Bearer ${c.apiKey}` };
  const jsonHeaders = { ...keyHeaders, 'content-type': 'application/json' };
  const getPath = '/v1/data-records/{dataRecordSimplyId}';
  const listQuery = `dataCollectionSimplyId=${collection.simplyId}&limit=25`;
  const idsNote = () => `${ids.length} ids in turn`;
  const isSeeded = (record: any, id: string) => record?.id === id && record.dataCollectionSimplyId === collection.simplyId && typeof record.fields?.[f.email] === 'string';
  const fullPage = (nodes: unknown, total: unknown) => Array.isArray(nodes) && nodes.length === 25 && typeof total === 'number' && total >= collection.records;
  const searchBody = (status: string, minAmount: string) =>
    JSON.stringify({
      dataCollectionSimplyId: collection.simplyId,
      filters: [
        { field: f.status, operator: 'eq', value: status },
        { field: f.amount, operator: 'gte', value: minAmount },
      ],
      limit: 25,
    });
  const searchExpect = (status: string, minAmount: number) => (code: number, body: any) => {
    if (code !== 200 || !Array.isArray(body?.data)) return unexpected(code, body);
    const wrong = body.data.find((r: any) => r.fields?.[f.status] !== status || Number(r.fields?.[f.amount]) < minAmount);
    if (wrong) return `a row that does not match the filters: ${JSON.stringify(wrong)}`;
    return body.data.length === Math.min(25, body.meta?.pagination?.total ?? -1) ? null : `page and total disagree: ${JSON.stringify(body.meta)}`;
  };
  const matched = (body: any) => Number(body?.meta?.pagination?.total);
  const matchedNote = (body: any) => `${body?.meta?.pagination?.total} of ${collection.records} match`;
  return {
    'baseline-record-get': {
      title: 'baseline: bare server + pg SELECT of one record by (teamId, simplyId), random ids',
      method: 'GET',
      path: `/records/${ids[0]}`,
      variants: ids.map((id) => ({ path: `/records/${id}` })),
      headers: {},
      expect: (status, body) => (status === 200 && body?.data?.simplyId === ids[0] && typeof body.data.values === 'object' ? null : unexpected(status, body)),
      note: idsNote,
    },
    'baseline-record-list': {
      title: 'baseline: bare server + pg SELECT of the 25 newest records of the collection (membership index)',
      method: 'GET',
      path: `/collections/${collection.id}/records`,
      headers: {},
      expect: (status, body) => (status === 200 && Array.isArray(body?.data) && body.data.length === 25 ? null : unexpected(status, body?.data?.length ?? body)),
    },
    'rest-record-get': {
      title: 'REST GET /v1/data-records/{id} (API key, random ids)',
      method: 'GET',
      path: `/v1/data-records/${ids[0]}`,
      variants: ids.map((id) => ({ path: `/v1/data-records/${id}` })),
      headers: keyHeaders,
      expect: (status, body) => (status === 200 && isSeeded(body?.data, ids[0]!) ? null : unexpected(status, body)),
      note: idsNote,
    },
    'graphql-record-get': {
      title: 'GraphQL dataRecord(dataRecordSimplyId) (the REST route\'s operation, API key, random ids)',
      method: 'POST',
      path: '/graphql',
      headers: { ...keyHeaders, ...GQL_HEADERS },
      body: c.graphqlBody('GET', getPath, '', { dataRecordSimplyId: ids[0]! }),
      variants: ids.map((id) => ({ path: '/graphql', body: c.graphqlBody('GET', getPath, '', { dataRecordSimplyId: id }) })),
      expect: (status, body) => noErrors(body) ?? (status === 200 && isSeeded(body?.data?.dataRecord, ids[0]!) ? null : unexpected(status, body)),
      note: idsNote,
    },
    'rest-record-list': {
      title: 'REST GET /v1/data-records?dataCollectionSimplyId=…&limit=25 (API key, exact total)',
      method: 'GET',
      path: `/v1/data-records?${listQuery}`,
      headers: keyHeaders,
      expect: (status, body) => (status === 200 && fullPage(body?.data, body?.meta?.pagination?.total) ? null : unexpected(status, body?.meta ?? body)),
      note: (body) => `total ${body?.meta?.pagination?.total}`,
    },
    'graphql-record-list': {
      title: 'GraphQL dataRecords(limit: 25) with pagination.total (the REST route\'s operation, API key)',
      method: 'POST',
      path: '/graphql',
      headers: { ...keyHeaders, ...GQL_HEADERS },
      body: c.graphqlBody('GET', '/v1/data-records', listQuery),
      expect: (status, body) =>
        noErrors(body) ??
        (status === 200 && fullPage(body?.data?.dataRecords?.nodes, body?.data?.dataRecords?.pagination?.total) ? null : unexpected(status, body?.data?.dataRecords?.pagination ?? body)),
      note: (body) => `total ${body?.data?.dataRecords?.pagination?.total}`,
    },
    'rest-record-search': {
      title: "REST POST /v1/data-records/search status eq 'active' AND amount gte 500.00, limit 25",
      method: 'POST',
      path: '/v1/data-records/search',
      headers: jsonHeaders,
      body: searchBody('active', '500.00'),
      expect: searchExpect('active', 500),
      note: matchedNote,
      matched,
    },
    'rest-record-search-selective': {
      title: "REST POST /v1/data-records/search status eq 'trial' AND amount gte 990.00, limit 25",
      method: 'POST',
      path: '/v1/data-records/search',
      headers: jsonHeaders,
      body: searchBody('trial', '990.00'),
      expect: searchExpect('trial', 990),
      note: matchedNote,
      matched,
    },
    'rest-record-batch-create': {
      title: 'REST POST /v1/data-records/batch, 100 records per request',
      method: 'POST',
      path: '/v1/data-records/batch',
      headers: jsonHeaders,
      body: batchBodies[0],
      variants: batchBodies.map((body) => ({ path: '/v1/data-records/batch', body })),
      expect: (status, body) => (status === 200 && body?.data?.created === 100 && body.data.failed === 0 ? null : unexpected(status, body)),
      note: () => `${batchBodies.length} different bodies in turn`,
    },
  };
}

/**
 * PostGraphile's equivalents of the record get and the list of 25 with its total, on the same
 * rows (docs/benchmark.md "Comparing with PostGraphile": Amber + simplify-inflection, and smart
 * tags for the unique indexes and the membership → record relation).
 */
export const POSTGRAPHILE_RECORD_GET = `query RecordGet($teamId: BigInt!, $simplyId: String!) {
  dataRecordByTeamIdAndSimplyId(teamId: $teamId, simplyId: $simplyId) { rowId simplyId values calculatedName createdAt updatedAt }
}`;

export const POSTGRAPHILE_RECORD_LIST = `query RecordList($teamId: BigInt!, $collectionId: BigInt!) {
  dataRecordMemberships(
    condition: { teamId: $teamId, collectionId: $collectionId, state: ACTIVE }
    orderBy: [RECORD_CREATED_AT_DESC, RECORD_ID_DESC]
    first: 25
  ) {
    totalCount
    nodes { record { rowId simplyId values calculatedName createdAt updatedAt } }
  }
}`;

export function postgraphileScenarioRequests(c: {
  /** the path of PostGraphile's GraphQL endpoint */
  path: string;
  teamId: bigint;
  collection: { id: bigint; records: number };
  ids: string[];
}): Record<string, ScenarioRequest> {
  const { ids } = c;
  const getBody = (simplyId: string) => JSON.stringify({ query: POSTGRAPHILE_RECORD_GET, variables: { teamId: String(c.teamId), simplyId } });
  return {
    'postgraphile-record-get': {
      title: 'PostGraphile dataRecordByTeamIdAndSimplyId (random ids)',
      method: 'POST',
      path: c.path,
      headers: GQL_HEADERS,
      body: getBody(ids[0]!),
      variants: ids.map((id) => ({ path: c.path, body: getBody(id) })),
      expect: (status, body) => noErrors(body) ?? (status === 200 && body?.data?.dataRecordByTeamIdAndSimplyId?.simplyId === ids[0] ? null : unexpected(status, body)),
      note: () => `${ids.length} ids in turn`,
    },
    'postgraphile-record-list': {
      title: 'PostGraphile dataRecordMemberships(first: 25) { totalCount nodes { record } }',
      method: 'POST',
      path: c.path,
      headers: GQL_HEADERS,
      body: JSON.stringify({ query: POSTGRAPHILE_RECORD_LIST, variables: { teamId: String(c.teamId), collectionId: String(c.collection.id) } }),
      expect: (status, body) => {
        const page = body?.data?.dataRecordMemberships;
        return (
          noErrors(body) ??
          (status === 200 && page?.nodes?.length === 25 && page.nodes.every((n: any) => n?.record?.simplyId) && page.totalCount >= c.collection.records
            ? null
            : unexpected(status, page?.totalCount ?? body))
        );
      },
      note: (body) => `total ${body?.data?.dataRecordMemberships?.totalCount}`,
    },
  };
}
