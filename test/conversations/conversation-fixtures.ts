// What the conversation tests share: a caller (a token, and the team it selects), members holding
// the conversation features, a person collection the visitor matching searches, and short ways to
// start conversations and post to them over REST.
import { randomBytes } from 'node:crypto';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { addMember, createRole, type TeamFixture } from '../support/fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';

export interface Caller {
  token: string;
  /** the team a user token selects (none for keys and session tokens) */
  teamId?: string;
  userSimplyId?: string;
}

export const keyOf = (team: TeamFixture): Caller => ({ token: team.apiKey });
export const adminOf = (team: TeamFixture): Caller => ({ token: team.userToken, teamId: team.teamSimplyId, userSimplyId: team.userSimplyId });

export function call(server: TestServer, who: Caller, method: string, path: string, body?: unknown): Promise<TestResponse> {
  return server.request(method, path, { token: who.token, teamId: who.teamId, body });
}

/** A new member of `team` whose role holds the features (name or name:VIEW). */
export async function memberWith(server: TestServer, team: TeamFixture, features: string[], data: { dataCollectionSimplyId: string; level: string }[] = []): Promise<Caller & { userSimplyId: string }> {
  const role = await createRole(server, team, {
    name: `Conversations ${randomBytes(3).toString('hex')}`,
    featurePermissions: features.map((f) => {
      const [name, level] = f.split(':');
      return { name, level: level ?? 'EDIT' };
    }),
    dataPermissions: data,
  });
  const member = await addMember(server, team, { teamRoleSimplyId: role });
  return { token: member.token, teamId: team.teamSimplyId, userSimplyId: member.userSimplyId };
}

/** A PERSON collection (Contacts: name, email, phone) that visitors are matched against. */
export async function createContacts(server: TestServer, team: TeamFixture, name = 'Contacts'): Promise<CollectionFixture> {
  const contacts = await createCollection(server, team, { name, formula: '{name}', fields: { name: 'PLAIN_TEXT', email: 'EMAIL_ADDRESS', phone: 'PHONE_NUMBER' } });
  await server.app.services.prisma.dataCollection.update({ where: { id: contacts.internalId }, data: { archetype: 'PERSON' } });
  server.app.services.schemas.invalidate(team.teamId);
  return contacts;
}

export const visitorEmail = (label = 'visitor') => `${label}-${randomBytes(4).toString('hex')}@example.org`;

/** POST /v1/conversations as `who`, expecting 201; returns the conversation. */
export async function startConversation(server: TestServer, who: Caller, body: Record<string, unknown> = {}): Promise<any> {
  return expectOk(await call(server, who, 'POST', '/v1/conversations', { subject: `Subject ${randomBytes(3).toString('hex')}`, visitorEmail: visitorEmail(), ...body }), 201);
}

/** POST /v1/conversations/{id}/messages as `who`, expecting 201; returns the message. */
export async function post(server: TestServer, who: Caller, conversation: string, body: Record<string, unknown>): Promise<any> {
  return expectOk(await call(server, who, 'POST', `/v1/conversations/${conversation}/messages`, body), 201);
}

export const FEATURES = {
  table: 'DATA_CONVERSATIONS_VIEW',
  inbox: 'DATA_CONVERSATION_INBOX_VIEW',
  inboxAll: 'DATA_CONVERSATION_INBOX_VIEW_ALL',
} as const;
