// Mail throughput without giving up its guarantees: the `mail.send` worker takes messages in
// batches and hands them to one pooled nodemailer transport, so many messages travel over a few
// authenticated SMTP connections; each message still arrives once, with its own Message-ID and
// recorded status, and a message refused inside a batch is retried alone while the rest are SENT.
// docs/api/mail.md "Delivery and retries".
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/main/config.ts';
import type { Services } from '../../src/app/context.ts';
import { closeServices, createServices } from '../../src/main/services.ts';
import { createLogger } from '../../src/app/logger.ts';
import { createMailer } from '../../src/modules/mail/create-mailer.ts';
import type { MailRetryPolicy } from '../../src/modules/mail/mail-queue.ts';
import { MAX_CONNECTIONS } from '../../src/modules/mail/smtp-transport.ts';
import { bootstrapTeam } from '../../src/modules/teams/bootstrap.service.ts';
import { inTransaction } from '../../src/app/transaction.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { uniqueEmail } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { untilWith } from '../support/until.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';

const until = untilWith({ timeoutMs: 30_000, everyMs: 50 });
const FAST: MailRetryPolicy = { attempts: 3, delaySeconds: 1, backoff: true, maxDelaySeconds: 10 };
const MESSAGES = 150;

let db: ThrowawayDatabase;
let sink: SmtpSink;
let services: Services;

beforeAll(async () => {
  sink = await startSmtpSink();
  db = await createMigratedDatabase('mail_pool');
  const dataDir = path.join(inject('testDataDir'), `mail-pool-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const config = loadConfig({ NODE_ENV: 'test' }, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', SHUTDOWN_TIMEOUT_MS: 2000, SMTP_URL: sink.url });
  services = await createServices({ config, databaseUrl: db.url, migrate: false, logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), jobPollingIntervalSeconds: 0.5 });
  await services.jobs.start({ work: true });
});
afterAll(async () => {
  if (services) await closeServices(services);
  await sink?.close();
  await db?.drop();
});

it('sends a burst over a few pooled connections, each message once; a refused one is retried alone', { timeout: 60_000 }, async () => {
  const teamId = (await bootstrapTeam(services.prisma, { teamName: 'Pool team', email: uniqueEmail('admin') })).teamId;
  const mailer = createMailer(services, { retry: FAST });
  const connectionsBefore = sink.connections();
  // one commit for the whole burst: the jobs become visible together and are taken in batches
  const ids = await inTransaction(services.pool, async (tx) => {
    const sent: string[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      // one message in the burst is refused once (451 at DATA), one is refused for good (550 at RCPT)
      const to = i === 7 ? 'flaky-pool@example.test' : i === 11 ? 'reject-pool@example.test' : `r${i}@example.test`;
      sent.push((await mailer.enqueue({ teamId, to: [to], subject: `Burst ${i}`, text: `Body ${i}`, source: 'SYSTEM' }, tx)).simplyId);
    }
    return sent;
  });
  const rows = await until('every message settled', async () => {
    const all = await services.prisma.mailMessage.findMany({ where: { teamId }, orderBy: { id: 'asc' } });
    return all.length === MESSAGES && all.every((m) => m.status !== 'QUEUED') && all;
  });
  expect(rows.map((r) => r.simplyId)).toEqual(ids);

  const byStatus = Object.groupBy(rows, (r) => r.status);
  expect(byStatus.SENT).toHaveLength(MESSAGES - 1);
  expect(byStatus.FAILED).toHaveLength(1);
  // the flaky message: refused once, sent on its retry, the earlier error kept
  const flaky = rows[7]!;
  expect(flaky).toMatchObject({ status: 'SENT', attempts: 2, errorMessage: expect.stringContaining('451') });
  // the refused one: every attempt made, the last error recorded
  expect(rows[11]).toMatchObject({ status: 'FAILED', attempts: FAST.attempts, errorMessage: expect.stringContaining('550') });
  // the others: one attempt each
  expect(rows.filter((_, i) => i !== 7 && i !== 11).every((r) => r.status === 'SENT' && r.attempts === 1 && r.sentAt !== null)).toBe(true);

  // each message arrived exactly once, under its own Message-ID
  const messageIds = sink.received.filter((m) => m.headers.get('subject')?.startsWith('Burst ')).map((m) => m.headers.get('message-id'));
  expect(messageIds).toHaveLength(MESSAGES - 1);
  expect(new Set(messageIds).size).toBe(MESSAGES - 1);
  expect(new Set(rows.filter((r) => r.status === 'SENT').map((r) => r.messageId))).toEqual(new Set(messageIds));
  // over the pool: a few connections for the whole burst, not one per message
  expect(sink.connections() - connectionsBefore).toBeLessThanOrEqual(MAX_CONNECTIONS * 2);
});
