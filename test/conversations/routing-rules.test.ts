// Assignment rules over REST: create, read, change, delete and reorder; validation naming the
// field; supervisors only (DATA_CONVERSATION_INBOX_VIEW_ALL); another team's rule is 404.
import { describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { adminOf, call, FEATURES, keyOf, memberWith } from './conversation-fixtures.ts';

const RULES = '/v1/conversations/assignment-rules';

describe('assignment rules', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });
  const key = () => keyOf(team);
  const create = async (body: Record<string, unknown>, t: TeamFixture = team) => expectOk(await call(server, keyOf(t), 'POST', RULES, body), 201);

  it('creates, reads, changes, reorders and deletes rules, keeping positions 1..n', async () => {
    const agent = await memberWith(server, team, [FEATURES.inbox]);
    const a = await create({ name: 'VIP to the owner', conditions: { priorities: ['URGENT'] }, actionType: 'AGENT', agentUserId: agent.userSimplyId });
    expect(a).toMatchObject({ assignmentRuleSimplyId: expect.stringMatching(/^car-/), position: 1, isEnabled: true, actionType: 'AGENT', agentUserId: agent.userSimplyId, poolUserIds: [] });
    const b = await create({ name: 'Billing pool', conditions: { channels: ['EMAIL'], subject: { contains: 'Invoice' } }, actionType: 'POOL', poolUserIds: [agent.userSimplyId, team.userSimplyId], maxOpenPerAgent: 3 });
    const c = await create({ name: 'Leave the rest', actionType: 'UNASSIGNED', position: 1 });
    let list = expectOk(await call(server, key(), 'GET', RULES));
    expect(list.map((r: any) => [r.name, r.position])).toEqual([['Leave the rest', 1], ['VIP to the owner', 2], ['Billing pool', 3]]);

    const changed = expectOk(await call(server, key(), 'PUT', `${RULES}/${b.id}`, { isEnabled: false, conditions: { subject: { startsWith: 'inv' } } }));
    expect(changed).toMatchObject({ isEnabled: false, conditions: { subject: { startsWith: 'inv' } }, poolUserIds: [agent.userSimplyId, team.userSimplyId], maxOpenPerAgent: 3 });
    // a new action drops what only the old one had
    expect(expectOk(await call(server, key(), 'PUT', `${RULES}/${b.id}`, { actionType: 'AI' }))).toMatchObject({ actionType: 'AI', poolUserIds: [], maxOpenPerAgent: null });

    list = expectOk(await call(server, key(), 'PUT', `${RULES}/reorder`, { orderedRuleSimplyIds: [b.id, a.id, c.id] }));
    expect(list.map((r: any) => [r.id, r.position])).toEqual([[b.id, 1], [a.id, 2], [c.id, 3]]);
    expect(expectOk(await call(server, key(), 'GET', `${RULES}/${a.id}`)).position).toBe(2);

    expect(expectOk(await call(server, key(), 'DELETE', `${RULES}/${b.id}`))).toEqual({ id: b.id, deleted: true });
    list = expectOk(await call(server, key(), 'GET', RULES));
    expect(list.map((r: any) => [r.id, r.position])).toEqual([[a.id, 1], [c.id, 2]]);
    expectError(await call(server, key(), 'GET', `${RULES}/${b.id}`), 404, 'NOT_FOUND');
    for (const r of list) expectOk(await call(server, key(), 'DELETE', `${RULES}/${r.id}`));
  });

  it('answers 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ actionType: 'POOL', poolUserIds: [team.userSimplyId] }, 'name'],
      [{ name: 'x', actionType: 'ROUND_ROBIN' }, 'actionType'],
      [{ name: 'x', actionType: 'POOL' }, 'poolUserIds'],
      [{ name: 'x', actionType: 'POOL', poolUserIds: ['usr-AAAA-BBBB-CCCC'] }, 'poolUserIds.0'],
      [{ name: 'x', actionType: 'POOL', poolUserIds: ['nope'] }, 'poolUserIds.0'],
      [{ name: 'x', actionType: 'AGENT' }, 'agentUserId'],
      [{ name: 'x', actionType: 'AI', agentUserId: team.userSimplyId }, 'agentUserId'],
      [{ name: 'x', actionType: 'POOL', poolTeamRoleId: 'role-AAAA-BBBB-CCCC' }, 'poolTeamRoleId'],
      [{ name: 'x', actionType: 'AI', slaPolicyId: 'sla-AAAA-BBBB-CCCC' }, 'slaPolicyId'],
      [{ name: 'x', actionType: 'AI', conditions: { channels: ['PIGEON'] } }, 'conditions.channels.0'],
      [{ name: 'x', actionType: 'AI', conditions: { subject: { matches: '(a+)+$' } } }, 'conditions.subject.matches'],
      [{ name: 'x', actionType: 'AI', conditions: { subject: { contains: 'a', startsWith: 'b' } } }, 'conditions.subject'],
      [{ name: 'x', actionType: 'AI', conditions: { record: { dataCollectionSimplyId: 'AAAA-BBBB-CCCC' } } }, 'conditions.record.dataCollectionSimplyId'],
      [{ name: 'x', actionType: 'POOL', poolUserIds: [team.userSimplyId], maxOpenPerAgent: 0 }, 'maxOpenPerAgent'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await call(server, key(), 'POST', RULES, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain(field);
    }
    const rule = await create({ name: 'One', actionType: 'AI' });
    const other = await create({ name: 'Two', actionType: 'UNASSIGNED' });
    expect(expectError(await call(server, key(), 'PUT', `${RULES}/reorder`, { orderedRuleSimplyIds: [rule.id] }), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('orderedRuleSimplyIds');
    expect(expectError(await call(server, key(), 'PUT', `${RULES}/reorder`, { orderedRuleSimplyIds: [rule.id, 'car-AAAA-BBBB-CCCC'] }), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('orderedRuleSimplyIds.1');
    expect(expectError(await call(server, key(), 'PUT', `${RULES}/${rule.id}`, {}), 400, 'VALIDATION_ERROR')).toBeTruthy();
    expect(expectError(await call(server, key(), 'GET', `${RULES}/not-an-id`), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('assignmentRuleSimplyId');
    for (const id of [rule.id, other.id]) expectOk(await call(server, key(), 'DELETE', `${RULES}/${id}`));
  });

  it('is for supervisors, and another team’s rule is not found', async () => {
    const agent = await memberWith(server, team, [FEATURES.inbox]);
    const viewer = await memberWith(server, team, [`${FEATURES.inboxAll}:VIEW`]);
    const rule = await create({ name: 'Team one', actionType: 'AI' });
    expectError(await call(server, agent, 'GET', RULES), 403, 'PERMISSION_DENIED');
    expectOk(await call(server, viewer, 'GET', RULES));
    expectError(await call(server, viewer, 'POST', RULES, { name: 'x', actionType: 'AI' }), 403, 'PERMISSION_DENIED');
    const other = await createTeam(server);
    expectError(await call(server, keyOf(other), 'GET', `${RULES}/${rule.id}`), 404, 'NOT_FOUND');
    expectError(await call(server, keyOf(other), 'PUT', `${RULES}/${rule.id}`, { name: 'mine' }), 404, 'NOT_FOUND');
    expectError(await call(server, keyOf(other), 'DELETE', `${RULES}/${rule.id}`), 404, 'NOT_FOUND');
    expectError(await call(server, keyOf(other), 'PUT', `${RULES}/reorder`, { orderedRuleSimplyIds: [rule.id] }), 400, 'VALIDATION_ERROR');
    // another team's member cannot be named in a pool
    const error = expectError(await call(server, keyOf(other), 'POST', RULES, { name: 'x', actionType: 'POOL', poolUserIds: [adminOf(team).userSimplyId] }), 400, 'VALIDATION_ERROR');
    expect(error.details?.[0]?.field).toBe('poolUserIds.0');
    expectOk(await call(server, key(), 'DELETE', `${RULES}/${rule.id}`));
  });
});
