// Cross-instance credential cache invalidation over PostgreSQL NOTIFY.
import type { Authenticator } from './authenticator.ts';
import type { PgNotifier } from '../pubsub/pg-notifier.ts';

export const CREDENTIALS_CHANNEL = 'svc_credentials';

/** What to drop: a team's credentials, a user's, or (`everything`, e.g. an OAuth client revoked) all of them. */
export interface InvalidationTags {
  teamId?: bigint | null;
  userId?: bigint | null;
  everything?: boolean;
}

/** The NOTIFY payload naming what to drop; sent inside a transaction by team-write.ts, or after one here. */
export function invalidationPayload(tags: InvalidationTags): string {
  return JSON.stringify({
    teamId: tags.teamId == null ? null : String(tags.teamId),
    userId: tags.userId == null ? null : String(tags.userId),
    ...(tags.everything ? { everything: true } : {}),
  });
}

function drop(authenticator: Authenticator, tags: InvalidationTags): void {
  if (tags.everything) authenticator.cache.clear();
  else authenticator.cache.invalidate(tags);
}

export async function listenForCredentialInvalidation(notifier: PgNotifier, authenticator: Authenticator): Promise<void> {
  notifier.onReconnect(() => authenticator.cache.clear());
  await notifier.listen(CREDENTIALS_CHANNEL, (raw) => {
    const { teamId, userId, everything } = JSON.parse(raw) as { teamId: string | null; userId: string | null; everything?: boolean };
    drop(authenticator, {
      teamId: teamId === null ? null : BigInt(teamId),
      userId: userId === null ? null : BigInt(userId),
      everything: everything === true,
    });
  });
}

export async function publishCredentialInvalidation(
  notifier: PgNotifier,
  authenticator: Authenticator,
  tags: InvalidationTags,
): Promise<void> {
  drop(authenticator, tags);
  await notifier.notify(CREDENTIALS_CHANNEL, invalidationPayload(tags));
}
