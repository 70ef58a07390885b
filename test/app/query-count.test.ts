// No N+1: a page of API keys, team users or roles, and the current user with all their teams,
// cost a fixed, small number of SQL statements whether the page has 3 rows or 25.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken, newApiKey } from '../../src/app/auth/tokens.ts';
import { membershipId, teamId, userId } from '../../src/app/ids.ts';
import { createTeam, uniqueEmail, type TeamFixture } from '../support/fixtures.ts';
import { countSql, type SqlCounter } from '../support/sql-counter.ts';
import { useServer } from '../support/use-server.ts';
import { apiKeyId } from '../../src/modules/credentials/credentials.ids.ts';
import { teamRoleId } from '../../src/modules/team-roles/team-roles.ids.ts';

const SMALL = 3;
const LARGE = 25;

interface Seeded {
  team: TeamFixture;
  /** a user who belongs to `rows` teams, each with a role that has data permissions */
  userToken: string;
}

describe('SQL statements per request do not grow with the rows returned', () => {
  const { server } = useServer();
  let sql: SqlCounter;
  const seeded: Record<'small' | 'large', Seeded> = {} as never;

  /** `rows` roles (with data permissions), API keys and members (each with a role), all in one team. */
  async function seed(rows: number): Promise<Seeded> {
    const { prisma } = server.app.services;
    const team = await createTeam(server);
    const roles: { id: bigint }[] = [];
    for (let i = 0; i < rows; i++) {
      roles.push(
        await prisma.teamRole.create({
          data: {
            teamId: team.teamId,
            simplyId: teamRoleId.create(),
            name: `Role ${i}`,
            dataPermissions: { create: [{ dataCollectionSimplyId: '*', level: 'READ' }, { dataCollectionSimplyId: 'ABCD-EFGH-JKMN', level: 'EDIT' }] },
          },
        }),
      );
    }
    await prisma.apiKey.createMany({
      data: roles.map((role, i) => {
        const key = newApiKey();
        return { teamId: team.teamId, simplyId: apiKeyId.create(), name: `Key ${i}`, keyHash: hashToken(key), keyHint: key.slice(0, 12), teamRoleId: role.id };
      }),
    });
    const emails = roles.map(() => uniqueEmail('member'));
    await prisma.user.createMany({ data: emails.map((email) => ({ simplyId: userId.create(), email })) });
    const users = await prisma.user.findMany({ where: { email: { in: emails } } });
    await prisma.teamMembership.createMany({
      data: users.map((user, i) => ({ simplyId: membershipId.create(), teamId: team.teamId, userId: user.id, teamRoleId: roles[i]!.id })),
    });

    // one person in `rows` teams (the fixture's team first), with a role in each
    const person = await prisma.user.create({ data: { simplyId: userId.create(), email: uniqueEmail('many-teams') } });
    const teamIds = [team.teamId];
    for (let i = 1; i < rows; i++) {
      teamIds.push((await prisma.team.create({ data: { simplyId: teamId.create(), name: `Other ${i} ${randomBytes(3).toString('hex')}` } })).id);
    }
    for (const [i, teamId] of teamIds.entries()) {
      const role =
        i === 0
          ? roles[0]!
          : await prisma.teamRole.create({
              data: { teamId, simplyId: teamRoleId.create(), name: 'Member', dataPermissions: { create: [{ dataCollectionSimplyId: '*', level: 'READ' }] } },
            });
      await prisma.teamMembership.create({ data: { simplyId: membershipId.create(), teamId, userId: person.id, teamRoleId: role.id } });
    }
    const { token } = await server.app.services.jwt.issueAccessToken(person.simplyId);
    return { team, userToken: token };
  }

  beforeAll(async () => {
    sql = countSql(server.app.services.pool);
    seeded.small = await seed(SMALL);
    seeded.large = await seed(LARGE);
  });

  /**
   * Statements of a request whose credential came from the cache, so only the request's own
   * queries count. Any instance's credential invalidation (other test files write to the same
   * database) can keep a load from being cached, so a run that loaded the credential is repeated.
   */
  async function statementsOf(run: () => Promise<{ ok: boolean; detail: string }>): Promise<string[]> {
    const { authenticator } = server.app.services;
    for (let attempt = 0; attempt < 10; attempt++) {
      const loads = authenticator.loads;
      let result = { ok: false, detail: '' };
      const statements = await sql.measure(async () => {
        result = await run();
      });
      expect(result.ok, result.detail).toBe(true);
      if (authenticator.loads === loads) return statements;
    }
    throw new Error('the credential never stayed cached for a whole request');
  }

  const graphql = (query: string, size: 'small' | 'large', as: 'key' | 'user') => async () => {
    const s = seeded[size];
    const response = await server.graphql(query, {}, as === 'key' ? { token: s.team.apiKey } : { token: s.userToken, teamId: s.team.teamSimplyId });
    return { ok: !response.errors && response.data !== null, detail: JSON.stringify(response.errors), data: response.data };
  };

  const rest = (path: string, size: 'small' | 'large', as: 'key' | 'user') => async () => {
    const s = seeded[size];
    const response = await server.request('GET', path, as === 'key' ? { token: s.team.apiKey } : { token: s.userToken, teamId: s.team.teamSimplyId });
    return { ok: response.status === 200, detail: response.text, body: response.body };
  };

  const cases: [string, (size: 'small' | 'large') => () => Promise<{ ok: boolean; detail: string }>, number][] = [
    ['GraphQL apiKeys { nodes { teamRoleSimplyId } }', (s) => graphql('{ apiKeys(limit: 100) { nodes { id name teamRoleSimplyId createdAt } pagination { total } } }', s, 'key'), 3],
    ['GraphQL users { nodes { email teamRoleSimplyId } }', (s) => graphql('{ users(limit: 100) { nodes { userSimplyId email firstName teamRoleSimplyId lastLoggedIn } pagination { total } } }', s, 'key'), 3],
    ['GraphQL teamRoles { nodes { dataPermissions { level } } }', (s) => graphql('{ teamRoles(limit: 100) { nodes { name dataPermissions { dataCollectionSimplyId level } featurePermissions { name } } pagination { total } } }', s, 'key'), 3],
    ['GraphQL me { teams rolePermissions }', (s) => graphql('{ me { email teams { name teamSimplyId teamRoleSimplyId } rolePermissions { name dataPermissions { level } } } }', s, 'user'), 3],
    ['REST GET /v1/api-keys', (s) => rest('/v1/api-keys?limit=100', s, 'key'), 3],
    ['REST GET /v1/users', (s) => rest('/v1/users?limit=100', s, 'key'), 3],
    ['REST GET /v1/team-roles', (s) => rest('/v1/team-roles?limit=100', s, 'key'), 3],
    ['REST GET /v1/users/me?expand=teams,rolePermissions', (s) => rest('/v1/users/me?expand=teams,rolePermissions', s, 'user'), 3],
  ];

  it.each(cases)('%s', async (_label, request, atMost) => {
    const small = await statementsOf(request('small'));
    const large = await statementsOf(request('large'));
    expect(large.length, `3 rows:\n${small.join('\n')}\n\n25 rows:\n${large.join('\n')}`).toBe(small.length);
    expect(large.length, large.join('\n')).toBeLessThanOrEqual(atMost);
    expect(large.length).toBeGreaterThan(0);
  });

  it('the pages really hold 3 and 25 rows', async () => {
    for (const [size, rows] of [['small', SMALL], ['large', LARGE]] as const) {
      const s = seeded[size];
      const keys = await server.graphql<{ apiKeys: { nodes: { teamRoleSimplyId: string | null }[] } }>('{ apiKeys(limit: 100) { nodes { teamRoleSimplyId } } }', {}, { token: s.team.apiKey });
      expect(keys.data!.apiKeys.nodes.filter((k) => k.teamRoleSimplyId !== null).length).toBe(rows + 1); // + the bootstrap key
      const users = await server.request('GET', '/v1/users?limit=100', { token: s.team.apiKey });
      expect(users.body.data.filter((u: { teamRoleSimplyId: string | null }) => u.teamRoleSimplyId).length).toBe(rows + 1); // + the person
      const me = await server.graphql<{ me: { teams: { teamRoleSimplyId: string }[]; rolePermissions: { dataPermissions: unknown[] } } }>(
        '{ me { teams { teamRoleSimplyId } rolePermissions { dataPermissions { level } } } }',
        {},
        { token: s.userToken, teamId: s.team.teamSimplyId },
      );
      expect(me.data!.me.teams.length).toBe(rows);
      expect(me.data!.me.teams.every((t) => t.teamRoleSimplyId)).toBe(true);
      expect(me.data!.me.rolePermissions.dataPermissions.length).toBe(2);
    }
  });
});
