// /v1/api-keys and /v1/session-tokens → src/modules/credentials/{api-keys,session-tokens}.schema.ts
import { z } from 'zod';
import { createApiKeyInput, updateApiKeyInput } from '../../src/modules/credentials/api-keys.input.ts';
import { API_KEY, ISSUED_API_KEY, ISSUED_SESSION_TOKEN, SESSION_TOKEN } from '../../src/modules/credentials/credentials.fragments.ts';
import { createSessionTokenInput } from '../../src/modules/credentials/session-tokens.input.ts';
import { operation, PAGINATION } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, respond, route, type JsonSchema, type Responder } from '../route.ts';
import { pageQuery } from '../schemas.ts';

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

/** Revocations whose operation answers a boolean: data `{ id: <path param>, revoked: true }` (the revoked-sibling of respond.deleted) */
const revoked = (param: string): Responder =>
  respond.custom(
    (_value, input) => ({ data: { id: (input.params as Record<string, string>)[param], revoked: true } }),
    () => ({
      data: { type: 'object', properties: { id: { type: 'string' }, revoked: { type: 'boolean', const: true } }, required: ['id', 'revoked'] },
    }),
  );

export const credentialRoutes = defineRoutes([
  route({
    method: 'POST',
    path: '/v1/api-keys',
    summary: 'Create an API key; the full key is in this response only (TEAM_ADMIN_API_KEYS edit)',
    operation: operation`mutation CreateApiKey($input: CreateApiKeyInput!) { createApiKey(input: $input) { ${ISSUED_API_KEY} } }`,
    body: createApiKeyInput,
    variables: ({ body }) => ({ input: body }),
    respond: withSecret,
    status: 201,
  }),
  route({
    method: 'GET',
    path: '/v1/api-keys',
    summary: 'List active API keys (TEAM_ADMIN_API_KEYS view)',
    operation: operation`query ApiKeys($limit: Int, $offset: Int) { apiKeys(limit: $limit, offset: $offset) { nodes { ${API_KEY} } pagination { ${PAGINATION} } } }`,
    query: pageQuery,
    variables: ({ query }) => query,
    respond: respond.page,
  }),
  route({
    method: 'GET',
    path: '/v1/api-keys/{apiKeySimplyId}',
    summary: 'Get an API key (never its secret)',
    operation: operation`query ApiKey($id: String!) { apiKey(apiKeySimplyId: $id) { ${API_KEY} } }`,
    variables: ({ params }) => ({ id: params.apiKeySimplyId }),
  }),
  route({
    method: 'PATCH',
    path: '/v1/api-keys/{apiKeySimplyId}',
    summary: 'Change name, role, feature permissions, IP allowlist or expiry',
    operation: operation`mutation UpdateApiKey($id: String!, $input: UpdateApiKeyInput!) { updateApiKey(apiKeySimplyId: $id, input: $input) { ${API_KEY} } }`,
    body: updateApiKeyInput,
    variables: ({ params, body }) => ({ id: params.apiKeySimplyId, input: body }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/api-keys/{apiKeySimplyId}',
    summary: 'Revoke an API key and the session tokens it minted',
    operation: operation`mutation RevokeApiKey($id: String!) { revokeApiKey(apiKeySimplyId: $id) }`,
    variables: ({ params }) => ({ id: params.apiKeySimplyId }),
    respond: revoked('apiKeySimplyId'),
  }),
  route({
    method: 'POST',
    path: '/v1/api-keys/{apiKeySimplyId}/rotate',
    summary: 'Replace the secret (same id); the old secret and its session tokens stop working at once',
    operation: operation`mutation RotateApiKey($id: String!) { rotateApiKey(apiKeySimplyId: $id) { ${ISSUED_API_KEY} } }`,
    // rotation takes no input: a body, if any, is ignored
    body: z.unknown(),
    variables: ({ params }) => ({ id: params.apiKeySimplyId }),
    respond: withSecret,
  }),
  route({
    method: 'POST',
    path: '/v1/session-tokens',
    summary: 'Mint a session token with an API key (narrowing only); the token is in this response only',
    operation: operation`mutation CreateSessionToken($input: CreateSessionTokenInput) { createSessionToken(input: $input) { ${ISSUED_SESSION_TOKEN} } }`,
    // no body (or null) is the same as {}
    body: createSessionTokenInput.nullish(),
    variables: ({ body }) => ({ input: body ?? {} }),
    status: 201,
  }),
  route({
    method: 'GET',
    path: '/v1/session-tokens/{sessionTokenId}',
    summary: 'Inspect a session token (never the token value)',
    operation: operation`query SessionToken($id: String!) { sessionToken(sessionTokenId: $id) { ${SESSION_TOKEN} } }`,
    variables: ({ params }) => ({ id: params.sessionTokenId }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/session-tokens/{sessionTokenId}',
    summary: 'Revoke a session token (by its sess_ id)',
    operation: operation`mutation RevokeSessionToken($id: String!) { revokeSessionToken(sessionTokenId: $id) }`,
    variables: ({ params }) => ({ id: params.sessionTokenId }),
    respond: revoked('sessionTokenId'),
  }),
]);
