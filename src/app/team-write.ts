// Writes that change who may do what in a team share one shape: a transaction that also
// queues (with pg_notify, delivered only on commit) the credential-cache invalidation for
// every instance and the team's realtime event; then the local cache is dropped at once.
import { runTransaction, type Tx } from './transaction.ts';
import type { TeamEvent } from './pubsub/event-bus.ts';
import { CREDENTIALS_CHANNEL, invalidationPayload } from './auth/credential-invalidation.ts';
import type { RequestContext } from './context.ts';

export interface TeamWriteOptions {
  team: { id: bigint; simplyId: string };
  event: { type: string; resourceType: string; resourceId: (result: unknown) => string };
  /** also drop cached principals of this user (e.g. membership change) */
  userId?: bigint | null;
}

export async function teamWrite<T>(ctx: RequestContext, options: TeamWriteOptions, work: (tx: Tx) => Promise<T>): Promise<T> {
  const { prisma, events } = ctx.services;
  const result = await runTransaction(prisma, async (tx) => {
    const value = await work(tx);
    const event: TeamEvent = {
      type: options.event.type,
      resourceType: options.event.resourceType,
      resourceId: options.event.resourceId(value),
      occurredAt: new Date().toISOString(),
      actor: { kind: ctx.principal.kind, id: ctx.principal.credentialId },
    };
    const note = events.notification('teamEvents', options.team.simplyId, event);
    const invalidation = invalidationPayload({ teamId: options.team.id, userId: options.userId });
    await tx.$executeRaw`SELECT pg_notify(${CREDENTIALS_CHANNEL}, ${invalidation}), pg_notify(${note.channel}, ${note.payload})`;
    return value;
  });
  ctx.services.authenticator.cache.invalidate({ teamId: options.team.id, userId: options.userId ?? null });
  return result;
}

