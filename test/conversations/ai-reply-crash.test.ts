// A worker killed (SIGKILL) while the model thinks about a visitor's message: pg-boss hands the
// AI's reply job to another worker once the heartbeat is missed; the message's reply row is still
// PENDING, so the model is asked again and the reply is written once.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { startWorkerProcess } from '../support/worker-process.ts';
import { call, keyOf, post, startConversation } from './conversation-fixtures.ts';

const until = untilWith({ timeoutMs: 60_000, everyMs: 100 });
const cleanups: (() => Promise<unknown>)[] = [];
let db: Awaited<ReturnType<typeof createMigratedDatabase>>;
let model: ModelServer;

beforeAll(async () => {
  // the reply's job must be taken by this file's workers only
  db = await createMigratedDatabase('conversation_ai_crash');
  model = await startModelServer();
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await model?.close();
  await db?.drop();
});

it('a worker killed mid-reply is replaced, and the visitor gets exactly one reply', { timeout: 120_000 }, async () => {
  const dataDir = path.join(inject('testDataDir'), `ai-crash-${randomBytes(4).toString('hex')}`);
  const ai = { AI_BASE_URL: model.baseUrl, AI_MODEL: 'test-model', AI_MAX_RETRIES: 0, AI_TIMEOUT_MS: 60_000 };
  const server: TestServer = await startTestServer({ databaseUrl: db.url, runJobs: false, dataDir, env: ai as never });
  cleanups.push(() => server.close());
  const team = await createTeam(server);
  const key = keyOf(team);

  model.reply({ hang: true }, { text: JSON.stringify({ reply: 'We open at nine.', confidence: 0.9, handBack: false, reason: '' }) });
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

  const c = await startConversation(server, key, { channel: 'CHAT' });
  expectOk(await call(server, key, 'PUT', `/v1/conversations/inbox/${c.id}/assign-ai`));
  await post(server, key, c.id, { content: 'When do you open tomorrow?', authorType: 'END_USER' });
  await until('the doomed worker to ask the model', () => model.requests.length >= 1);
  doomed.child.kill('SIGKILL');
  expect(await doomed.exited).toBe('SIGKILL');
  const killedAt = Date.now();

  const restarted = await startTestServer({ databaseUrl: db.url, runJobs: true, dataDir, env: ai as never });
  cleanups.push(() => restarted.close());
  const thread = async () => expectOk(await call(server, key, 'GET', `/v1/conversations/${c.id}/messages`)) as any[];
  await until('the reply', async () => (await thread()).some((m) => m.authorType === 'AI'));
  expect(Date.now() - killedAt).toBeLessThan(30_000);
  expect((await thread()).filter((m) => m.authorType === 'AI').map((m) => m.content)).toEqual(['We open at nine.']);
  expect(model.requests).toHaveLength(2);
  const { rows } = await server.app.services.pool.query(`SELECT state FROM "ConversationAiReply" WHERE "teamId" = $1`, [team.teamId]);
  expect(rows).toEqual([{ state: 'REPLIED' }]);
});
