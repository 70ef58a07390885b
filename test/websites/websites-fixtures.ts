// What the website tests share: callers (the team's admin user, members with the websites
// features), and short ways to make sites and pages over REST.
import { randomBytes } from 'node:crypto';
import { expectOk } from '../support/expect-envelope.ts';
import { addMember, createRole, type TeamFixture } from '../support/fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';

export interface Caller {
  token: string;
  teamId?: string;
  userSimplyId?: string;
}

export const adminOf = (team: TeamFixture): Caller => ({ token: team.userToken, teamId: team.teamSimplyId, userSimplyId: team.userSimplyId });

export function call(server: TestServer, who: Caller, method: string, path: string, body?: unknown): Promise<TestResponse> {
  return server.request(method, path, { token: who.token, teamId: who.teamId, body });
}

/** A new member of `team` whose role holds the features (name or name:VIEW). */
export async function memberWith(server: TestServer, team: TeamFixture, features: string[]): Promise<Caller & { userSimplyId: string }> {
  const role = await createRole(server, team, {
    name: `Websites ${randomBytes(3).toString('hex')}`,
    featurePermissions: features.map((f) => {
      const [name, level] = f.split(':');
      return { name, level: level ?? 'EDIT' };
    }),
  });
  const member = await addMember(server, team, { teamRoleSimplyId: role });
  return { token: member.token, teamId: team.teamSimplyId, userSimplyId: member.userSimplyId };
}

export const siteName = (label = 'Site') => `${label} ${randomBytes(3).toString('hex')}`;

export async function createSite(server: TestServer, who: Caller, body: Record<string, unknown> = {}): Promise<any> {
  return expectOk(await call(server, who, 'POST', '/v1/websites', { name: siteName(), ...body }), 201);
}

export async function createPage(server: TestServer, who: Caller, site: string, body: Record<string, unknown> = {}): Promise<any> {
  return expectOk(await call(server, who, 'POST', `/v1/websites/${site}/pages`, { title: `Page ${randomBytes(3).toString('hex')}`, ...body }), 201);
}
