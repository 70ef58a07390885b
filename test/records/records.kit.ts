// Records in the route-table suites (test/support/area-kit.ts): the races of their write routes,
// the bodies of their id routes, how the record list is read, and a record in the route world.
//
// Races on records: creates and deletes against the record counters, last-writer-wins updates,
// batches that overlap.
import { freshCollection, readAll, type FreshCollection } from '../concurrency/fresh-resources.ts';
import { expectOneDeletion, expectOneOf, expectSame } from '../concurrency/race-checks.ts';
import { N, succeeded, type Exchange, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { ok, type AreaTestKit } from '../support/area-kit.ts';

const recordPath = (id: string) => `/v1/data-records/${id}`;

/** the collection's counter and its list must both say `count` */
async function expectRecordCount(kit: RaceKit, collection: FreshCollection, count: number, exchanges: Exchange[]): Promise<void> {
  expectSame(kit, 'recordCount', (await kit.admin('GET', `/v1/data-collections/${collection.id}`)).recordCount, count, exchanges);
  const listed = await kit.adminResponse('GET', `/v1/data-records?dataCollectionSimplyId=${collection.id}&limit=1`);
  expectSame(kit, 'records listed (pagination.total)', listed.body?.meta?.pagination?.total, count, exchanges);
}

const valueOf = async (kit: RaceKit, collection: FreshCollection, record: string) => (await kit.admin('GET', recordPath(record))).fields[collection.fieldIds[0]!];

/** N different single-field updates of one record through `method` */
function lastWriterWins(method: 'PATCH' | 'PUT') {
  return {
    what: `N different ${method}s of one record`,
    async run(kit: RaceKit) {
      const c = await freshCollection(kit, { fields: 1, records: 1 });
      const values = Array.from({ length: N }, (_, i) => `value ${i}`);
      const xs = await kit.race(values.map((v) => ({ method, path: recordPath(c.recordIds[0]!), body: { fields: { [c.fieldIds[0]!]: v } } })));
      kit.expectAnswers(xs, ['200']);
      const record = await kit.admin('GET', recordPath(c.recordIds[0]!));
      const final = record.fields[c.fieldIds[0]!];
      expectOneOf(kit, 'value', final, values, xs);
      // clients tell states apart by updatedAt (docs/api/data-records.md): the state that stayed was written last
      const later = succeeded(xs).filter((x) => x.response.body.data.updatedAt > record.updatedAt);
      if (later.length) kit.problem(`the record ends as ${JSON.stringify(final)} updatedAt ${record.updatedAt}, yet ${later.length} answers showed states it replaced with a later updatedAt`, later);
      // the audit log lists newest first: its first entry must describe the state the record is in
      const audit = await kit.admin('GET', `/v1/audit-log/records/DataRecord/${c.recordIds[0]}?limit=1`);
      const newest = audit[0]?.changes?.find((ch: { dataFieldSimplyId: string }) => ch.dataFieldSimplyId === c.fieldIds[0])?.after;
      if (newest !== final) kit.problem(`the newest audit entry (${audit[0]?.createdAt}) says ${JSON.stringify(newest)}, the record holds ${JSON.stringify(final)}`, xs);
    },
  };
}

function identicalUpdate(method: 'PATCH' | 'PUT') {
  return {
    what: `N identical ${method}s of one record`,
    async run(kit: RaceKit) {
      const c = await freshCollection(kit, { fields: 1, records: 1 });
      const xs = await kit.race({ method, path: recordPath(c.recordIds[0]!), body: { fields: { [c.fieldIds[0]!]: 'same' } } });
      kit.expectAnswers(xs, ['200']);
      expectSame(kit, 'value', await valueOf(kit, c, c.recordIds[0]!), 'same', xs);
    },
  };
}

const recordRaces: RaceTable = {
  'POST /v1/data-records/search': [
    {
      what: 'N identical searches',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1, records: 3 });
        const xs = await kit.race({ method: 'POST', path: '/v1/data-records/search', body: { dataCollectionSimplyId: c.id, filters: [{ field: c.fieldIds[0], operator: 'eq', value: 'v1-0' }] } });
        kit.expectAnswers(xs, ['200']);
        for (const x of succeeded(xs)) expectSame(kit, 'search total', x.response.body.meta.pagination.total, 1, xs);
      },
    },
  ],
  'POST /v1/data-records': [
    {
      what: 'N identical creates (the counter follows)',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const xs = await kit.race({ method: 'POST', path: '/v1/data-records', body: { dataCollectionSimplyId: c.id, fields: { [c.fieldIds[0]!]: 'twin' } } });
        kit.expectAnswers(xs, ['201']);
        await expectRecordCount(kit, c, succeeded(xs).length, xs);
      },
    },
  ],
  'POST /v1/data-records/batch': [
    {
      what: 'N identical batches of 3 creates',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const records = [0, 1, 2].map((i) => ({ fields: { [c.fieldIds[0]!]: `batch ${i}` } }));
        const xs = await kit.race({ method: 'POST', path: '/v1/data-records/batch', body: { dataCollectionSimplyId: c.id, records } });
        kit.expectAnswers(xs, ['200']);
        const created = succeeded(xs).reduce((sum, x) => sum + x.response.body.data.created, 0);
        expectSame(kit, 'records created', created, 3 * succeeded(xs).length, xs);
        await expectRecordCount(kit, c, created, xs);
      },
    },
  ],
  'PATCH /v1/data-records/batch': [
    {
      what: 'N identical batch updates',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1, records: 4 });
        const records = c.recordIds.map((id) => ({ dataRecordSimplyId: id, fields: { [c.fieldIds[0]!]: 'same' } }));
        const xs = await kit.race({ method: 'PATCH', path: '/v1/data-records/batch', body: { records } });
        kit.expectAnswers(xs, ['200']);
        for (const x of succeeded(xs)) expectSame(kit, 'batch items failed', x.response.body.data.failed, 0, [x]);
        for (const id of c.recordIds) expectSame(kit, `value of ${id}`, await valueOf(kit, c, id), 'same', xs);
      },
    },
    {
      what: 'N batch updates of the same 4 records with different values, half in reverse order',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1, records: 4 });
        const values = Array.from({ length: N }, (_, i) => `batch value ${i}`);
        const xs = await kit.race(
          values.map((v, i) => {
            const ids = i % 2 ? [...c.recordIds].reverse() : c.recordIds;
            return { method: 'PATCH', path: '/v1/data-records/batch', body: { records: ids.map((id) => ({ dataRecordSimplyId: id, fields: { [c.fieldIds[0]!]: v } })) } };
          }),
        );
        kit.expectAnswers(xs, ['200']);
        for (const x of succeeded(xs)) expectSame(kit, 'batch items failed', x.response.body.data.failed, 0, [x]);
        const finals = await Promise.all(c.recordIds.map((id) => valueOf(kit, c, id)));
        for (const final of finals) expectOneOf(kit, 'value', final, values, xs);
        // each batch is one transaction: the last one to commit wrote every record
        if (new Set(finals).size !== 1) kit.problem(`the 4 records hold values of different batches: ${JSON.stringify(finals)}`, xs);
      },
    },
  ],
  'DELETE /v1/data-records/batch': [
    {
      what: 'N identical batch deletes of 3 of 5 records (the counter follows)',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1, records: 5 });
        const xs = await kit.race({ method: 'DELETE', path: '/v1/data-records/batch', body: { dataRecordSimplyIds: c.recordIds.slice(0, 3) } });
        kit.expectAnswers(xs, ['200']);
        const deleted = succeeded(xs).reduce((sum, x) => sum + x.response.body.data.deleted, 0);
        expectSame(kit, 'records deleted over all batches', deleted, 3, xs);
        const otherFailures = succeeded(xs).flatMap((x) => x.response.body.data.results.filter((r: any) => !r.ok && r.error?.status !== 404));
        if (otherFailures.length) kit.problem(`batch items failed other than 404: ${JSON.stringify(otherFailures).slice(0, 400)}`, xs);
        await expectRecordCount(kit, c, 2, xs);
      },
    },
  ],
  'PATCH /v1/data-records/{dataRecordSimplyId}': [identicalUpdate('PATCH'), lastWriterWins('PATCH')],
  'PUT /v1/data-records/{dataRecordSimplyId}': [identicalUpdate('PUT'), lastWriterWins('PUT')],
  'DELETE /v1/data-records/{dataRecordSimplyId}': [
    {
      what: 'N deletes of one record (the counter follows)',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1, records: 5 });
        const path = recordPath(c.recordIds[0]!);
        const xs = await kit.race({ method: 'DELETE', path });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path }, path);
        await expectRecordCount(kit, c, 4, xs);
        const audit = await readAll(kit, `/v1/audit-log/records/DataRecord/${c.recordIds[0]}`);
        expectSame(kit, 'DELETE audit entries', audit.filter((e) => e.action === 'DELETE').length, 1, xs);
      },
    },
  ],
  'POST /v1/create-menu/data-records': [
    {
      what: 'N identical create-menu posts (the counter follows)',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const xs = await kit.race({ method: 'POST', path: '/v1/create-menu/data-records', body: { dataCollectionSimplyId: c.id, formData: { [c.columnNames[0]!]: 'menu' } } });
        kit.expectAnswers(xs, ['201']);
        await expectRecordCount(kit, c, succeeded(xs).length, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: recordRaces,
  idRouteBodies: {
    'PATCH /v1/data-records/{dataRecordSimplyId}': (own) => ({ fields: { [own.dataFieldSimplyId!]: 'patched' } }),
    'PUT /v1/data-records/{dataRecordSimplyId}': (own) => ({ fields: { [own.dataFieldSimplyId!]: 'put' } }),
  },
  readQueries: {
    'GET /v1/data-records': (ids) => `dataCollectionSimplyId=${ids.dataCollectionSimplyId}&limit=100`,
  },
  async world({ call, name, ids }) {
    const record = await ok(await call('POST', '/v1/data-records', { dataCollectionSimplyId: ids.dataCollectionSimplyId, fields: { [ids.dataFieldSimplyId!]: name('Record') } }), 'create record');
    return { ids: { dataRecordSimplyId: record.id }, names: ['Record'] };
  },
};
