// The public API of the oauth area: all another area may import from it (test/app/module-structure.test.ts).
// The PostgreSQL storage of the oidc-provider authorization server, which is not mounted yet.
export { pruneExpiredOAuthState } from './oauth-prune.ts';
export { type OAuthStorageDeps, oauthStorage, oauthStorageFor } from './oauth-storage.ts';
export type { OAuthDb } from './oauth-db.ts';
