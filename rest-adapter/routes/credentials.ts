// /v1/api-keys and /v1/session-tokens → src/modules/credentials/{api-keys,session-tokens}.schema.ts
import { z } from 'zod';
import { createApiKeyInput, updateApiKeyInput } from '../../src/modules/credentials/api-keys.input.ts';
import { API_KEY, ISSUED_API_KEY, ISSUED_SESSION_TOKEN, SESSION_TOKEN } from '../../src/modules/credentials/credentials.fragments.ts';
import { createSessionTokenInput } from '../../src/modules/credentials/session-tokens.input.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, respond, route, type JsonSchema, type RouteExtension } from '../route.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../route-shapes.ts';

/** `{ fullApiKey, apiKey }` → data: the key with `fullApiKey` beside its fields */
const withSecret = respond.custom<{ fullApiKey: string; apiKey: Record<string, unknown> }>(
  (issued) => ({ data: { ...issued.apiKey, fullApiKey: issued.fullApiKey } }),
  (field) => {
    const key = respond.property(field, 'apiKey');
    return {
      data: {
        ...key,
        properties: { ...(key.properties as Record<string, JsonSchema> | undefined), fullApiKey: respond.property(field, 'fullApiKey') },
        required: [...((key.required as string[] | undefined) ?? []), 'fullApiKey'],
      },
    };
  },
);

const KEY = '/v1/api-keys/{apiKeySimplyId}';
const TOKEN = '/v1/session-tokens/{sessionTokenId}';

const API_KEY_ADMIN = 'API key administration beyond create and rotate (the only API key routes of the route checklist): list, inspect, change, revoke';

/** Served routes the documents do not list, each with why it exists (OpenAPI `x-extension`). */
const EXTENSIONS: Record<string, RouteExtension> = {
  'GET /v1/api-keys': { reason: API_KEY_ADMIN },
  'GET /v1/api-keys/{apiKeySimplyId}': { reason: API_KEY_ADMIN },
  'PATCH /v1/api-keys/{apiKeySimplyId}': { reason: API_KEY_ADMIN },
  'DELETE /v1/api-keys/{apiKeySimplyId}': { reason: API_KEY_ADMIN },
};

export const credentialRoutes = defineRoutes([
  createOne({
    path: '/v1/api-keys',
    summary: 'Create an API key',
    description: 'Create an API key; the full key is in this response only (TEAM_ADMIN_API_KEYS edit)',
    name: 'CreateApiKey',
    inputType: 'CreateApiKeyInput',
    body: createApiKeyInput,
    example: {
      name: 'CRM sync',
      teamRoleSimplyId: 'role-AB23-CD45-EF67',
      featurePermissions: ['OUTGOING_MESSAGES_VIEW', 'DATA_EXPORT:VIEW'],
      allowedIpAddresses: ['203.0.113.0/24'],
      expiresAt: '2030-01-31T12:00:00Z',
    },
    select: ISSUED_API_KEY,
    respond: withSecret,
  }),
  listPage({ path: '/v1/api-keys', summary: 'List API keys', description: 'List active API keys (TEAM_ADMIN_API_KEYS view)', name: 'ApiKeys', select: API_KEY }),
  getOne({ path: KEY, summary: 'Get an API key', description: 'Get an API key (never its secret)', name: 'ApiKey', select: API_KEY }),
  updateOne({
    method: 'PATCH',
    path: KEY,
    summary: 'Update an API key',
    description: 'Change name, role, feature permissions, IP allowlist or expiry',
    name: 'UpdateApiKey',
    inputType: 'UpdateApiKeyInput',
    body: updateApiKeyInput,
    example: { name: 'CRM sync (production)', allowedIpAddresses: ['203.0.113.0/24', '2001:db8::/32'] },
    select: API_KEY,
  }),
  actOn({ method: 'DELETE', path: KEY, summary: 'Revoke an API key', description: 'Revoke an API key and the session tokens it minted', name: 'RevokeApiKey', respond: respond.deleted('apiKeySimplyId', 'revoked') }),
  actOn({
    method: 'POST',
    path: `${KEY}/rotate`,
    summary: 'Rotate an API key',
    description: 'Replace the secret (same id); the old secret and its session tokens stop working at once',
    name: 'RotateApiKey',
    select: ISSUED_API_KEY,
    respond: withSecret,
    // rotation takes no input, yet a body sent with it has always been ignored rather than refused
    body: z.unknown(),
  }),
  // the input is optional (no body or null is the same as {}), which no shape says
  route({
    method: 'POST',
    path: '/v1/session-tokens',
    summary: 'Create a session token',
    description: 'Mint a session token with an API key (narrowing only); the token is in this response only',
    operation: operation`mutation CreateSessionToken($input: CreateSessionTokenInput) { createSessionToken(input: $input) { ${ISSUED_SESSION_TOKEN} } }`,
    body: createSessionTokenInput.nullish(),
    example: { expiresInMinutes: 30, oauthScopes: ['records:read', 'records:write'], metadata: { purpose: 'kiosk sign-up form' } },
    variables: ({ body }) => ({ input: body ?? {} }),
    status: 201,
  }),
  getOne({ path: TOKEN, summary: 'Get a session token', description: 'Inspect a session token (never the token value)', name: 'SessionToken', select: SESSION_TOKEN }),
  actOn({ method: 'DELETE', path: TOKEN, summary: 'Revoke a session token', description: 'Revoke a session token (by its sess_ id)', name: 'RevokeSessionToken', respond: respond.deleted('sessionTokenId', 'revoked') }),
], EXTENSIONS);
