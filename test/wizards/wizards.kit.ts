// Data wizards in the route-table suites (test/support/area-kit.ts): the races of running one and
// of authoring (wizards, steps, tasks) and of the outcome operations, the bodies of the id routes,
// and a one-step wizard with one task and one (disabled) outcome automation in the route world.
//
// Races on running a wizard: N runs on one record, each all-or-nothing. Races on authoring: step
// and task positions stay 0..n-1 and the first step is the one at 0. Races on outcomes: one
// application per idempotency key, one per review. Races on external-access links: N links for one
// record are N links with N secrets; N revocations of one link revoke it once.
import { freshCollection, freshWizard, readAll, unique } from '../concurrency/fresh-resources.ts';
import { distinct, expectDenseRanks, expectOneDeletion, expectOneOf, expectSame } from '../concurrency/race-checks.ts';
import { N, succeeded, type CallerKind, type Exchange, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { fresh, ok, type AreaTestKit } from '../support/area-kit.ts';
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

/** the outcome routes serve signed-in people only */
const PERSON: readonly CallerKind[] = ['team-admin user'];

const wizardPath = (id: string) => `/v1/data-wizards/${id}`;

/**
 * Who makes external-access links in a race: a link lets its holder run the wizard, so its creator
 * needs RUN, which the team's key lacks; the API-key racer uses a key with RUN and the wizard feature.
 */
async function linkMaker(kit: RaceKit): Promise<{ token?: string; teamId?: string } | undefined> {
  if (kit.caller.kind !== 'API key') return undefined;
  const role = await kit.admin('POST', '/v1/team-roles', { name: unique('link maker'), dataFullAccess: 'EDIT', dataPermissions: [{ dataCollectionSimplyId: '*', level: 'RUN' }] });
  return { token: (await kit.admin('POST', '/v1/api-keys', { name: unique('link maker key'), teamRoleSimplyId: role.id, featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:EDIT'] })).fullApiKey };
}

const linkRaces: RaceTable = {
  'POST /v1/data-wizards/{dataWizardSimplyId}/external-access-links': [
    {
      what: 'N links for one record at once',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1, records: 1 });
        const wizard = await freshWizard(kit, c);
        const path = `${wizardPath(wizard)}/external-access-links`;
        const xs = await kit.race({ method: 'POST', path, body: { dataRecordSimplyId: c.recordIds[0], label: unique('link') } }, await linkMaker(kit));
        kit.expectAnswers(xs, ['201']);
        const made = succeeded(xs).map((x) => x.response.body.data);
        if (!distinct(made.map((l) => l.id)) || !distinct(made.map((l) => l.url))) kit.problem('two links got one id or one secret', xs);
        expectSame(kit, 'links listed', (await readAll(kit, path)).length, made.length, xs);
      },
    },
  ],
  'DELETE /v1/data-wizards/{dataWizardSimplyId}/external-access-links/{dataWizardExternalAccessLinkSimplyId}': [
    {
      what: 'N revocations of one link',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1, records: 1 });
        const wizard = await freshWizard(kit, c);
        const maker = await linkMaker(kit);
        const made = await kit.server.request('POST', `${wizardPath(wizard)}/external-access-links`, { token: maker?.token ?? kit.caller.token, teamId: maker ? undefined : kit.caller.teamId, body: { dataRecordSimplyId: c.recordIds[0] } });
        if (made.status !== 201) throw new Error(`set-up link: ${made.status} ${made.text.slice(0, 300)}`);
        const path = `${wizardPath(wizard)}/external-access-links/${made.body.data.id}`;
        const xs = await kit.race({ method: 'DELETE', path });
        kit.expectAnswers(xs, ['200']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path });
        const [link] = await readAll(kit, `${wizardPath(wizard)}/external-access-links`);
        if (link?.status !== 'REVOKED' || !link.revokedAt) kit.problem(`the link reads ${link?.status} after the revocations`, xs);
      },
    },
  ],
};

async function stepsOf(kit: RaceKit, wizard: string): Promise<{ dataWizardStepSimplyId: string; position: number }[]> {
  return (await kit.admin('GET', wizardPath(wizard))).steps;
}

/** a step's tasks as the step route answers them (with their positions) */
async function tasksOf(kit: RaceKit, step: string): Promise<{ dataWizardStepTaskSimplyId: string; position: number }[]> {
  return (await kit.admin('GET', `/v1/data-wizard-steps/${step}`)).tasks;
}

/** positions 0..n-1 and the first step at 0 */
async function expectStepOrder(kit: RaceKit, wizard: string, count: number, xs: Exchange[]): Promise<void> {
  const detail = await kit.admin('GET', wizardPath(wizard));
  expectDenseRanks(kit, 'step positions', detail.steps.map((s: { position: number }) => s.position), count, 0, xs);
  if (count > 0 && detail.firstStepId !== detail.steps[0].dataWizardStepSimplyId) kit.problem(`firstStepId ${detail.firstStepId} is not the step at position 0`, xs);
}

/** a wizard with `steps` steps, the first one holding `tasks` DISPLAY tasks */
async function wizardWith(kit: RaceKit, steps: number, tasks = 0): Promise<{ id: string; collection: string; field: string; steps: string[]; tasks: string[] }> {
  const c = await freshCollection(kit, { fields: 1, records: 1 });
  const wizard = await createWizard(kit.server, kit.team.apiKey, {
    name: unique('wizard'),
    dataCollectionSimplyId: c.id,
    steps: Array.from({ length: steps }, (_, i) => ({ title: `step ${i}`, tasks: i === 0 ? Array.from({ length: tasks }, (_, t) => ({ type: 'DISPLAY', title: `task ${t}` })) : [] })),
  });
  return {
    id: wizard.dataWizardSimplyId,
    collection: c.id,
    field: c.fieldIds[0]!,
    steps: wizard.steps.map((s: any) => s.dataWizardStepSimplyId),
    tasks: (wizard.steps[0]?.tasks ?? []).map((t: any) => t.dataWizardStepTaskSimplyId),
  };
}

/** one UPDATE_FIELDS action on the wizard's collection */
const setField = (field: string, value: string) => ({ actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [field]: value } } });

/** a request as the racing person (the outcome routes refuse the team's key) */
async function asCaller(kit: RaceKit, method: string, path: string, body?: unknown): Promise<any> {
  const response = await kit.server.request(method, path, { token: kit.caller.token, teamId: kit.caller.teamId, body });
  if (response.status >= 300) throw new Error(`set-up ${method} ${path} answered ${response.status} ${response.text.slice(0, 500)}`);
  return response.body.data;
}

async function outcomeAutomations(kit: RaceKit, wizard: string): Promise<any[]> {
  return (await readAll(kit, '/v1/automations')).filter((a) => a.triggerConfig?.dataWizardSimplyId === wizard);
}

const authoringRaces: RaceTable = {
  'POST /v1/data-wizards': [
    {
      what: 'N identical wizards (names need not be unique)',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const name = unique('wizard');
        const xs = await kit.race({ method: 'POST', path: '/v1/data-wizards', body: { name, dataCollectionSimplyId: c.id, steps: [{ title: 'only' }] } });
        kit.expectAnswers(xs, ['201']);
        if (!distinct(succeeded(xs).map((x) => x.response.body.data.id))) kit.problem('two wizards got one id', xs);
        expectSame(kit, 'wizards with the name', (await readAll(kit, '/v1/data-wizards')).filter((w) => w.name === name).length, succeeded(xs).length, xs);
      },
    },
  ],
  'PATCH /v1/data-wizards/{dataWizardSimplyId}': [
    {
      what: 'N different descriptions',
      async run(kit) {
        const w = await wizardWith(kit, 1);
        const values = Array.from({ length: N }, (_, i) => `description ${i}`);
        const xs = await kit.race(values.map((description) => ({ method: 'PATCH', path: wizardPath(w.id), body: { description } })));
        kit.expectAnswers(xs, ['200']);
        expectOneOf(kit, 'description', (await kit.admin('GET', wizardPath(w.id))).description, values, xs);
      },
    },
  ],
  'DELETE /v1/data-wizards/{dataWizardSimplyId}': [
    {
      what: 'N deletes of one wizard',
      async run(kit) {
        const w = await wizardWith(kit, 2, 1);
        const xs = await kit.race({ method: 'DELETE', path: wizardPath(w.id) });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: wizardPath(w.id) }, wizardPath(w.id));
      },
    },
  ],
  'POST /v1/data-wizard-steps': [
    {
      what: 'N steps appended to one wizard at once',
      async run(kit) {
        const w = await wizardWith(kit, 1);
        const xs = await kit.race({ method: 'POST', path: '/v1/data-wizard-steps', body: { dataWizardSimplyId: w.id, title: 'appended' } });
        kit.expectAnswers(xs, ['201']);
        await expectStepOrder(kit, w.id, 1 + succeeded(xs).length, xs);
      },
    },
    {
      what: 'N steps inserted first at once',
      async run(kit) {
        const w = await wizardWith(kit, 2);
        const xs = await kit.race({ method: 'POST', path: '/v1/data-wizard-steps', body: { dataWizardSimplyId: w.id, title: 'first', position: 0 } });
        kit.expectAnswers(xs, ['201']);
        await expectStepOrder(kit, w.id, 2 + succeeded(xs).length, xs);
      },
    },
  ],
  'PATCH /v1/data-wizard-steps/{dataWizardStepSimplyId}': [
    {
      what: 'N different steps each moved to the front',
      async run(kit) {
        const w = await wizardWith(kit, N);
        const xs = await kit.race(w.steps.map((id) => ({ method: 'PATCH', path: `/v1/data-wizard-steps/${id}`, body: { position: 0 } })));
        kit.expectAnswers(xs, ['200']);
        await expectStepOrder(kit, w.id, N, xs);
        expectSame(kit, 'steps', (await stepsOf(kit, w.id)).map((s) => s.dataWizardStepSimplyId).sort(), [...w.steps].sort(), xs);
      },
    },
    {
      what: 'N different titles for one step',
      async run(kit) {
        const w = await wizardWith(kit, 1);
        const titles = Array.from({ length: N }, (_, i) => `title ${i}`);
        const xs = await kit.race(titles.map((title) => ({ method: 'PATCH', path: `/v1/data-wizard-steps/${w.steps[0]}`, body: { title } })));
        kit.expectAnswers(xs, ['200']);
        expectOneOf(kit, 'title', (await kit.admin('GET', `/v1/data-wizard-steps/${w.steps[0]}`)).title, titles, xs);
      },
    },
  ],
  'DELETE /v1/data-wizard-steps/{dataWizardStepSimplyId}': [
    {
      what: 'N deletes of the first step',
      async run(kit) {
        const w = await wizardWith(kit, 3);
        const path = `/v1/data-wizard-steps/${w.steps[0]}`;
        const xs = await kit.race({ method: 'DELETE', path });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path }, path);
        await expectStepOrder(kit, w.id, 2, xs);
      },
    },
    {
      what: 'N deletes of N different steps',
      async run(kit) {
        const w = await wizardWith(kit, N + 1);
        const xs = await kit.race(w.steps.slice(0, N).map((id) => ({ method: 'DELETE', path: `/v1/data-wizard-steps/${id}` })));
        kit.expectAnswers(xs, ['200']);
        await expectStepOrder(kit, w.id, N + 1 - succeeded(xs).length, xs);
      },
    },
  ],
  'POST /v1/data-wizard-step-tasks': [
    {
      what: 'N tasks appended to one step at once',
      async run(kit) {
        const w = await wizardWith(kit, 1, 1);
        const xs = await kit.race({ method: 'POST', path: '/v1/data-wizard-step-tasks', body: { dataWizardStepSimplyId: w.steps[0], type: 'DISPLAY', title: 'appended' } });
        kit.expectAnswers(xs, ['201']);
        expectDenseRanks(kit, 'task positions', (await tasksOf(kit, w.steps[0]!)).map((t) => t.position), 1 + succeeded(xs).length, 0, xs);
      },
    },
  ],
  'PATCH /v1/data-wizard-step-tasks/{dataWizardStepTaskSimplyId}': [
    {
      what: 'N different tasks each moved to the front',
      async run(kit) {
        const w = await wizardWith(kit, 1, N);
        const xs = await kit.race(w.tasks.map((id) => ({ method: 'PATCH', path: `/v1/data-wizard-step-tasks/${id}`, body: { position: 0 } })));
        kit.expectAnswers(xs, ['200']);
        const tasks = await tasksOf(kit, w.steps[0]!);
        expectDenseRanks(kit, 'task positions', tasks.map((t) => t.position), N, 0, xs);
        expectSame(kit, 'tasks', tasks.map((t) => t.dataWizardStepTaskSimplyId).sort(), [...w.tasks].sort(), xs);
      },
    },
    {
      what: 'N different field-link lists for one task',
      async run(kit) {
        const w = await wizardWith(kit, 1, 1);
        const lists = Array.from({ length: N }, (_, i) => (i % 2 ? [] : [{ dataFieldSimplyId: w.field, isRequired: i % 4 === 0 }]));
        const xs = await kit.race(lists.map((fields) => ({ method: 'PATCH', path: `/v1/data-wizard-step-tasks/${w.tasks[0]}`, body: { fields } })));
        kit.expectAnswers(xs, ['200']);
        const task = await kit.admin('GET', `/v1/data-wizard-step-tasks/${w.tasks[0]}`);
        expectOneOf(kit, 'field links', task.fields.map((f: any) => ({ dataFieldSimplyId: f.dataFieldSimplyId, isRequired: f.isRequired })), lists, xs);
      },
    },
  ],
  'DELETE /v1/data-wizard-step-tasks/{dataWizardStepTaskSimplyId}': [
    {
      what: 'N deletes of N different tasks of one step',
      async run(kit) {
        const w = await wizardWith(kit, 1, N + 1);
        const xs = await kit.race(w.tasks.slice(0, N).map((id) => ({ method: 'DELETE', path: `/v1/data-wizard-step-tasks/${id}` })));
        kit.expectAnswers(xs, ['200']);
        expectDenseRanks(kit, 'task positions', (await tasksOf(kit, w.steps[0]!)).map((t) => t.position), N + 1 - succeeded(xs).length, 0, xs);
      },
    },
    {
      what: 'N deletes of one task',
      async run(kit) {
        const w = await wizardWith(kit, 1, 2);
        const path = `/v1/data-wizard-step-tasks/${w.tasks[0]}`;
        const xs = await kit.race({ method: 'DELETE', path });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path }, path);
      },
    },
  ],
};

const outcomeRaces: RaceTable = {
  'POST /v1/data-wizards/{dataWizardSimplyId}/outcome-presets/preview': [
    {
      what: 'N previews of one configuration',
      callers: PERSON,
      async run(kit) {
        const w = await wizardWith(kit, 1);
        const xs = await kit.race({ method: 'POST', path: `${wizardPath(w.id)}/outcome-presets/preview`, body: { configuration: { success: { actions: [setField(w.field, 'done')] } } } });
        kit.expectAnswers(xs, ['200']);
        if (new Set(succeeded(xs).map((x) => x.response.body.data.fingerprint)).size > 1) kit.problem('one configuration got several fingerprints', xs);
        expectSame(kit, 'outcome automations after previews', (await outcomeAutomations(kit, w.id)).length, 0, xs);
      },
    },
  ],
  'POST /v1/data-wizards/{dataWizardSimplyId}/outcome-presets/apply': [
    {
      what: 'N applications with one idempotency key',
      callers: PERSON,
      async run(kit) {
        const w = await wizardWith(kit, 1);
        const preview = await asCaller(kit, 'POST', `${wizardPath(w.id)}/outcome-presets/preview`, { configuration: { success: { actions: [setField(w.field, 'done')] } } });
        const body = { configuration: preview.configuration, fingerprint: preview.fingerprint, idempotencyKey: unique('key') };
        const xs = await kit.race({ method: 'POST', path: `${wizardPath(w.id)}/outcome-presets/apply`, body });
        kit.expectAnswers(xs, ['200']);
        const created = new Set(succeeded(xs).map((x) => x.response.body.data.manifest[0]?.automationSimplyId));
        if (created.size > 1) kit.problem(`one key answered ${created.size} different automations`, xs);
        expectSame(kit, 'outcome automations', (await outcomeAutomations(kit, w.id)).length, 1, xs);
      },
    },
    {
      what: 'N applications of one review with N keys',
      callers: PERSON,
      async run(kit) {
        const w = await wizardWith(kit, 1);
        const preview = await asCaller(kit, 'POST', `${wizardPath(w.id)}/outcome-presets/preview`, { configuration: { error: { actions: [setField(w.field, 'failed')] } } });
        const xs = await kit.race(
          Array.from({ length: N }, () => ({
            method: 'POST',
            path: `${wizardPath(w.id)}/outcome-presets/apply`,
            body: { configuration: preview.configuration, fingerprint: preview.fingerprint, idempotencyKey: unique('key') },
          })),
        );
        kit.expectAnswers(xs, ['200', '409 OUTCOME_PRESET_STALE']);
        expectSame(kit, 'applications', succeeded(xs).length, 1, xs);
        expectSame(kit, 'outcome automations', (await outcomeAutomations(kit, w.id)).length, 1, xs);
      },
    },
  ],
  'PATCH /v1/data-wizards/{dataWizardSimplyId}/outcomes/{automationSimplyId}/enabled': [
    {
      what: 'N different values for one outcome',
      callers: PERSON,
      async run(kit) {
        const w = await wizardWith(kit, 1);
        const automation = await kit.admin('POST', '/v1/automations', { name: unique('outcome'), triggerType: 'WIZARD_COMPLETED', triggerConfig: { dataWizardSimplyId: w.id }, isEnabled: false });
        const values = Array.from({ length: N }, (_, i) => i % 2 === 0);
        const xs = await kit.race(values.map((isEnabled) => ({ method: 'PATCH', path: `${wizardPath(w.id)}/outcomes/${automation.id}/enabled`, body: { isEnabled } })));
        kit.expectAnswers(xs, ['200']);
        expectOneOf(kit, 'isEnabled', (await kit.admin('GET', `/v1/automations/${automation.id}`)).isEnabled, values, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: { ...wizardRaces, ...authoringRaces, ...outcomeRaces, ...linkRaces },
  idRouteBodies: {
    'POST /v1/data-wizards/{dataWizardSimplyId}/execute': (own) => ({ dataRecordSimplyId: own.dataRecordSimplyId }),
    'PATCH /v1/data-wizards/{dataWizardSimplyId}': () => ({ description: fresh('description') }),
    'PATCH /v1/data-wizard-steps/{dataWizardStepSimplyId}': () => ({ title: fresh('step') }),
    'PATCH /v1/data-wizard-step-tasks/{dataWizardStepTaskSimplyId}': () => ({ title: fresh('task') }),
    'POST /v1/data-wizards/{dataWizardSimplyId}/outcome-presets/preview': (own) => ({ configuration: { success: { actions: [setField(own.dataFieldSimplyId!, 'done')] } } }),
    'POST /v1/data-wizards/{dataWizardSimplyId}/outcome-presets/apply': (own) => ({
      configuration: { success: { actions: [setField(own.dataFieldSimplyId!, 'done')] } },
      fingerprint: '0'.repeat(64),
      idempotencyKey: fresh('key'),
    }),
    'PATCH /v1/data-wizards/{dataWizardSimplyId}/outcomes/{automationSimplyId}/enabled': () => ({ isEnabled: false }),
    'POST /v1/data-wizards/{dataWizardSimplyId}/external-access-links': (own) => ({ dataRecordSimplyId: own.dataRecordSimplyId, label: fresh('link') }),
  },
  async world({ server, team, name, ids, call }) {
    const wizard = await createWizard(server, team.apiKey, {
      name: name('Wizard'),
      dataCollectionSimplyId: ids.dataCollectionSimplyId!,
      steps: [{ title: name('Step'), tasks: [{ type: 'DISPLAY', title: name('Task'), config: { body: name('Task body') } }] }],
    });
    const step = wizard.steps[0];
    // an outcome of the wizard, disabled (it never runs): the enable route names it
    const outcome = await ok(
      await call('POST', '/v1/automations', { name: name('Outcome'), triggerType: 'WIZARD_COMPLETED', triggerConfig: { dataWizardSimplyId: wizard.dataWizardSimplyId }, isEnabled: false }),
      'wizard outcome automation',
    );
    // a run of the wizard and an external-access link to it, made by a key with RUN (the team's key
    // has full data access, which does not imply RUN) and the wizard feature
    const role = await ok(await call('POST', '/v1/team-roles', { name: name('Runner role'), dataFullAccess: 'EDIT', dataPermissions: [{ dataCollectionSimplyId: '*', level: 'RUN' }] }), 'wizard runner role');
    const runner = await ok(await call('POST', '/v1/api-keys', { name: name('Runner key'), teamRoleSimplyId: role.id, featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:EDIT'] }), 'wizard runner key');
    const asRunner = (method: string, path: string, body: unknown) => server.request(method, path, { token: runner.fullApiKey, body });
    const run = await ok(await asRunner('POST', `/v1/data-wizards/${wizard.dataWizardSimplyId}/execute`, { dataRecordSimplyId: ids.dataRecordSimplyId }), 'wizard run');
    const link = await ok(
      await asRunner('POST', `/v1/data-wizards/${wizard.dataWizardSimplyId}/external-access-links`, { dataRecordSimplyId: ids.dataRecordSimplyId, label: name('Link label') }),
      'wizard external-access link',
    );
    return {
      ids: {
        dataWizardInstanceSimplyId: run.dataWizardInstanceSimplyId,
        dataWizardExternalAccessLinkSimplyId: link.id,
        dataWizardSimplyId: wizard.dataWizardSimplyId,
        dataWizardStepSimplyId: step.dataWizardStepSimplyId,
        dataWizardStepTaskSimplyId: step.tasks[0].dataWizardStepTaskSimplyId,
        'PATCH /v1/data-wizards/{dataWizardSimplyId}/outcomes/{automationSimplyId}/enabled {automationSimplyId}': outcome.id,
      },
      names: ['Wizard', 'Step', 'Task', 'Task body', 'Outcome', 'Runner role', 'Runner key', 'Link label'],
    };
  },
};
