// Races on data views.
import { freshCollection, readAll, unique } from '../fresh-resources.ts';
import { expectOneDeletion, expectSame } from '../race-checks.ts';
import { succeeded, type RaceTable } from '../race-kit.ts';

export const viewRaces: RaceTable = {
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
