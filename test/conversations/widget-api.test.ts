// Chat widgets over the API (docs/api/conversations.md "Chat widget"): administration and its
// validation, visitor tokens (a team's server's, and the widget page's with a signed identity:
// good, bad, stale and replayed signatures, resumes), a visitor token's reach (only its own
// conversations; refused by every other route), internal notes never reaching the visitor (in
// reads and live), hostile HTML staying inert either way, previews, and another team's widgets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { serverGraphqlWsClient } from '../support/realtime.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { call, FEATURES, keyOf, memberWith, post } from './conversation-fixtures.ts';
import { asVisitor, createWidget, openSession, signIdentity, visitor, visitorMessages, visitorStarts, VISITOR_MESSAGE } from './widget-fixtures.ts';

const until = untilWith({ timeoutMs: 10_000, everyMs: 20 });
let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;

beforeAll(async () => {
  server = await startTestServer();
  [team, other] = await Promise.all([createTeam(server), createTeam(server)]);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const codeOf = (r: { errors?: { extensions?: { code?: string } }[] }) => r.errors?.[0]?.extensions?.code;

describe('widget administration', () => {
  it('creates a widget with its secret shown once, reads, lists, changes, rotates and deletes it', async () => {
    const created = await createWidget(server, team, { name: 'Website chat', allowedOrigins: ['https://WWW.Example.org:443', 'https://shop.example.org:8443'], appearance: { primaryColor: '#ff0000', greeting: 'Hello <b>there</b>' } });
    expect(created.id).toMatch(/^cwg-/);
    expect(created.identitySecret).toMatch(/^wsec_/);
    expect(created.identitySecretHint).toBe(`wsec_…${created.identitySecret.slice(-4)}`);
    expect(created.allowedOrigins).toEqual(['https://www.example.org', 'https://shop.example.org:8443']);
    expect(created.appearance).toMatchObject({ primaryColor: '#FF0000', greeting: 'Hello <b>there</b>', title: 'Chat with us', position: 'RIGHT' });
    expect(created.identityVerification).toBe('OPTIONAL');
    expect(created.embed.snippet).toBe(`<script src="${server.baseUrl}/widget/v1/loader.js?w=${created.id}" async></script>`);

    const read = expectOk(await call(server, keyOf(team), 'GET', `/v1/conversations/widgets/${created.id}`));
    expect(read.identitySecret).toBeNull();
    expect(read.name).toBe('Website chat');
    const list = expectOk(await call(server, keyOf(team), 'GET', '/v1/conversations/widgets'));
    expect(list.map((w: any) => w.id)).toContain(created.id);

    const changed = expectOk(await call(server, keyOf(team), 'PUT', `/v1/conversations/widgets/${created.id}`, { identityVerification: 'REQUIRED', defaultPriority: 'HIGH', defaultAssignedUserId: team.userSimplyId, appearance: { title: 'Help' } }));
    expect(changed).toMatchObject({ identityVerification: 'REQUIRED', defaultPriority: 'HIGH', defaultAssignedUserId: team.userSimplyId, identitySecret: null });
    expect(changed.appearance).toMatchObject({ title: 'Help', primaryColor: '#FF0000' });
    const rotated = expectOk(await call(server, keyOf(team), 'PUT', `/v1/conversations/widgets/${created.id}`, { rotateIdentitySecret: true }));
    expect(rotated.identitySecret).toMatch(/^wsec_/);
    expect(rotated.identitySecret).not.toBe(created.identitySecret);

    expectOk(await call(server, keyOf(team), 'DELETE', `/v1/conversations/widgets/${created.id}`));
    expectError(await call(server, keyOf(team), 'GET', `/v1/conversations/widgets/${created.id}`), 404, 'NOT_FOUND');
  });

  it('refuses bad input with 400 naming the field', async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await call(server, keyOf(team), 'POST', '/v1/conversations/widgets', { name: 'W', ...body });
      const error = expectError(res, 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(JSON.stringify(error.details), JSON.stringify(body)).toContain(field);
    };
    await bad({ allowedOrigins: ['http://www.example.org'] }, 'allowedOrigins.0');
    await bad({ allowedOrigins: ['https://www.example.org/path'] }, 'allowedOrigins.0');
    await bad({ allowedOrigins: ['https://*.example.org'] }, 'allowedOrigins.0');
    await bad({ allowedOrigins: ["https://a.org 'unsafe-inline'"] }, 'allowedOrigins.0');
    await bad({ allowedOrigins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example.org`) }, 'allowedOrigins');
    await bad({ appearance: { primaryColor: 'red;}body{display:none' } }, 'appearance.primaryColor');
    await bad({ appearance: { title: 'two\nlines' } }, 'appearance.title');
    await bad({ appearance: { greeting: 'x'.repeat(501) } }, 'appearance.greeting');
    await bad({ identityVerification: 'MAYBE' }, 'identityVerification');
    await bad({ defaultAssignedUserId: 'usr-2222-2222-2222' }, 'defaultAssignedUserId');
    await bad({ name: '' }, 'name');
    await bad({ colour: '#fff' }, 'colour');
    expectError(await call(server, keyOf(team), 'PUT', `/v1/conversations/widgets/${(await createWidget(server, team)).id}`, {}), 400, 'VALIDATION_ERROR');
    expectError(await call(server, keyOf(team), 'GET', '/v1/conversations/widgets/not-a-widget'), 400, 'VALIDATION_ERROR');
  });

  it('reads with DATA_CONVERSATIONS_VIEW, writes with it at edit level only', async () => {
    const widget = await createWidget(server, team);
    const viewer = await memberWith(server, team, [`${FEATURES.table}:VIEW`]);
    const inboxOnly = await memberWith(server, team, [FEATURES.inboxAll]);
    expectOk(await call(server, viewer, 'GET', `/v1/conversations/widgets/${widget.id}`));
    expectError(await call(server, viewer, 'POST', '/v1/conversations/widgets', { name: 'Nope' }), 403, 'PERMISSION_DENIED');
    expectError(await call(server, viewer, 'POST', `/v1/conversations/widgets/${widget.id}/tokens`, {}), 403, 'PERMISSION_DENIED');
    expectError(await call(server, viewer, 'POST', `/v1/conversations/widgets/${widget.id}/simulate`, {}), 403, 'PERMISSION_DENIED');
    expectError(await call(server, inboxOnly, 'GET', '/v1/conversations/widgets'), 403, 'PERMISSION_DENIED');
  });

  it('answers another team’s widget 404 on every route', async () => {
    const theirs = await createWidget(server, other);
    for (const [method, suffix, body] of [['GET', ''], ['PUT', '', { name: 'Mine now' }], ['DELETE', ''], ['POST', '/tokens', {}], ['POST', '/simulate', {}]] as const) {
      expectError(await call(server, keyOf(team), method, `/v1/conversations/widgets/${theirs.id}${suffix}`, body), 404, 'NOT_FOUND', `${method} ${suffix}`);
    }
    // a team credential on the page's public operation reaches its own team's widgets only
    const { errors } = await server.graphql(`mutation { openWidgetVisitorSession(widgetSimplyId: "${theirs.id}") { token } }`, {}, { token: team.apiKey });
    expect(errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('visitor tokens', () => {
  it('the team’s server mints one for its visitor (taken as verified)', async () => {
    const widget = await createWidget(server, team, { identityVerification: 'REQUIRED' });
    const minted = expectOk(await call(server, keyOf(team), 'POST', `/v1/conversations/widgets/${widget.id}/tokens`, { identity: { visitorId: 'customer-1', email: 'Ada@Example.org', name: 'Ada' } }), 201);
    expect(minted.token).toMatch(/^svc_wvt_/);
    expect(Date.parse(minted.expiresAt) - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(Date.parse(minted.expiresAt) - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    expect(minted.visitor).toMatchObject({ isVerified: true, name: 'Ada' });
    // an anonymous visitor through a REQUIRED widget: not even the team's server
    expectError(await call(server, keyOf(team), 'POST', `/v1/conversations/widgets/${widget.id}/tokens`, {}), 401, 'WIDGET_IDENTITY_REQUIRED');
  });

  it('the widget’s page: anonymous on an OPTIONAL widget, resumed with a secret that works once', async () => {
    const widget = await createWidget(server, team);
    const first = await visitor(server, widget.id);
    expect(first.isVerified).toBe(false);
    const again = await visitor(server, widget.id, { resume: { visitorSimplyId: first.visitorSimplyId, visitorSecret: first.visitorSecret } });
    expect(again.visitorSimplyId).toBe(first.visitorSimplyId);
    const replay = await openSession(server, widget.id, { resume: { visitorSimplyId: first.visitorSimplyId, visitorSecret: first.visitorSecret } });
    expect(codeOf(replay)).toBe('WIDGET_VISITOR_RESUME_INVALID');
  });

  it('checks a signed identity: good, wrong, tampered, stale, replayed, missing', async () => {
    const widget = await createWidget(server, team, { identityVerification: 'REQUIRED' });
    const who = { visitorId: 'customer-42', email: 'grace@example.org', name: 'Grace Hopper' };
    const good = signIdentity(widget.identitySecret, widget.id, who);
    const opened = await visitor(server, widget.id, { identity: good });
    expect(opened.isVerified).toBe(true);
    expect(codeOf(await openSession(server, widget.id, { identity: good }))).toBe('WIDGET_IDENTITY_REPLAYED');
    expect(codeOf(await openSession(server, widget.id, { identity: signIdentity('wsec_wrong', widget.id, who) }))).toBe('WIDGET_IDENTITY_INVALID');
    expect(codeOf(await openSession(server, widget.id, { identity: { ...signIdentity(widget.identitySecret, widget.id, who), email: 'someone.else@example.org' } }))).toBe('WIDGET_IDENTITY_INVALID');
    expect(codeOf(await openSession(server, widget.id, { identity: { ...who } }))).toBe('WIDGET_IDENTITY_INVALID');
    expect(codeOf(await openSession(server, widget.id, { identity: signIdentity(widget.identitySecret, widget.id, who, Math.floor(Date.now() / 1000) - 600) }))).toBe('WIDGET_IDENTITY_EXPIRED');
    expect(codeOf(await openSession(server, widget.id, { identity: signIdentity(widget.identitySecret, widget.id, who, Math.floor(Date.now() / 1000) + 600) }))).toBe('WIDGET_IDENTITY_EXPIRED');
    expect(codeOf(await openSession(server, widget.id))).toBe('WIDGET_IDENTITY_REQUIRED');
    // a signature for another widget does not open this one
    const elsewhere = await createWidget(server, team, { identityVerification: 'REQUIRED' });
    expect(codeOf(await openSession(server, elsewhere.id, { identity: signIdentity(widget.identitySecret, widget.id, who) }))).toBe('WIDGET_IDENTITY_INVALID');
    // after a rotation the old secret signs nothing
    const rotated = expectOk(await call(server, keyOf(team), 'PUT', `/v1/conversations/widgets/${widget.id}`, { rotateIdentitySecret: true }));
    expect(codeOf(await openSession(server, widget.id, { identity: signIdentity(widget.identitySecret, widget.id, who) }))).toBe('WIDGET_IDENTITY_INVALID');
    expect((await visitor(server, widget.id, { identity: signIdentity(rotated.identitySecret, widget.id, who) })).visitorSimplyId).toBe(opened.visitorSimplyId);
    // garbage is a 400, never a 500
    expect(codeOf(await openSession(server, widget.id, { identity: { visitorId: 'has space', timestamp: 1.5, signature: 'x' } }))).toBe('VALIDATION_ERROR');
    expect(codeOf(await openSession(server, 'cwg-2222-2222-2222'))).toBe('NOT_FOUND');
    expect(codeOf(await openSession(server, 'nope'))).toBe('VALIDATION_ERROR');
  });

  it('a disabled widget opens no session and ends the tokens out', async () => {
    const widget = await createWidget(server, team);
    const v = await visitor(server, widget.id);
    expect((await asVisitor(server, v.token, '{ widgetVisitorConversations { conversationSimplyId } }')).errors).toBeUndefined();
    expectOk(await call(server, keyOf(team), 'PUT', `/v1/conversations/widgets/${widget.id}`, { isEnabled: false }));
    expect(codeOf(await openSession(server, widget.id))).toBe('WIDGET_DISABLED');
    expect(codeOf(await asVisitor(server, v.token, '{ widgetVisitorConversations { conversationSimplyId } }'))).toBe('UNAUTHENTICATED');
  });
});

/** the conversation's entries in the routing queue (one while or after it is routed) */
async function routingRows(conversationSimplyId: string): Promise<number> {
  const { rows } = await server.app.services.pool.query(
    `SELECT count(*)::int AS n FROM "ConversationRouting" r JOIN "Conversation" c ON c.id = r."conversationId" WHERE c."simplyId" = $1`,
    [conversationSimplyId],
  );
  return rows[0].n;
}

describe('a visitor token', () => {
  it('sees only its own conversations, and is refused everywhere else', async () => {
    const widget = await createWidget(server, team);
    const ada = await visitor(server, widget.id);
    const bob = await visitor(server, widget.id);
    const adas = await visitorStarts(server, ada.token, 'Hello from Ada', { visitorName: 'Ada' });
    const bobs = await visitorStarts(server, bob.token, 'Hello from Bob');
    const session = await asVisitor(server, ada.token, '{ widgetVisitorSession { visitor { visitorSimplyId isVerified } widget { widgetSimplyId } expiresAt } }');
    expect(session.data.widgetVisitorSession).toMatchObject({ visitor: { visitorSimplyId: ada.visitorSimplyId, isVerified: false }, widget: { widgetSimplyId: widget.id } });
    const listed = await asVisitor(server, ada.token, '{ widgetVisitorConversations { conversationSimplyId status } }');
    expect(listed.data.widgetVisitorConversations.map((c: any) => c.conversationSimplyId)).toEqual([adas]);
    expect(codeOf(await asVisitor(server, ada.token, `query { widgetVisitorMessages(conversationSimplyId: "${bobs}") { text } }`))).toBe('NOT_FOUND');
    expect(codeOf(await asVisitor(server, ada.token, `mutation { postWidgetMessage(conversationSimplyId: "${bobs}", input: { content: "hi" }) { text } }`))).toBe('NOT_FOUND');
    // a conversation of the team that no visitor started
    const teams = expectOk(await call(server, keyOf(team), 'POST', '/v1/conversations', { subject: 'internal' }), 201).id;
    expect(codeOf(await asVisitor(server, ada.token, `query { widgetVisitorMessages(conversationSimplyId: "${teams}") { text } }`))).toBe('NOT_FOUND');

    // the agent sees the visitor's conversation, a CHAT with an END_USER message
    const agentView = expectOk(await call(server, keyOf(team), 'GET', `/v1/conversations/${adas}/messages`));
    expect(agentView).toMatchObject([{ authorType: 'END_USER', channel: 'CHAT', content: 'Hello from Ada', contentType: 'TEXT', authorUserId: null }]);

    const visitorToken = { token: ada.token };
    for (const [method, path] of [
      ['GET', '/v1/conversations'],
      ['GET', `/v1/conversations/${adas}`],
      ['GET', `/v1/conversations/${adas}/messages`],
      ['POST', `/v1/conversations/${adas}/messages`],
      ['GET', '/v1/conversations/inbox'],
      ['GET', '/v1/conversations/widgets'],
      ['POST', `/v1/conversations/widgets/${widget.id}/tokens`],
      ['GET', '/v1/team-roles'],
      ['GET', '/v1/data-collections'],
      ['GET', '/v1/users/me'],
    ] as const) {
      expectError(await call(server, visitorToken, method, path, method === 'POST' ? { content: 'x' } : undefined), 403, 'WIDGET_VISITOR_TOKEN_NOT_ALLOWED', `${method} ${path}`);
    }
    expect(codeOf(await asVisitor(server, ada.token, '{ viewer { credentialKind } }'))).toBe('WIDGET_VISITOR_TOKEN_NOT_ALLOWED');
    // and the team's credentials are not visitors
    expect(codeOf(await server.graphql('{ widgetVisitorConversations { conversationSimplyId } }', {}, { token: team.apiKey }))).toBe('WIDGET_VISITOR_TOKEN_REQUIRED');
    expect(codeOf(await server.graphql('{ widgetVisitorConversations { conversationSimplyId } }', {}))).toBe('UNAUTHENTICATED');

    // the team-wide subscription refuses it too
    const client = serverGraphqlWsClient(server, { connectionParams: { authorization: `Bearer ${ada.token}` } });
    const refused = await new Promise<any>((resolve) => {
      client.subscribe({ query: 'subscription { conversationEvents { type } }' }, { next: (r) => resolve(r), error: (e) => resolve(e), complete: () => resolve(null) });
    });
    await client.dispose();
    expect(JSON.stringify(refused)).toContain('WIDGET_VISITOR_TOKEN_NOT_ALLOWED');
  });

  it('never receives an internal note: not in reads, not live; agent-only fields never reach it', async () => {
    const widget = await createWidget(server, team);
    const v = await visitor(server, widget.id);
    const conversation = await visitorStarts(server, v.token, 'Where is my order?');
    const heard: any[] = [];
    const client = serverGraphqlWsClient(server, { connectionParams: { authorization: `Bearer ${v.token}` } });
    client.subscribe<{ widgetVisitorEvents: any }>(
      { query: `subscription($id: String!) { widgetVisitorEvents(conversationSimplyId: $id) { type status message { ${VISITOR_MESSAGE} } } }`, variables: { id: conversation } },
      { next: (r) => heard.push(r.data?.widgetVisitorEvents ?? r), error: (e) => heard.push({ error: e }), complete: () => {} },
    );
    // until the subscription listens: a probe status change is heard
    let probes = 0;
    await until('the subscription to listen', async () => {
      await call(server, keyOf(team), 'PUT', `/v1/conversations/${conversation}`, { priority: probes++ % 2 ? 'HIGH' : 'LOW' });
      return heard.length > 0;
    });
    await post(server, keyOf(team), conversation, { content: 'SECRET NOTE: customer is on the watch list', channel: 'INTERNAL_NOTE' });
    await post(server, keyOf(team), conversation, { content: 'It ships tomorrow.' });
    await until('the agent’s answer', () => heard.some((e) => e.message?.text === 'It ships tomorrow.'));
    await client.dispose();
    expect(JSON.stringify(heard)).not.toContain('SECRET NOTE');
    expect(heard.filter((e) => e.type === 'MESSAGE_CREATED')).toHaveLength(1);
    const read = await visitorMessages(server, v.token, conversation);
    expect(read.map((m) => [m.author, m.text])).toEqual([
      ['VISITOR', 'Where is my order?'],
      ['AGENT', 'It ships tomorrow.'],
    ]);
    expect(Object.keys(read[1]).sort()).toEqual(['author', 'conversationSimplyId', 'createdAt', 'messageSimplyId', 'text']);
    // nor through the list's times: the last visible message, not the note
    const list = await asVisitor(server, v.token, '{ widgetVisitorConversations { conversationSimplyId lastMessageAt } }');
    expect(list.data.widgetVisitorConversations[0].lastMessageAt).toBe(read[1].createdAt);
  });

  it('keeps hostile HTML inert both ways', async () => {
    const widget = await createWidget(server, team);
    const v = await visitor(server, widget.id);
    const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    const conversation = await visitorStarts(server, v.token, hostile, { visitorName: '<b>Mallory</b>' });
    const [stored] = expectOk(await call(server, keyOf(team), 'GET', `/v1/conversations/${conversation}/messages`));
    // stored and answered as the characters typed, marked TEXT: an agent's app shows it as text
    expect(stored).toMatchObject({ content: hostile, contentType: 'TEXT', authorType: 'END_USER' });
    await post(server, keyOf(team), conversation, { content: '<p>Hi <b>there</b><script>alert(3)</script><img src=x onerror=alert(4)></p>', contentType: 'HTML' });
    const read = await visitorMessages(server, v.token, conversation);
    expect(read[1].text).not.toMatch(/[<>]/);
    expect(read[1].text).toContain('Hi there');
    expect(read[1].text).not.toContain('alert');
  });
});

describe('previewing a widget', () => {
  it('answers what the widget shows a simulated visitor, with a conversation marked simulated', async () => {
    const widget = await createWidget(server, team, { appearance: { greeting: 'Welcome!' } });
    const simulation = expectOk(await call(server, keyOf(team), 'POST', `/v1/conversations/widgets/${widget.id}/simulate`, { visitorName: 'Test visitor', message: 'Testing 1 2 3' }), 201);
    expect(simulation.visitor).toMatchObject({ isSimulated: true, isVerified: false, name: 'Test visitor' });
    expect(simulation.widget.appearance.greeting).toBe('Welcome!');
    expect(simulation.messages).toMatchObject([{ author: 'VISITOR', text: 'Testing 1 2 3' }]);
    expect(simulation.previewUrl).toBe(`${server.baseUrl}/widget/v1/frame/${widget.id}#token=${encodeURIComponent(simulation.token)}`);
    const conversation = expectOk(await call(server, keyOf(team), 'GET', `/v1/conversations/${simulation.conversation.conversationSimplyId}`));
    expect(conversation).toMatchObject({ subject: '[Simulated] widget preview', channel: 'CHAT', visitorName: 'Test visitor' });
    const thread = await server.app.services.prisma.conversationWidgetThread.findFirst({ where: { teamId: team.teamId, conversation: { simplyId: conversation.id } } });
    expect(thread?.isSimulated).toBe(true);
    // a preview never enters the agents' routing
    expect(await routingRows(conversation.id)).toBe(0);
    // the agent answers it like any conversation, and the simulated visitor reads it
    await post(server, keyOf(team), conversation.id, { content: 'Preview answer' });
    expect((await visitorMessages(server, simulation.token, conversation.id)).map((m) => m.text)).toEqual(['Testing 1 2 3', 'Preview answer']);
    // without a message: an empty conversation, the widget's greeting to show
    const empty = expectOk(await call(server, keyOf(team), 'POST', `/v1/conversations/widgets/${widget.id}/simulate`), 201);
    expect(empty.messages).toEqual([]);
  });

  it('assigns new conversations to the widget’s default assignee with its priority', async () => {
    const widget = await createWidget(server, team, { defaultPriority: 'URGENT', defaultAssignedUserId: team.userSimplyId });
    const v = await visitor(server, widget.id);
    const conversation = await visitorStarts(server, v.token, 'Urgent question', { visitorEmail: 'typed@example.org' });
    const read = expectOk(await call(server, keyOf(team), 'GET', `/v1/conversations/${conversation}`));
    expect(read).toMatchObject({ priority: 'URGENT', assignedUserId: team.userSimplyId, visitorEmail: 'typed@example.org', dataRecordSimplyId: null });
    expect(await routingRows(conversation)).toBe(0);
  });

  it('routes a new conversation of a widget without a default assignee like one created over the API', async () => {
    const widget = await createWidget(server, team);
    const v = await visitor(server, widget.id);
    const conversation = await visitorStarts(server, v.token, 'Anyone there?');
    expect(await routingRows(conversation)).toBe(1);
  });
});
