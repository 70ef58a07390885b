// GET /v1/data-records/{id}/communications and its deprecated alias /outgoing-messages, over REST
// and GraphQL (dataRecordCommunications, dataRecordOutgoingMessages): the integration-safe
// projection (no protected value or numeric id anywhere), newest first, keyset paging that holds
// still while newer deliveries arrive, the filters, limits and refused cursors, the record facts in
// meta, and the alias's deprecation headers.
import { beforeAll, describe, expect, it } from 'vitest';
import { operation } from '../../src/app/graphql/fragments.ts';
import { COMMUNICATION_PAGE } from '../../src/modules/communications/communications.fragments.ts';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { restCaller } from '../support/rest-caller.ts';
import { useServer } from '../support/use-server.ts';
import { backdate, protectedDraft, recordIdOf, seedDeliveries, walk } from './history-fixtures.ts';

const ID = /^cmd-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;
const ITEM_FIELDS = [
  'attachmentCount', 'channelId', 'completeness', 'constituentMessageDeliverySimplyId', 'constituentSimplyId', 'createdAt', 'currentStateId',
  'hasProtectedContent', 'id', 'outgoingMessageSimplyId', 'sensitivity', 'sourceSimplyId', 'sourceType', 'stateChangedAt',
];
const META_FIELDS = ['limit', 'mergedConstituentSimplyIds', 'nextCursor', 'recordState', 'requestId', 'requestedDataRecordSimplyId', 'survivingDataRecordSimplyId'];
/** keys that would carry protected content or internals */
const FORBIDDEN_KEYS = /^(subject|renderedSubject|body|text|html|renderedText|renderedHtml|content|destination|to|toAddress|recipient|address|sender|senderAddress|from|attachments|filename|mailMessageId|mailMessageSimplyId|dataRecordId|teamId|outgoingMessageId|deliveryId|events|payload|providerPayload|storageKey)$/i;

const GQL = {
  list: operation(
    ['query($id: String!, $limit: Int, $cursor: String, $channelId: String, $currentStateId: String) { dataRecordCommunications(dataRecordSimplyId: $id, limit: $limit, cursor: $cursor, channelId: $channelId, currentStateId: $currentStateId) { ', ' } }'],
    COMMUNICATION_PAGE,
  ),
  alias: operation(['query($id: String!, $limit: Int) { dataRecordOutgoingMessages(dataRecordSimplyId: $id, limit: $limit) { ', ' } }'], COMMUNICATION_PAGE),
};

describe('communication history list', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });
  const call = restCaller(() => server, () => team.apiKey);
  const history = (record: string, query = '') => call('GET', `/v1/data-records/${record}/communications${query}`);
  let contacts: CollectionFixture;
  /** a record with a mixed history: 6 deliveries, seconds apart */
  let mixed: string;
  let mixedIds: string[];
  let mixedInternal: bigint;

  const newRecord = async (name: string) => (await createRecord(server, team.apiKey, contacts.id, { [contacts.fields.name!]: name, [contacts.fields.email!]: `${name}@example.test` })).id as string;

  beforeAll(async () => {
    contacts = await createCollection(server, team, { name: 'Contacts', formula: '{name}', fields: { name: 'PLAIN_TEXT', email: 'EMAIL_ADDRESS' } });
    mixed = await newRecord('mixed');
    mixedInternal = await recordIdOf(server, team, mixed);
    const drafts = [
      protectedDraft(team.teamId, mixedInternal, 'm0', { sourceType: 'AUTOMATION', sourceSimplyId: 'aut-2222-3333-4444' }),
      protectedDraft(team.teamId, mixedInternal, 'm1', { channelId: 'SMS', subject: null, html: null, attachments: [] }),
      protectedDraft(team.teamId, mixedInternal, 'm2', { state: 'SUPPRESSED' }),
      protectedDraft(team.teamId, mixedInternal, 'm3', { secrets: ['TEXT-MARK-m3'] }),
      protectedDraft(team.teamId, mixedInternal, 'm4', { channelId: 'SMS', state: 'FAILED', subject: null, text: null, html: null, attachments: [] }),
      protectedDraft(team.teamId, mixedInternal, 'm5'),
    ];
    // m5 was part of an outgoing message
    const message = await server.app.services.prisma.outgoingMessage.create({
      data: { simplyId: 'msg-2222-3333-4444', teamId: team.teamId, internalName: 'Autumn newsletter', createdByKind: 'API_KEY' },
    });
    drafts[5]!.outgoingMessageId = message.id;
    mixedIds = await seedDeliveries(server, drafts);
    // m0 oldest … m5 newest
    await backdate(server, team, mixedIds, (i) => 600 - i * 60);
    await server.app.services.pool.query(
      `UPDATE "ConstituentMessageDelivery" SET completeness = 'METADATA_ONLY', "completenessGapReason" = 'LEGACY_IMPORT' WHERE "teamId" = $1 AND "simplyId" = $2`,
      [team.teamId, mixedIds[1]],
    );
  });

  it('answers the integration-safe fields only, newest first, with the record facts in meta', async () => {
    const res = await history(mixed);
    const items = expectOk(res);
    expect(items.map((i: { id: string }) => i.id)).toEqual([...mixedIds].reverse());
    for (const item of items) {
      const expected = item.completenessGapReason === undefined ? ITEM_FIELDS : [...ITEM_FIELDS, 'completenessGapReason'].sort();
      expect(Object.keys(item).sort()).toEqual(expected);
      expect(item.id).toMatch(ID);
      expect(item.constituentMessageDeliverySimplyId).toBe(item.id);
      expect(item.constituentSimplyId).toBe(mixed);
    }
    const byId = new Map(items.map((i: { id: string }) => [i.id, i]));
    expect(byId.get(mixedIds[0]!)).toMatchObject({
      sourceType: 'AUTOMATION', sourceSimplyId: 'aut-2222-3333-4444', channelId: 'EMAIL', currentStateId: 'QUEUED', completeness: 'EXACT',
      sensitivity: 'STANDARD', hasProtectedContent: true, attachmentCount: 1, outgoingMessageSimplyId: null,
    });
    expect(byId.get(mixedIds[1]!)).toMatchObject({ channelId: 'SMS', completeness: 'METADATA_ONLY', completenessGapReason: 'LEGACY_IMPORT', attachmentCount: 0 });
    expect(byId.get(mixedIds[2]!)).toMatchObject({ currentStateId: 'SUPPRESSED' });
    expect(byId.get(mixedIds[3]!)).toMatchObject({ sensitivity: 'SENSITIVE' });
    expect(byId.get(mixedIds[4]!)).toMatchObject({ currentStateId: 'FAILED', hasProtectedContent: false });
    expect(byId.get(mixedIds[5]!)).toMatchObject({ outgoingMessageSimplyId: 'msg-2222-3333-4444', sourceType: 'MESSAGE_COMPOSER' });
    expect(Object.keys(res.body.meta).sort()).toEqual(META_FIELDS);
    expect(res.body.meta).toMatchObject({
      nextCursor: null, limit: 25, recordState: 'ACTIVE', requestedDataRecordSimplyId: mixed, survivingDataRecordSimplyId: mixed, mergedConstituentSimplyIds: [],
    });
  });

  it('never shows a protected value, a protected key or a numeric id, on the list or the alias, over REST or GraphQL', async () => {
    const internalIds = (await server.app.services.pool.query(`SELECT id::text FROM "ConstituentMessageDelivery" WHERE "teamId" = $1 AND "dataRecordId" = $2`, [team.teamId, mixedInternal])).rows.map((r) => r.id as string);
    const responses = [
      (await history(mixed)).body,
      (await history(mixed, '?limit=2')).body,
      (await call('GET', `/v1/data-records/${mixed}/outgoing-messages`)).body,
      gqlData(await server.graphql(GQL.list, { id: mixed }, { token: team.apiKey })),
      gqlData(await server.graphql(GQL.alias, { id: mixed }, { token: team.apiKey })),
    ];
    for (const body of responses) {
      const text = JSON.stringify(body);
      expect(text).not.toMatch(/MARK-|dest-|sender-|@constituent\.test|@team\.test|fil-ATT/);
      const problems: string[] = [];
      walk(body, (key, value) => {
        if (FORBIDDEN_KEYS.test(key)) problems.push(`key ${key}`);
        if (/id$/i.test(key) && value !== null && !(typeof value === 'string' && !/^\d+$/.test(value))) problems.push(`${key}: ${JSON.stringify(value)} is numeric`);
        if (typeof value === 'number' && key !== 'attachmentCount' && key !== 'limit') problems.push(`number under ${key}`);
        if ((typeof value === 'string' || typeof value === 'number') && internalIds.includes(String(value)) && key !== 'attachmentCount' && key !== 'limit') problems.push(`internal id under ${key}`);
      });
      expect(problems).toEqual([]);
    }
  });

  it('pages by keyset: limit, cursors through to a null nextCursor, the same rows as one long page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await history(mixed, `?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      const items = expectOk(res);
      expect(items.length).toBeLessThanOrEqual(4);
      seen.push(...items.map((i: { id: string }) => i.id));
      cursor = res.body.meta.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    // an empty cursor (or filter) is no cursor: the first page
    expect(expectOk(await history(mixed, '?limit=4&cursor=&channelId=')).map((i: { id: string }) => i.id)).toEqual(seen.slice(0, 4));
    expect(seen).toEqual([...mixedIds].reverse());
    // an exact multiple: the last full page already says there is nothing more
    const two = await history(mixed, '?limit=3');
    const rest = await history(mixed, `?limit=3&cursor=${two.body.meta.nextCursor}`);
    expect(expectOk(rest)).toHaveLength(3);
    expect(rest.body.meta.nextCursor).toBeNull();
  });

  it('breaks ties of one createdAt by delivery, and defaults to 25 per page (at most 100)', async () => {
    const record = await newRecord('many');
    const internal = await recordIdOf(server, team, record);
    // one statement: one createdAt for all 130
    const ids = await seedDeliveries(server, Array.from({ length: 130 }, (_, i) => protectedDraft(team.teamId, internal, `t${i}`)));
    const first = await history(record);
    expect(expectOk(first)).toHaveLength(25);
    expect(first.body.meta.limit).toBe(25);
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await history(record, `?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      all.push(...expectOk(res).map((i: { id: string }) => i.id));
      cursor = res.body.meta.nextCursor;
    } while (cursor);
    // newest first: among equal createdAt, the later-written row first
    expect(all).toEqual([...ids].reverse());
  });

  it('holds still while newer deliveries arrive between pages: no duplicates, no gaps among the older rows', async () => {
    const record = await newRecord('busy');
    const internal = await recordIdOf(server, team, record);
    const older = await seedDeliveries(server, Array.from({ length: 10 }, (_, i) => protectedDraft(team.teamId, internal, `o${i}`)));
    await backdate(server, team, older, (i) => 1000 - i);
    const seen: string[] = [];
    let cursor: string | null = null;
    let round = 0;
    do {
      const res = await history(record, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...expectOk(res).map((i: { id: string }) => i.id));
      cursor = res.body.meta.nextCursor;
      // a burst of newer sends (and one concurrent with the next read) after every page
      await seedDeliveries(server, Array.from({ length: 4 }, (_, i) => protectedDraft(team.teamId, internal, `n${round}-${i}`)));
      round++;
    } while (cursor);
    expect(seen).toEqual([...older].reverse());
    expect(new Set(seen).size).toBe(seen.length);
    // the newer ones are all there on a fresh first page
    expect(expectOk(await history(record, '?limit=100'))).toHaveLength(10 + 4 * round);
  });

  it('filters by channelId and currentStateId (alone and together), paging within the filter', async () => {
    const ids = (q: string) => history(mixed, q).then((r) => expectOk(r).map((i: { id: string }) => i.id));
    expect(await ids('?channelId=SMS')).toEqual([mixedIds[4], mixedIds[1]]);
    expect(await ids('?currentStateId=QUEUED')).toEqual([mixedIds[5], mixedIds[3], mixedIds[1], mixedIds[0]]);
    expect(await ids('?channelId=SMS&currentStateId=FAILED')).toEqual([mixedIds[4]]);
    expect(await ids('?channelId=WHATSAPP')).toEqual([]);
    const first = await history(mixed, '?currentStateId=QUEUED&limit=3');
    const second = await history(mixed, `?currentStateId=QUEUED&limit=3&cursor=${first.body.meta.nextCursor}`);
    expect(expectOk(second).map((i: { id: string }) => i.id)).toEqual([mixedIds[0]]);
    const gql = gqlData(await server.graphql(GQL.list, { id: mixed, channelId: 'EMAIL', currentStateId: 'SUPPRESSED' }, { token: team.apiKey }));
    expect(gql.dataRecordCommunications.nodes.map((n: { id: string }) => n.id)).toEqual([mixedIds[2]]);
  });

  it('refuses bad parameters with 400 VALIDATION_ERROR naming them (offset included: this list pages by cursor)', async () => {
    const cases: [string, string][] = [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=abc', 'limit'],
      ['?channelId=PIGEON', 'channelId'],
      ['?channelId=email', 'channelId'],
      ['?currentStateId=OPENED', 'currentStateId'],
      ['?offset=25', 'offset'],
    ];
    for (const [query, field] of cases) {
      const error = expectError(await history(mixed, query), 400, 'VALIDATION_ERROR', query);
      expect(error.details?.map((d) => d.field), query).toContain(field);
    }
    expectError(await history('12345'), 400, 'VALIDATION_ERROR');
    expectGqlError(await server.graphql(GQL.list, { id: mixed, limit: 101 }, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
    expectGqlError(await server.graphql(GQL.list, { id: mixed, currentStateId: 'NOPE' }, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
  });

  it('refuses a cursor that is not one of this record’s: garbage, tampered, another record’s, a missing delivery', async () => {
    const other = await newRecord('other');
    const otherInternal = await recordIdOf(server, team, other);
    await seedDeliveries(server, [protectedDraft(team.teamId, otherInternal, 'x1'), protectedDraft(team.teamId, otherInternal, 'x2')]);
    const good = (await history(mixed, '?limit=2')).body.meta.nextCursor as string;
    const othersCursor = (await history(other, '?limit=1')).body.meta.nextCursor as string;
    const decoded = Buffer.from(good, 'base64url').toString();
    const forge = (text: string) => Buffer.from(text).toString('base64url');
    const bad = [
      'not a cursor',
      'AAAA',
      good.slice(0, -2),
      `${good}x`,
      othersCursor,
      forge(decoded.replace(/cmd-[^|]+$/, 'cmd-2222-2222-2222')),
      forge(decoded.replace(/^h1/, 'h9')),
      forge(`${decoded}|extra`),
      forge(decoded.replace(mixed, other)),
      'x'.repeat(300),
    ];
    for (const cursor of bad) {
      const error = expectError(await history(mixed, `?cursor=${encodeURIComponent(cursor)}`), 400, 'VALIDATION_ERROR', cursor);
      expect(error.details?.[0]?.field).toBe('cursor');
    }
    expectGqlError(await server.graphql(GQL.list, { id: mixed, cursor: othersCursor }, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
    // the good one still works
    expect(expectOk(await history(mixed, `?limit=2&cursor=${good}`))).toHaveLength(2);
  });

  it('serves a record without deliveries, and an archived record’s history with recordState ARCHIVED', async () => {
    const quiet = await newRecord('quiet');
    const res = await history(quiet);
    expect(expectOk(res)).toEqual([]);
    expect(res.body.meta).toMatchObject({ nextCursor: null, recordState: 'ACTIVE' });
    const internal = await recordIdOf(server, team, quiet);
    await server.app.services.pool.query(`UPDATE "DataRecordMembership" SET state = 'ARCHIVED' WHERE "teamId" = $1 AND "recordId" = $2`, [team.teamId, internal]);
    expect((await history(quiet)).body.meta.recordState).toBe('ARCHIVED');
  });

  it('GraphQL answers what REST answers', async () => {
    const rest = await history(mixed, '?limit=4');
    const gql = gqlData(await server.graphql(GQL.list, { id: mixed, limit: 4 }, { token: team.apiKey })).dataRecordCommunications;
    const { requestId: _r, ...meta } = rest.body.meta;
    const { nodes, ...facts } = gql;
    expect(facts).toEqual(meta);
    expect(nodes.map(({ completenessGapReason, ...n }: Record<string, unknown>) => (completenessGapReason === null ? n : { ...n, completenessGapReason }))).toEqual(rest.body.data);
  });

  describe('deprecated alias /outgoing-messages', () => {
    it('answers the same page and parameters, with Deprecation and a Link to its successor', async () => {
      const res = await call('GET', `/v1/data-records/${mixed}/outgoing-messages?limit=2&channelId=EMAIL`);
      const current = await history(mixed, '?limit=2&channelId=EMAIL');
      expect(expectOk(res)).toEqual(expectOk(current));
      const { requestId: _a, ...aliasMeta } = res.body.meta;
      const { requestId: _b, ...meta } = current.body.meta;
      expect(aliasMeta).toEqual(meta);
      expect(res.headers.get('deprecation')).toBe('true');
      expect(res.headers.get('link')).toBe(`</v1/data-records/${mixed}/communications>; rel="successor-version"`);
      expect(res.headers.get('sunset')).toBeNull();
      // its cursors are the successor's
      const next = await call('GET', `/v1/data-records/${mixed}/outgoing-messages?limit=2&channelId=EMAIL&cursor=${res.body.meta.nextCursor}`);
      expect(expectOk(next)).toEqual(expectOk(await history(mixed, `?limit=2&channelId=EMAIL&cursor=${res.body.meta.nextCursor}`)));
      expect(current.headers.get('deprecation')).toBeNull();
    });

    it('says so on refusals too', async () => {
      for (const [res, status, code] of [
        [await call('GET', '/v1/data-records/ZZZZ-ZZZZ-ZZZZ/outgoing-messages'), 404, 'NOT_FOUND'],
        [await call('GET', `/v1/data-records/${mixed}/outgoing-messages?limit=0`), 400, 'VALIDATION_ERROR'],
        [await server.request('GET', `/v1/data-records/${mixed}/outgoing-messages`), 401, 'UNAUTHENTICATED'],
      ] as const) {
        expectError(res, status, code);
        expect(res.headers.get('deprecation')).toBe('true');
      }
    });

    it('is marked deprecated in GraphQL and OpenAPI', async () => {
      const introspection = gqlData(await server.graphql('{ __type(name: "Query") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }', {}, { token: team.apiKey }));
      const fields = introspection.__type.fields as { name: string; isDeprecated: boolean; deprecationReason: string | null }[];
      expect(fields.find((f) => f.name === 'dataRecordOutgoingMessages')).toEqual({ name: 'dataRecordOutgoingMessages', isDeprecated: true, deprecationReason: 'Use dataRecordCommunications' });
      expect(fields.find((f) => f.name === 'dataRecordCommunications')?.isDeprecated).toBe(false);
      const openapi = (await server.request('GET', '/openapi.json')).body;
      expect(openapi.paths['/v1/data-records/{dataRecordSimplyId}/outgoing-messages'].get.deprecated).toBe(true);
      expect(openapi.paths['/v1/data-records/{dataRecordSimplyId}/communications'].get.deprecated).toBeUndefined();
    });
  });
});
