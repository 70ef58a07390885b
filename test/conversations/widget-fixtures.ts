// What the chat widget tests share: a widget made over REST (with its identity secret), an
// identity signed the way a team's server signs it, visitor sessions opened as the widget's page
// does (GraphQL, no credential) and calls as the visitor.
import { createHmac, randomBytes } from 'node:crypto';
import { expectOk } from '../support/expect-envelope.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';

export interface Widget {
  id: string;
  identitySecret: string;
  [field: string]: any;
}

export async function createWidget(server: TestServer, team: TeamFixture, body: Record<string, unknown> = {}): Promise<Widget> {
  const res = await server.request('POST', '/v1/conversations/widgets', { token: team.apiKey, body: { name: `Widget ${randomBytes(3).toString('hex')}`, allowedOrigins: ['https://www.example.org'], ...body } });
  return expectOk(res, 201);
}

/** Signs `identity` as the docs tell a team's server to: HMAC-SHA256 over widget, timestamp, visitorId, email, name joined by newlines. */
export function signIdentity(secret: string, widgetSimplyId: string, identity: { visitorId: string; email?: string; name?: string }, timestamp = Math.floor(Date.now() / 1000)) {
  const payload = [widgetSimplyId, String(timestamp), identity.visitorId, identity.email ?? '', identity.name ?? ''].join('\n');
  return { ...identity, timestamp, signature: createHmac('sha256', secret).update(payload).digest('hex') };
}

const OPEN = `mutation Open($w: String!, $input: WidgetVisitorTokenInput) {
  openWidgetVisitorSession(widgetSimplyId: $w, input: $input) { token expiresAt visitorSecret visitor { visitorSimplyId isVerified isSimulated name email } widget { widgetSimplyId identityVerification appearance { title greeting primaryColor } } } }`;

/** openWidgetVisitorSession without a credential: the GraphQL answer as it is. */
export function openSession(server: TestServer, widget: string, input?: Record<string, unknown>) {
  return server.graphql(OPEN, { w: widget, input: input ?? null });
}

/** A visitor session that must open; its token and visitor. */
export async function visitor(server: TestServer, widget: string, input?: Record<string, unknown>): Promise<{ token: string; visitorSimplyId: string; visitorSecret: string; isVerified: boolean }> {
  const { data, errors } = await openSession(server, widget, input);
  if (errors?.length) throw new Error(`openWidgetVisitorSession: ${JSON.stringify(errors)}`);
  const s = data.openWidgetVisitorSession;
  return { token: s.token, visitorSimplyId: s.visitor.visitorSimplyId, visitorSecret: s.visitorSecret, isVerified: s.visitor.isVerified };
}

export const VISITOR_MESSAGE = 'messageSimplyId conversationSimplyId author text createdAt';

/** GraphQL as the visitor. */
export function asVisitor(server: TestServer, token: string, query: string, variables: Record<string, unknown> = {}) {
  return server.graphql(query, variables, { token });
}

/** The visitor starts a conversation with `content`; its id. */
export async function visitorStarts(server: TestServer, token: string, content: string, extra: Record<string, unknown> = {}): Promise<string> {
  const { data, errors } = await asVisitor(server, token, `mutation S($input: StartWidgetConversationInput!) { startWidgetConversation(input: $input) { conversation { conversationSimplyId } message { ${VISITOR_MESSAGE} } } }`, {
    input: { content, ...extra },
  });
  if (errors?.length) throw new Error(`startWidgetConversation: ${JSON.stringify(errors)}`);
  return data.startWidgetConversation.conversation.conversationSimplyId;
}

export async function visitorMessages(server: TestServer, token: string, conversation: string): Promise<any[]> {
  const { data, errors } = await asVisitor(server, token, `query M($id: String!) { widgetVisitorMessages(conversationSimplyId: $id) { ${VISITOR_MESSAGE} } }`, { id: conversation });
  if (errors?.length) throw new Error(`widgetVisitorMessages: ${JSON.stringify(errors)}`);
  return data.widgetVisitorMessages;
}
