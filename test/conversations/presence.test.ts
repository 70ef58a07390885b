// Presence (GET/PUT /v1/conversations/presence) and the assignable team users: a heartbeat keeps
// an agent ONLINE for 60 s, stored in PostgreSQL (any instance reads it); supervisors set others'
// status and limits; credentials without a person name the agent.
import { describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { adminOf, call, FEATURES, keyOf, memberWith, startConversation } from './conversation-fixtures.ts';

const PRESENCE = '/v1/conversations/presence';

describe('presence', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });
  const key = () => keyOf(team);
  const find = (list: any[], userSimplyId: string) => list.find((a) => a.userSimplyId === userSimplyId);

  it('a heartbeat keeps an agent online for 60 s; the list shows status, load and limit', async () => {
    const agent = await memberWith(server, team, [FEATURES.inbox]);
    const tableOnly = await memberWith(server, team, [FEATURES.table]);
    expect(find(expectOk(await call(server, agent, 'GET', PRESENCE)), agent.userSimplyId)).toMatchObject({ status: 'OFFLINE', online: false, openConversations: 0, maxOpenConversations: 10, limitIsDefault: true });
    const me = expectOk(await call(server, agent, 'PUT', PRESENCE, { status: 'ONLINE' }));
    expect(me).toMatchObject({ userSimplyId: agent.userSimplyId, status: 'ONLINE', online: true, available: true, lastHeartbeatAt: expect.any(String) });
    // a member without an inbox feature is in the list (the table feature works conversations) — presence lists who can work them
    expect(find(expectOk(await call(server, key(), 'GET', PRESENCE)), tableOnly.userSimplyId)).toBeTruthy();
    // a heartbeat older than 60 s reads OFFLINE
    await server.app.services.pool.query(`UPDATE "ConversationAgentPresence" SET "lastHeartbeatAt" = now() - interval '61 seconds' WHERE "teamId" = $1`, [team.teamId]);
    expect(find(expectOk(await call(server, key(), 'GET', PRESENCE)), agent.userSimplyId)).toMatchObject({ status: 'OFFLINE', online: false, available: false });
    // the next heartbeat (a PUT without a status) brings them back
    expect(expectOk(await call(server, agent, 'PUT', PRESENCE, {}))).toMatchObject({ status: 'ONLINE', online: true });
    expect(expectOk(await call(server, agent, 'PUT', PRESENCE, { status: 'AWAY' }))).toMatchObject({ status: 'AWAY', online: false });

    const c = await startConversation(server, key());
    expectOk(await call(server, key(), 'PUT', `/v1/conversations/${c.id}`, { assignedUserId: agent.userSimplyId }));
    const users = expectOk(await call(server, agent, 'GET', '/v1/conversations/assignable-team-users'));
    expect(find(users, agent.userSimplyId)).toMatchObject({ openConversations: 1, maxOpenConversations: 10, status: 'AWAY', available: false });
    expect(find(users, adminOf(team).userSimplyId!)).toBeTruthy();
  });

  it('supervisors set another agent’s status and limit; agents only their own', async () => {
    const [agent, other, supervisor] = await Promise.all([memberWith(server, team, [FEATURES.inbox]), memberWith(server, team, [FEATURES.inbox]), memberWith(server, team, [FEATURES.inboxAll])]);
    expect(expectOk(await call(server, supervisor, 'PUT', PRESENCE, { userSimplyId: agent.userSimplyId, status: 'ONLINE', maxOpenConversations: 3 }))).toMatchObject({ userSimplyId: agent.userSimplyId, status: 'ONLINE', maxOpenConversations: 3, limitIsDefault: false });
    expectError(await call(server, agent, 'PUT', PRESENCE, { userSimplyId: other.userSimplyId, status: 'OFFLINE' }), 403, 'PERMISSION_DENIED');
    expectError(await call(server, agent, 'PUT', PRESENCE, { maxOpenConversations: 50 }), 403, 'PERMISSION_DENIED');
    expectError(await call(server, key(), 'PUT', PRESENCE, { status: 'ONLINE' }), 403, 'IDP_REQUIRED');
    expect(expectOk(await call(server, key(), 'PUT', PRESENCE, { userSimplyId: agent.userSimplyId, maxOpenConversations: null }))).toMatchObject({ maxOpenConversations: 10, limitIsDefault: true });
  });

  it('answers 400 naming the field, and knows nothing of another team', async () => {
    for (const [body, field] of [
      [{ status: 'BUSY' }, 'status'],
      [{ userSimplyId: 'usr-AAAA-BBBB-CCCC', status: 'ONLINE' }, 'userSimplyId'],
      [{ userSimplyId: 'someone', status: 'ONLINE' }, 'userSimplyId'],
      [{ userSimplyId: team.userSimplyId, maxOpenConversations: -1 }, 'maxOpenConversations'],
      [{ userSimplyId: team.userSimplyId }, 'status'],
    ] as const) {
      const error = expectError(await call(server, key(), 'PUT', PRESENCE, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field)).toContain(field);
    }
    const other = await createTeam(server);
    expectError(await call(server, keyOf(other), 'PUT', PRESENCE, { userSimplyId: team.userSimplyId, status: 'ONLINE' }), 400, 'VALIDATION_ERROR');
    expect(find(expectOk(await call(server, keyOf(other), 'GET', PRESENCE)), team.userSimplyId)).toBeUndefined();
    const noInbox = await memberWith(server, team, [FEATURES.table]);
    expectError(await call(server, noInbox, 'GET', PRESENCE), 403, 'PERMISSION_DENIED');
  });
});
