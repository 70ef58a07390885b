// What the automation tests share: a server on a database of the calling file's own, running
// jobs (outbox dispatch and automation executions) with short polling, and the REST calls and
// waits of one team's API key. The outbox and the pg-boss queues are global to a database: on the
// shared one, another file's worker could dispatch (or run) this file's work and stop halfway
// when that file ends; here every job is this file's.
import type { Env } from '../../src/app/config.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { expectOk } from './expect-envelope.ts';
import { createMigratedDatabase } from './migrated-database.ts';
import { createRecord, readRecord } from './record-fixtures.ts';
import { startTestServer, type TestResponse, type TestServer } from './server.ts';
import { untilWith } from './until.ts';

export interface AutomationTestServer extends TestServer {
  database: ThrowawayDatabase;
}

export async function startAutomationServer(options: { env?: Partial<Env>; runJobs?: boolean } = {}): Promise<AutomationTestServer> {
  const database = await createMigratedDatabase('automations');
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

  /** an automation running `actions` for each record created in the collection; `more`: its other settings */
  function onRecordCreated(collection: string, name: string, actions: unknown[], more: Record<string, unknown> = {}): Promise<any> {
    return createAutomation({ name, triggerType: 'RECORD_CREATED', dataCollectionSimplyId: collection, actions, ...more });
  }

  /** creates a record; returns its id */
  async function createRecordIn(collection: string, fields: Record<string, unknown>): Promise<string> {
    return (await createRecord(server(), token(), collection, fields)).id;
  }

  const record = (id: string): Promise<any> => readRecord(server(), token(), id);

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

  /** switches automations off, so that a later test's writes do not run them */
  async function disable(...automationIds: string[]): Promise<void> {
    for (const id of automationIds) expectOk(await call('PUT', `/v1/automations/${id}`, { isEnabled: false }));
  }

  return { call, createAutomation, onRecordCreated, createRecord: createRecordIn, record, executions, finished, disable };
}

/** the UPDATE_FIELDS action writing `fields` (field simplyId → value) */
export const updateFields = (fields: Record<string, unknown>) => ({ actionType: 'UPDATE_FIELDS', actionConfig: { fields } });
