// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

/** An API key as every read shows it: never its secret. */
export const API_KEY = fragment(
  'ApiKeyFields',
  'ApiKey',
  `id apiKeySimplyId name keyHint teamRoleSimplyId featurePermissions allowedIpAddresses expiresAt expired lastRotatedAt createdAt updatedAt`,
);

/** Create and rotate: the full key, shown this once, and the key. */
export const ISSUED_API_KEY = fragment('IssuedApiKeyFields', 'IssuedApiKey', selection`fullApiKey apiKey { ${API_KEY} }`);

/** Inspection of a session token: never the token value. */
export const SESSION_TOKEN = fragment('SessionTokenFields', 'SessionToken', `id expiresAt expired revoked featurePermissions oauthScopes metadata createdAt`);

/** A new session token: the token value, shown this once. */
export const ISSUED_SESSION_TOKEN = fragment(
  'IssuedSessionTokenFields',
  'IssuedSessionToken',
  `token id expiresAt featurePermissions oauthScopes metadata createdAt`,
);
