// The public API of the oauth area: all another area may import from it (test/app/module-structure.test.ts).
// The OAuth authorization server (oidc-provider, served on the platform's port) over its PostgreSQL storage, and its clients.
export { pruneExpiredOAuthState } from './oauth-prune.ts';
export { type OAuthStorageDeps, oauthStorage, oauthStorageFor } from './oauth-storage.ts';
export type { OAuthDb } from './oauth-db.ts';
export { OAUTH_CLIENT_ALLOWANCES, type OAuthClientAllowance, type OAuthClientView, oauthClients, oauthClientsFor, type RegisterClientInput, type RegisteredClient } from './oauth-clients.service.ts';
export { createOAuthProvider, OAUTH_RESOURCES, OAUTH_ROUTES, type OAuthProviderOptions } from './oauth-provider.ts';
