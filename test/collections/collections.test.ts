// Collection administration and reads over REST and GraphQL (docs/api/data-collections.md):
// create with every data type, read back, rename, archive, update (archetype, parent), limits,
// validation errors, and one TeamSchemaVersion per schema change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_TYPES } from '../../src/kernel/values/index.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { postCollection, schemaVersions } from '../support/collection-fixtures.ts';
import { createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { restCaller } from '../support/rest-caller.ts';

const COLLECTION_ID = /^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;
const FIELD_ID = /^fld-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;
const SUMMARY_KEYS = [
  'archetype',
  'createdAt',
  'dataCollectionSimplyId',
  'effectiveArchetype',
  'enumDataCollectionTypeId',
  'fieldCount',
  'id',
  'isArchived',
  'name',
  'parentDataCollectionSimplyId',
  'pluralName',
  'recordCount',
  'singularName',
  'type',
  'updatedAt',
];
const FIELD_KEYS = ['columnName', 'config', 'createdAt', 'dataFieldSimplyId', 'dataType', 'id', 'isRequired', 'sortOrder', 'title', 'updatedAt'];

/** A config for every type that takes one (the others get none). */
const CONFIGS: Partial<Record<string, unknown>> = {
  PLAIN_TEXT: { maxLength: 200 },
  FORMATTED_TEXT: { maxLength: 5000 },
  NUMBER: { min: 0, max: 150 },
  DECIMAL: { scale: 3, min: '-1.5', max: 1000 },
  MONEY: { currency: 'eur' },
  PHONE_NUMBER: { defaultCountry: 'us' },
  PHYSICAL_ADDRESS: { defaultCountryCode: 'de' },
  MULTI_DATA_RECORD: { maxItems: 10 },
  MULTI_FILE: { maxItems: 3 },
  MULTI_IMAGE: { maxItems: 4 },
};

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let counter = 0;

const call = restCaller(() => server, () => team.apiKey);

const create = (body: Record<string, unknown>, token = team.apiKey): Promise<any> => postCollection(server, token, body);

const versions = (teamId = team.teamId) => schemaVersions(server, teamId);

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  other = await createTeam(server);
});
afterAll(() => server.close());

describe('create and read', () => {
  it('creates a collection with a field of every data type; REST and GraphQL read it back', async () => {
    const before = (await versions()).length;
    const fields = DATA_TYPES.map((dataType, i) => ({
      title: i === 0 ? { en: 'Full name', de: 'Vollständiger Name' } : `${dataType} field`,
      dataType,
      ...(i % 3 === 0 ? { isRequired: true } : {}),
      ...(CONFIGS[dataType] ? { config: CONFIGS[dataType] } : {}),
    }));
    const created = await create({
      name: { en: 'Members', de: 'Mitglieder' },
      singularName: 'Member',
      pluralName: 'Members',
      archetype: 'PERSON',
      fields,
      dataRecordCalculatedNameFormula: '{full_name} <{email_address_field}>',
    });
    expect(created.id).toMatch(COLLECTION_ID);
    expect(created).toMatchObject({
      dataCollectionSimplyId: created.id,
      name: { en: 'Members', de: 'Mitglieder' },
      singularName: 'Member',
      pluralName: 'Members',
      archetype: 'PERSON',
      effectiveArchetype: 'PERSON',
      type: 'STANDARD',
      enumDataCollectionTypeId: 'STANDARD',
      parentDataCollectionSimplyId: null,
      isArchived: false,
      fieldCount: DATA_TYPES.length,
      recordCount: 0,
      filterCriteria: null,
    });
    expect(created.fields).toHaveLength(DATA_TYPES.length);
    created.fields.forEach((f: any, i: number) => {
      expect(Object.keys(f).sort()).toEqual(FIELD_KEYS);
      expect(f.id).toMatch(FIELD_ID);
      expect(f.dataFieldSimplyId).toBe(f.id);
      expect(f).toMatchObject({ dataType: DATA_TYPES[i], sortOrder: i, isRequired: i % 3 === 0, title: fields[i]!.title });
    });
    const byType = Object.fromEntries(created.fields.map((f: any) => [f.dataType, f]));
    // column names come from the titles (the `en` text of a localized one)
    expect(byType.PLAIN_TEXT.columnName).toBe('full_name');
    expect(byType.SINGLE_DATA_RECORD.columnName).toBe('single_data_record_field');
    // configs come back canonical (upper-cased codes, decimal bounds as strings); none → {}
    expect(byType.MONEY.config).toEqual({ currency: 'EUR' });
    expect(byType.DECIMAL.config).toEqual({ scale: 3, min: '-1.5', max: '1000' });
    expect(byType.PHONE_NUMBER.config).toEqual({ defaultCountry: 'US' });
    expect(byType.DATE.config).toEqual({});
    // the formula is stored with field ids
    expect(created.dataRecordCalculatedNameFormula).toBe(`{${byType.PLAIN_TEXT.id}} <{${byType.EMAIL_ADDRESS.id}}>`);

    const detail = expectOk(await call('GET', `/v1/data-collections/${created.id}`));
    expect(detail).toEqual(created);
    expect(expectOk(await call('GET', `/v1/data-collections/${created.id}/fields`))).toEqual(created.fields);
    expect(expectOk(await call('GET', `/v1/data-collections/${created.id}/fields/${byType.MONEY.id}`))).toEqual(byType.MONEY);

    const list = await call('GET', '/v1/data-collections?limit=100');
    const summary = (expectOk(list) as any[]).find((c) => c.id === created.id);
    expect(Object.keys(summary).sort()).toEqual(SUMMARY_KEYS);
    const { fields: _f, dataRecordCalculatedNameFormula: _d, filterCriteria: _c, ...summaryOfDetail } = detail;
    expect(summary).toEqual(summaryOfDetail);
    expect(list.body.meta.pagination).toMatchObject({ limit: 100, offset: 0, hasMore: false });

    const gql = gqlData(
      await server.graphql(
        `query($id: String!) {
          dataCollection(dataCollectionSimplyId: $id) { id name archetype fieldCount fields { id columnName dataType config } }
          dataCollectionFields(dataCollectionSimplyId: $id) { id }
          dataCollectionField(dataCollectionSimplyId: $id, dataFieldSimplyId: "${byType.URL.id}") { id dataType title }
          dataCollections(limit: 100) { nodes { id } pagination { total } }
        }`,
        { id: created.id },
        { token: team.apiKey },
      ),
    );
    expect(gql.dataCollection).toMatchObject({ id: created.id, name: created.name, archetype: 'PERSON', fieldCount: DATA_TYPES.length });
    expect(gql.dataCollection.fields.map((f: any) => f.id)).toEqual(created.fields.map((f: any) => f.id));
    expect(gql.dataCollectionFields).toHaveLength(DATA_TYPES.length);
    expect(gql.dataCollectionField).toEqual({ id: byType.URL.id, dataType: 'URL', title: 'URL field' });
    expect(gql.dataCollections.nodes.map((n: any) => n.id)).toContain(created.id);

    // one schema change, one version, with the new collection in its snapshot
    const after = await versions();
    expect(after).toHaveLength(before + 1);
    const last = after.at(-1)!;
    expect(last.summary).toContain(created.id);
    expect(last.actorKind).toBe('API_KEY');
    expect(JSON.stringify(last.snapshot)).toContain(byType.MONEY.id);
  });

  it('derives unique column names (accents, digits, collisions, 63 characters) and keeps given ones', async () => {
    const long = 'x'.repeat(80);
    const created = await create({
      name: 'Names',
      fields: [
        { title: 'Straße & Größe', dataType: 'PLAIN_TEXT' },
        { title: 'E-mail', dataType: 'EMAIL_ADDRESS' },
        { title: 'e mail', dataType: 'EMAIL_ADDRESS' },
        { title: 'E.Mail', dataType: 'EMAIL_ADDRESS' },
        { title: '2nd phone', dataType: 'PHONE_NUMBER' },
        { title: '!!!', dataType: 'BOOLEAN' },
        { title: long, dataType: 'PLAIN_TEXT' },
        { title: long, dataType: 'PLAIN_TEXT' },
        { title: 'firstName', dataType: 'PLAIN_TEXT' },
        { title: 'Anything', dataType: 'PLAIN_TEXT', columnName: 'e_mail_4' },
      ],
    });
    expect(created.fields.map((f: any) => f.columnName)).toEqual([
      'strasse_grosse',
      'e_mail',
      'e_mail_2',
      'e_mail_3',
      'f_2nd_phone',
      'field',
      'x'.repeat(63),
      `${'x'.repeat(61)}_2`,
      'first_name',
      'e_mail_4',
    ]);
  });

  it('creates without fields, with defaults (STANDARD, no archetype, no names)', async () => {
    const created = await create({ name: 'Empty' });
    expect(created).toMatchObject({ type: 'STANDARD', archetype: null, effectiveArchetype: null, singularName: null, pluralName: null, fields: [], fieldCount: 0, dataRecordCalculatedNameFormula: null });
    const cl = await create({ name: 'Options', type: 'CUSTOM_LIST', fields: [{ title: 'Label', dataType: 'PLAIN_TEXT' }] });
    expect(cl).toMatchObject({ type: 'CUSTOM_LIST', enumDataCollectionTypeId: 'CUSTOM_LIST', fieldCount: 1 });
  });

  it('accepts 500 fields and refuses 501', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ title: `Field ${i}`, dataType: 'PLAIN_TEXT' }));
    const created = await create({ name: 'Wide', fields: many(500) });
    expect(created.fieldCount).toBe(500);
    expect(created.fields.at(-1).columnName).toBe('field_499');
    const error = expectError(await call('POST', '/v1/data-collections', { name: 'Too wide', fields: many(501) }), 400, 'VALIDATION_ERROR');
    expect(error.details).toContainEqual({ field: 'fields', message: 'at most 500 fields' });
    // the 501st field cannot be added later either
    const add = expectError(await call('POST', `/v1/data-collections/${created.id}/fields`, { title: 'One more', dataType: 'BOOLEAN' }), 400, 'VALIDATION_ERROR');
    expect(add.message).toMatch(/at most 500 fields/);
  });
});

describe('list paging', () => {
  it('pages oldest first; limit 0 / 101 / offset -1 / non-integers are 400', async () => {
    const pagingTeam = await createTeam(server);
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) ids.push((await create({ name }, pagingTeam.apiKey)).id);
    const page = await call('GET', '/v1/data-collections?limit=2', undefined, pagingTeam.apiKey);
    expect(expectOk(page).map((c: any) => c.id)).toEqual(ids.slice(0, 2));
    expect(page.body.meta.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
    const rest = await call('GET', '/v1/data-collections?limit=2&offset=2', undefined, pagingTeam.apiKey);
    expect(expectOk(rest).map((c: any) => c.id)).toEqual([ids[2]]);
    expect(rest.body.meta.pagination).toEqual({ total: 3, limit: 2, offset: 2, hasMore: false });
    const beyond = await call('GET', '/v1/data-collections?offset=10', undefined, pagingTeam.apiKey);
    expect(expectOk(beyond)).toEqual([]);
    expect(beyond.body.meta.pagination).toEqual({ total: 3, limit: 25, offset: 10, hasMore: false });
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=ten', 'includeArchived=yes']) {
      const error = expectError(await call('GET', `/v1/data-collections?${q}`, undefined, pagingTeam.apiKey), 400, 'VALIDATION_ERROR', q);
      expect(error.details?.[0]?.field).toBe(q.split('=')[0]);
    }
    expectGqlError(await server.graphql(`{ dataCollections(limit: 101) { nodes { id } } }`, {}, { token: pagingTeam.apiKey }), 'VALIDATION_ERROR', 400);
  });
});

describe('rename, archive, update', () => {
  it('renames (singular/plural: absent unchanged, null cleared) and records a version each', async () => {
    const c = await create({ name: 'Old', singularName: 'Old one', pluralName: 'Old ones' });
    const before = (await versions()).length;
    const renamed = expectOk(await call('POST', `/v1/data-collections/${c.id}/rename`, { name: { en: 'New', fr: 'Nouveau' } }));
    expect(renamed).toMatchObject({ id: c.id, name: { en: 'New', fr: 'Nouveau' }, singularName: 'Old one', pluralName: 'Old ones' });
    const cleared = expectOk(await call('POST', `/v1/data-collections/${c.id}/rename`, { name: 'Newer', singularName: null, pluralName: 'Newest ones' }));
    expect(cleared).toMatchObject({ name: 'Newer', singularName: null, pluralName: 'Newest ones' });
    const gql = gqlData(
      await server.graphql(`mutation($id: String!) { renameDataCollection(dataCollectionSimplyId: $id, input: { name: "Via GraphQL", pluralName: null }) { name singularName pluralName } }`, { id: c.id }, { token: team.apiKey }),
    );
    expect(gql.renameDataCollection).toEqual({ name: 'Via GraphQL', singularName: null, pluralName: null });
    const after = await versions();
    expect(after).toHaveLength(before + 3);
    expect(after.at(-3)!.summary).toBe(`collection renamed: New (${c.id})`);
    expect(after.map((v) => v.version)).toEqual(after.map((_, i) => i + 1));

    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 42 }, { name: 'x', extra: 1 }, { name: { english: 'x' } }, { name: 'x'.repeat(501) }]) {
      expectError(await call('POST', `/v1/data-collections/${c.id}/rename`, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
    }
    expectError(await call('POST', `/v1/data-collections/${c.id}/rename`), 400, 'VALIDATION_ERROR');
    expect(await versions()).toHaveLength(before + 3);
  });

  it('archives and restores; archived collections leave the default list', async () => {
    const c = await create({ name: 'Archivable' });
    const archived = expectOk(await call('POST', `/v1/data-collections/${c.id}/archive`, { isArchived: true }));
    expect(archived.isArchived).toBe(true);
    const ids = async (q = '') => (expectOk(await call('GET', `/v1/data-collections?limit=100${q}`)) as any[]).map((x) => x.id);
    expect(await ids()).not.toContain(c.id);
    expect(await ids('&includeArchived=true')).toContain(c.id);
    expect(expectOk(await call('GET', `/v1/data-collections/${c.id}`)).isArchived).toBe(true);
    const restored = gqlData(await server.graphql(`mutation($id: String!) { archiveDataCollection(dataCollectionSimplyId: $id, isArchived: false) { isArchived } }`, { id: c.id }, { token: team.apiKey }));
    expect(restored.archiveDataCollection.isArchived).toBe(false);
    expect(await ids()).toContain(c.id);
    for (const body of [{}, { isArchived: 'yes' }, { isArchived: true, name: 'x' }]) {
      expectError(await call('POST', `/v1/data-collections/${c.id}/archive`, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
    }
    const summaries = (await versions()).slice(-2).map((v) => v.summary);
    expect(summaries).toEqual([`collection archived: ${c.id}`, `collection restored: ${c.id}`]);
  });

  it('archetype: set, cleared, inherited by children; parents: same team only, no cycles', async () => {
    const root = await create({ name: 'Root', archetype: 'ORGANIZATION' });
    const child = await create({ name: 'Child', parentDataCollectionSimplyId: root.id });
    expect(child).toMatchObject({ archetype: null, effectiveArchetype: 'ORGANIZATION', parentDataCollectionSimplyId: root.id });
    const grandchild = await create({ name: 'Grandchild', parentDataCollectionSimplyId: child.id, archetype: 'HOUSEHOLD' });
    expect(grandchild.effectiveArchetype).toBe('HOUSEHOLD');

    const patched = expectOk(await call('PATCH', `/v1/data-collections/${root.id}`, { archetype: 'EVENT' }));
    expect(patched.archetype).toBe('EVENT');
    expect(expectOk(await call('GET', `/v1/data-collections/${child.id}`)).effectiveArchetype).toBe('EVENT');
    expectOk(await call('PATCH', `/v1/data-collections/${root.id}`, { archetype: null }));
    expect(expectOk(await call('GET', `/v1/data-collections/${child.id}`)).effectiveArchetype).toBeNull();

    // cycles: root under its grandchild, a collection under itself
    const cycle = expectError(await call('PATCH', `/v1/data-collections/${root.id}`, { parentDataCollectionSimplyId: grandchild.id }), 400, 'VALIDATION_ERROR');
    expect(cycle.details).toEqual([{ field: 'parentDataCollectionSimplyId', message: 'would make the collection its own ancestor' }]);
    expectError(await call('PATCH', `/v1/data-collections/${root.id}`, { parentDataCollectionSimplyId: root.id }), 400, 'VALIDATION_ERROR');
    // move the grandchild to the root, then detach it
    expect(expectOk(await call('PATCH', `/v1/data-collections/${grandchild.id}`, { parentDataCollectionSimplyId: root.id })).parentDataCollectionSimplyId).toBe(root.id);
    expect(expectOk(await call('PATCH', `/v1/data-collections/${grandchild.id}`, { parentDataCollectionSimplyId: null })).parentDataCollectionSimplyId).toBeNull();

    // another team's collection as parent: 404, as if it did not exist
    const theirs = await create({ name: 'Theirs' }, other.apiKey);
    expectError(await call('POST', '/v1/data-collections', { name: 'Stolen parent', parentDataCollectionSimplyId: theirs.id }), 404, 'NOT_FOUND');
    expectError(await call('PATCH', `/v1/data-collections/${child.id}`, { parentDataCollectionSimplyId: theirs.id }), 404, 'NOT_FOUND');
    const bad = expectError(await call('POST', '/v1/data-collections', { name: 'x', parentDataCollectionSimplyId: '12' }), 400, 'VALIDATION_ERROR');
    expect(bad.details?.[0]?.field).toBe('parentDataCollectionSimplyId');

    // parent chains stop at 16 levels
    const chainTeam = await createTeam(server);
    let parent = (await create({ name: 'L1' }, chainTeam.apiKey)).id;
    for (let level = 2; level <= 16; level++) parent = (await create({ name: `L${level}`, parentDataCollectionSimplyId: parent }, chainTeam.apiKey)).id;
    const deep = expectError(await call('POST', '/v1/data-collections', { name: 'L17', parentDataCollectionSimplyId: parent }, chainTeam.apiKey), 400, 'VALIDATION_ERROR');
    expect(deep.details?.[0]?.message).toMatch(/at most 16 levels/);

    // an empty PATCH is refused; GraphQL updateDataCollection works the same way
    expectError(await call('PATCH', `/v1/data-collections/${root.id}`, {}), 400, 'VALIDATION_ERROR');
    const gql = gqlData(await server.graphql(`mutation($id: String!) { updateDataCollection(dataCollectionSimplyId: $id, input: { archetype: TASK }) { archetype } }`, { id: root.id }, { token: team.apiKey }));
    expect(gql.updateDataCollection.archetype).toBe('TASK');
  });
});

describe('validation errors', () => {
  const post = (body: unknown) => call('POST', '/v1/data-collections', body);

  it('names the fields of every problem, and writes nothing', async () => {
    const before = (await versions()).length;
    // GraphQL's coercion of the input object (required fields, enums, scalars) names the field in the message
    const coercion: [unknown, string][] = [
      [{}, '"name"'],
      [{ name: 'x', fields: [{ dataType: 'PLAIN_TEXT' }] }, '"title"'],
      [{ name: '' }, 'must not be empty'],
      [{ name: 'x', archetype: 'ALIEN' }, 'DataCollectionArchetype'],
      [{ name: 'x', type: 'VIEW' }, 'DataCollectionType'],
      [{ name: 'x', fields: 'none' }, 'DataFieldInput'],
      [{ name: 'x', unknown: 1 }, '"unknown"'],
      [{ name: 'x', fields: [{ title: 'T', dataType: 'PLAIN_TEXT', isRequired: 'yes' }] }, 'Boolean'],
    ];
    for (const [body, text] of coercion) {
      const error = expectError(await post(body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.message).toContain(text);
    }
    // the service's checks name each field in details
    const cases: [unknown, string][] = [
      [{ name: '   ' }, 'name'],
      [{ name: 'x', fields: [{ title: ' ', dataType: 'PLAIN_TEXT' }] }, 'fields.0.title'],
      [{ name: 'x', fields: [{ title: 'T', dataType: 'COLOR' }] }, 'fields.0.dataType'],
      [{ name: 'x', fields: [{ title: 'T', dataType: 'PLAIN_TEXT', config: { maxLenght: 5 } }] }, 'fields.0.config.maxLenght'],
      [{ name: 'x', fields: [{ title: 'T', dataType: 'PLAIN_TEXT', config: { maxLength: 0 } }] }, 'fields.0.config.maxLength'],
      [{ name: 'x', fields: [{ title: 'T', dataType: 'BOOLEAN', config: { anything: true } }] }, 'fields.0.config.anything'],
      [{ name: 'x', fields: [{ title: 'T', dataType: 'NUMBER', config: { min: 5, max: 1 } }] }, 'fields.0.config.min'],
      [{ name: 'x', fields: [{ title: 'T', dataType: 'MONEY', config: { currency: 'XYZ' } }] }, 'fields.0.config.currency'],
      [{ name: 'x', fields: [{ title: 'T', dataType: 'PHONE_NUMBER', config: { defaultCountry: 'ZZ' } }] }, 'fields.0.config.defaultCountry'],
      [{ name: 'x', fields: [{ title: 'T', dataType: 'SINGLE_DATA_RECORD', config: { targetDataCollectionSimplyId: 'ABCD-EFGH-JKMN' } }] }, 'fields.0.config.targetDataCollectionSimplyId'],
      [{ name: 'x', fields: [{ title: 'T', dataType: 'PLAIN_TEXT', columnName: 'Bad Name' }] }, 'fields.0.columnName'],
      [{ name: 'x', fields: [{ title: 'T', dataType: 'PLAIN_TEXT', columnName: '1abc' }] }, 'fields.0.columnName'],
      [{ name: 'x', fields: [{ title: 'T', dataType: 'PLAIN_TEXT', columnName: 'a'.repeat(64) }] }, 'fields.0.columnName'],
      [{ name: 'x', fields: [{ title: 'T', dataType: 'PLAIN_TEXT' }], dataRecordCalculatedNameFormula: '{t} {nope}' }, 'dataRecordCalculatedNameFormula'],
      [{ name: 'x', dataRecordCalculatedNameFormula: 'x'.repeat(1001) }, 'dataRecordCalculatedNameFormula'],
      [{ name: 'x', filterCriteria: [] }, 'filterCriteria'],
      [{ name: 'x', type: 'SMART' }, 'parentDataCollectionSimplyId'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await post(body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field), JSON.stringify(error)).toContain(field);
    }
    // several problems at once are all reported
    const many = expectError(
      await post({
        name: 'x',
        fields: [
          { title: 'A', dataType: 'NUMBER', config: { min: 'low' } },
          { title: 'B', dataType: 'URL', config: { x: 1 } },
        ],
        dataRecordCalculatedNameFormula: '{a} {zz} {yy} {zz}',
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(many.details?.map((d) => d.field)).toEqual(['fields.0.config.min', 'fields.1.config.x', 'dataRecordCalculatedNameFormula', 'dataRecordCalculatedNameFormula']);
    expect(many.details?.[2]?.message).toMatch(/\{zz\} is not a field/);
    expectError(await post([]), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', '/v1/data-collections'), 400, 'VALIDATION_ERROR');
    expectGqlError(
      await server.graphql(`mutation { createDataCollection(input: { name: "x", fields: [{ title: "T", dataType: "NOPE" }] }) { id } }`, {}, { token: team.apiKey }),
      'VALIDATION_ERROR',
      400,
    );
    expect(await versions()).toHaveLength(before);
  });

  it('duplicate given column names are 409 CONFLICT', async () => {
    const error = expectError(
      await post({
        name: 'x',
        fields: [
          { title: 'A', dataType: 'PLAIN_TEXT', columnName: 'code' },
          { title: 'B', dataType: 'PLAIN_TEXT', columnName: 'code' },
        ],
      }),
      409,
      'CONFLICT',
    );
    expect(error.message).toMatch(/code/);
    // a derived name steps around a given one
    const ok = await create({ name: 'x', fields: [{ title: 'Code', dataType: 'PLAIN_TEXT' }, { title: 'Other', dataType: 'PLAIN_TEXT', columnName: 'code' }] });
    expect(ok.fields.map((f: any) => f.columnName)).toEqual(['code_2', 'code']);
  });

  it('reference targets may be the new collection itself or another of the team', async () => {
    const target = await create({ name: `Target ${++counter}` });
    const created = await create({
      name: 'Linked',
      fields: [
        { title: 'Target', dataType: 'SINGLE_DATA_RECORD', config: { targetDataCollectionSimplyId: target.id } },
        { title: 'Theirs', dataType: 'MULTI_DATA_RECORD', config: {} },
      ],
    });
    expect(created.fields[0].config).toEqual({ targetDataCollectionSimplyId: target.id });
    const theirs = await create({ name: 'Theirs' }, other.apiKey);
    const error = expectError(
      await post({ name: 'x', fields: [{ title: 'T', dataType: 'SINGLE_DATA_RECORD', config: { targetDataCollectionSimplyId: theirs.id } }] }),
      400,
      'VALIDATION_ERROR',
    );
    expect(error.details).toEqual([{ field: 'fields.0.config.targetDataCollectionSimplyId', message: `${theirs.id} is not a collection of this team` }]);
  });
});
