// Test fixtures: each test builds its own team(s), so test files never see each other's data.
import { randomBytes } from 'node:crypto';
import { bootstrapTeam, type BootstrapResult } from '../../src/modules/teams/bootstrap.service.ts';
import { startTestServer, type StartOptions, type TestServer } from './server.ts';
import { membershipId, userId } from '../../src/app/ids.ts';
import { hashPassword } from '../../src/app/auth/passwords.ts';

export interface TeamFixture extends BootstrapResult {
  /** a first-party JWT for the team-admin user */
  userToken: string;
}

/** a name suffix no other call (even in the same millisecond) produces */
export const unique = (): string => randomBytes(4).toString('hex');

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.test`;
}

/** The password of every user the fixtures create. */
export const FIXTURE_PASSWORD = 'correct horse battery staple';

// Hashed once per worker: scrypt spends ~60 ms on a hash, and the suite's fixtures create hundreds
// of users, one after the other in their files' setup.
let fixtureHash: Promise<string> | undefined;
const fixturePasswordHash = () => (fixtureHash ??= hashPassword(FIXTURE_PASSWORD));

/** A user with the fixture password, made directly (no hash of its own). */
async function createFixtureUser(server: TestServer, email: string, isSystemAdmin = false) {
  return server.app.services.prisma.user.create({ data: { simplyId: userId.create(), email, passwordHash: await fixturePasswordHash(), isSystemAdmin } });
}

/** A team with a team-admin user (password known), a full-access role and a full-access API key. */
export async function createTeam(server: TestServer, options: { name?: string; isSystemAdmin?: boolean; email?: string } = {}): Promise<TeamFixture> {
  const email = options.email ?? uniqueEmail('admin');
  // a new admin user is made here, with the shared hash; bootstrap then finds it (as it would an existing user)
  if (!options.email) await createFixtureUser(server, email, options.isSystemAdmin);
  const result = await bootstrapTeam(server.app.services.prisma, {
    teamName: options.name ?? `Team ${randomBytes(3).toString('hex')}`,
    email,
    password: FIXTURE_PASSWORD,
    isSystemAdmin: options.isSystemAdmin,
  });
  const { token } = await server.app.services.jwt.issueAccessToken(result.userSimplyId);
  return { ...result, password: options.email ? result.password : FIXTURE_PASSWORD, userToken: token };
}

/** Starts a test server and creates one team on it (closing the server again should that fail). */
export async function startServerWithTeam(options: StartOptions = {}): Promise<{ server: TestServer; team: TeamFixture }> {
  const server = await startTestServer(options);
  try {
    return { server, team: await createTeam(server) };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** Creates a role through the API and returns its simplyId. */
export async function createRole(server: TestServer, team: TeamFixture, body: Record<string, unknown>): Promise<string> {
  const response = await server.request('POST', '/v1/team-roles', { token: team.apiKey, body });
  if (response.status !== 201) throw new Error(`createRole: ${response.status} ${response.text}`);
  return response.body.data.id;
}

/** Creates an API key through the API and returns the full key and its id. */
export async function createApiKey(server: TestServer, team: TeamFixture, body: Record<string, unknown>): Promise<{ key: string; id: string }> {
  const response = await server.request('POST', '/v1/api-keys', { token: team.apiKey, body });
  if (response.status !== 201) throw new Error(`createApiKey: ${response.status} ${response.text}`);
  return { key: response.body.data.fullApiKey, id: response.body.data.id };
}

/** Adds a user to the team (as a plain member with an optional role) directly, returning a JWT for them. */
export async function addMember(
  server: TestServer,
  team: TeamFixture,
  options: { teamRoleSimplyId?: string; isTeamAdmin?: boolean; email?: string } = {},
): Promise<{ userSimplyId: string; token: string; email: string }> {
  const { prisma } = server.app.services;
  const email = options.email ?? uniqueEmail('member');
  const role = options.teamRoleSimplyId
    ? await prisma.teamRole.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: options.teamRoleSimplyId } } })
    : null;
  const user = await createFixtureUser(server, email);
  await prisma.teamMembership.create({
    data: { simplyId: membershipId.create(), teamId: team.teamId, userId: user.id, isTeamAdmin: options.isTeamAdmin ?? false, teamRoleId: role?.id ?? null },
  });
  const { token } = await server.app.services.jwt.issueAccessToken(user.simplyId);
  return { userSimplyId: user.simplyId, token, email };
}
