// Every schema change (collections, fields, views; later wizards and automations) goes through
// here: one transaction that makes the change, records a new TeamSchemaVersion with the full
// export as its snapshot, and NOTIFYs every instance to drop its cached TeamSchema on commit.
// Versions of a team are serialized by a transaction-level advisory lock on the team.
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { SCHEMA_CHANNEL } from '../collections/schema-cache.ts';
import { exportTeamSchema } from './schema-export.ts';
import { runTransaction, type Tx } from '../../db/transaction.ts';

// an arbitrary constant that namespaces the advisory locks of schema versions
const SCHEMA_LOCK_NAMESPACE = 73_021;

export async function schemaWrite<T>(ctx: RequestContext, summary: string | ((result: T) => string), work: (tx: Tx) => Promise<T>): Promise<T> {
  const team = requireTeam(ctx);
  const result = await runTransaction(ctx.services.prisma, async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK_NAMESPACE}::int, hashtext(${String(team.id)}))`;
    const value = await work(tx);
    const snapshot = await exportTeamSchema(tx, team.id);
    const last = await tx.teamSchemaVersion.findFirst({ where: { teamId: team.id }, orderBy: { version: 'desc' }, select: { version: true } });
    await tx.teamSchemaVersion.create({
      data: {
        teamId: team.id,
        version: (last?.version ?? 0) + 1,
        snapshot: snapshot as never,
        summary: typeof summary === 'function' ? summary(value) : summary,
        actorKind: ctx.principal.kind,
        actorId: ctx.principal.credentialId,
      },
    });
    await tx.$executeRaw`SELECT pg_notify(${SCHEMA_CHANNEL}, ${String(team.id)})`;
    return value;
  });
  ctx.services.schemas.invalidate(team.id);
  return result;
}
