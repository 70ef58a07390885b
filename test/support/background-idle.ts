// Waits until a server that runs its workers has nothing left under way on its database: no
// domain event waiting for dispatch and no job due, queued or running. A suite comparing reads
// before and after something takes its first reads after this, so background work still
// finishing (a dispatch, a count fold, a variant render) is not taken for a change.
import type { TestServer } from './server.ts';
import { until } from './until.ts';

export async function untilBackgroundIdle(server: TestServer, timeoutMs = 20_000): Promise<void> {
  await until(
    'background work on the database to finish',
    async () => {
      const { rows } = await server.app.services.pool.query<{ busy: number }>(
        `SELECT (SELECT count(*) FROM "DomainEvent" WHERE "dispatchedAt" IS NULL)
              + (SELECT count(*) FROM pgboss.job WHERE state IN ('created', 'retry', 'active') AND start_after <= now()) AS busy`,
      );
      return Number(rows[0]!.busy) === 0;
    },
    timeoutMs,
    50,
  );
}
