// GraphQL face of multi-factor sign-in. REST: rest-adapter/routes/mfa.ts. The sign-in step that
// asks for the code is the identity area's (login, completeMfaLogin).
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId, pageArgs, withArgs } from '../../app/graphql/args.ts';
import { PaginationRef } from '../../app/graphql/page.ts';
import { completeMfaSetup, disableMfa, mfaStatus, setupMfa, verifyMfaCode, type MfaEnabled, type MfaSetup, type MfaStatus } from './mfa.service.ts';
import { mfaCompliance, resetMemberMfa, type MfaCompliance, type MfaComplianceMember, type MfaReset } from './mfa-team.service.ts';

const MfaStatusRef = builder.objectRef<MfaStatus>('MfaStatus').implement({
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled', { description: 'sign-in asks for a code' }),
    pendingSetup: t.exposeBoolean('pendingSetup', { description: 'a secret was handed out and waits for complete-setup' }),
    enabledAt: t.expose('enabledAt', { type: 'DateTime', nullable: true }),
    recoveryCodesRemaining: t.exposeInt('recoveryCodesRemaining', { description: 'unused recovery codes (0 while not enabled)' }),
  }),
});

const MfaSetupRef = builder.objectRef<MfaSetup>('MfaSetup').implement({
  fields: (t) => ({
    secret: t.exposeString('secret', { description: 'base32; for typing into an authenticator app by hand' }),
    otpauthUri: t.exposeString('otpauthUri', { description: 'otpauth://totp/… (SHA1, 6 digits, 30 seconds)' }),
    qrCodeDataUrl: t.exposeString('qrCodeDataUrl', { description: 'the otpauthUri as a PNG QR code (data:image/png;base64,…)' }),
  }),
});

const MfaCodeCheckRef = builder.objectRef<{ valid: boolean }>('MfaCodeCheck').implement({
  fields: (t) => ({ valid: t.exposeBoolean('valid') }),
});

const MfaEnabledRef = builder.objectRef<MfaEnabled>('MfaEnabled').implement({
  fields: (t) => ({
    enabled: t.boolean({ resolve: () => true }),
    enabledAt: t.expose('enabledAt', { type: 'DateTime' }),
    recoveryCodes: t.exposeStringList('recoveryCodes', { description: 'ten one-time codes, shown only here: each replaces a code once' }),
  }),
});

const MfaComplianceMemberRef = builder.objectRef<MfaComplianceMember>('MfaComplianceMember').implement({
  fields: (t) => ({
    userSimplyId: t.exposeString('userSimplyId'),
    teamUserLinkSimplyId: t.exposeString('teamUserLinkSimplyId', { description: 'the membership (for the reset)' }),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    isTeamAdmin: t.exposeBoolean('isTeamAdmin'),
    mfaEnabled: t.exposeBoolean('mfaEnabled'),
    mfaEnabledAt: t.expose('mfaEnabledAt', { type: 'DateTime', nullable: true }),
  }),
});

const MfaComplianceTotalsRef = builder.objectRef<MfaCompliance['totals']>('MfaComplianceTotals').implement({
  fields: (t) => ({
    activeMembers: t.exposeInt('activeMembers'),
    mfaEnabled: t.exposeInt('mfaEnabled'),
    mfaNotEnabled: t.exposeInt('mfaNotEnabled'),
  }),
});

const MfaComplianceRef = builder.objectRef<MfaCompliance>('MfaCompliance').implement({
  fields: (t) => ({
    totals: t.field({ type: MfaComplianceTotalsRef, description: "the team's active members, whatever the filter", resolve: (c) => c.totals }),
    nodes: t.field({ type: [MfaComplianceMemberRef], resolve: (c) => c.nodes }),
    pagination: t.field({ type: PaginationRef, resolve: (c) => c.pagination }),
  }),
});

const MfaResetRef = builder.objectRef<MfaReset>('MfaReset').implement({
  fields: (t) => ({
    teamUserLinkSimplyId: t.exposeString('teamUserLinkSimplyId'),
    userSimplyId: t.exposeString('userSimplyId'),
    mfaRemoved: t.exposeBoolean('mfaRemoved', { description: 'false when the member had no second factor' }),
  }),
});

builder.queryFields((t) => ({
  mfaStatus: t.field({
    type: MfaStatusRef,
    description: "The signed-in user's multi-factor sign-in.",
    authScopes: tier.signedInUser,
    resolve: (_root, _args, ctx) => mfaStatus(ctx),
  }),
  mfaCompliance: t.field({
    type: MfaComplianceRef,
    description: "Which of the team's active members have multi-factor sign-in (TEAM_ADMIN_USERS view).",
    authScopes: tier.privileged('TEAM_ADMIN_USERS', 'VIEW'),
    args: { ...pageArgs(t.arg), mfaEnabled: t.arg.boolean({ description: 'only members with (true) or without (false) it' }) },
    resolve: withArgs(mfaCompliance),
  }),
}));

builder.mutationFields((t) => ({
  setupMfa: t.field({
    type: MfaSetupRef,
    description: 'A new TOTP secret waiting for complete-setup (replaces an unconfirmed one; 409 while enabled).',
    authScopes: tier.signedInUser,
    resolve: (_root, _args, ctx) => setupMfa(ctx),
  }),
  verifyMfaCode: t.field({
    type: MfaCodeCheckRef,
    description: 'Whether a code matches the pending or enabled secret; changes nothing, but a wrong code counts toward the failure limit.',
    authScopes: tier.signedInUser,
    args: { code: t.arg.string({ required: true }) },
    resolve: withArgs(verifyMfaCode),
  }),
  completeMfaSetup: t.field({
    type: MfaEnabledRef,
    description: 'Enables multi-factor sign-in with a current code and returns the recovery codes (shown once).',
    authScopes: tier.signedInUser,
    args: { code: t.arg.string({ required: true }) },
    resolve: withArgs(completeMfaSetup),
  }),
  disableMfa: t.boolean({
    description: 'Turns multi-factor sign-in off (or drops an unconfirmed setup); needs a current code or a recovery code.',
    authScopes: tier.signedInUser,
    args: { code: t.arg.string(), recoveryCode: t.arg.string() },
    resolve: (_root, args, ctx) => disableMfa(ctx, withoutNulls(args)),
  }),
  resetMemberMfa: t.field({
    type: MfaResetRef,
    description: "A team admin removes a member's multi-factor sign-in (JWT only).",
    authScopes: { $all: { ...tier.signedInMember.$all, teamAdmin: true } },
    ...byId(t.arg, 'teamUserLinkSimplyId', resetMemberMfa),
  }),
}));

/** GraphQL null means "not given" for these optional arguments. */
function withoutNulls<T extends Record<string, unknown>>(args: T): Partial<T> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}
