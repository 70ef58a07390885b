// The current user's recent visits per team over REST (/v1/users/me/recent-visits) and GraphQL
// (myRecentVisits, recordRecentVisit, clearRecentVisits).
import { beforeAll, describe, expect, it } from 'vitest';
import { membershipId } from '../../src/app/ids.ts';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';

const VISITS = '/v1/users/me/recent-visits';
const VISIT_ID = /^vis-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;

describe('recent visits', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });
  type Person = { userSimplyId: string; token: string };
  let me: Person;

  const visits = (person: Person, options: { teamId?: string; query?: string } = {}) =>
    server.request('GET', `${VISITS}${options.query ? `?${options.query}` : ''}`, { token: person.token, teamId: options.teamId ?? team.teamSimplyId });
  const visit = (person: Person, body: unknown, teamId = team.teamSimplyId) => server.request('POST', VISITS, { token: person.token, teamId, body });
  const ids = (list: { entityId: string }[]) => list.map((v) => v.entityId);

  beforeAll(async () => {
    me = await addMember(server, team);
  });

  it('POST records a visit; a revisit moves it to the top with the new title; GET is newest first; GraphQL is the same', async () => {
    const self = await addMember(server, team);
    const first = expectOk(await visit(self, { entityType: 'DATA_RECORD', entityId: 'rec-AAAA-BBBB-CCCC', title: ' Invoice 17 ', url: '/records/rec-AAAA-BBBB-CCCC?tab=files' }));
    expect(first).toEqual({
      id: first.recentVisitSimplyId,
      recentVisitSimplyId: expect.stringMatching(VISIT_ID),
      entityType: 'DATA_RECORD',
      entityId: 'rec-AAAA-BBBB-CCCC',
      title: 'Invoice 17',
      url: '/records/rec-AAAA-BBBB-CCCC?tab=files',
      visitedAt: expect.any(String),
    });
    expectOk(await visit(self, { entityType: 'DATA_VIEW', entityId: 'view-1' }));
    const gql = gqlData(
      await server.graphql(
        `mutation($input: RecordRecentVisitInput!) { recordRecentVisit(input: $input) { entityType entityId title url } }`,
        { input: { entityType: 'FILE', entityId: 'fil-1', title: 'Plan.pdf' } },
        { token: self.token, teamId: team.teamSimplyId },
      ),
    );
    expect(gql.recordRecentVisit).toEqual({ entityType: 'FILE', entityId: 'fil-1', title: 'Plan.pdf', url: null });
    expect(ids(expectOk(await visits(self)))).toEqual(['fil-1', 'view-1', 'rec-AAAA-BBBB-CCCC']);

    // a revisit keeps the visit's id and moves it up, with what the app says now
    const again = expectOk(await visit(self, { entityType: 'DATA_RECORD', entityId: 'rec-AAAA-BBBB-CCCC', title: 'Invoice 17 (paid)' }));
    expect(again).toMatchObject({ recentVisitSimplyId: first.recentVisitSimplyId, title: 'Invoice 17 (paid)', url: null });
    expect(Date.parse(again.visitedAt)).toBeGreaterThanOrEqual(Date.parse(first.visitedAt));
    const list = expectOk(await visits(self));
    expect(ids(list)).toEqual(['rec-AAAA-BBBB-CCCC', 'fil-1', 'view-1']);
    // the same entity id under another type is another entity
    expectOk(await visit(self, { entityType: 'DATA_COLLECTION', entityId: 'fil-1' }));
    expect(expectOk(await visits(self))).toHaveLength(4);

    const read = gqlData(await server.graphql(`query { myRecentVisits(limit: 2) { entityType entityId } }`, {}, { token: self.token, teamId: team.teamSimplyId }));
    expect(read.myRecentVisits).toEqual([
      { entityType: 'DATA_COLLECTION', entityId: 'fil-1' },
      { entityType: 'DATA_RECORD', entityId: 'rec-AAAA-BBBB-CCCC' },
    ]);
  });

  it('visits are per person and per team; DELETE clears the selected team\'s only and says how many', async () => {
    const self = await addMember(server, team);
    const neighbour = await addMember(server, team);
    const user = await server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId: self.userSimplyId } });
    await server.app.services.prisma.teamMembership.create({ data: { simplyId: membershipId.create(), teamId: other.teamId, userId: user.id } });

    for (const entityId of ['a', 'b', 'c']) expectOk(await visit(self, { entityType: 'PAGE', entityId }));
    expectOk(await visit(self, { entityType: 'PAGE', entityId: 'elsewhere' }, other.teamSimplyId));
    expectOk(await visit(neighbour, { entityType: 'PAGE', entityId: 'theirs' }));
    expect(ids(expectOk(await visits(self)))).toEqual(['c', 'b', 'a']);
    expect(ids(expectOk(await visits(self, { teamId: other.teamSimplyId })))).toEqual(['elsewhere']);
    expect(ids(expectOk(await visits(neighbour)))).toEqual(['theirs']);

    expect(expectOk(await server.request('DELETE', VISITS, { token: self.token, teamId: team.teamSimplyId }))).toEqual({ cleared: 3 });
    expect(expectOk(await visits(self))).toEqual([]);
    expect(ids(expectOk(await visits(self, { teamId: other.teamSimplyId })))).toEqual(['elsewhere']);
    expect(ids(expectOk(await visits(neighbour)))).toEqual(['theirs']);
    expect(expectOk(await server.request('DELETE', VISITS, { token: self.token, teamId: team.teamSimplyId }))).toEqual({ cleared: 0 });
    const gql = gqlData(await server.graphql(`mutation { clearRecentVisits { cleared } }`, {}, { token: self.token, teamId: other.teamSimplyId }));
    expect(gql.clearRecentVisits).toEqual({ cleared: 1 });
    expect(ids(expectOk(await visits(neighbour)))).toEqual(['theirs']);
  });

  it('keeps the newest 50 per person and team; limit defaults to 20, at most 50', async () => {
    const self = await addMember(server, team);
    // 52 visits, one request each as the app would send them
    for (let n = 1; n <= 52; n++) expectOk(await visit(self, { entityType: 'DATA_RECORD', entityId: `rec-${n}` }));
    const user = await server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId: self.userSimplyId } });
    expect(await server.app.services.prisma.recentVisit.count({ where: { userId: user.id, teamId: team.teamId } })).toBe(50);

    const byDefault = expectOk(await visits(self));
    expect(byDefault).toHaveLength(20);
    expect(byDefault[0].entityId).toBe('rec-52');
    const all = expectOk(await visits(self, { query: 'limit=50' }));
    expect(ids(all)).toEqual(Array.from({ length: 50 }, (_, i) => `rec-${52 - i}`));
    expect(ids(expectOk(await visits(self, { query: 'limit=1' })))).toEqual(['rec-52']);
    for (const limit of ['0', '51', '-1', 'ten', '2.5']) expectError(await visits(self, { query: `limit=${limit}` }), 400, 'VALIDATION_ERROR', limit);
    expectError(await visits(self, { query: 'offset=5' }), 400, 'VALIDATION_ERROR');
    expectGqlError(await server.graphql(`{ myRecentVisits(limit: 51) { id } }`, {}, { token: self.token, teamId: team.teamSimplyId }), 'VALIDATION_ERROR', 400);

    // revisiting the oldest kept one saves it from the next trim
    expectOk(await visit(self, { entityType: 'DATA_RECORD', entityId: 'rec-3' }));
    expectOk(await visit(self, { entityType: 'DATA_RECORD', entityId: 'rec-53' }));
    const kept = ids(expectOk(await visits(self, { query: 'limit=50' })));
    expect(kept.slice(0, 2)).toEqual(['rec-53', 'rec-3']);
    expect(kept).not.toContain('rec-4');
    expect(kept).toHaveLength(50);
  });

  it('validates the body: entity type, id, title and an in-app url; strict', async () => {
    const ok = { entityType: 'WIZARD', entityId: 'wiz-1' };
    const bad: [unknown, string][] = [
      [{ entityId: 'x' }, 'entityType'],
      [{ ...ok, entityType: 'data_record' }, 'entityType'],
      [{ ...ok, entityType: 'DATA RECORD' }, 'entityType'],
      [{ ...ok, entityType: 'A'.repeat(51) }, 'entityType'],
      [{ entityType: 'WIZARD' }, 'entityId'],
      [{ ...ok, entityId: '  ' }, 'entityId'],
      [{ ...ok, entityId: 'x'.repeat(201) }, 'entityId'],
      [{ ...ok, title: 'x'.repeat(201) }, 'title'],
      [{ ...ok, url: 'javascript:alert(1)' }, 'url'],
      [{ ...ok, url: 'https://evil.example.test/' }, 'url'],
      [{ ...ok, url: '//evil.example.test/' }, 'url'],
      [{ ...ok, url: '/\\evil.example.test' }, 'url'],
      [{ ...ok, url: '/records\nSet-Cookie: a' }, 'url'],
      [{ ...ok, url: `/${'x'.repeat(2000)}` }, 'url'],
      [{ ...ok, visitedAt: '2020-01-01T00:00:00Z' }, 'visitedAt'],
    ];
    for (const [body, field] of bad) {
      const error = expectError(await visit(me, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain(field);
    }
    expectGqlError(
      await server.graphql(`mutation { recordRecentVisit(input: { entityType: "WIZARD", entityId: "w", url: "javascript:void(0)" }) { id } }`, {}, { token: me.token, teamId: team.teamSimplyId }),
      'VALIDATION_ERROR',
      400,
    );
    expect(expectOk(await visits(me))).toEqual([]);
    expect(expectOk(await visit(me, { ...ok, title: null, url: '/wizards/wiz-1#step-2' }))).toMatchObject({ title: null, url: '/wizards/wiz-1#step-2' });
  });

  it('needs a signed-in member of a selected team: no team 400, not a member 403, API keys and session tokens 403 IDP_REQUIRED', async () => {
    const session = await mintSessionToken(server, team.apiKey);
    const routes: [string, unknown?][] = [['GET'], ['POST', { entityType: 'PAGE', entityId: 'p' }], ['DELETE']];
    for (const [method, body] of routes) {
      const label = `${method} ${VISITS}`;
      const noTeam = expectError(await server.request(method, VISITS, { token: me.token, body }), 400, 'VALIDATION_ERROR', label);
      expect(noTeam.details?.[0]?.field).toBe('X-Team-Id');
      expectError(await server.request(method, VISITS, { token: me.token, body, teamId: other.teamSimplyId }), 403, 'PERMISSION_DENIED', label);
      expectError(await server.request(method, VISITS, { token: team.apiKey, body }), 403, 'IDP_REQUIRED', label);
      expectError(await server.request(method, VISITS, { token: session.token, body }), 403, 'IDP_REQUIRED', label);
      expectError(await server.request(method, VISITS, { body, teamId: team.teamSimplyId }), 401, 'UNAUTHENTICATED', label);
    }
    expectGqlError(await server.graphql(`{ myRecentVisits { id } }`, {}, { token: me.token }), 'VALIDATION_ERROR', 400);
    expectGqlError(await server.graphql(`{ myRecentVisits { id } }`, {}, { token: team.apiKey }), 'IDP_REQUIRED', 403);
    expectGqlError(await server.graphql(`mutation { clearRecentVisits { cleared } }`, {}, { token: session.token }), 'IDP_REQUIRED', 403);
    expect(expectOk(await visits(me)).map((v: { entityId: string }) => v.entityId)).not.toContain('p');
  });
});
