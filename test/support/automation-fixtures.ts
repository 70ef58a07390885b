// What the automation tests share: a server on a database of the calling file's own, running
// jobs (outbox dispatch and automation executions) with short polling, and the REST calls and
// waits of one team's API key. The outbox and the pg-boss queues are global to a database: on the
// shared one, another file's worker could dispatch (or run) this file's work and stop halfway
// when that file ends; here every job is this file's.
import { inject } from 'vitest';
import type { Env } from '../../src/app/config.ts';
import { applyPendingMigrations } from '../../src/db/schema-engine/migrations.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../db/helpers.ts';
import { expectOk } from './expect-envelope.ts';
import { startTestServer, type TestResponse, type TestServer } from './server.ts';
import { untilWith } from './until.ts';

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

/** Executions run through the outbox and the job queue: long enough for a loaded machine. */
export const until = untilWith({ timeoutMs: 15_000, everyMs: 100 });

const RUNNING = ['QUEUED', 'RUNNING'];

/**
 * REST calls as one credential. The server and the token are read at call time (both are set in
 * the file's beforeAll), so a file can build its helpers at the top.
 */
export function automationApi(server: () => TestServer, token: () => string) {
  const call = (method: string, path: string, body?: unknown, as = token(), teamId?: string): Promise<TestResponse> =>
    server().request(method, path, { token: as, body, teamId });

  async function createAutomation(body: Record<string, unknown>, as = token()): Promise<any> {
    return expectOk(await call('POST', '/v1/automations', body, as), 201);
  }

  async function createRecord(collection: string, fields: Record<string, unknown>): Promise<string> {
    return expectOk(await call('POST', '/v1/data-records', { dataCollectionSimplyId: collection, fields }), 201).id;
  }

  async function record(id: string): Promise<any> {
    return expectOk(await call('GET', `/v1/data-records/${id}`));
  }

  /** the execution log, newest first (up to 100) */
  async function executions(automationId: string): Promise<any[]> {
    return expectOk(await call('GET', `/v1/automations/${automationId}/executions?limit=100`));
  }

  /** waits until the automation has `count` finished executions; returns them newest first */
  async function finished(automationId: string, count = 1): Promise<any[]> {
    return until(`${count} finished execution(s) of ${automationId}`, async () => {
      const done = (await executions(automationId)).filter((e) => !RUNNING.includes(e.status));
      return done.length >= count ? done : null;
    });
  }

  async function disable(automationId: string): Promise<void> {
    expectOk(await call('PUT', `/v1/automations/${automationId}`, { isEnabled: false }));
  }

  return { call, createAutomation, createRecord, record, executions, finished, disable };
}
