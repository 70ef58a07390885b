// Writes that change who may do what in a team share one shape: a transaction that also
// queues (with pg_notify, delivered only on commit) the credential-cache invalidation for
// every instance and the team's realtime event; then the local cache is dropped at once.
import { Prisma } from '../generated/prisma/client.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { ConflictError } from '../platform/errors.ts';
import type { TeamEvent } from '../realtime/event-bus.ts';
import { CREDENTIALS_CHANNEL, invalidationPayload } from './credential-invalidation.ts';
import type { GraphQLContext } from './context.ts';

export type Tx = Prisma.TransactionClient;

export interface TeamWriteOptions {
  team: { id: bigint; simplyId: string };
  event: { type: string; resourceType: string; resourceId: (result: unknown) => string };
  /** also drop cached principals of this user (e.g. membership change) */
  userId?: bigint | null;
}

export async function teamWrite<T>(ctx: GraphQLContext, options: TeamWriteOptions, work: (tx: Tx) => Promise<T>): Promise<T> {
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

/** Unique-constraint violations become 409 CONFLICT instead of a 500. */
export async function runTransaction<T>(prisma: PrismaClient, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await prisma.$transaction(work);
  } catch (error) {
    throw translatePrismaError(error);
  }
}

export function translatePrismaError(error: unknown): unknown {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (error.code === 'P2002') return new ConflictError('A resource with the same unique value already exists');
    if (error.code === 'P2003') return new ConflictError('The resource is still referenced and cannot be changed this way');
  }
  return error;
}
