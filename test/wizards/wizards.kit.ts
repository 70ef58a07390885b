// Data wizards in the route-table suites (test/support/area-kit.ts): the races of running one, its
// body, and a one-step wizard on the world's collection.
//
// Races on running a wizard: N runs on one record, each all-or-nothing.
import { freshCollection, freshWizard, unique } from '../concurrency/fresh-resources.ts';
import { expectOneOf } from '../concurrency/race-checks.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import type { AreaTestKit } from '../support/area-kit.ts';
import { createWizard } from '../support/wizard-fixtures.ts';

/** RUN is its own grant (full data access does not imply it): the key that runs wizards gets a role with it */
async function runnerKey(kit: RaceKit): Promise<string> {
  const role = await kit.admin('POST', '/v1/team-roles', { name: unique('runner'), dataFullAccess: 'EDIT', dataPermissions: [{ dataCollectionSimplyId: '*', level: 'RUN' }] });
  return (await kit.admin('POST', '/v1/api-keys', { name: unique('runner key'), teamRoleSimplyId: role.id })).fullApiKey;
}

const wizardRaces: RaceTable = {
  'POST /v1/data-wizards/{dataWizardSimplyId}/execute': [
    {
      what: 'N runs on one record with different values',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1, records: 1 });
        const wizard = await freshWizard(kit, c);
        const values = Array.from({ length: N }, (_, i) => `run ${i}`);
        const requests = values.map((v) => ({ method: 'POST', path: `/v1/data-wizards/${wizard}/execute`, body: { dataRecordSimplyId: c.recordIds[0], formData: { [c.fieldIds[0]!]: v } } }));
        const xs = kit.caller.kind === 'API key' ? await kit.race(requests, { token: await runnerKey(kit) }) : await kit.race(requests);
        kit.expectAnswers(xs, ['200']);
        const failedRuns = succeeded(xs).filter((x) => x.response.body.data.success !== true);
        if (failedRuns.length) kit.problem(`${failedRuns.length} runs did not succeed`, failedRuns);
        const record = await kit.admin('GET', `/v1/data-records/${c.recordIds[0]}`);
        expectOneOf(kit, 'value', record.fields[c.fieldIds[0]!], values, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: wizardRaces,
  idRouteBodies: {
    'POST /v1/data-wizards/{dataWizardSimplyId}/execute': (own) => ({ dataRecordSimplyId: own.dataRecordSimplyId }),
  },
  async world({ server, team, name, ids }) {
    const wizard = await createWizard(server, team.apiKey, { name: name('Wizard'), dataCollectionSimplyId: ids.dataCollectionSimplyId!, steps: [{ title: name('Step') }] });
    return { ids: { dataWizardSimplyId: wizard.dataWizardSimplyId }, names: ['Wizard', 'Step'] };
  },
};
