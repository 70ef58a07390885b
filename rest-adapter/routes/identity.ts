// /v1/auth → src/modules/identity/identity.schema.ts (the built-in first-party identity provider)
import { z } from 'zod';
import { loginFields, loginMfaInput, refreshTokenBody } from '../../src/modules/identity/identity.input.ts';
import { AUTH_SESSION } from '../../src/modules/identity/identity.fragments.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, respond, route, type RouteExtension } from '../route.ts';

const FIRST_PARTY_SIGN_IN = 'the first-party sign-in (email and password, JWT + refresh token), which the route checklist leaves open (docs/api/authentication.md)';

/** Served routes the documents do not list, each with why it exists (OpenAPI `x-extension`). */
const EXTENSIONS: Record<string, RouteExtension> = {
  'POST /v1/auth/login': { reason: FIRST_PARTY_SIGN_IN, public: true },
  'POST /v1/auth/login/mfa': { reason: `second step (TOTP code or recovery code) of ${FIRST_PARTY_SIGN_IN}`, public: true },
  'POST /v1/auth/refresh': { reason: `refresh of ${FIRST_PARTY_SIGN_IN}`, public: true },
  'POST /v1/auth/logout': { reason: `sign-out of ${FIRST_PARTY_SIGN_IN}`, public: true },
};

export const authRoutes = defineRoutes([
  route({
    method: 'POST',
    path: '/v1/auth/login',
    summary: 'Sign in',
    description: 'Sign in with email and password: a 1-hour access token (JWT) and a refresh token, or (multi-factor sign-in enabled) mfaRequired and a challenge for /v1/auth/login/mfa',
    operation: operation`mutation Login($email: String!, $password: String!, $platform: String, $deviceName: String) {
      login(email: $email, password: $password, platform: $platform, deviceName: $deviceName) { ${AUTH_SESSION} } }`,
    // other fields of the body are ignored
    body: z.object(loginFields),
    example: { email: 'ada@example.org', password: 'correct horse battery staple', platform: 'web', deviceName: 'Firefox on Linux' },
    variables: ({ body }) => body,
  }),
  route({
    method: 'POST',
    path: '/v1/auth/login/mfa',
    summary: 'Complete a multi-factor sign-in',
    description: 'Second sign-in step: { mfaChallengeToken, code } or { mfaChallengeToken, recoveryCode } → the access token and refresh token',
    operation: operation`mutation CompleteMfaLogin($mfaChallengeToken: String!, $code: String, $recoveryCode: String) {
      completeMfaLogin(mfaChallengeToken: $mfaChallengeToken, code: $code, recoveryCode: $recoveryCode) { ${AUTH_SESSION} } }`,
    body: loginMfaInput,
    example: { mfaChallengeToken: 'svc_mfa_3q2-7wEfT9xKcL0bN4mR8sV1yZ6uA5dHk2Pq', code: '492039' },
    variables: ({ body }) => body as Record<string, unknown>,
  }),
  route({
    method: 'POST',
    path: '/v1/auth/refresh',
    summary: 'Refresh an access token',
    description: 'Exchange a refresh token (single use) for a new access token and refresh token',
    operation: operation`mutation Refresh($refreshToken: String!) { refreshAccessToken(refreshToken: $refreshToken) { ${AUTH_SESSION} } }`,
    body: refreshTokenBody,
    example: { refreshToken: 'svc_refresh_Pb7xN3kQ9vR2mT6wY8zL4cF1hJ5dG0sA3eK7uV9qW2e' },
    variables: ({ body }) => body,
  }),
  route({
    method: 'POST',
    path: '/v1/auth/logout',
    summary: 'Sign out',
    description: 'End the sign-in session of a refresh token',
    operation: operation`mutation Logout($refreshToken: String!) { logout(refreshToken: $refreshToken) }`,
    body: refreshTokenBody,
    example: { refreshToken: 'svc_refresh_Pb7xN3kQ9vR2mT6wY8zL4cF1hJ5dG0sA3eK7uV9qW2e' },
    variables: ({ body }) => body,
    respond: respond.custom(
      () => ({ data: { loggedOut: true } }),
      () => ({ data: { type: 'object', properties: { loggedOut: { type: 'boolean', const: true } }, required: ['loggedOut'] } }),
    ),
  }),
], EXTENSIONS);
