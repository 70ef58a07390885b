// A test server on a database of the calling file's own, running jobs (outbox dispatch and
// automation executions) with short polling. The outbox and the pg-boss queues are global to a
// database: on the shared one, another file's worker could dispatch (or run) this file's work
// and stop halfway when that file ends; here every job is this file's.
import { inject } from 'vitest';
import type { Env } from '../../src/app/config.ts';
import { applyPendingMigrations } from '../../src/db/schema-engine/migrations.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../db/helpers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

export interface AutomationTestServer extends TestServer {
  database: ThrowawayDatabase;
}

export async function startAutomationServer(options: { env?: Partial<Env>; runJobs?: boolean } = {}): Promise<AutomationTestServer> {
  const database = await createThrowawayDatabase(inject('databaseUrl'), 'automations');
  await applyPendingMigrations({ databaseUrl: database.url });
  const server = await startTestServer({ databaseUrl: database.url, runJobs: options.runJobs ?? true, env: { SHUTDOWN_TIMEOUT_MS: 5000, ...options.env } });
  return {
    ...server,
    database,
    close: async () => {
      await server.close();
      await database.drop();
    },
  };
}
