// Who may call what (docs/api/conversations.md "Who may call what"): the table needs
// DATA_CONVERSATIONS_VIEW (VIEW reads, EDIT writes); the inbox shows DATA_CONVERSATION_INBOX_VIEW
// holders their own and the unassigned conversations and DATA_CONVERSATION_INBOX_VIEW_ALL holders
// the team's; credentials that act for nobody cannot hold a read position, follow, take over or
// ask for "me"; scoped tokens need conversations:read / conversations:write; another team's ids are
// 404 exactly like missing ones.
import { beforeAll, describe, expect, it } from 'vitest';
import { operation } from '../../src/app/graphql/fragments.ts';
import { INBOX_CONVERSATION } from '../../src/modules/conversations/conversations.fragments.ts';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createApiKey } from '../support/fixtures.ts';
import { oauthToken } from '../support/oauth-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { adminOf, call, FEATURES, keyOf, memberWith, post, startConversation, type Caller } from './conversation-fixtures.ts';

describe('conversation access', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });
  let agent: Caller & { userSimplyId: string };
  let colleague: Caller & { userSimplyId: string };
  let supervisor: Caller & { userSimplyId: string };
  let reader: Caller & { userSimplyId: string };
  let mine: string;
  let theirs: string;
  let unassigned: string;
  let foreign: string;

  const ids = (r: { body: { data: { id: string }[] } }) => r.body.data.map((c) => c.id);

  beforeAll(async () => {
    [agent, colleague, supervisor, reader] = await Promise.all([
      memberWith(server, team, [FEATURES.inbox]),
      memberWith(server, team, [FEATURES.inbox]),
      memberWith(server, team, [FEATURES.inboxAll]),
      memberWith(server, team, [`${FEATURES.inbox}:VIEW`, `${FEATURES.table}:VIEW`]),
    ]);
    const key = keyOf(team);
    [mine, theirs, unassigned] = await Promise.all([0, 1, 2].map(async () => (await startConversation(server, key, { channel: 'SMS' })).id));
    expectOk(await call(server, key, 'PUT', `/v1/conversations/${mine}`, { assignedUserId: agent.userSimplyId }));
    expectOk(await call(server, key, 'PUT', `/v1/conversations/${theirs}`, { assignedUserId: colleague.userSimplyId }));
    foreign = (await startConversation(server, keyOf(other))).id;
  });

  describe('the inbox reach', () => {
    it('DATA_CONVERSATION_INBOX_VIEW shows the caller’s own and the unassigned conversations; VIEW_ALL the team’s', async () => {
      expect(ids(await call(server, agent, 'GET', '/v1/conversations/inbox?channel=SMS')).sort()).toEqual([mine, unassigned].sort());
      expect(ids(await call(server, supervisor, 'GET', '/v1/conversations/inbox?channel=SMS')).sort()).toEqual([mine, theirs, unassigned].sort());
      expect(ids(await call(server, agent, 'GET', '/v1/conversations/inbox?channel=SMS&assigned=me'))).toEqual([mine]);
      expect(ids(await call(server, agent, 'GET', `/v1/conversations/inbox?channel=SMS&assignedUserId=${colleague.userSimplyId}`))).toEqual([]);
      expect(ids(await call(server, supervisor, 'GET', `/v1/conversations/inbox?channel=SMS&assignedUserId=${colleague.userSimplyId}`))).toEqual([theirs]);
      // an API key acts for nobody: with the inbox feature only, the unassigned ones
      const inboxKey = (await createApiKey(server, team, { name: 'inbox only', featurePermissions: [FEATURES.inbox] })).key;
      expect(ids(await call(server, { token: inboxKey }, 'GET', '/v1/conversations/inbox?channel=SMS'))).toEqual([unassigned]);
    });

    it('another person’s conversation is 404 to an inbox-only caller on every inbox route, as a missing one is', async () => {
      const routes: [string, string, unknown?][] = [
        ['GET', `/v1/conversations/inbox/${theirs}`],
        ['POST', `/v1/conversations/inbox/${theirs}/messages`, { content: 'x' }],
        ['POST', `/v1/conversations/inbox/${theirs}/read`],
        ['GET', `/v1/conversations/inbox/${theirs}/related`],
        ['PUT', `/v1/conversations/inbox/${theirs}/takeover`],
        ['PUT', `/v1/conversations/inbox/${theirs}/assign-ai`],
        ['PUT', `/v1/conversations/inbox/${theirs}/snooze`, { until: new Date(Date.now() + 60_000).toISOString() }],
        ['PUT', `/v1/conversations/inbox/${theirs}/unsnooze`],
        ['POST', `/v1/conversations/inbox/${theirs}/merge`, { into: mine }],
        ['POST', `/v1/conversations/inbox/${mine}/merge`, { into: theirs }],
        ['POST', `/v1/conversations/inbox/${theirs}/follow`],
        ['DELETE', `/v1/conversations/inbox/${theirs}/follow`],
      ];
      for (const [method, path, body] of routes) expectError(await call(server, agent, method, path, body), 404, 'NOT_FOUND', `${method} ${path}`);
      expectOk(await call(server, supervisor, 'GET', `/v1/conversations/inbox/${theirs}`));
      // once it is theirs no more, it shows
      expectOk(await call(server, agent, 'GET', `/v1/conversations/inbox/${mine}`));
    });

    it('reading needs an inbox feature at view level, writing at edit level', async () => {
      const nothing = await memberWith(server, team, [FEATURES.table]);
      expectError(await call(server, nothing, 'GET', '/v1/conversations/inbox'), 403, 'PERMISSION_DENIED');
      expectError(await call(server, nothing, 'GET', `/v1/conversations/inbox/${unassigned}`), 403, 'PERMISSION_DENIED');
      expectOk(await call(server, reader, 'GET', `/v1/conversations/inbox/${unassigned}`));
      expectOk(await call(server, reader, 'POST', `/v1/conversations/inbox/${unassigned}/read`));
      expectOk(await call(server, reader, 'POST', `/v1/conversations/inbox/${unassigned}/follow`));
      for (const [method, path, body] of [
        ['POST', `/v1/conversations/inbox/${unassigned}/messages`, { content: 'x' }],
        ['PUT', `/v1/conversations/inbox/${unassigned}/assign-ai`],
        ['PUT', `/v1/conversations/inbox/${unassigned}/takeover`],
      ] as const) {
        expectError(await call(server, reader, method, path, body), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      }
    });

    it('a read position, following, taking over, the unread summary and "me" need a person: API keys and session tokens get 403 IDP_REQUIRED', async () => {
      const key = keyOf(team);
      const session = { token: (await mintSessionToken(server, team.apiKey, { oauthScopes: ['conversations:read', 'conversations:write'] })).token };
      for (const who of [key, session]) {
        for (const [method, path] of [
          ['POST', `/v1/conversations/inbox/${unassigned}/read`],
          ['POST', `/v1/conversations/inbox/${unassigned}/follow`],
          ['DELETE', `/v1/conversations/inbox/${unassigned}/follow`],
          ['PUT', `/v1/conversations/inbox/${unassigned}/takeover`],
          ['GET', '/v1/conversations/inbox/unread-summary'],
          ['GET', '/v1/conversations/inbox?assigned=me'],
          ['GET', '/v1/conversations/inbox?unread=true'],
        ] as const) {
          expectError(await call(server, who, method, path), 403, 'IDP_REQUIRED', `${method} ${path}`);
        }
        // what needs nobody works, without read state
        const listed = expectOk(await call(server, who, 'GET', '/v1/conversations/inbox?channel=SMS'));
        expect(listed.every((c: any) => c.unread === null && c.following === null)).toBe(true);
        expect(expectOk(await call(server, who, 'GET', `/v1/conversations/inbox/${unassigned}`)).readState).toBeNull();
      }
    });
  });

  describe('the table', () => {
    it('needs DATA_CONVERSATIONS_VIEW: VIEW to read, EDIT to write; the inbox features alone do not reach it', async () => {
      for (const [method, path, body] of [
        ['GET', '/v1/conversations'],
        ['GET', `/v1/conversations/${unassigned}`],
        ['GET', `/v1/conversations/${unassigned}/messages`],
        ['POST', '/v1/conversations', {}],
      ] as const) {
        expectError(await call(server, supervisor, method, path, body), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      }
      expectOk(await call(server, reader, 'GET', `/v1/conversations/${theirs}`));
      expectError(await call(server, reader, 'POST', '/v1/conversations', {}), 403, 'PERMISSION_DENIED');
      expectError(await call(server, reader, 'PUT', `/v1/conversations/${theirs}`, { priority: 'HIGH' }), 403, 'PERMISSION_DENIED');
      expectError(await call(server, reader, 'POST', `/v1/conversations/${theirs}/messages`, { content: 'x' }), 403, 'PERMISSION_DENIED');
      const narrowed = (await mintSessionToken(server, team.apiKey, { featurePermissions: [], oauthScopes: ['conversations:read'] })).token;
      expectError(await call(server, { token: narrowed }, 'GET', '/v1/conversations'), 403, 'PERMISSION_DENIED');
    });

    it('scoped tokens need conversations:read to read and conversations:write to write', async () => {
      const readOnly = (await mintSessionToken(server, team.apiKey, { oauthScopes: ['conversations:read'] })).token;
      const none = (await mintSessionToken(server, team.apiKey, { oauthScopes: ['records:read'] })).token;
      expectOk(await call(server, { token: readOnly }, 'GET', '/v1/conversations'));
      expectOk(await call(server, { token: readOnly }, 'GET', '/v1/conversations/inbox'));
      expectError(await call(server, { token: readOnly }, 'POST', '/v1/conversations', {}), 403, 'PERMISSION_DENIED');
      expectError(await call(server, { token: readOnly }, 'POST', `/v1/conversations/inbox/${unassigned}/messages`, { content: 'x' }), 403, 'PERMISSION_DENIED');
      expectError(await call(server, { token: none }, 'GET', '/v1/conversations'), 403, 'PERMISSION_DENIED');
      expectError(await call(server, { token: none }, 'GET', '/v1/conversations/inbox'), 403, 'PERMISSION_DENIED');
    });

    it('OAuth tokens: conversations:read reads, conversations:write writes, neither is refused; the consenting user is the person', async () => {
      const [readToken, writeToken, otherToken] = await Promise.all([
        oauthToken(server, team, 'conversations:read'),
        oauthToken(server, team, 'conversations:read conversations:write'),
        oauthToken(server, team, 'records:read'),
      ]);
      expectOk(await call(server, { token: readToken }, 'GET', '/v1/conversations'));
      expectOk(await call(server, { token: readToken }, 'GET', `/v1/conversations/inbox/${theirs}`));
      expectError(await call(server, { token: readToken }, 'POST', `/v1/conversations/${theirs}/messages`, { content: 'x' }), 403, 'PERMISSION_DENIED');
      expectError(await call(server, { token: readToken }, 'PUT', `/v1/conversations/inbox/${theirs}/takeover`), 403, 'PERMISSION_DENIED');
      for (const [method, path] of [['GET', '/v1/conversations'], ['GET', '/v1/conversations/inbox'], ['GET', `/v1/conversations/${theirs}/messages`]] as const) {
        expectError(await call(server, { token: otherToken }, method, path), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      }
      const message = await post(server, { token: writeToken }, theirs, { content: 'via an app' });
      expect(message.authorUserId).toBe(team.userSimplyId);
      const taken = expectOk(await call(server, { token: writeToken }, 'PUT', `/v1/conversations/inbox/${unassigned}/takeover`));
      expect(taken.assignedUserId).toBe(team.userSimplyId);
      expectOk(await call(server, { token: writeToken }, 'POST', `/v1/conversations/inbox/${unassigned}/read`));
    });
  });

  describe('tenancy', () => {
    it('another team’s conversation is 404 on every route, over REST and GraphQL', async () => {
      const owner = adminOf(team);
      for (const [method, path, body] of [
        ['GET', `/v1/conversations/${foreign}`],
        ['PUT', `/v1/conversations/${foreign}`, { priority: 'HIGH' }],
        ['GET', `/v1/conversations/${foreign}/messages`],
        ['POST', `/v1/conversations/${foreign}/messages`, { content: 'x' }],
        ['GET', `/v1/conversations/inbox/${foreign}`],
        ['POST', `/v1/conversations/inbox/${foreign}/messages`, { content: 'x' }],
        ['POST', `/v1/conversations/inbox/${foreign}/read`],
        ['GET', `/v1/conversations/inbox/${foreign}/related`],
        ['PUT', `/v1/conversations/inbox/${foreign}/takeover`],
        ['POST', `/v1/conversations/inbox/${unassigned}/merge`, { into: foreign }],
        ['POST', `/v1/conversations/inbox/${unassigned}/merge`, { source: foreign }],
        ['POST', `/v1/conversations/inbox/${foreign}/follow`],
      ] as const) {
        expectError(await call(server, owner, method, path, body), 404, 'NOT_FOUND', `${method} ${path}`);
        // a key is refused the person's routes before any id is looked at (IDP_REQUIRED, above)
        if (!/\/(read|follow|takeover)$/.test(path)) expectError(await call(server, keyOf(team), method, path, body), 404, 'NOT_FOUND', `${method} ${path} (key)`);
      }
      expect(ids(await call(server, keyOf(other), 'GET', '/v1/conversations?limit=100'))).not.toContain(unassigned);
      const detail = operation`query($id: String!) { inboxConversation(conversationSimplyId: $id) { conversation { ${INBOX_CONVERSATION} } } }`;
      expectGqlError(await server.graphql(detail, { id: foreign }, { token: team.apiKey }), 'NOT_FOUND', 404);
      expect(gqlData(await server.graphql(detail, { id: foreign }, { token: other.apiKey })).inboxConversation.conversation.id).toBe(foreign);
    });
  });
});
