// Data views in the route-table suites (test/support/area-kit.ts): the races of their write routes,
// and a list view of the world's collection.
//
// Races on data views.
import { freshCollection, readAll, unique } from '../concurrency/fresh-resources.ts';
import { expectOneDeletion, expectSame } from '../concurrency/race-checks.ts';
import { succeeded, type RaceTable } from '../concurrency/race-kit.ts';
import { ok, type AreaTestKit } from '../support/area-kit.ts';

const viewRaces: RaceTable = {
  'POST /v1/data-views': [
    {
      what: 'N identical views (names need not be unique)',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const name = unique('view');
        const xs = await kit.race({ method: 'POST', path: '/v1/data-views', body: { dataCollectionSimplyId: c.id, name, enumDataViewTypeId: 'TABLE', config: { columns: c.fieldIds } } });
        kit.expectAnswers(xs, ['201', '409 CONFLICT']);
        expectSame(kit, 'views with the name', (await readAll(kit, '/v1/data-views')).filter((v) => v.name === name).length, succeeded(xs).length, xs);
      },
    },
  ],
  'DELETE /v1/data-views/{dataViewSimplyId}': [
    {
      what: 'N deletes of one view',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const view = await kit.admin('POST', '/v1/data-views', { dataCollectionSimplyId: c.id, name: unique('view'), enumDataViewTypeId: 'LIST' });
        const xs = await kit.race({ method: 'DELETE', path: `/v1/data-views/${view.id}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: `/v1/data-views/${view.id}` }, `/v1/data-views/${view.id}`);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: viewRaces,
  async world({ call, name, ids }) {
    const view = await ok(await call('POST', '/v1/data-views', { dataCollectionSimplyId: ids.dataCollectionSimplyId, name: name('View'), enumDataViewTypeId: 'LIST' }), 'create view');
    return { ids: { dataViewSimplyId: view.id }, names: ['View'] };
  },
};
