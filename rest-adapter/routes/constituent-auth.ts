// /v1/constituent-auth → src/modules/constituent-auth/constituent-auth.schema.ts (docs/api/constituent-auth.md)
import { initiateInput, refreshInput, verifyInput, verifyLinkQuery } from '../../src/modules/constituent-auth/constituent-auth.input.ts';
import { CONSTITUENT_PROFILE, CONSTITUENT_TOKENS, CONSTITUENT_VERIFICATION } from '../../src/modules/constituent-auth/constituent-auth.fragments.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, respond, route } from '../route.ts';

const BASE = '/v1/constituent-auth';

export const constituentAuthRoutes = defineRoutes([
  route({
    method: 'POST',
    path: `${BASE}/initiate`,
    summary: 'Mail a sign-in code or magic link to a constituent (public): { teamSimplyId, contactValue (email), method CODE|LINK } → { verificationSimplyId, expiresAt }, the same whether or not the address matched; 5 per 15 minutes per address',
    operation: operation`mutation InitiateConstituentAuth($input: InitiateConstituentAuthInput!) { initiateConstituentAuth(input: $input) { ${CONSTITUENT_VERIFICATION} } }`,
    body: initiateInput,
    variables: ({ body }) => ({ input: body }),
  }),
  route({
    method: 'POST',
    path: `${BASE}/verify`,
    summary: 'Exchange a verification for tokens (public): { verificationSimplyId, code (CODE) | token (LINK), platform?, deviceName? }; 5 wrong codes invalidate it; 10 per 15 minutes per address',
    operation: operation`mutation VerifyConstituentAuth($input: VerifyConstituentAuthInput!) { verifyConstituentAuth(input: $input) { ${CONSTITUENT_TOKENS} } }`,
    body: verifyInput,
    variables: ({ body }) => ({ input: body }),
  }),
  route({
    method: 'GET',
    path: `${BASE}/verify`,
    summary: 'The magic link (public): ?token= (single use, 2 hours), platform?, deviceName? → the tokens',
    operation: operation`mutation VerifyConstituentMagicLink($token: String!, $platform: String, $deviceName: String) {
      verifyConstituentMagicLink(token: $token, platform: $platform, deviceName: $deviceName) { ${CONSTITUENT_TOKENS} } }`,
    query: verifyLinkQuery,
    variables: ({ query }) => query,
  }),
  route({
    method: 'POST',
    path: `${BASE}/refresh`,
    summary: 'Rotate a refresh token (public): { refreshToken } → a new pair; a used refresh token ends its session; 30 per hour per token',
    operation: operation`mutation RefreshConstituentAuth($refreshToken: String!) { refreshConstituentAuth(refreshToken: $refreshToken) { ${CONSTITUENT_TOKENS} } }`,
    body: refreshInput,
    variables: ({ body }) => body,
  }),
  route({
    method: 'POST',
    path: `${BASE}/logout`,
    summary: 'End the current session (constituent access token only)',
    operation: operation`mutation LogoutConstituent { logoutConstituent }`,
    respond: respond.custom(
      () => ({ data: { loggedOut: true } }),
      () => ({ data: { type: 'object', properties: { loggedOut: { type: 'boolean', const: true } }, required: ['loggedOut'] } }),
    ),
  }),
  route({
    method: 'GET',
    path: `${BASE}/me`,
    summary: "The signed-in constituent's record simplyId and open sessions (constituent access token only)",
    operation: operation`query ConstituentMe { constituentMe { ${CONSTITUENT_PROFILE} } }`,
  }),
]);
