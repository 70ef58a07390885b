// GraphQL face of constituent authentication (docs/api/constituent-auth.md). REST:
// rest-adapter/routes/constituent-auth.ts. Initiate, verify and refresh are public (the operation
// checks its own secret); me and logout take the constituent's access token and nothing else.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { initiate, type IssuedVerification } from './initiate.service.ts';
import { logout, me, refresh, verify, verifyLink, type ConstituentProfile, type ConstituentTokens } from './sessions.service.ts';

const ConstituentVerificationRef = builder.objectRef<IssuedVerification>('ConstituentVerification').implement({
  description: 'An issued verification: the id to verify a code with, and until when it works. The same answer whether or not the address matched anyone.',
  fields: (t) => ({
    verificationSimplyId: t.string({ resolve: (v) => v.verificationSimplyId }),
    expiresAt: t.field({ type: 'DateTime', resolve: (v) => v.expiresAt }),
  }),
});

const ConstituentTokensRef = builder.objectRef<ConstituentTokens>('ConstituentTokens').implement({
  description: "A constituent's tokens: send the access token as \"Authorization: Bearer <accessToken>\"; the refresh token works once.",
  fields: (t) => ({
    accessToken: t.string({ description: '30 minutes', resolve: (v) => v.accessToken }),
    refreshToken: t.string({ description: '90 days, single use: each refresh returns a new pair', resolve: (v) => v.refreshToken }),
    accessTokenExpiresAt: t.field({ type: 'DateTime', resolve: (v) => v.accessTokenExpiresAt }),
    refreshTokenExpiresAt: t.field({ type: 'DateTime', resolve: (v) => v.refreshTokenExpiresAt }),
  }),
});

type SessionInfo = ConstituentProfile['sessions'][number];

const ConstituentSessionInfoRef = builder.objectRef<SessionInfo>('ConstituentSessionInfo').implement({
  description: "One of the constituent's open sessions (a device signed in).",
  fields: (t) => ({
    sessionSimplyId: t.string({ resolve: (s) => s.sessionSimplyId }),
    platform: t.string({ nullable: true, description: 'ios, android or web, as given at verification', resolve: (s) => s.platform }),
    deviceName: t.string({ nullable: true, resolve: (s) => s.deviceName }),
    lastActiveAt: t.field({ type: 'DateTime', description: 'updated by refreshes and (at most once a minute) by calls with the access token', resolve: (s) => s.lastActiveAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => s.createdAt }),
    current: t.boolean({ description: 'the session of the token making this call', resolve: (s) => s.current }),
  }),
});

const ConstituentProfileRef = builder.objectRef<ConstituentProfile>('ConstituentProfile').implement({
  description: 'The signed-in constituent: their record and open sessions.',
  fields: (t) => ({
    simplyId: t.string({ description: "the constituent's record (dataRecordSimplyId)", resolve: (p) => p.simplyId }),
    sessions: t.field({ type: [ConstituentSessionInfoRef], resolve: (p) => p.sessions }),
  }),
});

// strings rather than enums, so a wrong value is the documented 400 naming the field on both faces
const InitiateConstituentAuthInput = builder.inputType('InitiateConstituentAuthInput', {
  fields: (t) => ({
    teamSimplyId: t.string({ required: true }),
    contactValue: t.string({ required: true, description: "the constituent's email address (SMS is not available yet)" }),
    method: t.string({ required: true, description: 'CODE (a 6-digit code, 15 minutes) or LINK (a magic link, 2 hours)' }),
  }),
});

const VerifyConstituentAuthInput = builder.inputType('VerifyConstituentAuthInput', {
  description: 'Exactly one of code (CODE verifications) and token (LINK verifications: the token of the emailed link).',
  fields: (t) => ({
    verificationSimplyId: t.string({ required: true }),
    code: t.string(),
    token: t.string(),
    platform: t.string({ description: 'ios, android or web: shown in the session list' }),
    deviceName: t.string({ description: 'shown in the session list (at most 100 characters)' }),
  }),
});

builder.queryFields((t) => ({
  constituentMe: t.field({
    type: ConstituentProfileRef,
    description: "The signed-in constituent's record and open sessions (constituent access token only).",
    authScopes: tier.constituent,
    resolve: (_root, _args, ctx) => me(ctx),
  }),
}));

builder.mutationFields((t) => ({
  initiateConstituentAuth: t.field({
    type: ConstituentVerificationRef,
    description: 'Mails a sign-in code or link to a constituent of the team. The answer is the same whether or not the address matched (rate limited per address).',
    authScopes: tier.publicLink,
    args: { input: t.arg({ type: InitiateConstituentAuthInput, required: true }) },
    resolve: (_root, args, ctx) => initiate(ctx, givenFields(args.input)),
  }),
  verifyConstituentAuth: t.field({
    type: ConstituentTokensRef,
    description: 'Exchanges a verification and its code (or link token) for tokens; at most 5 wrong tries.',
    authScopes: tier.publicLink,
    args: { input: t.arg({ type: VerifyConstituentAuthInput, required: true }) },
    resolve: (_root, args, ctx) => verify(ctx, givenFields(args.input)),
  }),
  verifyConstituentMagicLink: t.field({
    type: ConstituentTokensRef,
    description: "Exchanges the emailed link's token for tokens (single use, 2 hours).",
    authScopes: tier.publicLink,
    args: { token: t.arg.string({ required: true }), platform: t.arg.string(), deviceName: t.arg.string() },
    resolve: (_root, args, ctx) => verifyLink(ctx, givenFields(args)),
  }),
  refreshConstituentAuth: t.field({
    type: ConstituentTokensRef,
    description: 'A new access token and refresh token; presenting a refresh token that was already used ends its session.',
    authScopes: tier.publicLink,
    args: { refreshToken: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => refresh(ctx, args),
  }),
  logoutConstituent: t.boolean({
    description: 'Ends the session of the access token used (constituent access token only).',
    authScopes: tier.constituent,
    resolve: (_root, _args, ctx) => logout(ctx),
  }),
}));
