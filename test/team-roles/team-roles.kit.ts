// Team roles in the route-table suites (test/support/area-kit.ts): the races of their write routes,
// the body of their replacement, and a role in the route world.
//
// Races on team roles: unique names, whole-role replacement, deletion.
import { freshRole, readAll, unique } from '../concurrency/fresh-resources.ts';
import { expectOneDeletion, expectOneOf, expectSame, expectSuccesses } from '../concurrency/race-checks.ts';
import { N, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { fresh, ok, type AreaTestKit } from '../support/area-kit.ts';

const FEATURES = ['TEAM_SETTINGS', 'TEAM_ADMIN_USERS', 'DATA_EXPORT', 'OUTGOING_MESSAGES_VIEW'] as const;

/** the N-th of a set of whole roles that differ in every list */
function roleBody(i: number, name: string) {
  return {
    name,
    dataFullAccess: i % 2 ? 'READ' : null,
    dataPermissions: [{ dataCollectionSimplyId: '*', level: i % 3 === 0 ? 'EDIT' : 'READ' }],
    featurePermissions: [{ name: FEATURES[i % FEATURES.length]!, level: i % 2 ? 'VIEW' : 'EDIT' }],
    fieldPermissions: [],
  };
}

/** what a role answer says, in the shape of the body that wrote it */
const asBody = (role: any) => ({
  name: role.name,
  dataFullAccess: role.dataFullAccess,
  dataPermissions: role.dataPermissions,
  featurePermissions: role.featurePermissions,
  fieldPermissions: role.fieldPermissions,
});

/** a role an API key uses, so every replacement also reaches the credentials of the key */
async function roleInUse(kit: RaceKit): Promise<string> {
  const role = await freshRole(kit);
  await kit.admin('POST', '/v1/api-keys', { name: unique('key'), teamRoleSimplyId: role });
  return role;
}

const teamRoleRaces: RaceTable = {
  'POST /v1/team-roles': [
    {
      what: 'N roles with one name at once',
      async run(kit) {
        const name = unique('role');
        const xs = await kit.race({ method: 'POST', path: '/v1/team-roles', body: { name } });
        kit.expectAnswers(xs, ['201', '409 CONFLICT']);
        expectSuccesses(kit, xs, 1, 'role names are unique in a team');
        expectSame(kit, 'roles with the name', (await readAll(kit, '/v1/team-roles')).filter((r) => r.name === name).length, 1, xs);
      },
    },
  ],
  'PUT /v1/team-roles/{teamRoleSimplyId}': [
    {
      what: 'N identical replacements of a role in use',
      async run(kit) {
        const id = await roleInUse(kit);
        const body = roleBody(1, unique('replaced'));
        const xs = await kit.race({ method: 'PUT', path: `/v1/team-roles/${id}`, body });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'role', asBody(await kit.admin('GET', `/v1/team-roles/${id}`)), body, xs);
      },
    },
    {
      what: 'N different replacements of a role in use (was a 500 deadlock, or a role mixed from two bodies, before 1d9d546)',
      async run(kit) {
        const id = await roleInUse(kit);
        const bodies = Array.from({ length: N }, (_, i) => roleBody(i, unique(`replaced ${i}`)));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `/v1/team-roles/${id}`, body })));
        kit.expectAnswers(xs, ['200']);
        expectOneOf(kit, 'role', asBody(await kit.admin('GET', `/v1/team-roles/${id}`)), bodies, xs);
      },
    },
    {
      what: 'N different roles renamed to one name at once',
      async run(kit) {
        const ids = await Promise.all(Array.from({ length: N }, () => freshRole(kit)));
        const name = unique('taken');
        const xs = await kit.race(ids.map((id) => ({ method: 'PUT', path: `/v1/team-roles/${id}`, body: { name } })));
        kit.expectAnswers(xs, ['200', '409 CONFLICT']);
        expectSuccesses(kit, xs, 1, 'role names are unique in a team');
        expectSame(kit, 'roles with the name', (await readAll(kit, '/v1/team-roles')).filter((r) => r.name === name).length, 1, xs);
      },
    },
  ],
  'DELETE /v1/team-roles/{teamRoleSimplyId}': [
    {
      what: 'N deletes of one role',
      async run(kit) {
        const id = await freshRole(kit);
        const xs = await kit.race({ method: 'DELETE', path: `/v1/team-roles/${id}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: `/v1/team-roles/${id}` }, `/v1/team-roles/${id}`);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: teamRoleRaces,
  idRouteBodies: {
    'PUT /v1/team-roles/{teamRoleSimplyId}': () => ({ name: fresh('replaced role') }),
  },
  async world({ call, name }) {
    const role = await ok(await call('POST', '/v1/team-roles', { name: name('Role') }), 'create role');
    return { ids: { teamRoleSimplyId: role.id }, names: ['Role'] };
  },
};
