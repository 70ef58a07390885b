// /v1/conversations/widgets… → src/modules/conversations/widgets.schema.ts (docs/api/conversations.md
// "Chat widget"). Reading needs DATA_CONVERSATIONS_VIEW, writing it at edit level; scoped tokens
// conversations:read / conversations:write. The visitor's own operations (a widget's page) are
// GraphQL only: widget-visitor.schema.ts.
import { CONVERSATION_WIDGET, WIDGET_SIMULATION, WIDGET_VISITOR_TOKEN } from '../../../src/modules/conversations/widget.fragments.ts';
import { createWidgetInput, simulateInput, tokenInput, updateWidgetInput, WIDGET_LIMITS } from '../../../src/modules/conversations/widget.input.ts';
import { operation } from '../../../src/app/graphql/fragments.ts';
import { defineRoutes, route } from '../../route.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../../route-shapes.ts';

const WIDGETS = '/v1/conversations/widgets';
const ONE = `${WIDGETS}/{widgetSimplyId}`;
const TABLE = 'DATA_CONVERSATIONS_VIEW';

export const conversationWidgetRoutes = defineRoutes([
  listPage({
    path: WIDGETS,
    summary: 'List chat widgets',
    description: `The team's chat widgets, oldest first (${TABLE}; conversations:read): limit 1-100 (default 25), offset`,
    name: 'ConversationWidgets',
    select: CONVERSATION_WIDGET,
  }),
  createOne({
    path: WIDGETS,
    summary: 'Create a chat widget',
    description: `A new embeddable chat widget (${TABLE} at edit level; conversations:write): { name, allowedOrigins? (https origins, at most ${WIDGET_LIMITS.origins}), appearance? { primaryColor, textColor, title, greeting, launcherLabel, inputPlaceholder, position }, identityVerification? (OPTIONAL default, REQUIRED), defaultPriority?, defaultAssignedUserId?, isEnabled? }. The answer holds identitySecret, the HMAC key for signing visitor identities: shown this once. At most ${WIDGET_LIMITS.perTeam} widgets a team (409 CONFLICT)`,
    name: 'CreateConversationWidget',
    inputType: 'CreateConversationWidgetInput',
    body: createWidgetInput,
    example: { name: 'Website chat', allowedOrigins: ['https://www.example.org'], appearance: { primaryColor: '#2563EB', greeting: 'Hi! How can we help?' }, identityVerification: 'OPTIONAL' },
    select: CONVERSATION_WIDGET,
  }),
  getOne({ path: ONE, summary: 'Get a chat widget', description: `One widget with its embed snippet (${TABLE}; conversations:read); never its identity secret`, name: 'ConversationWidget', select: CONVERSATION_WIDGET }),
  updateOne({
    method: 'PUT',
    path: ONE,
    summary: 'Change a chat widget',
    description: `Any of the create fields (${TABLE} at edit level; conversations:write); { rotateIdentitySecret: true } makes a new identity secret, answered once (the old one stops verifying at once). Disabling it ends its visitors' tokens`,
    name: 'UpdateConversationWidget',
    inputType: 'UpdateConversationWidgetInput',
    body: updateWidgetInput,
    example: { allowedOrigins: ['https://www.example.org', 'https://shop.example.org'], identityVerification: 'REQUIRED' },
    select: CONVERSATION_WIDGET,
  }),
  actOn({
    method: 'DELETE',
    path: ONE,
    summary: 'Delete a chat widget',
    description: `The widget, its visitors and their tokens (${TABLE} at edit level; conversations:write); the conversations stay in the inbox`,
    name: 'DeleteConversationWidget',
  }),
  route({
    method: 'POST',
    path: `${ONE}/tokens`,
    summary: 'Mint a widget visitor token',
    description: `Your server mints a visitor token (svc_wvt_…, ${WIDGET_LIMITS.tokenSeconds / 60} minutes) for one of its visitors (${TABLE} at edit level; conversations:write): { identity? { visitorId, email?, name? } } is taken as verified; without it an anonymous visitor (not for REQUIRED widgets: 401 WIDGET_IDENTITY_REQUIRED); { resume { visitorSimplyId, visitorSecret } } continues a visitor. A disabled widget: 403 WIDGET_DISABLED. The widget's own page opens sessions without a credential through GraphQL (openWidgetVisitorSession, with a signed identity)`,
    operation: operation`mutation CreateConversationWidgetToken($id: String!, $input: WidgetVisitorTokenInput) {
      createConversationWidgetToken(widgetSimplyId: $id, input: $input) { ${WIDGET_VISITOR_TOKEN} } }`,
    body: tokenInput.optional(),
    variables: ({ params, body }) => ({ id: params.widgetSimplyId, input: body ?? null }),
    example: { identity: { visitorId: 'customer-4711', email: 'ada@example.org', name: 'Ada Lovelace' } },
    status: 201,
  }),
  route({
    method: 'POST',
    path: `${ONE}/simulate`,
    summary: 'Preview a chat widget',
    description: `A simulated visitor (left out of analytics) with a token and a conversation marked simulated, and what the widget shows them: its look, the conversation, its messages and a preview URL of the widget's page (${TABLE} at edit level; conversations:write): { visitorName?, visitorEmail?, message? }`,
    operation: operation`mutation SimulateConversationWidget($id: String!, $input: SimulateConversationWidgetInput) {
      simulateConversationWidget(widgetSimplyId: $id, input: $input) { ${WIDGET_SIMULATION} } }`,
    body: simulateInput.optional(),
    variables: ({ params, body }) => ({ id: params.widgetSimplyId, input: body ?? null }),
    example: { visitorName: 'Test visitor', message: 'Hello, is anyone there?' },
    status: 201,
  }),
]);
