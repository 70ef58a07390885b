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
    summary: 'Send a constituent sign-in code',
    description: 'Mail a sign-in code or magic link to a constituent (public): { teamSimplyId, contactValue (email), method CODE|LINK } → { verificationSimplyId, expiresAt }, the same whether or not the address matched; 5 per 15 minutes per address',
    operation: operation`mutation InitiateConstituentAuth($input: InitiateConstituentAuthInput!) { initiateConstituentAuth(input: $input) { ${CONSTITUENT_VERIFICATION} } }`,
    body: initiateInput,
    example: { teamSimplyId: 'tm-AB23-CD45-EF67', contactValue: 'ada@example.org', method: 'CODE' },
    variables: ({ body }) => ({ input: body }),
  }),
  route({
    method: 'POST',
    path: `${BASE}/verify`,
    summary: 'Verify a constituent sign-in',
    description: 'Exchange a verification for tokens (public): { verificationSimplyId, code (CODE) | token (LINK), platform?, deviceName? }; 5 wrong codes invalidate it; 10 per 15 minutes per address',
    operation: operation`mutation VerifyConstituentAuth($input: VerifyConstituentAuthInput!) { verifyConstituentAuth(input: $input) { ${CONSTITUENT_TOKENS} } }`,
    body: verifyInput,
    example: { verificationSimplyId: 'cvf-AB23-CD45-EF67', code: '831406', platform: 'ios', deviceName: "Ada's iPhone" },
    variables: ({ body }) => ({ input: body }),
  }),
  route({
    method: 'GET',
    path: `${BASE}/verify`,
    summary: 'Open a constituent magic link',
    description: 'The magic link (public): ?token= (single use, 2 hours), platform?, deviceName? → the tokens',
    operation: operation`mutation VerifyConstituentMagicLink($token: String!, $platform: String, $deviceName: String) {
      verifyConstituentMagicLink(token: $token, platform: $platform, deviceName: $deviceName) { ${CONSTITUENT_TOKENS} } }`,
    query: verifyLinkQuery,
    variables: ({ query }) => query,
  }),
  route({
    method: 'POST',
    path: `${BASE}/refresh`,
    summary: 'Refresh a constituent session',
    description: 'Rotate a refresh token (public): { refreshToken } → a new pair; a used refresh token ends its session; 30 per hour per token',
    operation: operation`mutation RefreshConstituentAuth($refreshToken: String!) { refreshConstituentAuth(refreshToken: $refreshToken) { ${CONSTITUENT_TOKENS} } }`,
    body: refreshInput,
    example: { refreshToken: 'svc_crt_Zk3pQ8vN2xR7tY4wL9mB6cH1dJ5fG0sA8eK3uV7nX4' },
    variables: ({ body }) => body,
  }),
  route({
    method: 'POST',
    path: `${BASE}/logout`,
    summary: 'Sign a constituent out',
    description: 'End the current session (constituent access token only)',
    operation: operation`mutation LogoutConstituent { logoutConstituent }`,
    respond: respond.custom(
      () => ({ data: { loggedOut: true } }),
      () => ({ data: { type: 'object', properties: { loggedOut: { type: 'boolean', const: true } }, required: ['loggedOut'] } }),
    ),
  }),
  route({
    method: 'GET',
    path: `${BASE}/me`,
    summary: 'Get the signed-in constituent',
    description: "The signed-in constituent's record simplyId and open sessions (constituent access token only)",
    operation: operation`query ConstituentMe { constituentMe { ${CONSTITUENT_PROFILE} } }`,
  }),
]);
