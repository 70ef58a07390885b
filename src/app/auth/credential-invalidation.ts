// Cross-instance credential cache invalidation over PostgreSQL NOTIFY.
import type { Authenticator } from './authenticator.ts';
import type { PgNotifier } from '../pubsub/pg-notifier.ts';

export const CREDENTIALS_CHANNEL = 'svc_credentials';

/** The NOTIFY payload naming what to drop; sent inside a transaction by team-write.ts, or after one here. */
export function invalidationPayload(tags: { teamId?: bigint | null; userId?: bigint | null }): string {
  return JSON.stringify({ teamId: tags.teamId == null ? null : String(tags.teamId), userId: tags.userId == null ? null : String(tags.userId) });
}

export async function listenForCredentialInvalidation(notifier: PgNotifier, authenticator: Authenticator): Promise<void> {
  notifier.onReconnect(() => authenticator.cache.clear());
  await notifier.listen(CREDENTIALS_CHANNEL, (raw) => {
    const { teamId, userId } = JSON.parse(raw) as { teamId: string | null; userId: string | null };
    authenticator.cache.invalidate({
      teamId: teamId === null ? null : BigInt(teamId),
      userId: userId === null ? null : BigInt(userId),
    });
  });
}

export async function publishCredentialInvalidation(
  notifier: PgNotifier,
  authenticator: Authenticator,
  tags: { teamId?: bigint | null; userId?: bigint | null },
): Promise<void> {
  authenticator.cache.invalidate(tags);
  await notifier.notify(CREDENTIALS_CHANNEL, invalidationPayload(tags));
}
