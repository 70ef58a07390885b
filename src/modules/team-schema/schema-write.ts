// Every schema change (collections, fields, views; later wizards and automations) goes through
// here: one transaction that makes the change, records a new TeamSchemaVersion with the full
// export as its snapshot, and NOTIFYs every instance to drop its cached TeamSchema on commit.
// Versions of a team are serialized by a transaction-level advisory lock on the team.
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { SCHEMA_CHANNEL } from '../../kernel/index.ts';
import { exportTeamSchema } from './schema-export.ts';
import { advisoryLock } from '../../db/advisory-locks.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';

export async function schemaWrite<T>(ctx: RequestContext, summary: string | ((result: T) => string), work: (tx: Tx) => Promise<T>): Promise<T> {
  const team = requireTeam(ctx);
  const result = await runTransaction(ctx.services.prisma, async (tx) => {
    const lock = advisoryLock('schemaVersions', String(team.id));
    await tx.$executeRawUnsafe(lock.text, ...lock.values);
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
