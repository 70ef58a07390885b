// POST /v1/data-records/search (Document 1 §4.2, §8; docs/api/data-types.md "Search filters"):
// limits, the keyword query, every operator per field kind, built-in fields, archived memberships,
// numeric decimal order, literal LIKE patterns and the 400s naming filters[i].
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, createLabelCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';
import { insertFileRows } from '../support/file-uploads.ts';

let server: TestServer;
let team: TeamFixture;
let things: CollectionFixture;
let targets: CollectionFixture;
/** target records T1..T3 */
const T: string[] = [];
/** name → record id of `things` */
const ids: Record<string, string> = {};
let archivedId: string;
let r5: any;
let r3Updated: any;

const F = (column: string) => things.fields[column]!;

function search(body: Record<string, unknown>): Promise<TestResponse> {
  return server.request('POST', '/v1/data-records/search', { token: team.apiKey, body: { dataCollectionSimplyId: things.id, ...body } });
}

/** Names (R1..R5) of the records a filter list matches, sorted. */
async function match(...filters: unknown[]): Promise<string[]> {
  const res = await search({ filters, limit: 100 });
  const data = expectOk(res);
  expect(res.body.meta.pagination.total).toBe(data.length);
  return data.map((r: any) => r.fields[F('code')]).sort();
}

async function filterError(filters: unknown[], field: string, extra: Record<string, unknown> = {}): Promise<string> {
  const error = expectError(await search({ filters, ...extra }), 400, 'VALIDATION_ERROR', JSON.stringify(filters).slice(0, 200));
  expect(error.details?.map((d) => d.field)).toContain(field);
  return error.details!.find((d) => d.field === field)!.message;
}

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  await insertFileRows(server, team.teamId, [{ simplyId: 'file-2222-2222-2222', fileType: 'DOCUMENT' }, { simplyId: 'file-3333-3333-3333', fileType: 'DOCUMENT' }]);
  targets = await createLabelCollection(server, team, 'Targets');
  things = await createCollection(server, team, {
    name: 'Things',
    formula: '{title}',
    fields: {
      code: 'PLAIN_TEXT',
      title: 'PLAIN_TEXT',
      email: 'EMAIL_ADDRESS',
      url: 'URL',
      phone: { dataType: 'PHONE_NUMBER', config: { defaultCountry: 'US' } },
      body: 'FORMATTED_TEXT',
      address: 'PHYSICAL_ADDRESS',
      count: 'NUMBER',
      amount: 'DECIMAL',
      price: { dataType: 'MONEY', config: { currency: 'EUR' } },
      day: 'DATE',
      at: 'DATE_TIME',
      flag: 'BOOLEAN',
      ref: 'SINGLE_DATA_RECORD',
      refs: 'MULTI_DATA_RECORD',
      file: 'SINGLE_FILE',
      files: 'MULTI_FILE',
    },
  });
  const created = expectOk(
    await server.request('POST', '/v1/data-records/batch', {
      token: team.apiKey,
      body: { dataCollectionSimplyId: targets.id, records: ['T1', 'T2', 'T3'].map((label) => ({ fields: { [targets.fields.label!]: label } })) },
    }),
  );
  T.push(...created.results.map((r: any) => r.dataRecordSimplyId));
  const rows: Record<string, unknown>[] = [
    {
      code: 'R1',
      title: 'Alpha One',
      email: 'Alice@Example.com',
      url: 'https://example.com/a',
      phone: '+14155552671',
      body: '<p>Hello <b>World</b></p>',
      address: { line1: '742 Evergreen Terrace', city: 'Springfield', region: 'IL', postalCode: '62701', countryCode: 'US' },
      count: 10,
      amount: '10.5',
      price: '19.90',
      day: '2024-01-15',
      at: '2024-01-15T10:00:00Z',
      flag: true,
      ref: T[0],
      refs: [T[0], T[1]],
      file: 'file-2222-2222-2222',
      files: ['file-2222-2222-2222', 'file-3333-3333-3333'],
    },
    {
      code: 'R2',
      title: 'Beta 100% pure',
      email: 'bob@example.org',
      url: 'https://example.org/b',
      phone: '+442071838750',
      body: '<p>Goodbye</p>',
      address: { line1: '10 Downing Street', city: 'London', countryCode: 'GB' },
      count: 20,
      amount: '9.75',
      price: '5',
      day: '2024-06-01',
      at: '2024-06-01T00:00:00Z',
      flag: false,
      ref: T[1],
      refs: [T[1]],
      file: 'file-3333-3333-3333',
      files: ['file-3333-3333-3333'],
    },
    { code: 'R3', title: 'gamma_under', email: 'carol@test.io', count: 30, amount: '100', price: '-3.5', day: '2025-12-31', at: '2025-12-31T23:59:59.999Z', flag: true, ref: T[2], refs: [T[2]] },
    // empty but for its code and title: LIKE wildcards would make both of the patterns above match it
    { code: 'R4', title: 'Delta 1000 gammaXunder' },
  ];
  const batch = expectOk(
    await server.request('POST', '/v1/data-records/batch', {
      token: team.apiKey,
      body: { dataCollectionSimplyId: things.id, records: rows.map((row) => ({ fields: Object.fromEntries(Object.entries(row).map(([k, v]) => [F(k), v])) })) },
    }),
  );
  expect(batch).toMatchObject({ created: 4, failed: 0 });
  for (const r of batch.results) ids[r.record.fields[F('code')]] = r.dataRecordSimplyId;
  // R5 later (createdAt), then R3 touched (updatedAt), then an archived record
  r5 = expectOk(
    await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: things.id, fields: { [F('code')]: 'R5', [F('title')]: 'Epsilon' } } }),
    201,
  );
  ids.R5 = r5.id;
  r3Updated = expectOk(await server.request('PATCH', `/v1/data-records/${ids.R3}`, { token: team.apiKey, body: { fields: { [F('count')]: 31 } } }));
  r3Updated = expectOk(await server.request('PATCH', `/v1/data-records/${ids.R3}`, { token: team.apiKey, body: { fields: { [F('count')]: 30 } } }));
  const archived = expectOk(
    await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: things.id, fields: { [F('code')]: 'R6', [F('title')]: 'Archived Zeta', [F('count')]: 10 } } }),
    201,
  );
  archivedId = archived.id;
  // archiving is privileged tooling: set the membership state directly
  await server.app.services.pool.query(
    `UPDATE "DataRecordMembership" m SET state = 'ARCHIVED' FROM "DataRecord" r WHERE r.id = m."recordId" AND r."teamId" = m."teamId" AND r."simplyId" = $1 AND m."collectionId" = r."collectionId"`,
    [archivedId],
  );
});
afterAll(() => server?.close());

const ACTIVE = ['R1', 'R2', 'R3', 'R4', 'R5'];
const except = (...names: string[]) => ACTIVE.filter((n) => !names.includes(n));

describe('search body and limits', () => {
  it('no filters: every active record, default limit 25, meta.pagination', async () => {
    const res = await search({});
    expect(expectOk(res)).toHaveLength(5);
    expect(res.body.meta.pagination).toEqual({ total: 5, limit: 25, offset: 0, hasMore: false });
    const page = await search({ limit: 2, offset: 1 });
    expect(expectOk(page)).toHaveLength(2);
    expect(page.body.meta.pagination).toEqual({ total: 5, limit: 2, offset: 1, hasMore: true });
  });

  it('dataCollectionSimplyId is required; a body is required; filters must be an array', async () => {
    expectError(await server.request('POST', '/v1/data-records/search', { token: team.apiKey, body: {} }), 400, 'VALIDATION_ERROR');
    expectError(await server.request('POST', '/v1/data-records/search', { token: team.apiKey }), 400, 'VALIDATION_ERROR');
    expectError(await server.request('POST', '/v1/data-records/search', { token: team.apiKey, body: { dataCollectionSimplyId: '2345-2345-2345' } }), 404, 'NOT_FOUND');
    await filterError({ field: 'code' } as never, 'filters');
    await filterError(['x'], 'filters[0]');
  });

  it('limit 1-100', async () => {
    expect(expectOk(await search({ limit: 1 }))).toHaveLength(1);
    expect(expectOk(await search({ limit: 100 }))).toHaveLength(5);
    for (const limit of [0, 101, -1]) {
      const error = expectError(await search({ limit }), 400, 'VALIDATION_ERROR', String(limit));
      expect(error.details?.[0]?.field).toBe('limit');
    }
    expect((await search({ limit: 1.5 })).status).toBe(400);
    expect((await search({ limit: '10' })).status).toBe(400);
  });

  it('offset up to 5000 (5001 is 400); past the end is an empty page with the right total', async () => {
    const res = await search({ offset: 5000 });
    expect(expectOk(res)).toEqual([]);
    expect(res.body.meta.pagination).toEqual({ total: 5, limit: 25, offset: 5000, hasMore: false });
    const error = expectError(await search({ offset: 5001 }), 400, 'VALIDATION_ERROR');
    expect(error.details?.[0]?.field).toBe('offset');
    expectError(await search({ offset: -1 }), 400, 'VALIDATION_ERROR');
  });

  it('query: a case-insensitive substring of display names, at most 128 characters', async () => {
    const names = async (query: string) => (expectOk(await search({ query })) as any[]).map((r) => r.name).sort();
    expect(await names('ALPHA')).toEqual(['Alpha One']);
    expect(await names('gamma')).toEqual(['Delta 1000 gammaXunder', 'gamma_under']);
    expect(await names('  eta ')).toEqual(['Beta 100% pure']);
    expect(await names('100%')).toEqual(['Beta 100% pure']);
    expect(await names('a_u')).toEqual(['gamma_under']);
    expect(await names('')).toHaveLength(5);
    expect(await names('no such name')).toEqual([]);
    // only display names: field values are not searched
    expect(await names('alice')).toEqual([]);
    // the query combines with filters (AND)
    const both = expectOk(await search({ query: 'gamma', filters: [{ field: F('count'), operator: 'eq', value: 30 }] }));
    expect(both.map((r: any) => r.name)).toEqual(['gamma_under']);

    expect(expectOk(await search({ query: 'a'.repeat(128) }))).toEqual([]);
    // characters, not UTF-16 units
    expect(expectOk(await search({ query: '😀'.repeat(128) }))).toEqual([]);
    const error = expectError(await search({ query: 'a'.repeat(129) }), 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([expect.objectContaining({ field: 'query' })]);
    expectError(await search({ query: '😀'.repeat(129) }), 400, 'VALIDATION_ERROR');
    expect((await search({ query: 5 })).status).toBe(400);
    expect((await search({ query: ['alpha'] })).status).toBe(400);
  });

  it('up to 25 filters (AND-ed); 26 is 400', async () => {
    const ne = { field: F('count'), operator: 'ne', value: 999 };
    expect(await match(...Array(25).fill(ne))).toEqual(ACTIVE);
    expect(await match(...Array(24).fill(ne), { field: F('flag'), operator: 'eq', value: true })).toEqual(['R1', 'R3']);
    const error = expectError(await search({ filters: Array(26).fill(ne) }), 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([expect.objectContaining({ field: 'filters' })]);
  });

  it('in takes 1-100 values; 101 (or none) is 400', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i * 10 + 1000);
    expect(await match({ field: F('count'), operator: 'in', value: [...hundred.slice(0, 98), 10, 20] })).toEqual(['R1', 'R2']);
    expect(await match({ field: F('code'), operator: 'in', value: Array.from({ length: 100 }, (_, i) => `R${i}`) })).toEqual(ACTIVE);
    await filterError([{ field: F('count'), operator: 'in', value: [...hundred, 10] }], 'filters[0].value');
    await filterError([{ field: F('count'), operator: 'in', value: [] }], 'filters[0].value');
    await filterError([{ field: F('count'), operator: 'in', value: 10 }], 'filters[0].value');
    await filterError([{ field: F('code'), operator: 'in', value: [{ a: 1 }] }], 'filters[0].value');
  });

  it('fields projection and sort apply to search results', async () => {
    const res = expectOk(await search({ fields: [F('count')], sort: 'calculatedName', filters: [{ field: F('count'), operator: 'ne', value: null }] }));
    expect(res.map((r: any) => r.name)).toEqual(['Alpha One', 'Beta 100% pure', 'gamma_under']);
    expect(res[0].fields).toEqual({ [F('count')]: 10 });
    const desc = expectOk(await search({ sort: '-calculatedName', limit: 2 }));
    expect(desc.map((r: any) => r.name)).toEqual(['gamma_under', 'Epsilon']);
  });
});

describe('operators per field kind', () => {
  it('text (PLAIN_TEXT): eq ne in contains startsWith, case-insensitive', async () => {
    const title = F('title');
    expect(await match({ field: title, operator: 'eq', value: 'alpha one' })).toEqual(['R1']);
    expect(await match({ field: title, operator: 'eq', value: 'Alpha' })).toEqual([]);
    expect(await match({ field: title, operator: 'ne', value: 'ALPHA ONE' })).toEqual(except('R1'));
    expect(await match({ field: title, operator: 'in', value: ['ALPHA ONE', 'gamma_under', 'nope'] })).toEqual(['R1', 'R3']);
    expect(await match({ field: title, operator: 'contains', value: 'PURE' })).toEqual(['R2']);
    expect(await match({ field: title, operator: 'contains', value: 'a' })).toEqual(['R1', 'R2', 'R3', 'R4']);
    expect(await match({ field: title, operator: 'startsWith', value: 'be' })).toEqual(['R2']);
    expect(await match({ field: title, operator: 'startsWith', value: 'ALPHA ONE' })).toEqual(['R1']);
    expect(await match({ field: title, operator: 'startsWith', value: 'lpha' })).toEqual([]);
    for (const op of ['gt', 'lt', 'gte', 'lte']) await filterError([{ field: title, operator: op, value: 'a' }], 'filters[0].operator');
    await filterError([{ field: title, operator: 'contains', value: '' }], 'filters[0].value');
    await filterError([{ field: title, operator: 'contains', value: 'x'.repeat(1001) }], 'filters[0].value');
  });

  it('LIKE wildcards in contains and startsWith are literal (% and _)', async () => {
    const title = F('title');
    expect(await match({ field: title, operator: 'contains', value: '100%' })).toEqual(['R2']);
    expect(await match({ field: title, operator: 'contains', value: '%' })).toEqual(['R2']);
    expect(await match({ field: title, operator: 'contains', value: 'a_u' })).toEqual(['R3']);
    expect(await match({ field: title, operator: 'contains', value: '_' })).toEqual(['R3']);
    expect(await match({ field: title, operator: 'startsWith', value: 'gamma_' })).toEqual(['R3']);
    expect(await match({ field: title, operator: 'startsWith', value: '%' })).toEqual([]);
    expect(await match({ field: title, operator: 'contains', value: '\\' })).toEqual([]);
    expect(await match({ field: 'calculatedName', operator: 'contains', value: '0%' })).toEqual(['R2']);
    expect(await match({ field: 'calculatedName', operator: 'startsWith', value: 'gamma_' })).toEqual(['R3']);
    expect(await match({ field: 'calculatedName', operator: 'contains', value: '_' })).toEqual(['R3']);
  });

  it('EMAIL_ADDRESS, URL, PHONE_NUMBER: the text operators over normalized values', async () => {
    const email = F('email');
    expect(await match({ field: email, operator: 'eq', value: 'alice@EXAMPLE.COM' })).toEqual(['R1']);
    expect(await match({ field: email, operator: 'ne', value: 'alice@example.com' })).toEqual(except('R1'));
    expect(await match({ field: email, operator: 'in', value: ['BOB@example.org', 'carol@test.io'] })).toEqual(['R2', 'R3']);
    expect(await match({ field: email, operator: 'contains', value: 'EXAMPLE' })).toEqual(['R1', 'R2']);
    expect(await match({ field: email, operator: 'startsWith', value: 'bob@' })).toEqual(['R2']);
    await filterError([{ field: email, operator: 'eq', value: 'not an email' }], 'filters[0].value');

    const url = F('url');
    expect(await match({ field: url, operator: 'eq', value: 'HTTPS://Example.com:443/a' })).toEqual(['R1']);
    expect(await match({ field: url, operator: 'ne', value: 'https://example.com/a' })).toEqual(except('R1'));
    expect(await match({ field: url, operator: 'in', value: ['https://example.org/b', 'https://nope.test/'] })).toEqual(['R2']);
    expect(await match({ field: url, operator: 'contains', value: 'example.org' })).toEqual(['R2']);
    expect(await match({ field: url, operator: 'startsWith', value: 'https://example.' })).toEqual(['R1', 'R2']);
    await filterError([{ field: url, operator: 'eq', value: 'javascript:alert(1)' }], 'filters[0].value');

    const phone = F('phone');
    expect(await match({ field: phone, operator: 'eq', value: '(415) 555-2671' })).toEqual(['R1']);
    expect(await match({ field: phone, operator: 'ne', value: '+14155552671' })).toEqual(except('R1'));
    expect(await match({ field: phone, operator: 'in', value: ['+442071838750', '415 555 2671'] })).toEqual(['R1', 'R2']);
    expect(await match({ field: phone, operator: 'contains', value: '555-26' })).toEqual(['R1']);
    expect(await match({ field: phone, operator: 'startsWith', value: '44' })).toEqual(['R2']);
    expect(await match({ field: phone, operator: 'startsWith', value: '+1415' })).toEqual(['R1']);
    for (const op of ['gt', 'lte']) await filterError([{ field: phone, operator: op, value: '+1' }], 'filters[0].operator');
  });

  it('FORMATTED_TEXT and PHYSICAL_ADDRESS: contains (plain text / one-line form); eq and ne take null only', async () => {
    const body = F('body');
    expect(await match({ field: body, operator: 'contains', value: 'hello world' })).toEqual(['R1']);
    expect(await match({ field: body, operator: 'contains', value: '<p>' })).toEqual([]);
    expect(await match({ field: body, operator: 'eq', value: null })).toEqual(['R3', 'R4', 'R5']);
    expect(await match({ field: body, operator: 'ne', value: null })).toEqual(['R1', 'R2']);
    await filterError([{ field: body, operator: 'eq', value: 'Hello World' }], 'filters[0].value');
    await filterError([{ field: body, operator: 'ne', value: 'x' }], 'filters[0].value');
    for (const op of ['in', 'startsWith', 'gt']) await filterError([{ field: body, operator: op, value: ['x'] }], 'filters[0].operator');

    const address = F('address');
    expect(await match({ field: address, operator: 'contains', value: 'SPRINGFIELD' })).toEqual(['R1']);
    expect(await match({ field: address, operator: 'contains', value: 'terrace, springfield, il, 62701' })).toEqual(['R1']);
    expect(await match({ field: address, operator: 'contains', value: 'london, gb' })).toEqual(['R2']);
    expect(await match({ field: address, operator: 'eq', value: null })).toEqual(['R3', 'R4', 'R5']);
    expect(await match({ field: address, operator: 'ne', value: null })).toEqual(['R1', 'R2']);
    await filterError([{ field: address, operator: 'eq', value: { line1: 'x' } }], 'filters[0].value');
    for (const op of ['in', 'startsWith', 'lt']) await filterError([{ field: address, operator: op, value: 'x' }], 'filters[0].operator');
  });

  it('NUMBER: eq ne gt lt gte lte in', async () => {
    const count = F('count');
    expect(await match({ field: count, operator: 'eq', value: 10 })).toEqual(['R1']);
    expect(await match({ field: count, operator: 'eq', value: '20' })).toEqual(['R2']);
    expect(await match({ field: count, operator: 'ne', value: 10 })).toEqual(except('R1'));
    expect(await match({ field: count, operator: 'gt', value: 10 })).toEqual(['R2', 'R3']);
    expect(await match({ field: count, operator: 'lt', value: 20 })).toEqual(['R1']);
    expect(await match({ field: count, operator: 'gte', value: 20 })).toEqual(['R2', 'R3']);
    expect(await match({ field: count, operator: 'lte', value: 20 })).toEqual(['R1', 'R2']);
    expect(await match({ field: count, operator: 'in', value: [10, 30, 40] })).toEqual(['R1', 'R3']);
    expect(await match({ field: count, operator: 'gt', value: 9 }, { field: count, operator: 'lt', value: 30 })).toEqual(['R1', 'R2']);
    await filterError([{ field: count, operator: 'eq', value: 'ten' }], 'filters[0].value');
    await filterError([{ field: count, operator: 'gt', value: 1.5 }], 'filters[0].value');
    for (const op of ['contains', 'startsWith']) await filterError([{ field: count, operator: op, value: '1' }], 'filters[0].operator');
  });

  it('DECIMAL compares numerically ("10.5" > "9.75"), not as strings', async () => {
    const amount = F('amount');
    expect(await match({ field: amount, operator: 'gt', value: '9.75' })).toEqual(['R1', 'R3']);
    expect(await match({ field: amount, operator: 'gt', value: 9.8 })).toEqual(['R1', 'R3']);
    expect(await match({ field: amount, operator: 'lt', value: '10' })).toEqual(['R2']);
    expect(await match({ field: amount, operator: 'gte', value: '10.50' })).toEqual(['R1', 'R3']);
    expect(await match({ field: amount, operator: 'lte', value: '10.5' })).toEqual(['R1', 'R2']);
    expect(await match({ field: amount, operator: 'eq', value: '10.50' })).toEqual(['R1']);
    expect(await match({ field: amount, operator: 'eq', value: 100 })).toEqual(['R3']);
    expect(await match({ field: amount, operator: 'ne', value: '9.750' })).toEqual(except('R2'));
    expect(await match({ field: amount, operator: 'in', value: ['9.75', '100.0', 10.5] })).toEqual(['R1', 'R2', 'R3']);
    await filterError([{ field: amount, operator: 'gt', value: '1e3' }], 'filters[0].value');
    await filterError([{ field: amount, operator: 'contains', value: '1' }], 'filters[0].operator');
  });

  it('MONEY: numeric comparison, negative amounts', async () => {
    const price = F('price');
    expect(await match({ field: price, operator: 'gt', value: '0' })).toEqual(['R1', 'R2']);
    expect(await match({ field: price, operator: 'lt', value: 0 })).toEqual(['R3']);
    expect(await match({ field: price, operator: 'gte', value: '5.00' })).toEqual(['R1', 'R2']);
    expect(await match({ field: price, operator: 'lte', value: '5' })).toEqual(['R2', 'R3']);
    expect(await match({ field: price, operator: 'eq', value: '19.9' })).toEqual(['R1']);
    expect(await match({ field: price, operator: 'ne', value: '19.90' })).toEqual(except('R1'));
    expect(await match({ field: price, operator: 'in', value: ['5', '-3.50'] })).toEqual(['R2', 'R3']);
    // the field's scale is not applied to operands (they are not limits)
    expect(await match({ field: price, operator: 'gt', value: '19.899' })).toEqual(['R1']);
    await filterError([{ field: price, operator: 'startsWith', value: '1' }], 'filters[0].operator');
  });

  it('DATE: eq ne gt lt gte lte in; the operand must be a real date', async () => {
    const day = F('day');
    expect(await match({ field: day, operator: 'eq', value: '2024-01-15' })).toEqual(['R1']);
    expect(await match({ field: day, operator: 'ne', value: '2024-01-15' })).toEqual(except('R1'));
    expect(await match({ field: day, operator: 'gt', value: '2024-01-15' })).toEqual(['R2', 'R3']);
    expect(await match({ field: day, operator: 'lt', value: '2024-06-01' })).toEqual(['R1']);
    expect(await match({ field: day, operator: 'gte', value: '2024-06-01' })).toEqual(['R2', 'R3']);
    expect(await match({ field: day, operator: 'lte', value: '2024-06-01' })).toEqual(['R1', 'R2']);
    expect(await match({ field: day, operator: 'in', value: ['2024-01-15', '2025-12-31'] })).toEqual(['R1', 'R3']);
    await filterError([{ field: day, operator: 'eq', value: '2026-02-30' }], 'filters[0].value');
    await filterError([{ field: day, operator: 'gt', value: '15/01/2024' }], 'filters[0].value');
    await filterError([{ field: day, operator: 'contains', value: '2024' }], 'filters[0].operator');
  });

  it('DATE_TIME: eq ne gt lt gte lte in, operands normalized to UTC; a bare date means midnight UTC', async () => {
    const at = F('at');
    expect(await match({ field: at, operator: 'eq', value: '2024-01-15T11:00:00+01:00' })).toEqual(['R1']);
    expect(await match({ field: at, operator: 'eq', value: '2024-06-01' })).toEqual(['R2']);
    expect(await match({ field: at, operator: 'ne', value: '2024-01-15T10:00:00.000Z' })).toEqual(except('R1'));
    expect(await match({ field: at, operator: 'gt', value: '2024-01-15T10:00:00Z' })).toEqual(['R2', 'R3']);
    expect(await match({ field: at, operator: 'gte', value: '2024-01-15T10:00:00Z' })).toEqual(['R1', 'R2', 'R3']);
    expect(await match({ field: at, operator: 'lt', value: '2024-06-01T00:00:00.001Z' })).toEqual(['R1', 'R2']);
    expect(await match({ field: at, operator: 'lte', value: '2025-12-31T23:59:59.998Z' })).toEqual(['R1', 'R2']);
    expect(await match({ field: at, operator: 'gt', value: '2025-12-31T18:59:59-05:00' })).toEqual(['R3']);
    expect(await match({ field: at, operator: 'in', value: ['2024-06-01T02:00:00+02:00', '2025-12-31T23:59:59.999Z'] })).toEqual(['R2', 'R3']);
    await filterError([{ field: at, operator: 'gt', value: '2024-01-15T10:00:00' }], 'filters[0].value');
    await filterError([{ field: at, operator: 'startsWith', value: '2024' }], 'filters[0].operator');
  });

  it('BOOLEAN: eq ne (ne includes empty ones); only JSON booleans', async () => {
    const flag = F('flag');
    expect(await match({ field: flag, operator: 'eq', value: true })).toEqual(['R1', 'R3']);
    expect(await match({ field: flag, operator: 'eq', value: false })).toEqual(['R2']);
    expect(await match({ field: flag, operator: 'ne', value: true })).toEqual(['R2', 'R4', 'R5']);
    expect(await match({ field: flag, operator: 'ne', value: false })).toEqual(['R1', 'R3', 'R4', 'R5']);
    await filterError([{ field: flag, operator: 'eq', value: 'true' }], 'filters[0].value');
    for (const op of ['in', 'gt', 'contains', 'startsWith']) await filterError([{ field: flag, operator: op, value: [true] }], 'filters[0].operator');
  });

  it('single references (SINGLE_DATA_RECORD, SINGLE_FILE): eq ne in', async () => {
    const ref = F('ref');
    expect(await match({ field: ref, operator: 'eq', value: T[0] })).toEqual(['R1']);
    expect(await match({ field: ref, operator: 'ne', value: T[0] })).toEqual(except('R1'));
    expect(await match({ field: ref, operator: 'in', value: [T[0], T[2]] })).toEqual(['R1', 'R3']);
    await filterError([{ field: ref, operator: 'eq', value: 'not-an-id' }], 'filters[0].value');
    for (const op of ['contains', 'startsWith', 'gt']) await filterError([{ field: ref, operator: op, value: T[0] }], 'filters[0].operator');

    const file = F('file');
    expect(await match({ field: file, operator: 'eq', value: 'file-3333-3333-3333' })).toEqual(['R2']);
    expect(await match({ field: file, operator: 'ne', value: 'file-3333-3333-3333' })).toEqual(except('R2'));
    expect(await match({ field: file, operator: 'in', value: ['file-2222-2222-2222', 'file-3333-3333-3333'] })).toEqual(['R1', 'R2']);
    await filterError([{ field: file, operator: 'contains', value: 'file-2222-2222-2222' }], 'filters[0].operator');
  });

  it('multi references (MULTI_DATA_RECORD, MULTI_FILE): eq and contains = includes, ne = does not include, in = includes any', async () => {
    const refs = F('refs');
    expect(await match({ field: refs, operator: 'eq', value: T[1] })).toEqual(['R1', 'R2']);
    expect(await match({ field: refs, operator: 'contains', value: T[1] })).toEqual(['R1', 'R2']);
    expect(await match({ field: refs, operator: 'ne', value: T[1] })).toEqual(['R3', 'R4', 'R5']);
    expect(await match({ field: refs, operator: 'in', value: [T[0], T[2]] })).toEqual(['R1', 'R3']);
    expect(await match({ field: refs, operator: 'contains', value: T[0] }, { field: refs, operator: 'contains', value: T[1] })).toEqual(['R1']);
    await filterError([{ field: refs, operator: 'contains', value: 'T1' }], 'filters[0].value');
    for (const op of ['startsWith', 'gt', 'lte']) await filterError([{ field: refs, operator: op, value: T[0] }], 'filters[0].operator');

    const files = F('files');
    expect(await match({ field: files, operator: 'contains', value: 'file-3333-3333-3333' })).toEqual(['R1', 'R2']);
    expect(await match({ field: files, operator: 'eq', value: 'file-2222-2222-2222' })).toEqual(['R1']);
    expect(await match({ field: files, operator: 'ne', value: 'file-2222-2222-2222' })).toEqual(except('R1'));
    expect(await match({ field: files, operator: 'in', value: ['file-2222-2222-2222', 'file-4444-4444-4444'] })).toEqual(['R1']);
  });

  it('eq null = empty, ne null = has a value, for every kind; other operators refuse null', async () => {
    const full = { code: ['R1', 'R2', 'R3', 'R4', 'R5'], email: ['R1', 'R2', 'R3'], url: ['R1', 'R2'], phone: ['R1', 'R2'], count: ['R1', 'R2', 'R3'], amount: ['R1', 'R2', 'R3'], price: ['R1', 'R2', 'R3'], day: ['R1', 'R2', 'R3'], at: ['R1', 'R2', 'R3'], flag: ['R1', 'R2', 'R3'], ref: ['R1', 'R2', 'R3'], refs: ['R1', 'R2', 'R3'], file: ['R1', 'R2'], files: ['R1', 'R2'] } as const;
    for (const [column, present] of Object.entries(full)) {
      expect(await match({ field: F(column), operator: 'ne', value: null }), column).toEqual(present);
      expect(await match({ field: F(column), operator: 'eq', value: null }), column).toEqual(except(...present));
    }
    await filterError([{ field: F('count'), operator: 'gt', value: null }], 'filters[0].value');
    await filterError([{ field: F('title'), operator: 'contains', value: null }], 'filters[0].value');
    await filterError([{ field: F('title'), operator: 'eq' }], 'filters[0].value');
  });
});

describe('built-in fields', () => {
  it('calculatedName: eq ne contains startsWith (case-insensitive); other operators 400', async () => {
    expect(await match({ field: 'calculatedName', operator: 'eq', value: 'ALPHA ONE' })).toEqual(['R1']);
    expect(await match({ field: 'calculatedName', operator: 'ne', value: 'alpha one' })).toEqual(except('R1'));
    expect(await match({ field: 'calculatedName', operator: 'contains', value: 'GAMMA' })).toEqual(['R3', 'R4']);
    expect(await match({ field: 'calculatedName', operator: 'startsWith', value: 'delta 1' })).toEqual(['R4']);
    for (const op of ['gt', 'lt', 'gte', 'lte', 'in']) await filterError([{ field: 'calculatedName', operator: op, value: 'a' }], 'filters[0].operator');
  });

  it('createdAt / updatedAt: gt lt gte lte with ISO 8601 values; eq/ne/in are 400', async () => {
    const created = r5.createdAt;
    expect(await match({ field: 'createdAt', operator: 'gte', value: created })).toEqual(['R5']);
    expect(await match({ field: 'createdAt', operator: 'gt', value: created })).toEqual([]);
    expect(await match({ field: 'createdAt', operator: 'lt', value: created })).toEqual(['R1', 'R2', 'R3', 'R4']);
    expect(await match({ field: 'createdAt', operator: 'lte', value: created })).toEqual(ACTIVE);
    expect(await match({ field: 'createdAt', operator: 'gt', value: '2000-01-01' })).toEqual(ACTIVE);
    expect(await match({ field: 'createdAt', operator: 'lt', value: '2000-01-01T00:00:00+01:00' })).toEqual([]);

    const updated = r3Updated.updatedAt;
    expect(await match({ field: 'updatedAt', operator: 'gte', value: updated })).toEqual(['R3']);
    expect(await match({ field: 'updatedAt', operator: 'gt', value: updated })).toEqual([]);
    expect(await match({ field: 'updatedAt', operator: 'lt', value: updated })).toEqual(['R1', 'R2', 'R4', 'R5']);
    expect(await match({ field: 'updatedAt', operator: 'lte', value: updated })).toEqual(ACTIVE);
    expect(await match({ field: 'updatedAt', operator: 'gt', value: created }, { field: 'createdAt', operator: 'lt', value: created })).toEqual(['R3']);

    for (const op of ['eq', 'ne', 'in', 'contains']) await filterError([{ field: 'createdAt', operator: op, value: created }], 'filters[0].operator');
    await filterError([{ field: 'updatedAt', operator: 'gt', value: 'yesterday' }], 'filters[0].value');
    await filterError([{ field: 'createdAt', operator: 'gt', value: '2024-01-15T10:00:00' }], 'filters[0].value');
  });

  it('isArchived true searches archived memberships instead of active ones', async () => {
    const archived = await search({ filters: [{ field: 'isArchived', operator: 'eq', value: true }] });
    const data = expectOk(archived);
    expect(data.map((r: any) => r.id)).toEqual([archivedId]);
    expect(data[0].isArchived).toBe(true);
    expect(archived.body.meta.pagination.total).toBe(1);
    expect(await match({ field: 'isArchived', operator: 'eq', value: false })).toEqual(ACTIVE);
    // other filters apply within the archived ones
    expect(await match({ field: 'isArchived', operator: 'eq', value: true }, { field: F('count'), operator: 'eq', value: 10 })).toEqual(['R6']);
    expect(await match({ field: 'isArchived', operator: 'eq', value: true }, { field: F('count'), operator: 'eq', value: 20 })).toEqual([]);
    expect(await match({ field: F('count'), operator: 'eq', value: 10 })).toEqual(['R1']);
    // not in the default list either, but still readable by id, flagged
    const list = expectOk(await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${things.id}&limit=100`, { token: team.apiKey }));
    expect(list.map((r: any) => r.id)).not.toContain(archivedId);
    expect(expectOk(await server.request('GET', `/v1/data-records/${archivedId}`, { token: team.apiKey })).isArchived).toBe(true);
    await filterError([{ field: 'isArchived', operator: 'eq', value: 'true' }], 'filters[0].value');
    await filterError([{ field: 'isArchived', operator: 'ne', value: true }], 'filters[0].operator');
  });
});

describe('archived records', () => {
  it('can be updated (they stay archived, and searchable as archived with their new values) and deleted', async () => {
    const updated = expectOk(await server.request('PATCH', `/v1/data-records/${archivedId}`, { token: team.apiKey, body: { fields: { [F('count')]: 77 } } }));
    expect(updated).toMatchObject({ isArchived: true, fields: { [F('count')]: 77 } });
    expect(await match({ field: 'isArchived', operator: 'eq', value: true }, { field: F('count'), operator: 'eq', value: 77 })).toEqual(['R6']);
    expect(await match({ field: 'isArchived', operator: 'eq', value: true }, { field: 'updatedAt', operator: 'gte', value: updated.updatedAt })).toEqual(['R6']);
    expect(await match({ field: F('count'), operator: 'eq', value: 77 })).toEqual([]);
    expectOk(await server.request('DELETE', `/v1/data-records/${archivedId}`, { token: team.apiKey }));
    expect(await match({ field: 'isArchived', operator: 'eq', value: true })).toEqual([]);
    expectError(await server.request('GET', `/v1/data-records/${archivedId}`, { token: team.apiKey }), 404, 'NOT_FOUND');
  });
});

describe('filter errors', () => {
  it('a wrong operator for the type is 400 naming filters[i].operator; every bad filter is reported', async () => {
    const message = await filterError(
      [
        { field: F('count'), operator: 'eq', value: 1 },
        { field: F('flag'), operator: 'gt', value: true },
        { field: F('title'), operator: 'lt', value: 'a' },
      ],
      'filters[1].operator',
    );
    expect(message).toMatch(/eq, ne/);
    const error = expectError(
      await search({ filters: [{ field: F('count'), operator: 'eq', value: 1 }, { field: F('flag'), operator: 'gt', value: true }, { field: F('title'), operator: 'lt', value: 'a' }] }),
      400,
      'VALIDATION_ERROR',
    );
    expect(error.details?.map((d) => d.field)).toEqual(['filters[1].operator', 'filters[2].operator']);
    await filterError([{ field: F('count'), operator: 'like', value: 1 }], 'filters[0].operator');
    await filterError([{ field: F('count'), value: 1 }], 'filters[0].operator');
  });

  it('an unknown field (not of this collection, a label, a column name) is 400 naming filters[i].field', async () => {
    for (const field of ['fld-2345-2345-2345', 'count', 'Count', targets.fields.label!, 'name', 'id']) {
      const message = await filterError([{ field: F('count'), operator: 'eq', value: 1 }, { field, operator: 'eq', value: 1 }], 'filters[1].field');
      expect(message, field).toContain('not a field');
    }
    await filterError([{ operator: 'eq', value: 1 }], 'filters[0].field');
  });
});

describe('display names beyond ASCII', () => {
  it('query and calculatedName filters fold case like every other text filter (İ, final Σ, É), on create and after an update', async () => {
    const words = await createCollection(server, team, { name: 'Words', formula: '{word}', fields: { word: 'PLAIN_TEXT' } });
    const word = words.fields.word!;
    const res = expectOk(
      await server.request('POST', '/v1/data-records/batch', {
        token: team.apiKey,
        body: { dataCollectionSimplyId: words.id, records: ['İstanbul', 'ΣΊΣΥΦΟΣ', 'Émile Zola', 'Straße'].map((w) => ({ fields: { [word]: w } })) },
      }),
    );
    const id = Object.fromEntries(res.results.map((r: any) => [r.record.name, r.dataRecordSimplyId]));
    const find = async (body: Record<string, unknown>) => {
      const found = expectOk(await server.request('POST', '/v1/data-records/search', { token: team.apiKey, body: { dataCollectionSimplyId: words.id, ...body } }));
      return found.map((r: any) => r.name).sort();
    };
    // (lower-casing, not full case folding: "STRASSE" is not "straße")
    const typings: Record<string, string[]> = {
      İstanbul: ['İstanbul', 'İSTANBUL', 'i̇stanbul'],
      ΣΊΣΥΦΟΣ: ['ΣΊΣΥΦΟΣ', 'Σίσυφος', 'σίσυφος'],
      'Émile Zola': ['Émile Zola', 'ÉMILE ZOLA', 'émile zola'],
      Straße: ['Straße', 'STRAßE', 'straße'],
    };
    for (const [name, variants] of Object.entries(typings)) {
      for (const typed of variants) {
        expect(await find({ query: typed }), `query ${typed}`).toEqual([name]);
        expect(await find({ filters: [{ field: 'calculatedName', operator: 'eq', value: typed }] }), `eq ${typed}`).toEqual([name]);
        expect(await find({ filters: [{ field: 'calculatedName', operator: 'startsWith', value: typed.slice(0, 2) }] }), `startsWith ${typed}`).toContain(name);
        // the same text in a PLAIN_TEXT field matches the same way
        expect(await find({ filters: [{ field: word, operator: 'eq', value: typed }] }), `field eq ${typed}`).toEqual([name]);
      }
    }
    // a decomposed query matches the composed (NFC) name, like a calculatedName filter does
    expect(await find({ query: 'E\u0301mile' })).toEqual(['Émile Zola']);
    expect(await find({ filters: [{ field: 'calculatedName', operator: 'contains', value: 'E\u0301mile' }] })).toEqual(['Émile Zola']);

    // renamed through an update
    expectOk(await server.request('PATCH', `/v1/data-records/${id['Straße']}`, { token: team.apiKey, body: { fields: { [word]: 'ΟΔΥΣΣΕΥΣ' } } }));
    expect(await find({ query: 'ΟΔΥΣΣΕΥΣ' })).toEqual(['ΟΔΥΣΣΕΥΣ']);
    expect(await find({ filters: [{ field: 'calculatedName', operator: 'eq', value: 'οδυσσευς' }] })).toEqual(['ΟΔΥΣΣΕΥΣ']);
    expect(await find({ query: 'straße' })).toEqual([]);
  });
});
