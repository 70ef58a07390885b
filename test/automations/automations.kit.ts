// Automations in the route-table suites (test/support/area-kit.ts): the races of their write
// routes, the bodies of their id routes, and an automation with one action in the route world.
//
// Races on automations and their ordered actions: ranks must stay 1..n, the 50-action limit must
// hold under parallel adds.
import { freshAutomation, freshCollection, readAll, unique } from '../concurrency/fresh-resources.ts';
import { distinct, expectDenseRanks, expectOneDeletion, expectOneOf, expectSame } from '../concurrency/race-checks.ts';
import { N, succeeded, type Exchange, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { fresh, ok, type AreaTestKit } from '../support/area-kit.ts';

const automationPath = (id: string) => `/v1/automations/${id}`;

async function actionsOf(kit: RaceKit, automation: string): Promise<{ id: string; executionRank: number; continueOnError: boolean }[]> {
  return (await kit.admin('GET', automationPath(automation))).actions;
}

async function expectRanks(kit: RaceKit, automation: string, count: number, exchanges: Exchange[]): Promise<void> {
  expectDenseRanks(kit, 'executionRanks', (await actionsOf(kit, automation)).map((a) => a.executionRank), count, 1, exchanges);
}

const updateFields = (field: string, value: string) => ({ actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [field]: value } } });

const automationRaces: RaceTable = {
  'POST /v1/automations': [
    {
      what: 'N identical automations (names need not be unique)',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const name = unique('automation');
        const xs = await kit.race({ method: 'POST', path: '/v1/automations', body: { name, triggerType: 'RECORD_CREATED', dataCollectionSimplyId: c.id, isEnabled: false, actions: [updateFields(c.fieldIds[0]!, 'x')] } });
        kit.expectAnswers(xs, ['201', '409 CONFLICT']);
        expectSame(kit, 'automations with the name', (await readAll(kit, '/v1/automations')).filter((a) => a.name === name).length, succeeded(xs).length, xs);
      },
    },
  ],
  'PUT /v1/automations/{automationSimplyId}': [
    {
      what: 'N identical updates',
      async run(kit) {
        const a = await freshAutomation(kit, await freshCollection(kit, { fields: 1 }), 1);
        const xs = await kit.race({ method: 'PUT', path: automationPath(a.id), body: { name: 'same name', isEnabled: false } });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'name', (await kit.admin('GET', automationPath(a.id))).name, 'same name', xs);
      },
    },
    {
      what: 'N different names',
      async run(kit) {
        const a = await freshAutomation(kit, await freshCollection(kit, { fields: 1 }), 1);
        const names = Array.from({ length: N }, (_, i) => `name ${i}`);
        const xs = await kit.race(names.map((name) => ({ method: 'PUT', path: automationPath(a.id), body: { name } })));
        kit.expectAnswers(xs, ['200']);
        expectOneOf(kit, 'name', (await kit.admin('GET', automationPath(a.id))).name, names, xs);
      },
    },
  ],
  'DELETE /v1/automations/{automationSimplyId}': [
    {
      what: 'N deletes of one automation',
      async run(kit) {
        const a = await freshAutomation(kit, await freshCollection(kit, { fields: 1 }), 2);
        const xs = await kit.race({ method: 'DELETE', path: automationPath(a.id) });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: automationPath(a.id) }, automationPath(a.id));
      },
    },
  ],
  'POST /v1/automations/{automationSimplyId}/actions': [
    {
      what: 'N identical actions appended at once',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const a = await freshAutomation(kit, c, 1);
        const xs = await kit.race({ method: 'POST', path: `${automationPath(a.id)}/actions`, body: updateFields(c.fieldIds[0]!, 'appended') });
        kit.expectAnswers(xs, ['201']);
        if (!distinct(succeeded(xs).map((x) => x.response.body.data.id))) kit.problem('two actions got one id', xs);
        await expectRanks(kit, a.id, 1 + succeeded(xs).length, xs);
      },
    },
    {
      what: 'N actions inserted at rank 1 at once',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const a = await freshAutomation(kit, c, 2);
        const xs = await kit.race({ method: 'POST', path: `${automationPath(a.id)}/actions`, body: { ...updateFields(c.fieldIds[0]!, 'first'), executionRank: 1 } });
        kit.expectAnswers(xs, ['201']);
        await expectRanks(kit, a.id, 2 + succeeded(xs).length, xs);
      },
    },
    {
      what: 'N actions added to an automation 4 short of the 50-action limit',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const a = await freshAutomation(kit, c, 46);
        const xs = await kit.race({ method: 'POST', path: `${automationPath(a.id)}/actions`, body: updateFields(c.fieldIds[0]!, 'late') });
        kit.expectAnswers(xs, ['201', '400 VALIDATION_ERROR']);
        const added = succeeded(xs).length;
        if (added > 4) kit.problem(`${added} actions were added where 4 places were left: the automation has ${46 + added}, the limit is 50`, xs);
        await expectRanks(kit, a.id, 46 + added, xs);
      },
    },
  ],
  'PUT /v1/automations/{automationSimplyId}/actions/reorder': [
    {
      what: 'N identical orders',
      async run(kit) {
        const a = await freshAutomation(kit, await freshCollection(kit, { fields: 1 }), 4);
        const order = [...a.actionIds].reverse();
        const xs = await kit.race({ method: 'PUT', path: `${automationPath(a.id)}/actions/reorder`, body: { orderedActionSimplyIds: order } });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'action order', (await actionsOf(kit, a.id)).map((x) => x.id), order, xs);
      },
    },
    {
      what: 'N different orders',
      async run(kit) {
        const a = await freshAutomation(kit, await freshCollection(kit, { fields: 1 }), 4);
        const submitted = Array.from({ length: N }, (_, i) => {
          const rotated = [...a.actionIds.slice(i % 4), ...a.actionIds.slice(0, i % 4)];
          return i < 4 ? rotated : rotated.reverse();
        });
        const xs = await kit.race(submitted.map((o) => ({ method: 'PUT', path: `${automationPath(a.id)}/actions/reorder`, body: { orderedActionSimplyIds: o } })));
        kit.expectAnswers(xs, ['200']);
        const actions = await actionsOf(kit, a.id);
        expectOneOf(kit, 'action order', actions.map((x) => x.id), submitted, xs);
        await expectRanks(kit, a.id, 4, xs);
      },
    },
  ],
  'PUT /v1/automations/{automationSimplyId}/actions/{automationActionSimplyId}': [
    {
      what: 'N identical updates of one action',
      async run(kit) {
        const a = await freshAutomation(kit, await freshCollection(kit, { fields: 1 }), 2);
        const xs = await kit.race({ method: 'PUT', path: `${automationPath(a.id)}/actions/${a.actionIds[1]}`, body: { continueOnError: true } });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'continueOnError', (await actionsOf(kit, a.id)).find((x) => x.id === a.actionIds[1])?.continueOnError, true, xs);
      },
    },
    {
      what: 'N different actions each moved to rank 1 at once',
      async run(kit) {
        const a = await freshAutomation(kit, await freshCollection(kit, { fields: 1 }), N);
        const xs = await kit.race(a.actionIds.map((id) => ({ method: 'PUT', path: `${automationPath(a.id)}/actions/${id}`, body: { executionRank: 1 } })));
        kit.expectAnswers(xs, ['200']);
        await expectRanks(kit, a.id, N, xs);
      },
    },
  ],
  'DELETE /v1/automations/{automationSimplyId}/actions/{automationActionSimplyId}': [
    {
      what: 'N deletes of one action',
      async run(kit) {
        const a = await freshAutomation(kit, await freshCollection(kit, { fields: 1 }), 3);
        const path = `${automationPath(a.id)}/actions/${a.actionIds[0]}`;
        const xs = await kit.race({ method: 'DELETE', path });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path });
        await expectRanks(kit, a.id, 2, xs);
      },
    },
    {
      what: 'N different actions deleted at once',
      async run(kit) {
        const a = await freshAutomation(kit, await freshCollection(kit, { fields: 1 }), N + 2);
        const xs = await kit.race(a.actionIds.slice(0, N).map((id) => ({ method: 'DELETE', path: `${automationPath(a.id)}/actions/${id}` })));
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'actions left', (await actionsOf(kit, a.id)).map((x) => x.id), a.actionIds.slice(N), xs);
        await expectRanks(kit, a.id, 2, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: automationRaces,
  idRouteBodies: {
    'PUT /v1/automations/{automationSimplyId}': () => ({ name: fresh('renamed automation') }),
    'POST /v1/automations/{automationSimplyId}/actions': (own) => ({ actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [own.dataFieldSimplyId!]: 'y' } } }),
    'PUT /v1/automations/{automationSimplyId}/actions/reorder': (own) => ({ orderedActionSimplyIds: [own.automationActionSimplyId] }),
    'PUT /v1/automations/{automationSimplyId}/actions/{automationActionSimplyId}': () => ({ continueOnError: true }),
  },
  async world({ call, name, ids }) {
    const automation = await ok(
      await call('POST', '/v1/automations', {
        name: name('Automation'),
        triggerType: 'RECORD_CREATED',
        dataCollectionSimplyId: ids.dataCollectionSimplyId,
        isEnabled: false,
        actions: [{ actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [ids.dataFieldSimplyId!]: 'x' } } }],
      }),
      'create automation',
    );
    return { ids: { automationSimplyId: automation.id, automationActionSimplyId: automation.actions[0].id }, names: ['Automation'] };
  },
};
