// Renaming records after a display-name change (docs/api/data-collections.md "Display-name
// formula"): within RECORD_RENAME_INLINE_LIMIT active records before the change answers, above it
// by the collections.rename-records job (here the limit is 3, with real workers on a database of
// the suite's own, so no other file's workers take its jobs).
import { describe, expect, it } from 'vitest';
import { expectOk } from '../support/expect-envelope.ts';
import { postCollection } from '../support/collection-fixtures.ts';
import { untilWith } from '../support/until.ts';
import { useServer } from '../support/use-server.ts';

const suite = useServer({ teams: 1, runJobs: true, ownDatabase: 'record_rename_job', env: { RECORD_RENAME_INLINE_LIMIT: 3 } as never });
const until = untilWith({ timeoutMs: 20_000, everyMs: 50 });

async function people(count: number) {
  const { server, teams: [team] } = suite;
  const c = await postCollection(server, team.apiKey, {
    name: 'People',
    dataRecordCalculatedNameFormula: '{first}',
    fields: [{ title: 'First', dataType: 'PLAIN_TEXT', columnName: 'first' }, { title: 'Last', dataType: 'PLAIN_TEXT', columnName: 'last' }],
  });
  const [first, last] = c.fields.map((f: any) => f.id);
  expectOk(await server.request('POST', '/v1/data-records/batch', {
    token: team.apiKey,
    body: { dataCollectionSimplyId: c.id, records: Array.from({ length: count }, (_, i) => ({ fields: { [first]: `first ${i}`, [last]: `last ${i}` } })) },
  }));
  return c;
}

async function names(id: string): Promise<string[]> {
  const { server, teams: [team] } = suite;
  return expectOk(await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${id}&limit=100`, { token: team.apiKey })).map((r: any) => r.name).sort();
}

async function renameJobs(): Promise<number> {
  const { rows } = await suite.server.app.services.pool.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'collections.rename-records'`);
  return rows[0].n;
}

describe('renaming records after a formula change', () => {
  it('within the limit: renamed before the change answers, no job', async () => {
    const c = await people(3);
    const jobs = await renameJobs();
    expectOk(await suite.server.request('PATCH', `/v1/data-collections/${c.id}`, { token: suite.teams[0].apiKey, body: { dataRecordCalculatedNameFormula: '{last}' } }));
    expect(await names(c.id)).toEqual(['last 0', 'last 1', 'last 2']);
    expect(await renameJobs()).toBe(jobs);
  });

  it('above the limit: the change answers at once and a job renames the records', async () => {
    const c = await people(6);
    const jobs = await renameJobs();
    const detail = expectOk(await suite.server.request('GET', `/v1/data-collections/${c.id}/admin-detail`, { token: suite.teams[0].apiKey }));
    const body = { name: detail.name, singularName: null, pluralName: null, archetype: null, parentDataCollectionSimplyId: null, dataRecordCalculatedNameFormula: '{last}, {first}', filterCriteria: null };
    expectOk(await suite.server.request('PUT', `/v1/data-collections/${c.id}/admin-detail`, { token: suite.teams[0].apiKey, body }));
    expect(await renameJobs()).toBe(jobs + 1);
    const wanted = Array.from({ length: 6 }, (_, i) => `last ${i}, first ${i}`).sort();
    await until('the job to rename the records', async () => JSON.stringify(await names(c.id)) === JSON.stringify(wanted));
    // the on-demand route renames before it answers, whatever the size
    expectOk(await suite.server.request('PATCH', `/v1/data-collections/${c.id}/fields/${detail.fields[0].id}`, { token: suite.teams[0].apiKey, body: { title: 'Given name' } }));
    const recalculated = expectOk(await suite.server.request('POST', `/v1/data-collections/${c.id}/recalculate-record-names`, { token: suite.teams[0].apiKey }));
    expect(recalculated).toEqual({ id: c.id, updatedRecordCount: 0 });
  });
});
