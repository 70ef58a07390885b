// GraphQL face of chat widget administration (docs/api/conversations.md "Chat widget"). REST:
// rest-adapter/routes/conversations/widgets.ts. Reading needs DATA_CONVERSATIONS_VIEW, writing it
// at edit level (and, for scoped tokens, conversations:read / conversations:write), as the
// conversation table. The visitor's own operations are in widget-visitor.schema.ts.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { pageArgs } from '../../app/graphql/args.ts';
import { givenFields, suppliedFields } from '../../app/graphql/input-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { PRIORITIES } from './conversations.input.ts';
import { embedSnippet, frameUrl, loaderUrl } from './widget-links.ts';
import { simulateWidget, type WidgetSimulation } from './widget-simulate.service.ts';
import { createWidgetToken, type MintedToken, type PublicWidget, type VisitorView } from './widget-tokens.service.ts';
import type { VisitorConversation, VisitorMessage } from './widget-visitor.service.ts';
import { IDENTITY_MODES, WIDGET_LIMITS, WIDGET_POSITIONS, type Appearance } from './widget.input.ts';
import { createWidget, deleteWidget, getWidget, listWidgets, updateWidget, type WidgetView } from './widgets.service.ts';

const READ = tier.standardScopedFeature('conversations:read', 'DATA_CONVERSATIONS_VIEW', 'VIEW');
const WRITE = tier.standardScopedFeature('conversations:write', 'DATA_CONVERSATIONS_VIEW', 'EDIT');

export const WidgetAppearanceRef = builder.objectRef<Appearance>('WidgetAppearance').implement({
  description: 'How the widget looks: its colors and texts (shown as text, never as markup).',
  fields: (t) => ({
    primaryColor: t.exposeString('primaryColor', { description: '#RRGGBB' }),
    textColor: t.exposeString('textColor', { description: '#RRGGBB, on the primary color' }),
    title: t.exposeString('title'),
    greeting: t.exposeString('greeting', { description: 'empty: no greeting' }),
    launcherLabel: t.exposeString('launcherLabel'),
    inputPlaceholder: t.exposeString('inputPlaceholder'),
    position: t.exposeString('position', { description: WIDGET_POSITIONS.join(' or ') }),
  }),
});

const WidgetEmbedRef = builder.objectRef<{ widgetSimplyId: string }>('WidgetEmbed').implement({
  description: 'Where the widget is served from, and the line to put on a page.',
  fields: (t) => ({
    loaderUrl: t.string({ resolve: (e, _a, ctx) => loaderUrl(ctx.services, e.widgetSimplyId) }),
    frameUrl: t.string({ resolve: (e, _a, ctx) => frameUrl(ctx.services, e.widgetSimplyId) }),
    snippet: t.string({ description: 'the script tag to paste into the pages of an allowed origin', resolve: (e, _a, ctx) => embedSnippet(ctx.services, e.widgetSimplyId) }),
  }),
});

const ConversationWidgetRef = builder.objectRef<WidgetView>('ConversationWidget').implement({
  description: 'An embeddable chat widget: visitors on its allowed origins start and follow conversations through it.',
  fields: (t) => ({
    id: t.string({ resolve: (w) => w.row.simplyId }),
    widgetSimplyId: t.string({ resolve: (w) => w.row.simplyId }),
    name: t.string({ resolve: (w) => w.row.name }),
    allowedOrigins: t.stringList({ description: 'https origins whose pages may show the widget (its frame-ancestors)', resolve: (w) => w.row.allowedOrigins }),
    appearance: t.field({ type: WidgetAppearanceRef, resolve: (w) => w.appearance }),
    identityVerification: t.string({ description: 'OPTIONAL (anonymous visitors too) or REQUIRED (only identities the team’s server signed)', resolve: (w) => w.row.identityVerification }),
    identitySecret: t.string({ nullable: true, description: 'the HMAC secret for signing visitor identities: only in the answer that made it (create, rotate)', resolve: (w) => w.identitySecret }),
    identitySecretHint: t.string({ resolve: (w) => w.row.identitySecretHint }),
    identitySecretRotatedAt: t.field({ type: 'DateTime', resolve: (w) => w.row.identitySecretRotatedAt }),
    defaultPriority: t.string({ description: 'the priority of conversations started through it', resolve: (w) => w.row.defaultPriority }),
    defaultAssignedUserId: t.string({ nullable: true, description: 'who its new conversations are assigned to (while they can work conversations)', resolve: (w) => w.defaultAssignedUserSimplyId }),
    isEnabled: t.boolean({ resolve: (w) => w.row.isEnabled }),
    embed: t.field({ type: WidgetEmbedRef, resolve: (w) => ({ widgetSimplyId: w.row.simplyId }) }),
    createdAt: t.field({ type: 'DateTime', resolve: (w) => w.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (w) => w.row.updatedAt }),
  }),
});
const ConversationWidgetPageRef = pageType('ConversationWidgetPage', ConversationWidgetRef);

export const PublicWidgetRef = builder.objectRef<PublicWidget>('WidgetPublicSettings').implement({
  description: 'What a widget’s page knows of its widget.',
  fields: (t) => ({
    widgetSimplyId: t.exposeString('widgetSimplyId'),
    identityVerification: t.exposeString('identityVerification'),
    appearance: t.field({ type: WidgetAppearanceRef, resolve: (w) => w.appearance }),
  }),
});

export const WidgetVisitorRef = builder.objectRef<VisitorView>('WidgetVisitor').implement({
  description: 'A person talking through a widget.',
  fields: (t) => ({
    visitorSimplyId: t.exposeString('visitorSimplyId'),
    isVerified: t.exposeBoolean('isVerified', { description: 'named by the team’s server (signed, or minted with a team credential)' }),
    isSimulated: t.exposeBoolean('isSimulated', { description: 'an agent’s preview: left out of analytics' }),
    name: t.exposeString('name', { nullable: true }),
    email: t.exposeString('email', { nullable: true }),
  }),
});

export const WidgetVisitorConversationRef = builder.objectRef<VisitorConversation>('WidgetVisitorConversation').implement({
  description: 'A conversation as its visitor sees it.',
  fields: (t) => ({
    conversationSimplyId: t.exposeString('conversationSimplyId'),
    status: t.exposeString('status'),
    createdAt: t.field({ type: 'DateTime', resolve: (c) => c.createdAt }),
    lastMessageAt: t.field({ type: 'DateTime', description: 'the latest message the visitor can see', resolve: (c) => c.lastMessageAt }),
  }),
});

export const WidgetVisitorMessageRef = builder.objectRef<VisitorMessage>('WidgetVisitorMessage').implement({
  description: 'A message as the visitor sees it (never an internal note; text only).',
  fields: (t) => ({
    messageSimplyId: t.exposeString('messageSimplyId'),
    conversationSimplyId: t.exposeString('conversationSimplyId'),
    author: t.exposeString('author', { description: 'VISITOR, AGENT, AI or SYSTEM' }),
    text: t.exposeString('text', { description: 'plain text: show it as text' }),
    createdAt: t.field({ type: 'DateTime', resolve: (m) => m.createdAt }),
  }),
});

export const WidgetVisitorTokenRef = builder.objectRef<MintedToken>('WidgetVisitorToken').implement({
  description: `A visitor token (svc_wvt_…, ${WIDGET_LIMITS.tokenSeconds / 60} minutes) and what the widget's page needs.`,
  fields: (t) => ({
    token: t.exposeString('token'),
    expiresAt: t.field({ type: 'DateTime', resolve: (m) => m.expiresAt }),
    visitorSecret: t.exposeString('visitorSecret', { description: 'resumes this visitor later ({ resume: { visitorSimplyId, visitorSecret } }); each use answers a new one' }),
    visitor: t.field({ type: WidgetVisitorRef, resolve: (m) => m.visitor }),
    widget: t.field({ type: PublicWidgetRef, resolve: (m) => m.widget }),
  }),
});

const WidgetSimulationRef = builder.objectRef<WidgetSimulation>('WidgetSimulation').implement({
  description: 'What the widget shows a (simulated) visitor, with a token and a preview URL of its page.',
  fields: (t) => ({
    token: t.exposeString('token'),
    expiresAt: t.field({ type: 'DateTime', resolve: (m) => m.expiresAt }),
    previewUrl: t.exposeString('previewUrl', { description: 'the widget’s page as this visitor (the token is in the fragment)' }),
    visitor: t.field({ type: WidgetVisitorRef, resolve: (m) => m.visitor }),
    widget: t.field({ type: PublicWidgetRef, resolve: (m) => m.widget }),
    conversation: t.field({ type: WidgetVisitorConversationRef, resolve: (m) => m.conversation }),
    messages: t.field({ type: [WidgetVisitorMessageRef], resolve: (m) => m.messages }),
  }),
});

const AppearanceInput = builder.inputType('WidgetAppearanceInput', {
  fields: (t) => ({
    primaryColor: t.string({ description: '#RRGGBB' }),
    textColor: t.string({ description: '#RRGGBB' }),
    title: t.string({ description: `one line, at most ${WIDGET_LIMITS.title} characters` }),
    greeting: t.string({ description: `at most ${WIDGET_LIMITS.greeting} characters; null or empty: none` }),
    launcherLabel: t.string({ description: `one line, at most ${WIDGET_LIMITS.label} characters` }),
    inputPlaceholder: t.string({ description: `one line, at most ${WIDGET_LIMITS.placeholder} characters` }),
    position: t.string({ description: WIDGET_POSITIONS.join(' or ') }),
  }),
});

const widgetFields = (t: PothosSchemaTypes.InputFieldBuilder<any, 'InputObject'>, create: boolean) => ({
  name: t.string({ required: create, description: `one line, at most ${WIDGET_LIMITS.name} characters` }),
  allowedOrigins: t.stringList({ description: `https origins (https://host[:port]), at most ${WIDGET_LIMITS.origins}` }),
  appearance: t.field({ type: AppearanceInput }),
  identityVerification: t.string({ description: `${IDENTITY_MODES.join(' or ')}; default OPTIONAL` }),
  defaultPriority: t.string({ description: `${PRIORITIES.join(', ')}; default NORMAL` }),
  defaultAssignedUserId: t.string({ description: 'a user simplyId who can work conversations, or null' }),
  isEnabled: t.boolean({ description: 'default true' }),
});

const CreateInput = builder.inputType('CreateConversationWidgetInput', { fields: (t) => widgetFields(t, true) });
const UpdateInput = builder.inputType('UpdateConversationWidgetInput', {
  fields: (t) => ({ ...widgetFields(t, false), rotateIdentitySecret: t.boolean({ description: 'true: a new identity secret, answered once; the old one stops verifying' }) }),
});

export const VisitorIdentityInput = builder.inputType('WidgetVisitorIdentityInput', {
  fields: (t) => ({
    visitorId: t.string({ required: true, description: 'your own id of the visitor' }),
    email: t.string(),
    name: t.string(),
    timestamp: t.float({ description: 'Unix seconds when your server signed it (not needed with a team credential)' }),
    signature: t.string({ description: 'hex HMAC-SHA256 (docs: "Identity verification"; not needed with a team credential)' }),
  }),
});
const ResumeInput = builder.inputType('WidgetVisitorResumeInput', {
  fields: (t) => ({ visitorSimplyId: t.string({ required: true }), visitorSecret: t.string({ required: true }) }),
});
export const TokenInput = builder.inputType('WidgetVisitorTokenInput', {
  fields: (t) => ({ identity: t.field({ type: VisitorIdentityInput }), resume: t.field({ type: ResumeInput }) }),
});
const SimulateInput = builder.inputType('SimulateConversationWidgetInput', {
  fields: (t) => ({ visitorName: t.string(), visitorEmail: t.string(), message: t.string({ description: 'the visitor’s first message' }) }),
});

builder.queryFields((t) => ({
  conversationWidgets: t.field({
    type: ConversationWidgetPageRef,
    description: 'The team’s chat widgets, oldest first.',
    authScopes: READ,
    args: { ...pageArgs(t.arg) },
    resolve: (_root, args, ctx) => listWidgets(ctx, args),
  }),
  conversationWidget: t.field({
    type: ConversationWidgetRef,
    authScopes: READ,
    args: { widgetSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getWidget(ctx, args.widgetSimplyId),
  }),
}));

builder.mutationFields((t) => ({
  createConversationWidget: t.field({
    type: ConversationWidgetRef,
    description: 'A new chat widget; its identity secret is in this answer only.',
    authScopes: WRITE,
    args: { input: t.arg({ type: CreateInput, required: true }) },
    resolve: (_root, args, ctx) => createWidget(ctx, givenFields(args.input)),
  }),
  updateConversationWidget: t.field({
    type: ConversationWidgetRef,
    authScopes: WRITE,
    args: { widgetSimplyId: t.arg.string({ required: true }), input: t.arg({ type: UpdateInput, required: true }) },
    resolve: (_root, args, ctx) => updateWidget(ctx, args.widgetSimplyId, suppliedFields(args.input)),
  }),
  deleteConversationWidget: t.boolean({
    description: 'Delete a widget: its visitors’ tokens end; the conversations stay.',
    authScopes: WRITE,
    args: { widgetSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => deleteWidget(ctx, args.widgetSimplyId),
  }),
  createConversationWidgetToken: t.field({
    type: WidgetVisitorTokenRef,
    description: 'Your server mints a visitor token: the identity it names is taken as verified; without one, an anonymous visitor (OPTIONAL widgets).',
    authScopes: WRITE,
    args: { widgetSimplyId: t.arg.string({ required: true }), input: t.arg({ type: TokenInput }) },
    resolve: (_root, args, ctx) => createWidgetToken(ctx, args.widgetSimplyId, args.input ? givenFields(args.input) : {}),
  }),
  simulateConversationWidget: t.field({
    type: WidgetSimulationRef,
    description: 'Preview the widget as a simulated visitor (left out of analytics).',
    authScopes: WRITE,
    args: { widgetSimplyId: t.arg.string({ required: true }), input: t.arg({ type: SimulateInput }) },
    resolve: (_root, args, ctx) => simulateWidget(ctx, args.widgetSimplyId, args.input ? givenFields(args.input) : {}),
  }),
}));
