// Collection administration (docs/api/data-collections.md "Collection administration"): the
// admin detail read and replaced, field display overrides, field descriptions drafted by a real
// local model server and applied as approved, the calculated-relationship recalculation, SMART
// membership previews that write nothing, and single-use CSV import tokens used by a real
// BULK_DATA_IMPORT task; the privileged tier, other teams' ids and bad bodies on every route.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { startTestServer, type TestResponse, type TestServer } from '../support/server.ts';
import { postCollection } from '../support/collection-fixtures.ts';
import { adminOf } from '../support/background-task-fixtures.ts';
import { uploadCsv } from '../background-tasks/data-import-support.ts';

let model: ModelServer;
let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let people: any;
let smart: any;
let foreign: any;
let f: Record<string, string>;

const ONE = (id: string) => `/v1/data-collections/${id}`;
const call = (method: string, path: string, body?: unknown, token = team.apiKey, teamId?: string): Promise<TestResponse> => server.request(method, path, { token, body, teamId });
const asUser = (method: string, path: string, body?: unknown, who = team) => server.request(method, path, { token: who.userToken, teamId: who.teamSimplyId, body });

function detailBody(d: any, change: Record<string, unknown> = {}) {
  return {
    name: d.name,
    singularName: d.singularName,
    pluralName: d.pluralName,
    archetype: d.archetype,
    parentDataCollectionSimplyId: d.parentDataCollectionSimplyId,
    dataRecordCalculatedNameFormula: d.dataRecordCalculatedNameFormula,
    filterCriteria: d.filterCriteria,
    ...change,
  };
}

const fieldsOf = (d: any) => Object.fromEntries(d.fields.map((x: any) => [x.columnName, x]));

beforeAll(async () => {
  model = await startModelServer();
  server = await startTestServer({ runJobs: true, env: { AI_BASE_URL: model.baseUrl, AI_MODEL: 'test-model', AI_MAX_RETRIES: 0, AI_TIMEOUT_MS: 5000 } as never });
  [team, other] = await Promise.all([createTeam(server), createTeam(server)]);
  people = await postCollection(server, team.apiKey, {
    name: 'People',
    dataRecordCalculatedNameFormula: '{first_name} {last_name}',
    fields: [
      { title: 'First name', dataType: 'PLAIN_TEXT', columnName: 'first_name' },
      { title: 'Last name', dataType: 'PLAIN_TEXT', columnName: 'last_name' },
      { title: 'City', dataType: 'PLAIN_TEXT', columnName: 'city' },
    ],
  });
  f = Object.fromEntries(people.fields.map((x: any) => [x.columnName, x.id]));
  const rows = [['Ada', 'Lovelace', 'London'], ['Grace', 'Hopper', 'Berlin'], ['Alan', 'Turing', 'London'], ['Edsger', 'Dijkstra', 'Berlin'], ['Barbara', 'Liskov', 'Boston']];
  for (const [first, last, city] of rows) await createRecord(server, team.apiKey, people.id, { [f.first_name!]: first, [f.last_name!]: last, [f.city!]: city });
  smart = await postCollection(server, team.apiKey, { name: 'Londoners', type: 'SMART', parentDataCollectionSimplyId: people.id, filterCriteria: [{ field: f.city, operator: 'eq', value: 'London' }] });
  foreign = await postCollection(server, other.apiKey, { name: 'Theirs', fields: [{ title: 'X', dataType: 'PLAIN_TEXT' }] });
});

afterAll(async () => {
  await server?.close();
  await model?.close();
});

describe('admin-detail', () => {
  it('GET answers the whole configuration with every field, its display settings and description', async () => {
    const d = expectOk(await call('GET', `${ONE(people.id)}/admin-detail`));
    expect(d).toMatchObject({
      id: people.id, dataCollectionSimplyId: people.id, name: 'People', type: 'STANDARD', enumDataCollectionTypeId: 'STANDARD',
      archetype: null, effectiveArchetype: null, parentDataCollectionSimplyId: null, filterCriteria: null, isArchived: false,
      dataRecordCalculatedNameFormula: `{${f.first_name}} {${f.last_name}}`, fieldCount: 3, recordCount: 5,
    });
    expect(d.fields.map((x: any) => x.columnName)).toEqual(['first_name', 'last_name', 'city']);
    expect(d.fields[0]).toMatchObject({
      id: f.first_name, dataFieldSimplyId: f.first_name, title: 'First name', dataType: 'PLAIN_TEXT', isRequired: false, sortOrder: 0, config: {},
      isOwnField: true, description: null, display: { label: null, helpText: null, placeholder: null, hidden: false, width: null, position: null },
    });
  });

  it('a SMART collection shows its source’s fields, not as its own', async () => {
    const d = expectOk(await call('GET', `${ONE(smart.id)}/admin-detail`));
    expect(d).toMatchObject({ type: 'SMART', parentDataCollectionSimplyId: people.id, recordCount: 2, fieldCount: 3 });
    expect(d.filterCriteria).toEqual([{ field: f.city, operator: 'eq', value: 'london' }]);
    expect(d.fields.every((x: any) => x.isOwnField === false)).toBe(true);
  });

  it('PUT replaces names, archetype and formula in one change and renames the records', async () => {
    const before = expectOk(await call('GET', `${ONE(people.id)}/admin-detail`));
    const d = expectOk(await call('PUT', `${ONE(people.id)}/admin-detail`, detailBody(before, {
      name: { en: 'People', de: 'Personen' }, singularName: 'Person', archetype: 'PERSON', dataRecordCalculatedNameFormula: '{last_name}, {first_name}', expectedUpdatedAt: before.updatedAt,
    })));
    expect(d).toMatchObject({ name: { en: 'People', de: 'Personen' }, singularName: 'Person', pluralName: null, archetype: 'PERSON', effectiveArchetype: 'PERSON', dataRecordCalculatedNameFormula: `{${f.last_name}}, {${f.first_name}}` });
    const records = expectOk(await call('GET', `/v1/data-records?dataCollectionSimplyId=${people.id}&limit=100`));
    expect(records.map((r: any) => r.name)).toContain('Lovelace, Ada');
    // null clears
    const cleared = expectOk(await call('PUT', `${ONE(people.id)}/admin-detail`, detailBody(d, { singularName: null })));
    expect(cleared.singularName).toBeNull();
  });

  it('PUT refuses a stale expectedUpdatedAt with 409 and writes nothing', async () => {
    const d = expectOk(await call('GET', `${ONE(people.id)}/admin-detail`));
    const error = expectError(await call('PUT', `${ONE(people.id)}/admin-detail`, detailBody(d, { archetype: 'CASE', expectedUpdatedAt: '2020-01-01T00:00:00.000Z' })), 409, 'CONFLICT');
    expect(error.message).toMatch(/changed since/);
    expect(expectOk(await call('GET', `${ONE(people.id)}/admin-detail`)).archetype).toBe(d.archetype);
  });

  it('PUT answers 400 naming each bad or missing key', async () => {
    const d = expectOk(await call('GET', `${ONE(people.id)}/admin-detail`));
    const cases: [unknown, string][] = [
      [{ name: 'Only a name' }, 'singularName'],
      [detailBody(d, { name: '  ' }), 'name'],
      [detailBody(d, { archetype: 'ALIEN' }), 'archetype'],
      [detailBody(d, { type: 'SMART' }), 'type'],
      [detailBody(d, { filterCriteria: [] }), 'filterCriteria'],
      [detailBody(d, { dataRecordCalculatedNameFormula: '{nope}' }), 'dataRecordCalculatedNameFormula'],
      [detailBody(d, { dataRecordCalculatedNameFormula: 'x'.repeat(1001) }), 'dataRecordCalculatedNameFormula'],
      [detailBody(d, { parentDataCollectionSimplyId: people.id }), 'parentDataCollectionSimplyId'],
      [detailBody(d, { parentDataCollectionSimplyId: '123' }), 'parentDataCollectionSimplyId'],
      [detailBody(d, { expectedUpdatedAt: 'yesterday' }), 'expectedUpdatedAt'],
      [detailBody(d, { color: 'red' }), 'color'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await call('PUT', `${ONE(people.id)}/admin-detail`, body), 400, 'VALIDATION_ERROR', field);
      expect(error.details?.map((x) => x.field), field).toContain(field);
    }
    const smartDetail = expectOk(await call('GET', `${ONE(smart.id)}/admin-detail`));
    for (const [change, field] of [[{ dataRecordCalculatedNameFormula: '{city}' }, 'dataRecordCalculatedNameFormula'], [{ parentDataCollectionSimplyId: null }, 'parentDataCollectionSimplyId'], [{ filterCriteria: [{ field: 'fld-AAAA-AAAA-AAAA', operator: 'eq', value: 1 }] }, 'filterCriteria.0.field']] as const) {
      const error = expectError(await call('PUT', `${ONE(smart.id)}/admin-detail`, detailBody(smartDetail, change)), 400, 'VALIDATION_ERROR', field);
      expect(error.details?.map((x) => x.field)).toContain(field);
    }
  });

  it('PUT of a SMART collection’s criteria rebuilds its members', async () => {
    const extra = await postCollection(server, team.apiKey, { name: 'Berliners', type: 'SMART', parentDataCollectionSimplyId: people.id, filterCriteria: [{ field: f.city, operator: 'eq', value: 'Berlin' }] });
    const d = expectOk(await call('GET', `${ONE(extra.id)}/admin-detail`));
    expect(d.recordCount).toBe(2);
    const changed = expectOk(await call('PUT', `${ONE(extra.id)}/admin-detail`, detailBody(d, { filterCriteria: [{ field: f.city, operator: 'ne', value: 'Berlin' }] })));
    expect(changed.recordCount).toBe(3);
  });
});

describe('field-display-overrides', () => {
  it('replaces the whole set: listed fields get their settings, unlisted ones none', async () => {
    const path = `${ONE(people.id)}/field-display-overrides`;
    let d = expectOk(await call('PUT', path, { overrides: [
      { dataFieldSimplyId: f.city, label: { en: 'Town', de: 'Stadt' }, helpText: 'Where they live', hidden: false, width: 'NARROW', position: 0 },
      { dataFieldSimplyId: f.last_name, hidden: true, placeholder: 'Surname' },
    ] }));
    expect(fieldsOf(d).city.display).toEqual({ label: { en: 'Town', de: 'Stadt' }, helpText: 'Where they live', placeholder: null, hidden: false, width: 'NARROW', position: 0 });
    expect(fieldsOf(d).last_name.display).toMatchObject({ hidden: true, placeholder: 'Surname', label: null });
    expect(fieldsOf(expectOk(await call('GET', `${ONE(people.id)}/admin-detail`))).city.display.label).toEqual({ en: 'Town', de: 'Stadt' });
    d = expectOk(await call('PUT', path, { overrides: [{ dataFieldSimplyId: f.last_name, width: 'FULL' }] }));
    expect(fieldsOf(d).city.display).toEqual({ label: null, helpText: null, placeholder: null, hidden: false, width: null, position: null });
    expect(fieldsOf(d).last_name.display).toMatchObject({ hidden: false, width: 'FULL', placeholder: null });
    // the field's own definition is untouched
    expect(fieldsOf(d).city.title).toBe('City');
    d = expectOk(await call('PUT', path, { overrides: [] }));
    expect(d.fields.every((x: any) => x.display.width === null && x.display.hidden === false)).toBe(true);
    expect(await server.app.services.prisma.dataFieldAdminSetting.count({ where: { teamId: team.teamId, collection: { simplyId: people.id } } })).toBe(0);
  });

  it('removing a field removes its overrides and description', async () => {
    const c = await postCollection(server, team.apiKey, { name: 'Short-lived', fields: [{ title: 'Keep', dataType: 'PLAIN_TEXT' }, { title: 'Drop', dataType: 'PLAIN_TEXT' }] });
    const [keep, drop] = c.fields.map((x: any) => x.id);
    expectOk(await call('PUT', `${ONE(c.id)}/field-display-overrides`, { overrides: [{ dataFieldSimplyId: keep, hidden: true }, { dataFieldSimplyId: drop, label: 'Gone soon' }] }));
    expectOk(await call('PATCH', `${ONE(c.id)}/apply-field-descriptions`, { descriptions: [{ dataFieldSimplyId: drop, description: 'Gone soon' }] }));
    expectOk(await call('DELETE', `${ONE(c.id)}/fields/${drop}`));
    const d = expectOk(await call('GET', `${ONE(c.id)}/admin-detail`));
    expect(d.fields.map((x: any) => [x.id, x.display.hidden])).toEqual([[keep, true]]);
    expect(await server.app.services.prisma.dataFieldAdminSetting.count({ where: { teamId: team.teamId, collection: { simplyId: c.id } } })).toBe(1);
  });

  it('a SMART collection has its own overrides of its source’s fields', async () => {
    const d = expectOk(await call('PUT', `${ONE(smart.id)}/field-display-overrides`, { overrides: [{ dataFieldSimplyId: f.first_name, label: 'Given name' }] }));
    expect(fieldsOf(d).first_name.display.label).toBe('Given name');
    expect(fieldsOf(expectOk(await call('GET', `${ONE(people.id)}/admin-detail`))).first_name.display.label).toBeNull();
  });

  it('answers 400 naming the entry and setting', async () => {
    const path = `${ONE(people.id)}/field-display-overrides`;
    const cases: [unknown, string][] = [
      [{}, 'overrides'],
      [{ overrides: [{ dataFieldSimplyId: f.city, width: 'HUGE' }] }, 'overrides.0.width'],
      [{ overrides: [{ dataFieldSimplyId: f.city, position: 10_000 }] }, 'overrides.0.position'],
      [{ overrides: [{ dataFieldSimplyId: f.city, position: -1 }] }, 'overrides.0.position'],
      [{ overrides: [{ dataFieldSimplyId: f.city, label: '' }] }, 'overrides.0.label'],
      [{ overrides: [{ dataFieldSimplyId: f.city, helpText: 'x'.repeat(501) }] }, 'overrides.0.helpText'],
      [{ overrides: [{ dataFieldSimplyId: f.city, colour: 'red' }] }, 'overrides.0.colour'],
      [{ overrides: [{ dataFieldSimplyId: f.city }, { dataFieldSimplyId: f.city }] }, 'overrides.1.dataFieldSimplyId'],
      [{ overrides: [{ dataFieldSimplyId: 'fld-AAAA-AAAA-AAAA' }] }, 'overrides.0.dataFieldSimplyId'],
      [{ overrides: [{ dataFieldSimplyId: foreign.fields[0].id }] }, 'overrides.0.dataFieldSimplyId'],
      [{ overrides: Array.from({ length: 501 }, () => ({ dataFieldSimplyId: f.city })) }, 'overrides'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await call('PUT', path, body), 400, 'VALIDATION_ERROR', field);
      expect(error.details?.map((x) => x.field), field).toContain(field);
    }
  });
});

describe('recalculate-calculated-relationship-fields', () => {
  it('answers zero counts (no data type calculates a relationship) and refuses a body', async () => {
    expect(expectOk(await call('POST', `${ONE(people.id)}/recalculate-calculated-relationship-fields`))).toEqual({ id: people.id, dataCollectionSimplyId: people.id, calculatedFieldCount: 0, updatedRecordCount: 0 });
    expectError(await call('POST', `${ONE(people.id)}/recalculate-calculated-relationship-fields`, { force: true }), 400, 'VALIDATION_ERROR');
  });
});

describe('preview-smart-membership', () => {
  it('previews a SMART collection’s own criteria against its members, writing nothing', async () => {
    const p = expectOk(await call('POST', `${ONE(smart.id)}/preview-smart-membership`));
    expect(p).toMatchObject({ id: smart.id, sourceDataCollectionSimplyId: people.id, sourceRecordCount: 5, matchingRecordCount: 2, currentMemberCount: 2, wouldAddCount: 0, wouldRemoveCount: 0 });
    expect(p.sample).toHaveLength(2);
  });

  it('previews proposed criteria: counts, what resync would add and remove, a bounded sample; members unchanged', async () => {
    const before = await server.app.services.prisma.teamSchemaVersion.count({ where: { teamId: team.teamId } });
    const p = expectOk(await call('POST', `${ONE(smart.id)}/preview-smart-membership`, { filterCriteria: [{ field: f.city, operator: 'eq', value: 'Berlin' }], sampleSize: 1 }));
    expect(p).toMatchObject({ matchingRecordCount: 2, currentMemberCount: 2, wouldAddCount: 2, wouldRemoveCount: 2, filterCriteria: [{ field: f.city, operator: 'eq', value: 'berlin' }] });
    expect(p.sample).toHaveLength(1);
    expect(p.sample[0]).toEqual({ dataRecordSimplyId: expect.any(String), calculatedName: expect.any(String) });
    const after = expectOk(await call('GET', `${ONE(smart.id)}/admin-detail`));
    expect(after.recordCount).toBe(2);
    expect(after.filterCriteria).toEqual([{ field: f.city, operator: 'eq', value: 'london' }]);
    expect(await server.app.services.prisma.teamSchemaVersion.count({ where: { teamId: team.teamId } })).toBe(before);
  });

  it('previews criteria over a collection that owns records (a SMART collection yet to create)', async () => {
    const p = expectOk(await call('POST', `${ONE(people.id)}/preview-smart-membership`, { filterCriteria: [{ field: f.city, operator: 'eq', value: 'Boston' }], sampleSize: 0 }));
    expect(p).toMatchObject({ sourceDataCollectionSimplyId: people.id, matchingRecordCount: 1, sourceRecordCount: 5, currentMemberCount: null, wouldAddCount: null, wouldRemoveCount: null, sample: [] });
    expect(expectOk(await call('POST', `${ONE(people.id)}/preview-smart-membership`, {})).matchingRecordCount).toBe(5);
  });

  it('answers 400 naming the criterion or the limit', async () => {
    const cases: [unknown, string][] = [
      [{ filterCriteria: [{ field: 'fld-AAAA-AAAA-AAAA', operator: 'eq', value: 'x' }] }, 'filterCriteria.0.field'],
      [{ filterCriteria: [{ field: f.city, operator: 'near', value: 'x' }] }, 'filterCriteria.0.operator'],
      [{ sampleSize: 51 }, 'sampleSize'],
      [{ sampleSize: 1.5 }, 'sampleSize'],
      [{ dryRun: true }, 'dryRun'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await call('POST', `${ONE(smart.id)}/preview-smart-membership`, body), 400, 'VALIDATION_ERROR', field);
      expect(error.details?.map((x) => x.field), field).toContain(field);
    }
  });
});

describe('field descriptions', () => {
  it('generate drafts descriptions from the field definitions only and stores nothing', async () => {
    model.reset();
    model.reply((body: any) => {
      const fields = JSON.parse(String(body.messages.at(-1).content).split('\n').slice(1).join('\n')).fields as { dataFieldSimplyId: string }[];
      return { text: '```json\n' + JSON.stringify({ descriptions: [...fields.map((x) => ({ dataFieldSimplyId: x.dataFieldSimplyId, description: `About ${x.dataFieldSimplyId}` })), { dataFieldSimplyId: foreign.fields[0].id, description: 'not asked' }] }) + '\n```' };
    });
    const s = expectOk(await call('POST', `${ONE(people.id)}/generate-field-descriptions`, { dataFieldSimplyIds: [f.city, f.first_name], language: 'de' }));
    expect(s).toEqual({
      id: people.id, dataCollectionSimplyId: people.id, language: 'de',
      suggestions: [
        { dataFieldSimplyId: f.city, columnName: 'city', title: 'City', dataType: 'PLAIN_TEXT', currentDescription: null, suggestedDescription: `About ${f.city}` },
        { dataFieldSimplyId: f.first_name, columnName: 'first_name', title: 'First name', dataType: 'PLAIN_TEXT', currentDescription: null, suggestedDescription: `About ${f.first_name}` },
      ],
    });
    const sent = JSON.stringify(model.requests.at(-1)!.body);
    expect(sent).toContain('first_name');
    for (const value of ['Lovelace', 'London', 'Berlin']) expect(sent).not.toContain(value);
    expect(fieldsOf(expectOk(await call('GET', `${ONE(people.id)}/admin-detail`))).city.description).toBeNull();
  });

  it('apply writes only the approved descriptions; null clears one', async () => {
    const path = `${ONE(people.id)}/apply-field-descriptions`;
    let d = expectOk(await call('PATCH', path, { descriptions: [{ dataFieldSimplyId: f.city, description: 'The city they live in.' }, { dataFieldSimplyId: f.first_name, description: { en: 'Given name', de: 'Vorname' } }] }));
    expect(fieldsOf(d).city.description).toBe('The city they live in.');
    expect(fieldsOf(d).first_name.description).toEqual({ en: 'Given name', de: 'Vorname' });
    expect(fieldsOf(d).last_name.description).toBeNull();
    d = expectOk(await call('PATCH', path, { descriptions: [{ dataFieldSimplyId: f.first_name, description: null }] }));
    expect(fieldsOf(d).first_name.description).toBeNull();
    expect(fieldsOf(d).city.description).toBe('The city they live in.');
    // a SMART collection shows its source's descriptions
    expect(fieldsOf(expectOk(await call('GET', `${ONE(smart.id)}/admin-detail`))).city.description).toBe('The city they live in.');
    // onlyMissing leaves described fields out, and shows the current description
    model.reset();
    model.reply({ text: JSON.stringify({ descriptions: [] }) });
    const s = expectOk(await call('POST', `${ONE(people.id)}/generate-field-descriptions`, { onlyMissing: true }));
    expect(s.suggestions.map((x: any) => x.columnName)).toEqual(['first_name', 'last_name']);
    expect(s.suggestions.every((x: any) => x.suggestedDescription === null)).toBe(true);
  });

  it('answers 400 naming the field; SMART collections describe nothing of their own', async () => {
    const cases: [string, unknown, string][] = [
      ['generate-field-descriptions', { dataFieldSimplyIds: ['fld-AAAA-AAAA-AAAA'] }, 'dataFieldSimplyIds.0'],
      ['generate-field-descriptions', { dataFieldSimplyIds: [] }, 'dataFieldSimplyIds'],
      ['generate-field-descriptions', { dataFieldSimplyIds: [f.city, f.city] }, 'dataFieldSimplyIds.1'],
      ['generate-field-descriptions', { language: 'not a tag' }, 'language'],
      ['apply-field-descriptions', { descriptions: [] }, 'descriptions'],
      ['apply-field-descriptions', { descriptions: [{ dataFieldSimplyId: f.city, description: ' ' }] }, 'descriptions.0.description'],
      ['apply-field-descriptions', { descriptions: [{ dataFieldSimplyId: f.city, description: 'x'.repeat(501) }] }, 'descriptions.0.description'],
      ['apply-field-descriptions', { descriptions: [{ dataFieldSimplyId: foreign.fields[0].id, description: 'x' }] }, 'descriptions.0.dataFieldSimplyId'],
      ['apply-field-descriptions', { descriptions: [{ dataFieldSimplyId: f.city }] }, 'descriptions.0.description'],
    ];
    for (const [route, body, field] of cases) {
      const method = route.startsWith('apply') ? 'PATCH' : 'POST';
      const error = expectError(await call(method, `${ONE(people.id)}/${route}`, body), 400, 'VALIDATION_ERROR', field);
      expect(error.details?.map((x) => x.field), field).toContain(field);
    }
    expectError(await call('POST', `${ONE(smart.id)}/generate-field-descriptions`, {}), 400, 'VALIDATION_ERROR');
    expectError(await call('PATCH', `${ONE(smart.id)}/apply-field-descriptions`, { descriptions: [{ dataFieldSimplyId: f.city, description: 'x' }] }), 400, 'VALIDATION_ERROR');
  });

  it('a failing or unreadable model answer is AI_MODEL_ERROR with a fixed sentence', async () => {
    model.reset();
    model.reply({ error: { status: 400, message: 'secret provider text' } });
    const refused = expectError(await call('POST', `${ONE(people.id)}/generate-field-descriptions`, { dataFieldSimplyIds: [f.city] }), 424, 'AI_MODEL_ERROR');
    expect(refused.message).toBe('The AI model refused the request.');
    expect(JSON.stringify(refused)).not.toContain('secret provider text');
    model.reply({ text: 'I would rather not.' });
    expect(expectError(await call('POST', `${ONE(people.id)}/generate-field-descriptions`, { dataFieldSimplyIds: [f.city] }), 424, 'AI_MODEL_ERROR').details).toEqual([{ message: 'bad_response' }]);
    model.reply({ error: { status: 503, message: 'down' } });
    expect(expectError(await call('POST', `${ONE(people.id)}/generate-field-descriptions`, { dataFieldSimplyIds: [f.city] }), 424, 'AI_MODEL_ERROR').details).toEqual([{ message: 'unavailable' }]);
  });

  it('without a model configured, generate is 403 AI_FEATURE_UNAVAILABLE and apply still works', async () => {
    const bare = await startTestServer();
    try {
      const t = await createTeam(bare);
      const c = await postCollection(bare, t.apiKey, { name: 'C', fields: [{ title: 'A', dataType: 'PLAIN_TEXT' }] });
      expectError(await bare.request('POST', `${ONE(c.id)}/generate-field-descriptions`, { token: t.apiKey }), 403, 'AI_FEATURE_UNAVAILABLE');
      expectOk(await bare.request('PATCH', `${ONE(c.id)}/apply-field-descriptions`, { token: t.apiKey, body: { descriptions: [{ dataFieldSimplyId: c.fields[0].id, description: 'Written by hand' }] } }));
    } finally {
      await bare.close();
    }
  });
});

describe('import-token', () => {
  it('is issued to a signed-in member, stored hashed, and used once by a BULK_DATA_IMPORT task', async () => {
    const admin = adminOf(team);
    const issued = expectOk(await asUser('POST', `${ONE(people.id)}/import-token`, { expiresInMinutes: 5 }), 201);
    expect(issued).toEqual({ importToken: expect.stringMatching(/^svc_imp_/), dataCollectionSimplyId: people.id, expiresAt: expect.any(String) });
    const ttl = new Date(issued.expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
    const rows = await server.app.services.prisma.dataCollectionImportToken.findMany({ where: { teamId: team.teamId } });
    expect(rows.map((r) => r.tokenHash)).toContain(createHash('sha256').update(issued.importToken).digest('hex'));
    expect(JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(issued.importToken);

    const fileSimplyId = await uploadCsv(server, admin, 'First,Last\nKatherine,Johnson\n');
    const queueData = { fileSimplyId, dataCollectionSimplyId: people.id, mapping: [{ column: 'First', dataFieldSimplyId: f.first_name }, { column: 'Last', dataFieldSimplyId: f.last_name }], importToken: issued.importToken };
    const post = (q: unknown, who = admin) => server.request('POST', '/v1/background-tasks', { token: who.token, teamId: who.teamId, body: { enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', queueData: q } });
    const task = expectOk(await post(queueData), 201);
    const stored = await server.app.services.prisma.backgroundTask.findFirstOrThrow({ where: { simplyId: task.backgroundTaskSimplyId } });
    expect(JSON.stringify(stored.queueData)).not.toContain('svc_imp_');
    // used: a second task with it is refused
    const again = expectError(await post(queueData), 400, 'VALIDATION_ERROR');
    expect(again.details?.map((x) => x.field)).toEqual(['queueData.importToken']);
  });

  it('is refused for another collection, another member, after expiry, and when unknown', async () => {
    const admin = adminOf(team);
    const fileSimplyId = await uploadCsv(server, admin, 'City\nParis\n');
    const otherCollection = await postCollection(server, team.apiKey, { name: 'Other', fields: [{ title: 'City', dataType: 'PLAIN_TEXT', columnName: 'city' }] });
    const issue = async () => expectOk(await asUser('POST', `${ONE(people.id)}/import-token`), 201).importToken as string;
    const post = (token: string, collection: string, field: string, who = admin) =>
      server.request('POST', '/v1/background-tasks', { token: who.token, teamId: who.teamId, body: { enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', queueData: { fileSimplyId, dataCollectionSimplyId: collection, mapping: [{ column: 'City', dataFieldSimplyId: field }], importToken: token, dryRun: true } } });
    const refused = (res: TestResponse) => expect(expectError(res, 400, 'VALIDATION_ERROR').details?.map((x) => x.field)).toEqual(['queueData.importToken']);

    const forPeople = await issue();
    refused(await post(forPeople, otherCollection.id, otherCollection.fields[0].id));
    const member = await addMember(server, team, { isTeamAdmin: true });
    const memberWho = { token: member.token, teamId: team.teamSimplyId };
    await uploadCsv(server, memberWho, 'City\nParis\n').then(async (memberFile) => {
      const res = await server.request('POST', '/v1/background-tasks', { token: member.token, teamId: team.teamSimplyId, body: { enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', queueData: { fileSimplyId: memberFile, dataCollectionSimplyId: people.id, mapping: [{ column: 'City', dataFieldSimplyId: f.city }], importToken: forPeople, dryRun: true } } });
      refused(res);
    });
    const expired = await issue();
    await server.app.services.prisma.dataCollectionImportToken.updateMany({ where: { tokenHash: createHash('sha256').update(expired).digest('hex') }, data: { expiresAt: new Date(Date.now() - 1000) } });
    refused(await post(expired, people.id, f.city!));
    refused(await post('svc_imp_unknown', people.id, f.city!));
    refused(await post('not-a-token', people.id, f.city!));
    // the right member, collection and time: accepted
    expectOk(await post(forPeople, people.id, f.city!), 201);
  });

  it('refuses API keys (IDP_REQUIRED), SMART and archived collections, and bad bodies', async () => {
    expectError(await call('POST', `${ONE(people.id)}/import-token`), 403, 'IDP_REQUIRED');
    // the credential before the body, and before the collection
    expectError(await call('POST', `${ONE(people.id)}/import-token`, { expiresInMinutes: 0 }), 403, 'IDP_REQUIRED');
    expectError(await call('POST', `${ONE(foreign.id)}/import-token`), 403, 'IDP_REQUIRED');
    expectError(await asUser('POST', `${ONE(smart.id)}/import-token`), 400, 'VALIDATION_ERROR');
    for (const [body, field] of [[{ expiresInMinutes: 0 }, 'expiresInMinutes'], [{ expiresInMinutes: 61 }, 'expiresInMinutes'], [{ expiresInMinutes: 'soon' }, 'expiresInMinutes'], [{ purpose: 'x' }, 'purpose']] as const) {
      const error = expectError(await asUser('POST', `${ONE(people.id)}/import-token`, body), 400, 'VALIDATION_ERROR', field);
      expect(error.details?.map((x) => x.field)).toContain(field);
    }
  });
});

describe('who may call', () => {
  const routes = (id: string): [string, string, unknown][] => [
    ['GET', `${ONE(id)}/admin-detail`, undefined],
    ['PUT', `${ONE(id)}/admin-detail`, { name: 'X', singularName: null, pluralName: null, archetype: null, parentDataCollectionSimplyId: null, dataRecordCalculatedNameFormula: null, filterCriteria: null }],
    ['PUT', `${ONE(id)}/field-display-overrides`, { overrides: [] }],
    ['POST', `${ONE(id)}/generate-field-descriptions`, {}],
    ['PATCH', `${ONE(id)}/apply-field-descriptions`, { descriptions: [{ dataFieldSimplyId: 'fld-AAAA-AAAA-AAAA', description: 'x' }] }],
    ['POST', `${ONE(id)}/recalculate-calculated-relationship-fields`, undefined],
    ['POST', `${ONE(id)}/preview-smart-membership`, {}],
    ['POST', `${ONE(id)}/import-token`, {}],
  ];

  it('refuses session tokens and keys without TEAM_SETTINGS edit (403), before reading the body', async () => {
    const session = expectOk(await call('POST', '/v1/session-tokens', {}), 201).token;
    const readers = await createRole(server, team, { name: 'Readers', dataFullAccess: 'READ' });
    const viewKey = (await createApiKey(server, team, { name: 'settings view', teamRoleSimplyId: readers, featurePermissions: ['TEAM_SETTINGS:VIEW'] })).key;
    const plainKey = (await createApiKey(server, team, { name: 'plain', teamRoleSimplyId: readers })).key;
    const plainMember = await addMember(server, team, { teamRoleSimplyId: readers });
    for (const [method, path] of routes(people.id)) {
      const body = method === 'GET' ? undefined : { bogus: true };
      for (const token of [session, viewKey, plainKey]) expectError(await call(method, path, body, token), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      expectError(await server.request(method, path, { token: plainMember.token, teamId: team.teamSimplyId, body }), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      expectError(await server.request(method, path, { body }), 401, 'UNAUTHENTICATED');
    }
  });

  it('a key with TEAM_SETTINGS edit administers; a signed-in team admin too', async () => {
    const readers = await createRole(server, team, { name: 'Settings editors', dataPermissions: [] });
    const settingsKey = (await createApiKey(server, team, { name: 'settings', teamRoleSimplyId: readers, featurePermissions: ['TEAM_SETTINGS'] })).key;
    expect(expectOk(await call('GET', `${ONE(people.id)}/admin-detail`, undefined, settingsKey)).fields).toHaveLength(3);
    expectOk(await call('POST', `${ONE(people.id)}/preview-smart-membership`, {}, settingsKey));
    expect(expectOk(await asUser('GET', `${ONE(people.id)}/admin-detail`)).id).toBe(people.id);
  });

  it('another team’s or an unknown collection is 404 on every route; a malformed or numeric id 400', async () => {
    for (const [method, path, body] of routes(foreign.id)) {
      const res = path.endsWith('import-token') ? await asUser(method, path, body) : await call(method, path, body);
      expectError(res, 404, 'NOT_FOUND', `${method} ${path}`);
    }
    for (const [method, path, body] of routes('ZZZZ-ZZZZ-ZZZ2')) {
      const res = path.endsWith('import-token') ? await asUser(method, path, body) : await call(method, path, body);
      expectError(res, 404, 'NOT_FOUND', `${method} ${path}`);
    }
    for (const [method, path, body] of [...routes('12345'), ...routes('nope')]) {
      const res = path.endsWith('import-token') ? await asUser(method, path, body) : await call(method, path, body);
      expectError(res, 400, 'VALIDATION_ERROR', `${method} ${path}`);
    }
  });

  it('GraphQL serves the same operations with the same codes', async () => {
    const data = gqlData(await server.graphql(`query($id: String!) { dataCollectionAdminDetail(dataCollectionSimplyId: $id) { id fieldCount fields { columnName display { hidden } } } }`, { id: people.id }, { token: team.apiKey }));
    expect(data.dataCollectionAdminDetail).toMatchObject({ id: people.id, fieldCount: 3 });
    expectGqlError(
      await server.graphql(`mutation($id: String!, $input: JSON!) { replaceDataFieldDisplayOverrides(dataCollectionSimplyId: $id, input: $input) { id } }`, { id: people.id, input: { overrides: [{ dataFieldSimplyId: f.city, width: 'HUGE' }] } }, { token: team.apiKey }),
      'VALIDATION_ERROR', 400,
    );
    expectGqlError(await server.graphql(`query($id: String!) { dataCollectionAdminDetail(dataCollectionSimplyId: $id) { id } }`, { id: foreign.id }, { token: team.apiKey }), 'NOT_FOUND', 404);
  });
});
