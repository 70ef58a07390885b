// /v1/auth → src/identity/login.schema.ts (the built-in first-party identity provider)
import { bodyObject, defineRoutes } from '../legacy-route.ts';

const SESSION = `accessToken tokenType expiresAt expiresIn refreshToken refreshTokenExpiresAt user { id userSimplyId email firstName lastName isSystemAdmin teams { teamSimplyId name isTeamAdmin } }`;

export const authRoutes = defineRoutes([
  {
    method: 'POST',
    path: '/v1/auth/login',
    summary: 'Sign in with email and password: a 1-hour access token (JWT) and a refresh token',
    operation: `mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { ${SESSION} } }`,
    body: 'required',
    variables: (req) => {
      const body = bodyObject(req);
      return { email: body.email, password: body.password };
    },
  },
  {
    method: 'POST',
    path: '/v1/auth/refresh',
    summary: 'Exchange a refresh token (single use) for a new access token and refresh token',
    operation: `mutation Refresh($refreshToken: String!) { refreshAccessToken(refreshToken: $refreshToken) { ${SESSION} } }`,
    body: 'required',
    variables: (req) => ({ refreshToken: bodyObject(req).refreshToken }),
  },
  {
    method: 'POST',
    path: '/v1/auth/logout',
    summary: 'End the sign-in session of a refresh token',
    operation: `mutation Logout($refreshToken: String!) { logout(refreshToken: $refreshToken) }`,
    body: 'required',
    variables: (req) => ({ refreshToken: bodyObject(req).refreshToken }),
    respond: () => ({ data: { loggedOut: true } }),
  },
]);
