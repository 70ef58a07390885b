// A test server on a database of the calling file's own, running jobs (outbox dispatch and
// automation executions) with short polling. The outbox and the pg-boss queues are global to a
// database: on the shared one, another file's worker could dispatch (or run) this file's work
// and stop halfway when that file ends; here every job is this file's.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Agent, fetch as undiciFetch } from 'undici';
import { inject } from 'vitest';
import { loadConfig, type Env } from '../../src/config.ts';
import { applyPendingMigrations } from '../../src/db/schema-engine/migrations.ts';
import { startApp } from '../../src/platform/app.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../database/helpers.ts';
import type { GraphQLResponse, RequestOptions, TestResponse, TestServer } from '../support/server.ts';

export interface AutomationTestServer extends TestServer {
  database: ThrowawayDatabase;
}

export async function startAutomationServer(options: { env?: Partial<Env>; runJobs?: boolean } = {}): Promise<AutomationTestServer> {
  const database = await createThrowawayDatabase(inject('databaseUrl'), 'automations');
  await applyPendingMigrations({ databaseUrl: database.url });
  const dataDir = path.join(inject('testDataDir'), `automations-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const config = loadConfig({ NODE_ENV: 'test' }, { DATA_DIR: dataDir, PORT: 0, HOST: '127.0.0.1', LOG_LEVEL: 'silent', SHUTDOWN_TIMEOUT_MS: 5000, ...options.env });
  const app = await startApp({
    config,
    databaseUrl: database.url,
    migrate: false,
    runJobs: options.runJobs ?? true,
    jobPollingIntervalSeconds: 0.5,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
  });
  const dispatcher = new Agent({ connect: { ca: app.tls?.cert || undefined } });
  const request = async (method: string, urlPath: string, o: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.teamId) headers['x-team-id'] = o.teamId;
    const body = o.body === undefined ? o.rawBody : JSON.stringify(o.body);
    if (o.body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await undiciFetch(`${app.baseUrl}${urlPath}`, { method, headers, body, dispatcher });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: response.status, headers: response.headers as unknown as Headers, body: parsed, text };
  };
  return {
    app,
    database,
    baseUrl: app.baseUrl,
    ca: app.tls?.cert ?? '',
    dataDir,
    request,
    graphql: async <T,>(query: string, variables?: Record<string, unknown>, o: Omit<RequestOptions, 'body'> = {}): Promise<GraphQLResponse<T>> => {
      const response = await request('POST', '/graphql', { ...o, body: { query, variables } });
      return { status: response.status, data: response.body?.data ?? null, errors: response.body?.errors };
    },
    close: async () => {
      await app.close();
      await dispatcher.close();
      await database.drop();
    },
  };
}
