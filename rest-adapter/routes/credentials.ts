// /v1/api-keys and /v1/session-tokens → src/credentials/*.schema.ts
import { bodyObject, defineRoutes, pageVariables, respondPage, type RestResult } from '../legacy-route.ts';

const KEY = `id apiKeySimplyId name keyHint teamRoleSimplyId featurePermissions allowedIpAddresses expiresAt expired lastRotatedAt createdAt updatedAt`;
const SESSION = `id expiresAt expired revoked featurePermissions oauthScopes metadata createdAt`;

const withSecret = (issued: { fullApiKey: string; apiKey: Record<string, unknown> }): RestResult => ({
  data: { ...issued.apiKey, fullApiKey: issued.fullApiKey },
});

export const credentialRoutes = defineRoutes([
  {
    method: 'POST',
    path: '/v1/api-keys',
    summary: 'Create an API key; the full key is in this response only (TEAM_ADMIN_API_KEYS edit)',
    operation: `mutation CreateApiKey($input: CreateApiKeyInput!) { createApiKey(input: $input) { fullApiKey apiKey { ${KEY} } } }`,
    body: 'required',
    variables: (req) => ({ input: bodyObject(req) }),
    respond: withSecret,
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/api-keys',
    summary: 'List active API keys (TEAM_ADMIN_API_KEYS view)',
    operation: `query ApiKeys($limit: Int, $offset: Int) { apiKeys(limit: $limit, offset: $offset) { nodes { ${KEY} } pagination { total limit offset hasMore } } }`,
    variables: pageVariables,
    respond: respondPage,
  },
  {
    method: 'GET',
    path: '/v1/api-keys/{apiKeySimplyId}',
    summary: 'Get an API key (never its secret)',
    operation: `query ApiKey($id: String!) { apiKey(apiKeySimplyId: $id) { ${KEY} } }`,
    variables: (req) => ({ id: req.params.apiKeySimplyId }),
  },
  {
    method: 'PATCH',
    path: '/v1/api-keys/{apiKeySimplyId}',
    summary: 'Change name, role, feature permissions, IP allowlist or expiry',
    operation: `mutation UpdateApiKey($id: String!, $input: UpdateApiKeyInput!) { updateApiKey(apiKeySimplyId: $id, input: $input) { ${KEY} } }`,
    body: 'required',
    variables: (req) => ({ id: req.params.apiKeySimplyId, input: bodyObject(req) }),
  },
  {
    method: 'DELETE',
    path: '/v1/api-keys/{apiKeySimplyId}',
    summary: 'Revoke an API key and the session tokens it minted',
    operation: `mutation RevokeApiKey($id: String!) { revokeApiKey(apiKeySimplyId: $id) }`,
    variables: (req) => ({ id: req.params.apiKeySimplyId }),
    respond: (_r, req) => ({ data: { id: req.params.apiKeySimplyId, revoked: true } }),
  },
  {
    method: 'POST',
    path: '/v1/api-keys/{apiKeySimplyId}/rotate',
    summary: 'Replace the secret (same id); the old secret and its session tokens stop working at once',
    operation: `mutation RotateApiKey($id: String!) { rotateApiKey(apiKeySimplyId: $id) { fullApiKey apiKey { ${KEY} } } }`,
    body: 'optional',
    variables: (req) => ({ id: req.params.apiKeySimplyId }),
    respond: withSecret,
  },
  {
    method: 'POST',
    path: '/v1/session-tokens',
    summary: 'Mint a session token with an API key (narrowing only); the token is in this response only',
    operation: `mutation CreateSessionToken($input: CreateSessionTokenInput) { createSessionToken(input: $input) { token id expiresAt featurePermissions oauthScopes metadata createdAt } }`,
    body: 'optional',
    variables: (req) => ({ input: bodyObject(req) }),
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/session-tokens/{sessionTokenId}',
    summary: 'Inspect a session token (never the token value)',
    operation: `query SessionToken($id: String!) { sessionToken(sessionTokenId: $id) { ${SESSION} } }`,
    variables: (req) => ({ id: req.params.sessionTokenId }),
  },
  {
    method: 'DELETE',
    path: '/v1/session-tokens/{sessionTokenId}',
    summary: 'Revoke a session token (by its sess_ id)',
    operation: `mutation RevokeSessionToken($id: String!) { revokeSessionToken(sessionTokenId: $id) }`,
    variables: (req) => ({ id: req.params.sessionTokenId }),
    respond: (_r, req) => ({ data: { id: req.params.sessionTokenId, revoked: true } }),
  },
]);
