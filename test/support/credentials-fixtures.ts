// Credential helpers shared by the credential, user and identity tests: what a credential may do
// as the server sees it (the `viewer` query), minting session tokens, and the stored hash of a secret.
import { createHash } from 'node:crypto';
import { expectOk, gqlData } from './expect-envelope.ts';
import type { TestServer } from './server.ts';

/** Every field of the calling credential's PermissionSnapshot. */
export const VIEWER = `{ viewer {
  credentialKind credentialId teamSimplyId isTeamAdmin isSystemAdmin teamRoleSimplyId dataFullAccess hasDataAccess
  featurePermissions { name level } dataPermissions { dataCollectionSimplyId levels } oauthScopes expiresAt
} }`;

/** The effective permissions of `token` (which must be usable: a refusal fails the test). */
export async function viewerOf(server: TestServer, token: string, teamId?: string) {
  return gqlData(await server.graphql(VIEWER, {}, { token, teamId })).viewer;
}

/** POST /v1/session-tokens with `token` (an API key), expecting 201; returns the issued token's data. */
export async function mintSessionToken(server: TestServer, token: string, body: Record<string, unknown> = {}) {
  return expectOk(await server.request('POST', '/v1/session-tokens', { token, body }), 201);
}

/** What the database keeps of a key or token: its SHA-256, hex. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
