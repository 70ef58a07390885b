// Expired OAuthState rows are already invisible to oidc-provider (find skips them); this deletes
// them for good. A day late, so that a row expired just now is still there for whoever looks into
// a failed sign-in or a refused token. A job calls it.
import type { OAuthDb } from './oauth-db.ts';

const KEPT_AFTER_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** Deletes the rows expired more than a day ago; answers how many. */
export async function pruneExpiredOAuthState(db: OAuthDb): Promise<number> {
  const { count } = await db.oAuthState.deleteMany({ where: { expiresAt: { lt: new Date(Date.now() - KEPT_AFTER_EXPIRY_MS) } } });
  return count;
}
