// /v1/users/me/mfa and /v1/users/mfa → src/modules/mfa/mfa.schema.ts (docs/api/authentication.md
// "Second factor (TOTP)"). The sign-in step with a code is /v1/auth/login/mfa (routes/identity.ts).
import { z } from 'zod';
import { operation } from '../../src/app/graphql/fragments.ts';
import { MFA_COMPLIANCE, MFA_ENABLED, MFA_RESET, MFA_SETUP, MFA_STATUS } from '../../src/modules/mfa/mfa.fragments.ts';
import { codeInput, disableInput } from '../../src/modules/mfa/mfa.input.ts';
import { defineRoutes, respond, route } from '../route.ts';
import { actOn, getOne } from '../route-shapes.ts';
import { queryBool, queryInt } from '../schemas.ts';

const complianceQuery = z.strictObject({
  limit: queryInt().describe('1-100, default 25'),
  offset: queryInt().describe('0 or more, default 0'),
  mfaEnabled: queryBool().describe('true: only members with it; false: only members without it'),
});

export const mfaRoutes = defineRoutes([
  getOne({ path: '/v1/users/me/mfa/status', summary: 'Get my multi-factor status', description: "The signed-in user's multi-factor sign-in: enabled, pendingSetup, enabledAt, recoveryCodesRemaining", name: 'MfaStatus', select: MFA_STATUS }),
  route({
    method: 'POST',
    path: '/v1/users/me/mfa/setup',
    summary: 'Start multi-factor setup',
    description: 'A new TOTP secret (secret, otpauthUri, qrCodeDataUrl) waiting for complete-setup; replaces an unconfirmed one; 409 CONFLICT while enabled',
    operation: operation`mutation SetupMfa { setupMfa { ${MFA_SETUP} } }`,
  }),
  route({
    method: 'POST',
    path: '/v1/users/me/mfa/verify',
    summary: 'Check a multi-factor code',
    description: 'Whether { code } matches the pending or enabled secret: { valid }; changes nothing, a wrong code counts toward the failure limit',
    operation: operation`mutation VerifyMfaCode($code: String!) { verifyMfaCode(code: $code) { valid } }`,
    body: codeInput,
    example: { code: '492039' },
    variables: ({ body }) => body as Record<string, unknown>,
  }),
  route({
    method: 'POST',
    path: '/v1/users/me/mfa/complete-setup',
    summary: 'Complete multi-factor setup',
    description: 'Enable with a current { code }: the ten recovery codes, shown only here; a wrong code is 400 INVALID_MFA_CODE',
    operation: operation`mutation CompleteMfaSetup($code: String!) { completeMfaSetup(code: $code) { ${MFA_ENABLED} } }`,
    body: codeInput,
    example: { code: '492039' },
    variables: ({ body }) => body as Record<string, unknown>,
  }),
  route({
    method: 'DELETE',
    path: '/v1/users/me/mfa',
    summary: 'Turn multi-factor sign-in off',
    description: 'Turn multi-factor sign-in off with { code } (current code or recovery code) or { recoveryCode }',
    operation: operation`mutation DisableMfa($code: String, $recoveryCode: String) { disableMfa(code: $code, recoveryCode: $recoveryCode) }`,
    body: disableInput,
    example: { recoveryCode: 'k7m2-p9qx-4tzw' },
    variables: ({ body }) => body as Record<string, unknown>,
    respond: respond.custom(
      () => ({ data: { disabled: true } }),
      () => ({ data: { type: 'object', properties: { disabled: { type: 'boolean', const: true } }, required: ['disabled'] } }),
    ),
  }),
  route<Record<string, string>, z.output<typeof complianceQuery>>({
    method: 'GET',
    path: '/v1/users/mfa/compliance',
    summary: 'Get multi-factor compliance',
    description: "Which of the team's active members have multi-factor sign-in: data { totals, members }, paged by limit/offset; mfaEnabled filters (TEAM_ADMIN_USERS view)",
    operation: operation`query MfaCompliance($limit: Int, $offset: Int, $mfaEnabled: Boolean) {
      mfaCompliance(limit: $limit, offset: $offset, mfaEnabled: $mfaEnabled) { ${MFA_COMPLIANCE} } }`,
    query: complianceQuery,
    variables: ({ query }) => query,
    respond: respond.custom(
      (c: { totals: unknown; nodes: unknown[]; pagination: unknown }) => ({ data: { totals: c.totals, members: c.nodes }, meta: { pagination: c.pagination } }),
      (field) => ({
        data: {
          type: 'object',
          properties: { totals: respond.property(field, 'totals'), members: respond.property(field, 'nodes') },
          required: ['totals', 'members'],
        },
        meta: { type: 'object', properties: { pagination: respond.property(field, 'pagination') }, required: ['pagination'] },
      }),
    ),
  }),
  actOn({
    method: 'POST',
    path: '/v1/users/mfa/reset/{teamUserLinkSimplyId}',
    summary: "Reset a member's multi-factor sign-in",
    description: "Remove a member's multi-factor sign-in (Team Admins, signed-in users only); another team's membership is 404",
    name: 'ResetMemberMfa',
    select: MFA_RESET,
  }),
]);
