// A worker killed (SIGKILL) in the middle of a run: the model's second step never answers, so the
// kill lands after the tool call of the first step was executed and stored. pg-boss hands the job
// to another worker once the heartbeat is missed; the run resumes from what it stored: the tool is
// not called again, the model is asked the second step again, and the run completes.
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { createTeam } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { createPeople, createRecord } from '../support/record-fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { startWorkerProcess } from '../support/worker-process.ts';
import { serverGraphqlWsClient } from '../support/realtime.ts';

const until = untilWith({ timeoutMs: 60_000, everyMs: 50 });
const cleanups: (() => Promise<unknown>)[] = [];
let db: ThrowawayDatabase;
let model: ModelServer;

beforeAll(async () => {
  // the run's job must be taken by this file's workers only
  db = await createMigratedDatabase('assistant_run_crash');
  model = await startModelServer();
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await model?.close();
  await db?.drop();
});

it('a worker killed mid-run is replaced within half a minute, and the run resumes without repeating its tool call', { timeout: 120_000 }, async () => {
  const dataDir = path.join(inject('testDataDir'), `assistant-crash-${randomBytes(4).toString('hex')}`);
  const ai = { AI_BASE_URL: model.baseUrl, AI_MODEL: 'test-model', AI_MAX_RETRIES: 0, AI_TIMEOUT_MS: 60_000 };
  const server: TestServer = await startTestServer({ databaseUrl: db.url, runJobs: false, dataDir, env: ai as never });
  cleanups.push(() => server.close());
  const team = await createTeam(server);
  const people = await createPeople(server, team);
  await createRecord(server, team.apiKey, people.id, { [people.fields.first_name!]: 'Ada' });

  // step 1 calls a tool; step 2 hangs in the doomed worker, then answers in the new one
  model.reply({ toolCalls: [{ name: 'count_data_records', arguments: { dataCollectionSimplyId: people.id } }] }, { hang: true }, { text: 'There is 1 person.' });

  const script = `
    import { loadConfig } from ${JSON.stringify(new URL('../../src/main/config.ts', import.meta.url).href)};
    import { createServices } from ${JSON.stringify(new URL('../../src/main/services.ts', import.meta.url).href)};
    import { createLogger } from ${JSON.stringify(new URL('../../src/app/logger.ts', import.meta.url).href)};
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: process.env.DATA_DIR, LOG_LEVEL: 'silent', AI_BASE_URL: process.env.AI_BASE_URL, AI_MODEL: 'test-model', AI_MAX_RETRIES: '0', AI_TIMEOUT_MS: '60000' });
    const services = await createServices({ config, databaseUrl: process.env.DATABASE_URL, migrate: false, logger: createLogger('silent'), jobPollingIntervalSeconds: 0.5 });
    await services.jobs.start({ work: true });
    process.stdout.write('working\\n');
  `;
  const doomed = await startWorkerProcess(script, { DATABASE_URL: db.url, DATA_DIR: dataDir, AI_BASE_URL: model.baseUrl }, cleanups);

  const sent = await server.request('POST', '/v1/team-agent/messages', { token: team.userToken, teamId: team.teamSimplyId, body: { message: 'How many people?', idempotencyKey: randomUUID() } });
  expect(sent.status).toBe(202);
  const runSimplyId = sent.body.data.runSimplyId as string;
  // a subscriber on the API instance: the events come from the worker processes, through PostgreSQL
  const events: { sequence: number; eventType: string }[] = [];
  const client = serverGraphqlWsClient(server, { connectionParams: { authorization: `Bearer ${team.userToken}`, 'X-Team-Id': team.teamSimplyId } });
  cleanups.push(async () => client.dispose());
  client.subscribe<{ teamAgentRunEvents: { sequence: number; eventType: string } }>(
    { query: 'subscription($id: String!) { teamAgentRunEvents(runSimplyId: $id) { sequence eventType } }', variables: { id: runSimplyId } },
    { next: (result) => void (result.data && events.push(result.data.teamAgentRunEvents)), error: () => {}, complete: () => {} },
  );
  await until('the doomed worker to ask the model its second step', () => model.requests.length >= 2);
  doomed.child.kill('SIGKILL');
  expect(await doomed.exited).toBe('SIGKILL');
  const killedAt = Date.now();

  const restarted = await startTestServer({ databaseUrl: db.url, runJobs: true, dataDir, env: ai as never });
  cleanups.push(() => restarted.close());
  const run = await until('the run to complete', async () => {
    const response = await server.request('GET', `/v1/team-agent/runs/${runSimplyId}`, { token: team.userToken, teamId: team.teamSimplyId });
    return response.body.data.status === 'RUNNING' ? undefined : response.body.data;
  });
  expect(Date.now() - killedAt).toBeLessThan(30_000);
  expect(run.status).toBe('COMPLETED');
  expect(run.assistantMessage.content).toBe('There is 1 person.');
  const storedEvents: { sequence: number; eventType: string }[] = run.runtimeEvents;
  expect(storedEvents.map((e) => e.sequence)).toEqual(storedEvents.map((_, i) => i + 1));
  expect(storedEvents.filter((e) => e.eventType === 'TOOL_CALL_STARTED')).toHaveLength(1);
  expect(storedEvents.filter((e) => e.eventType === 'RUN_STARTED')).toHaveLength(1);
  // the subscriber saw each of them once, in order, across the worker's death
  await until('the subscriber to see the run end', () => events.at(-1)?.eventType === 'RUN_COMPLETED');
  expect(events).toEqual(storedEvents.map(({ sequence, eventType }) => ({ sequence, eventType })));
  // the second step asked again, with the stored tool result: three model requests in all
  expect(model.requests).toHaveLength(3);
  expect(JSON.stringify(model.requests[2]!.body.messages.at(-1))).toContain('count');
  const stored = await server.app.services.prisma.assistantRun.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: runSimplyId } } });
  expect(stored.attempts).toBe(2);
});
