// Field administration (add, update, reorder, remove), display-name formulas and the recomputed
// names of existing records, and SMART collections (memberships after create, criteria changes,
// archive/restore, conflicts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { fieldIdsByColumn, postCollection, schemaVersionCount } from '../support/collection-fixtures.ts';
import { startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { restCaller } from '../support/rest-caller.ts';
import { insertRecords } from '../../src/kernel/records/records.sql.ts';
import { loadTeamSchema } from '../../src/kernel/schema/team-schema.ts';
import { newSimplyId } from '../../src/app/ids.ts';
import { createWizard } from '../support/wizard-fixtures.ts';
import { inTransaction } from '../../src/app/transaction.ts';

let server: TestServer;
let team: TeamFixture;

const call = restCaller(() => server, () => team.apiKey);

const create = (body: Record<string, unknown>): Promise<any> => postCollection(server, team.apiKey, body);
const idsOf = fieldIdsByColumn;

async function addRecord(collectionId: string, fields: Record<string, unknown>): Promise<any> {
  return expectOk(await call('POST', '/v1/data-records', { dataCollectionSimplyId: collectionId, fields }), 201);
}

async function recordNames(collectionId: string, sort = 'createdAt'): Promise<string[]> {
  return (expectOk(await call('GET', `/v1/data-records?dataCollectionSimplyId=${collectionId}&limit=100&sort=${sort}`)) as any[]).map((r) => r.name);
}

async function memberIds(collectionId: string): Promise<string[]> {
  return (expectOk(await call('GET', `/v1/data-records?dataCollectionSimplyId=${collectionId}&limit=100&sort=calculatedName`)) as any[]).map((r) => r.id);
}

const versionCount = () => schemaVersionCount(server, team.teamId);

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
});
afterAll(() => server.close());

describe('add, update, reorder, remove', () => {
  it('adds a field at the end (201), with a derived or given column name; 409 on a taken one', async () => {
    const c = await create({ name: 'People', fields: [{ title: 'Name', dataType: 'PLAIN_TEXT' }] });
    const before = await versionCount();
    const email = expectOk(await call('POST', `/v1/data-collections/${c.id}/fields`, { title: 'E-mail', dataType: 'EMAIL_ADDRESS', isRequired: true }), 201);
    expect(email).toMatchObject({ title: 'E-mail', columnName: 'e_mail', dataType: 'EMAIL_ADDRESS', isRequired: true, sortOrder: 1, config: {} });
    const second = expectOk(await call('POST', `/v1/data-collections/${c.id}/fields`, { title: 'Name', dataType: 'PLAIN_TEXT' }), 201);
    expect(second.columnName).toBe('name_2');
    const conflict = expectError(await call('POST', `/v1/data-collections/${c.id}/fields`, { title: 'X', dataType: 'PLAIN_TEXT', columnName: 'e_mail' }), 409, 'CONFLICT');
    expect(conflict.message).toContain('e_mail');
    const gql = gqlData(
      await server.graphql(
        `mutation($id: String!) { addDataField(dataCollectionSimplyId: $id, input: { title: { en: "Age" }, dataType: "NUMBER", config: { min: 0 } }) { columnName sortOrder config } }`,
        { id: c.id },
        { token: team.apiKey },
      ),
    );
    expect(gql.addDataField).toEqual({ columnName: 'age', sortOrder: 3, config: { min: 0 } });
    expect(await versionCount()).toBe(before + 3);
    const detail = expectOk(await call('GET', `/v1/data-collections/${c.id}`));
    expect(detail.fields.map((f: any) => f.columnName)).toEqual(['name', 'e_mail', 'name_2', 'age']);
    expect(detail.fieldCount).toBe(4);

    for (const [body, field] of [
      [{ title: 'X', dataType: 'PLAIN_TEXT', config: { maxLength: -1 } }, 'config.maxLength'],
      [{ title: 'X', dataType: 'RAINBOW' }, 'dataType'],
      [{ title: 'X', dataType: 'PLAIN_TEXT', columnName: 'Nope' }, 'columnName'],
      [{ title: 'X', dataType: 'DATE', config: 'none' }, 'config'],
    ] as const) {
      const error = expectError(await call('POST', `/v1/data-collections/${c.id}/fields`, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field)).toContain(field);
    }
    expectError(await call('POST', `/v1/data-collections/${c.id}/fields`, { dataType: 'PLAIN_TEXT' }), 400, 'VALIDATION_ERROR');
    expect(await versionCount()).toBe(before + 3);
  });

  it('updates title, isRequired, config, columnName and position; dataType is immutable', async () => {
    const c = await create({
      name: 'Orders',
      fields: [
        { title: 'Number', dataType: 'PLAIN_TEXT' },
        { title: 'Amount', dataType: 'MONEY', config: { currency: 'EUR' } },
        { title: 'Phone', dataType: 'PHONE_NUMBER' },
      ],
    });
    const ids = idsOf(c);
    const path = (col: string) => `/v1/data-collections/${c.id}/fields/${ids[col]}`;
    const before = await versionCount();
    const updated = expectOk(await call('PATCH', path('amount'), { title: { en: 'Total' }, isRequired: true, config: { currency: 'usd', scale: 3 }, columnName: 'total' }));
    expect(updated).toMatchObject({ id: ids.amount, title: { en: 'Total' }, isRequired: true, config: { currency: 'USD', scale: 3 }, columnName: 'total', dataType: 'MONEY', sortOrder: 1 });
    // same dataType is fine, another one is not
    expectOk(await call('PATCH', path('phone'), { dataType: 'PHONE_NUMBER', config: { defaultCountry: 'de' } }));
    const typeChange = expectError(await call('PATCH', path('phone'), { dataType: 'PLAIN_TEXT' }), 400, 'VALIDATION_ERROR');
    expect(typeChange.details).toEqual([{ field: 'dataType', message: 'cannot change (the field is PHONE_NUMBER); add a new field of the other type instead' }]);
    // config null resets to defaults
    expect(expectOk(await call('PATCH', path('phone'), { config: null })).config).toEqual({});
    // move "number" to the end (positions beyond the end are clamped)
    expect(expectOk(await call('PATCH', path('number'), { sortOrder: 99 })).sortOrder).toBe(2);
    const fields = expectOk(await call('GET', `/v1/data-collections/${c.id}/fields`));
    expect(fields.map((f: any) => [f.columnName, f.sortOrder])).toEqual([
      ['total', 0],
      ['phone', 1],
      ['number', 2],
    ]);
    // GraphQL
    const gql = gqlData(
      await server.graphql(
        `mutation($c: String!, $f: String!) { updateDataField(dataCollectionSimplyId: $c, dataFieldSimplyId: $f, input: { sortOrder: 0, isRequired: true }) { sortOrder isRequired } }`,
        { c: c.id, f: ids.number },
        { token: team.apiKey },
      ),
    );
    expect(gql.updateDataField).toEqual({ sortOrder: 0, isRequired: true });
    // five accepted changes so far, five versions (the refused dataType change recorded none)
    expect(await versionCount()).toBe(before + 5);

    // errors
    const taken = expectError(await call('PATCH', path('phone'), { columnName: 'total' }), 409, 'CONFLICT');
    expect(taken.message).toContain('total');
    for (const [body, field] of [
      [{}, undefined],
      [{ title: null }, 'title'],
      [{ columnName: 'Bad-Name' }, 'columnName'],
      [{ sortOrder: -1 }, 'sortOrder'],
      [{ config: { currency: 'EURO' } }, 'config.currency'],
      [{ config: { maxLength: 5 } }, 'config.maxLength'],
    ] as const) {
      const error = expectError(await call('PATCH', path('amount'), body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      if (field) expect(error.details?.map((d) => d.field)).toContain(field);
    }
    expectError(await call('PATCH', `/v1/data-collections/${c.id}/fields/fld-2222-3333-4444`, { isRequired: true }), 404, 'NOT_FOUND');
    expectError(await call('PATCH', `/v1/data-collections/${c.id}/fields/12`, { isRequired: true }), 400, 'VALIDATION_ERROR');
    expectError(await call('PATCH', `/v1/data-collections/${c.id}/fields/${ids.amount}`, { title: 'x', nope: 1 }), 400, 'VALIDATION_ERROR');
  });

  it('reorders: listed fields first, the others after in their order; unknown and repeated ids are 400', async () => {
    const c = await create({ name: 'Order', fields: ['a', 'b', 'c', 'd'].map((t) => ({ title: t, dataType: 'PLAIN_TEXT' })) });
    const ids = idsOf(c);
    const before = await versionCount();
    const reordered = expectOk(await call('PUT', `/v1/data-collections/${c.id}/fields/reorder`, { orderedFieldSimplyIds: [ids.c, ids.a] }));
    expect(reordered.map((f: any) => [f.columnName, f.sortOrder])).toEqual([
      ['c', 0],
      ['a', 1],
      ['b', 2],
      ['d', 3],
    ]);
    const all = gqlData(
      await server.graphql(`mutation($c: String!, $ids: [String!]!) { reorderDataFields(dataCollectionSimplyId: $c, orderedFieldSimplyIds: $ids) { columnName } }`, { c: c.id, ids: [ids.d, ids.c, ids.b, ids.a] }, { token: team.apiKey }),
    );
    expect(all.reorderDataFields.map((f: any) => f.columnName)).toEqual(['d', 'c', 'b', 'a']);
    const latest = await server.app.services.prisma.teamSchemaVersion.findMany({ where: { teamId: team.teamId }, orderBy: { version: 'desc' }, take: 2 });
    expect(latest.map((v) => v.summary)).toEqual([`fields reordered in ${c.id}`, `fields reordered in ${c.id}`]);
    expect(await versionCount()).toBe(before + 2);

    const other = await create({ name: 'Other', fields: [{ title: 'z', dataType: 'PLAIN_TEXT' }] });
    const error = expectError(await call('PUT', `/v1/data-collections/${c.id}/fields/reorder`, { orderedFieldSimplyIds: [ids.a, ids.a, other.fields[0].id, 'nope'] }), 400, 'VALIDATION_ERROR');
    expect(error.details?.map((d) => d.field)).toEqual(['orderedFieldSimplyIds.3']);
    const semantic = expectError(await call('PUT', `/v1/data-collections/${c.id}/fields/reorder`, { orderedFieldSimplyIds: [ids.a, ids.a, other.fields[0].id] }), 400, 'VALIDATION_ERROR');
    expect(semantic.details).toEqual([
      { field: 'orderedFieldSimplyIds.1', message: `${ids.a} appears more than once` },
      { field: 'orderedFieldSimplyIds.2', message: `${other.fields[0].id} is not a field of this collection` },
    ]);
    for (const body of [{}, { orderedFieldSimplyIds: [] }, { orderedFieldSimplyIds: 'a' }, { orderedFieldSimplyIds: [ids.a], more: true }]) {
      expectError(await call('PUT', `/v1/data-collections/${c.id}/fields/reorder`, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
    }
    // other methods on the reorder path are a 405, not field routes with the id "reorder"
    expectError(await call('DELETE', `/v1/data-collections/${c.id}/fields/reorder`), 405, 'METHOD_NOT_ALLOWED');
    expectError(await call('PUT', `/v1/data-collections/${c.id}/fields/${ids.a}`, {}), 405, 'METHOD_NOT_ALLOWED');
  });

  it('removes a field (200 { id, deleted }), its filter keys, and hides its stored values', async () => {
    const c = await create({ name: 'Removable', fields: [{ title: 'Keep', dataType: 'PLAIN_TEXT' }, { title: 'Drop', dataType: 'PLAIN_TEXT' }] });
    const ids = idsOf(c);
    const record = await addRecord(c.id, { [ids.keep]: 'kept', [ids.drop]: 'dropped' });
    const field = await server.app.services.prisma.dataField.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: ids.drop } });
    expect(await server.app.services.prisma.dataRecordKey.count({ where: { teamId: team.teamId, fieldId: field.id } })).toBe(1);
    const before = await versionCount();
    expect(expectOk(await call('DELETE', `/v1/data-collections/${c.id}/fields/${ids.drop}`))).toEqual({ id: ids.drop, deleted: true });
    expect(await versionCount()).toBe(before + 1);
    expect(await server.app.services.prisma.dataRecordKey.count({ where: { teamId: team.teamId, fieldId: field.id } })).toBe(0);
    const read = expectOk(await call('GET', `/v1/data-records/${record.id}`));
    expect(read.fields).toEqual({ [ids.keep]: 'kept' });
    // the stored value stays in the row
    const row = await server.app.services.prisma.dataRecord.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: record.id } });
    expect((row.values as Record<string, unknown>)[ids.drop!]).toBe('dropped');
    expectError(await call('DELETE', `/v1/data-collections/${c.id}/fields/${ids.drop}`), 404, 'NOT_FOUND');
    expectError(await call('GET', `/v1/data-collections/${c.id}/fields/${ids.drop}`), 404, 'NOT_FOUND');
    expect(gqlData(await server.graphql(`mutation($c: String!, $f: String!) { removeDataField(dataCollectionSimplyId: $c, dataFieldSimplyId: $f) }`, { c: c.id, f: ids.keep }, { token: team.apiKey })).removeDataField).toBe(true);
    expect(expectOk(await call('GET', `/v1/data-collections/${c.id}`)).fieldCount).toBe(0);
  });

  it('is refused (409) while an automation names the field; otherwise takes it out of role grants, wizard links and view configs', async () => {
    const c = await create({ name: 'Referenced', fields: [{ title: 'Keep', dataType: 'PLAIN_TEXT' }, { title: 'Drop', dataType: 'PLAIN_TEXT' }] });
    const ids = idsOf(c);
    const role = expectOk(
      await call('POST', '/v1/team-roles', {
        name: `Narrow ${c.id}`,
        dataPermissions: [{ dataCollectionSimplyId: c.id, level: 'EDIT' }],
        fieldPermissions: [{ dataFieldSimplyId: ids.drop, level: 'READ' }, { dataFieldSimplyId: ids.keep, level: 'READ' }],
      }),
      201,
    );
    const view = expectOk(
      await call('POST', '/v1/data-views', {
        dataCollectionSimplyId: c.id,
        name: 'Both',
        enumDataViewTypeId: 'TABLE',
        config: { columns: [ids.keep, ids.drop], filters: [{ field: ids.drop, operator: 'eq', value: 'x' }], sortOrder: [{ field: ids.drop, direction: 'asc' }, { field: ids.keep, direction: 'desc' }] },
      }),
      201,
    );
    const wizard = await createWizard(server, team.apiKey, { name: 'Both', dataCollectionSimplyId: c.id, steps: [{ title: 'One', tasks: [{ type: 'UPDATE_DATA_RECORD', title: 'Fill', fields: [{ dataFieldSimplyId: ids.keep }, { dataFieldSimplyId: ids.drop }] }] }] });
    const automation = expectOk(
      await call('POST', '/v1/automations', { name: 'Watcher', triggerType: 'FIELD_VALUE_CHANGED', dataCollectionSimplyId: c.id, triggerConfig: { dataFieldSimplyIds: [ids.drop] } }),
      201,
    );

    const conflict = expectError(await call('DELETE', `/v1/data-collections/${c.id}/fields/${ids.drop}`), 409, 'CONFLICT');
    expect(conflict.message).toContain(automation.id);
    expectOk(await call('DELETE', `/v1/automations/${automation.id}`));

    expectOk(await call('DELETE', `/v1/data-collections/${c.id}/fields/${ids.drop}`));
    const grants = expectOk(await call('GET', `/v1/team-roles/${role.id}`)).fieldPermissions.map((g: { dataFieldSimplyId: string }) => g.dataFieldSimplyId);
    expect(grants).toEqual([ids.keep]);
    expect(expectOk(await call('GET', `/v1/data-views/${view.id}`)).config).toEqual({ columns: [ids.keep], filters: [], sortOrder: [{ field: ids.keep, direction: 'desc' }] });
    const schema = expectOk(await call('GET', `/v1/data-wizards/${wizard.dataWizardSimplyId}/schema`));
    expect(schema.steps[0].tasks[0].fields.map((t: { dataFieldSimplyId: string }) => t.dataFieldSimplyId)).toEqual([ids.keep]);
    expect(await server.app.services.prisma.dataWizardTaskField.count({ where: { teamId: team.teamId, task: { step: { wizard: { simplyId: wizard.dataWizardSimplyId } } } } })).toBe(1);
  });
});

describe('display-name formulas', () => {
  it('validates placeholders, stores them as field ids, and recomputes the names of existing records', async () => {
    const c = await create({
      name: 'Contacts',
      fields: [
        { title: 'First', dataType: 'PLAIN_TEXT' },
        { title: 'Last', dataType: 'PLAIN_TEXT' },
        { title: 'Fee', dataType: 'MONEY', config: { currency: 'EUR' } },
      ],
    });
    const ids = idsOf(c);
    await addRecord(c.id, { [ids.first]: 'ada', [ids.last]: 'Lovelace', [ids.fee]: '12.5' });
    await addRecord(c.id, { [ids.last]: 'Hopper', [ids.fee]: 3 });
    // no formula: the first field with a value
    expect(await recordNames(c.id)).toEqual(['ada', 'Hopper']);

    const before = await versionCount();
    const patched = expectOk(await call('PATCH', `/v1/data-collections/${c.id}`, { dataRecordCalculatedNameFormula: `  {last}, {${ids.first}} ({fee})  ` }));
    expect(patched.dataRecordCalculatedNameFormula).toBe(`{${ids.last}}, {${ids.first}} ({${ids.fee}})`);
    expect(await versionCount()).toBe(before + 1);
    expect(await recordNames(c.id)).toEqual(['Lovelace, ada (12.50 EUR)', 'Hopper, (3.00 EUR)']);
    // the name sort follows the new names: "Hopper…" < "Lovelace…"
    expect(await recordNames(c.id, 'calculatedName')).toEqual(['Hopper, (3.00 EUR)', 'Lovelace, ada (12.50 EUR)']);
    // and so does the search on names
    const found = expectOk(await call('POST', '/v1/data-records/search', { dataCollectionSimplyId: c.id, query: 'lovelace' }));
    expect(found.map((r: any) => r.name)).toEqual(['Lovelace, ada (12.50 EUR)']);

    // a config change of a field the formula reads recomputes too (a lower scale never rounds a stored value)
    expectOk(await call('PATCH', `/v1/data-collections/${c.id}/fields/${ids.fee}`, { config: { currency: 'JPY' } }));
    expect(await recordNames(c.id)).toEqual(['Lovelace, ada (12.5 JPY)', 'Hopper, (3 JPY)']);
    // a column rename keeps the (id-based) formula working
    expectOk(await call('PATCH', `/v1/data-collections/${c.id}/fields/${ids.last}`, { columnName: 'surname' }));
    expect((await recordNames(c.id))[0]).toBe('Lovelace, ada (12.5 JPY)');

    // fields the formula reads cannot be removed
    const conflict = expectError(await call('DELETE', `/v1/data-collections/${c.id}/fields/${ids.first}`), 409, 'CONFLICT');
    expect(conflict.message).toMatch(/display-name formula/);

    // unknown placeholders: one detail each
    const error = expectError(await call('PATCH', `/v1/data-collections/${c.id}`, { dataRecordCalculatedNameFormula: '{first} {last} {nobody} {fld-2222-3333-4444}' }), 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([
      { field: 'dataRecordCalculatedNameFormula', message: '{last} is not a field of this collection (use {fld-…} or {column_name})' },
      { field: 'dataRecordCalculatedNameFormula', message: '{nobody} is not a field of this collection (use {fld-…} or {column_name})' },
      { field: 'dataRecordCalculatedNameFormula', message: '{fld-2222-3333-4444} is not a field of this collection (use {fld-…} or {column_name})' },
    ]);
    expectError(await call('PATCH', `/v1/data-collections/${c.id}`, { dataRecordCalculatedNameFormula: 'x'.repeat(1001) }), 400, 'VALIDATION_ERROR');

    // clearing the formula goes back to "first field with a value"; then reordering changes names
    expectOk(await call('PATCH', `/v1/data-collections/${c.id}`, { dataRecordCalculatedNameFormula: null }));
    expect(await recordNames(c.id)).toEqual(['ada', 'Hopper']);
    expectOk(await call('PUT', `/v1/data-collections/${c.id}/fields/reorder`, { orderedFieldSimplyIds: [ids.last] }));
    expect(await recordNames(c.id)).toEqual(['Lovelace', 'Hopper']);
    // and removing the field the names came from
    expectOk(await call('DELETE', `/v1/data-collections/${c.id}/fields/${ids.last}`));
    expect(await recordNames(c.id)).toEqual(['ada', '3 JPY']);
    const nameKeys = await server.app.services.prisma.dataRecord.findMany({ where: { teamId: team.teamId, collectionId: BigInt((await server.app.services.prisma.dataCollection.findFirstOrThrow({ where: { simplyId: c.id } })).id) }, orderBy: { id: 'asc' }, select: { nameKey: true } });
    expect(nameKeys.map((r) => r.nameKey)).toEqual(['ada', '3 jpy']);

    // the explicit recalculation route answers how many names changed (none now)
    expect(expectOk(await call('POST', `/v1/data-collections/${c.id}/recalculate-record-names`))).toEqual({ id: c.id, updatedRecordCount: 0 });
    // names changed behind the schema's back are repaired by it
    await server.app.services.pool.query(`UPDATE "DataRecord" SET "calculatedName" = 'stale' WHERE "teamId" = $1`, [team.teamId]);
    expect(expectOk(await call('POST', `/v1/data-collections/${c.id}/recalculate-record-names`)).updatedRecordCount).toBe(2);
    expect(await recordNames(c.id)).toEqual(['ada', '3 JPY']);
  });
});

describe('recomputing many records', () => {
  it('renames records in batches of 1000 (2345 records), memberships included', async () => {
    const c = await create({ name: 'Bulk', fields: [{ title: 'Code', dataType: 'PLAIN_TEXT' }, { title: 'Label', dataType: 'PLAIN_TEXT' }] });
    const ids = idsOf(c);
    const smart = await create({ name: 'Bulk A', type: 'SMART', parentDataCollectionSimplyId: c.id, filterCriteria: [{ field: ids.label, operator: 'startsWith', value: 'a' }] });
    const { pool } = server.app.services;
    const schema = await loadTeamSchema(pool, team.teamId);
    const collection = schema.collectionsBySimplyId.get(c.id)!;
    const N = 2345;
    await inTransaction(pool, (db) =>
      insertRecords(
        db,
        team.teamId,
        collection,
        collection.ownFields,
        Array.from({ length: N }, (_, i) => ({ simplyId: newSimplyId(), values: { [ids.code!]: `C${i}`, [ids.label!]: i % 2 ? 'a label' : 'b label' }, calculatedName: `C${i}` })),
      ),
    );
    expectOk(await call('POST', `/v1/data-collections/${smart.id}/resync-smart-membership`));
    const patched = expectOk(await call('PATCH', `/v1/data-collections/${c.id}`, { dataRecordCalculatedNameFormula: '{label} #{code}' }));
    expect(patched.recordCount).toBe(N);
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE r."calculatedName" = r.values->>$3 || ' #' || (r.values->>$4) AND r."nameKey" = lower(r."calculatedName"))::int AS renamed
         FROM "DataRecord" r WHERE r."teamId" = $1 AND r."collectionId" = $2`,
      [team.teamId, collection.id, ids.label, ids.code],
    );
    expect(rows[0]).toEqual({ n: N, renamed: N });
    // every membership (the home collection's and the SMART one's) carries the new sort key
    const stale = await pool.query(
      `SELECT count(*)::int AS n FROM "DataRecordMembership" m JOIN "DataRecord" r ON r."teamId" = m."teamId" AND r.id = m."recordId"
        WHERE m."teamId" = $1 AND r."collectionId" = $2 AND m."nameSort" <> convert_to(r."nameKey", 'UTF8')`,
      [team.teamId, collection.id],
    );
    expect(stale.rows[0].n).toBe(0);
    const page = await call('GET', `/v1/data-records?dataCollectionSimplyId=${smart.id}&sort=calculatedName&limit=2`);
    expect(page.body.meta.pagination.total).toBe(Math.floor(N / 2));
    expect((expectOk(page) as any[]).map((r) => r.name)).toEqual(['a label #C1', 'a label #C1001']);
  });
});

describe('SMART collections', () => {
  it('fills memberships on create, follows criteria changes, archive/restore, and blocks removing used fields', async () => {
    const source = await create({
      name: 'Donors',
      dataRecordCalculatedNameFormula: '{name}',
      fields: [
        { title: 'Name', dataType: 'PLAIN_TEXT' },
        { title: 'City', dataType: 'PLAIN_TEXT' },
        { title: 'Amount', dataType: 'NUMBER' },
      ],
    });
    const ids = idsOf(source);
    const ada = await addRecord(source.id, { [ids.name]: 'Ada', [ids.city]: 'London', [ids.amount]: 500 });
    const bob = await addRecord(source.id, { [ids.name]: 'Bob', [ids.city]: 'Paris', [ids.amount]: 50 });
    const cy = await addRecord(source.id, { [ids.name]: 'Cy', [ids.city]: 'london', [ids.amount]: 5000 });

    const smart = await create({ name: 'Big donors', type: 'SMART', parentDataCollectionSimplyId: source.id, filterCriteria: [{ field: ids.amount, operator: 'gte', value: '100' }] });
    expect(smart).toMatchObject({ type: 'SMART', parentDataCollectionSimplyId: source.id, recordCount: 2, fieldCount: 3, dataRecordCalculatedNameFormula: null });
    // stored normalized, without data types
    expect(smart.filterCriteria).toEqual([{ field: ids.amount, operator: 'gte', value: 100 }]);
    // a SMART collection shows its source's fields
    expect(smart.fields.map((f: any) => f.id)).toEqual(source.fields.map((f: any) => f.id));
    expect(await memberIds(smart.id)).toEqual([ada.id, cy.id]);
    // records created later join through the record writes
    const dee = await addRecord(source.id, { [ids.name]: 'Dee', [ids.amount]: 100 });
    expect(await memberIds(smart.id)).toEqual([ada.id, cy.id, dee.id]);

    // new criteria: resynced at once
    const changed = expectOk(await call('PATCH', `/v1/data-collections/${smart.id}`, { filterCriteria: [{ field: ids.city, operator: 'eq', value: 'LONDON' }] }));
    expect(changed.filterCriteria).toEqual([{ field: ids.city, operator: 'eq', value: 'london' }]);
    expect(changed.recordCount).toBe(2);
    expect(await memberIds(smart.id)).toEqual([ada.id, cy.id]);
    // no criteria: every record of the source
    expect(expectOk(await call('PATCH', `/v1/data-collections/${smart.id}`, { filterCriteria: null })).recordCount).toBe(4);
    expectOk(await call('PATCH', `/v1/data-collections/${smart.id}`, { filterCriteria: [{ field: 'calculatedName', operator: 'startsWith', value: 'b' }] }));
    expect(await memberIds(smart.id)).toEqual([bob.id]);
    // name criteria follow recomputed names
    expectOk(await call('PATCH', `/v1/data-collections/${source.id}`, { dataRecordCalculatedNameFormula: '{city} {name}' }));
    expect(await memberIds(smart.id)).toEqual([]);
    expectOk(await call('PATCH', `/v1/data-collections/${smart.id}`, { filterCriteria: [{ field: ids.city, operator: 'eq', value: 'paris' }] }));
    expect(await memberIds(smart.id)).toEqual([bob.id]);

    // archived SMART collections stop following; restoring resyncs
    expectOk(await call('POST', `/v1/data-collections/${smart.id}/archive`, { isArchived: true }));
    const eve = await addRecord(source.id, { [ids.name]: 'Eve', [ids.city]: 'Paris' });
    expectError(await call('POST', `/v1/data-collections/${smart.id}/resync-smart-membership`), 400, 'VALIDATION_ERROR');
    expectOk(await call('POST', `/v1/data-collections/${smart.id}/archive`, { isArchived: false }));
    expect(await memberIds(smart.id)).toEqual([bob.id, eve.id]);
    // explicit resync (after memberships were lost behind the schema's back)
    await server.app.services.pool.query(`DELETE FROM "DataRecordMembership" WHERE "teamId" = $1 AND "collectionId" = (SELECT id FROM "DataCollection" WHERE "simplyId" = $2)`, [team.teamId, smart.id]);
    expect(expectOk(await call('POST', `/v1/data-collections/${smart.id}/resync-smart-membership`)).recordCount).toBe(2);

    // fields the criteria read cannot be removed; SMART collections have no fields of their own
    expectOk(await call('PATCH', `/v1/data-collections/${source.id}`, { dataRecordCalculatedNameFormula: '{name}' }));
    const conflict = expectError(await call('DELETE', `/v1/data-collections/${source.id}/fields/${ids.city}`), 409, 'CONFLICT');
    expect(conflict.message).toContain(smart.id);
    expectError(await call('POST', `/v1/data-collections/${smart.id}/fields`, { title: 'X', dataType: 'PLAIN_TEXT' }), 400, 'VALIDATION_ERROR');
    expectError(await call('PATCH', `/v1/data-collections/${smart.id}/fields/${ids.city}`, { title: 'X' }), 400, 'VALIDATION_ERROR');
    expectError(await call('PUT', `/v1/data-collections/${smart.id}/fields/reorder`, { orderedFieldSimplyIds: [ids.city] }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', `/v1/data-collections/${smart.id}/recalculate-record-names`), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', `/v1/data-collections/${source.id}/resync-smart-membership`), 400, 'VALIDATION_ERROR');

    // SMART rules on create and update
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'S', type: 'SMART' }, 'parentDataCollectionSimplyId'],
      [{ name: 'S', type: 'SMART', parentDataCollectionSimplyId: smart.id }, 'parentDataCollectionSimplyId'],
      [{ name: 'S', type: 'SMART', parentDataCollectionSimplyId: source.id, fields: [{ title: 'x', dataType: 'BOOLEAN' }] }, 'fields'],
      [{ name: 'S', type: 'SMART', parentDataCollectionSimplyId: source.id, dataRecordCalculatedNameFormula: '{name}' }, 'dataRecordCalculatedNameFormula'],
      [{ name: 'S', type: 'SMART', parentDataCollectionSimplyId: source.id, filterCriteria: [{ field: 'fld-2222-3333-4444', operator: 'eq', value: 1 }] }, 'filterCriteria.0.field'],
      [{ name: 'S', type: 'SMART', parentDataCollectionSimplyId: source.id, filterCriteria: [{ field: ids.amount, operator: 'contains', value: 1 }] }, 'filterCriteria.0.operator'],
      [{ name: 'S', type: 'SMART', parentDataCollectionSimplyId: source.id, filterCriteria: [{ field: ids.amount, operator: 'eq', value: 'many' }] }, 'filterCriteria.0.value'],
      [{ name: 'S', type: 'SMART', parentDataCollectionSimplyId: source.id, filterCriteria: { field: ids.amount } }, 'filterCriteria'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await call('POST', '/v1/data-collections', body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field)).toContain(field);
    }
    for (const [body, field] of [
      [{ dataRecordCalculatedNameFormula: '{name}' }, 'dataRecordCalculatedNameFormula'],
      [{ parentDataCollectionSimplyId: null }, 'parentDataCollectionSimplyId'],
      [{ filterCriteria: Array.from({ length: 26 }, () => ({ field: ids.amount, operator: 'eq', value: 1 })) }, 'filterCriteria'],
    ] as const) {
      const error = expectError(await call('PATCH', `/v1/data-collections/${smart.id}`, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field)).toContain(field);
    }
    expectError(await call('PATCH', `/v1/data-collections/${source.id}`, { filterCriteria: [] }), 400, 'VALIDATION_ERROR');
    // records cannot be created in a SMART collection (records service), nor fields added over GraphQL
    expectGqlError(
      await server.graphql(`mutation($c: String!) { addDataField(dataCollectionSimplyId: $c, input: { title: "x", dataType: "BOOLEAN" }) { id } }`, { c: smart.id }, { token: team.apiKey }),
      'VALIDATION_ERROR',
      400,
    );
  });
});
