// The public API of the oauth area: all another area may import from it (test/app/module-structure.test.ts).
// The OAuth authorization server (oidc-provider) over its PostgreSQL storage, and its clients; not mounted yet.
export { pruneExpiredOAuthState } from './oauth-prune.ts';
export { type OAuthStorageDeps, oauthStorage, oauthStorageFor } from './oauth-storage.ts';
export type { OAuthDb } from './oauth-db.ts';
export { OAUTH_CLIENT_ALLOWANCES, type OAuthClientAllowance, type OAuthClientView, oauthClients, type RegisterClientInput, type RegisteredClient } from './oauth-clients.service.ts';
export { createOAuthProvider, OAUTH_RESOURCES, OAUTH_ROUTES, type OAuthProviderOptions } from './oauth-provider.ts';
