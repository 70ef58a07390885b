// Outgoing mail over SMTP: a real smtp-server on 127.0.0.1 receives what the platform's pg-boss
// worker sends with nodemailer (SMTP_URL with credentials). The worker runs on a database of this
// file's own, so no other test file's worker can take the mail.send jobs. docs/api/mail.md.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/main/config.ts';
import type { Services } from '../../src/app/context.ts';
import { createMailer } from '../../src/modules/mail/create-mailer.ts';
import { queueDeliveries, SEND_MAIL, type MailRetryPolicy } from '../../src/modules/mail/mail-queue.ts';
import type { Mailer, OutgoingMail } from '../../src/modules/mail/mailer.ts';
import { closeServices, createServices } from '../../src/main/services.ts';
import { mailId } from '../../src/modules/mail/mail.ids.ts';
import { createLogger } from '../../src/app/logger.ts';
import { bootstrapTeam } from '../../src/modules/teams/bootstrap.service.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { uniqueEmail } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { untilWith } from '../support/until.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../support/smtp-sink.ts';

const until = untilWith({ timeoutMs: 20_000, everyMs: 50 });
/** three attempts, one second apart, then doubling: fast enough for a test, still a backoff */
const FAST: MailRetryPolicy = { attempts: 3, delaySeconds: 1, backoff: true, maxDelaySeconds: 10 };

let db: ThrowawayDatabase;
let sink: SmtpSink;
let services: Services;
let fast: Mailer;
let teamId: bigint;

function mail(overrides: Partial<OutgoingMail> = {}): OutgoingMail {
  return { teamId, to: ['ada@example.test'], subject: `Subject ${randomBytes(3).toString('hex')}`, text: 'Plain body', source: 'SYSTEM', ...overrides };
}

const row = (simplyId: string) => services.prisma.mailMessage.findUniqueOrThrow({ where: { teamId_simplyId: { teamId, simplyId } } });
const receivedWith = (subject: string): ReceivedMail | undefined => sink.received.find((m) => m.headers.get('subject') === subject);
const settled = (simplyId: string) => until(`${simplyId} settled`, async () => {
  const r = await row(simplyId);
  return r.status !== 'QUEUED' && r;
});

beforeAll(async () => {
  sink = await startSmtpSink();
  db = await createMigratedDatabase('mail');
  const dataDir = path.join(inject('testDataDir'), `mail-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const config = loadConfig({ NODE_ENV: 'test' }, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', SHUTDOWN_TIMEOUT_MS: 2000, SMTP_URL: sink.url });
  // retries come due after their backoff, and dead letters are not announced: a 1 s backstop poll
  // picks both up (5 s by default)
  services = await createServices({
    config,
    databaseUrl: db.url,
    migrate: false,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    jobPollingIntervalSeconds: 0.5,
    jobBackstopPollSeconds: 1,
  });
  await services.jobs.start({ work: true });
  teamId = (await bootstrapTeam(services.prisma, { teamName: 'Mail team', email: uniqueEmail('admin') })).teamId;
  fast = createMailer(services, { retry: FAST });
});
afterAll(async () => {
  if (services) await closeServices(services);
  await sink?.close();
  await db?.drop();
});

describe('delivery', () => {
  it('sends sender, recipients, subject, text and html over SMTP and records SENT with the Message-ID', async () => {
    const subject = 'Your case is open';
    const { simplyId } = await services.mail.enqueue(
      mail({
        to: ['Ada Lovelace <ada@example.test>', 'grace@example.test'],
        cc: ['alan@example.test'],
        bcc: ['audit@example.test'],
        replyTo: 'Help Desk <help@example.test>',
        subject,
        text: 'Hello Ada,\nyour case is open.',
        html: '<p>Hello Ada, your case is <b>open</b>.</p>',
        source: 'AUTOMATION',
        sourceId: 'exe-2345-6789-ABCD',
      }),
    );
    expect((await row(simplyId)).status).toBe('QUEUED');
    const sent = await settled(simplyId);
    const got = receivedWith(subject)!;
    expect(got).toBeDefined();
    // SMTP AUTH with the credentials of SMTP_URL; bounces go to the message's own return path at the sender's domain
    expect(got.user).toBe('mailer');
    expect(got.mailFrom).toMatch(/^bounces\+[0-9a-f]{52}@svc\.invalid$/);
    expect(got.rcptTo.sort()).toEqual(['ada@example.test', 'alan@example.test', 'audit@example.test', 'grace@example.test']);
    expect(got.headers.get('from')).toBe('svc platform <no-reply@svc.invalid>');
    expect(got.headers.get('to')).toBe('Ada Lovelace <ada@example.test>, grace@example.test');
    expect(got.headers.get('cc')).toBe('alan@example.test');
    expect(got.headers.get('reply-to')).toBe('Help Desk <help@example.test>');
    expect(got.headers.has('bcc')).toBe(false);
    expect(got.headers.get('content-type')).toMatch(/^multipart\/alternative/);
    expect(got.raw).toContain('Content-Type: text/plain');
    expect(got.raw).toContain('Hello Ada,\r\nyour case is open.');
    expect(got.raw).toContain('Content-Type: text/html');
    expect(got.raw).toContain('<p>Hello Ada, your case is <b>open</b>.</p>');

    expect(sent).toMatchObject({ status: 'SENT', transport: 'SMTP', attempts: 1, errorMessage: null, messageId: `<${simplyId}@svc.invalid>` });
    expect(got.headers.get('message-id')).toBe(sent.messageId);
    expect(sent.sentAt!.getTime()).toBeGreaterThanOrEqual(sent.createdAt.getTime());
  });

  it("puts a caller's sender in From and keeps the envelope sender the platform's return path", async () => {
    const subject = 'From the team';
    const { simplyId } = await services.mail.enqueue(mail({ from: 'Team A <news@example.test>', subject }));
    await settled(simplyId);
    const got = receivedWith(subject)!;
    expect(got.headers.get('from')).toBe('Team A <news@example.test>');
    expect(got.mailFrom).toMatch(/^bounces\+[0-9a-f]{52}@svc\.invalid$/);
  });

  it('retries a message the server refuses (550 on RCPT) with backoff, then records FAILED with the error', async () => {
    const before = sink.refusedRcpt.length;
    const { simplyId } = await fast.enqueue(mail({ to: ['reject-me@example.test'] }));
    const failed = await settled(simplyId);
    expect(failed).toMatchObject({ status: 'FAILED', attempts: 3, messageId: null, sentAt: null });
    expect(failed.errorMessage).toContain('550');
    expect(failed.errorMessage).toContain('mailbox unavailable');
    const refused = sink.refusedRcpt.slice(before).filter((r) => r.address === 'reject-me@example.test');
    expect(refused).toHaveLength(3);
    // pg-boss backoff: the first retry waits 1-2 s, the second 2-4 s
    expect(refused[1]!.at - refused[0]!.at).toBeGreaterThanOrEqual(900);
    expect(refused[2]!.at - refused[1]!.at).toBeGreaterThanOrEqual(1900);
    // the job completed: nothing more will be tried (pg-boss marks it just after the row is written)
    const states = async () => (await services.jobs.boss.findJobs(SEND_MAIL, { data: { mailSimplyId: simplyId } })).map((j) => j.state);
    await until('the job to complete', async () => (await states()).join() === 'completed');
    expect(await states()).toEqual(['completed']);
  });

  it('records the attempts of a temporary refusal (451) and sends on the retry', async () => {
    const subject = 'Flaky';
    const { simplyId } = await fast.enqueue(mail({ to: ['flaky@example.test'], subject }));
    const sent = await settled(simplyId);
    expect(sent).toMatchObject({ status: 'SENT', attempts: 2 });
    expect(sent.errorMessage).toContain('451');
    expect(sink.refusedData.filter((r) => r.messageId === sent.messageId)).toHaveLength(1);
    expect(sink.received.filter((m) => m.headers.get('subject') === subject)).toHaveLength(1);
  });

  it('sends to the accepted recipients when the server refuses some, and names the refused ones', async () => {
    const subject = 'Partly refused';
    const { simplyId } = await fast.enqueue(mail({ to: ['ada@example.test', 'reject-this@example.test'], subject }));
    const sent = await settled(simplyId);
    expect(sent).toMatchObject({ status: 'SENT', attempts: 1 });
    expect(sent.errorMessage).toContain('reject-this@example.test');
    expect(receivedWith(subject)!.rcptTo).toEqual(['ada@example.test']);
  });

  it('sends each message once, even when a second job for it turns up', async () => {
    const subject = 'Only once';
    const { simplyId } = await services.mail.enqueue(mail({ subject }));
    // a duplicate delivery job (as a sweep or a redrive could make) for the same message
    const client = await services.pool.connect();
    try {
      await queueDeliveries(services.jobs, client, [{ teamId: teamId.toString(), mailSimplyId: simplyId, attempts: 1 }], FAST);
    } finally {
      client.release();
    }
    await settled(simplyId);
    await until('both jobs done', async () => {
      const jobs = await services.jobs.boss.findJobs(SEND_MAIL, { data: { mailSimplyId: simplyId } });
      return jobs.length === 2 && jobs.every((j) => j.state === 'completed');
    });
    expect(sink.received.filter((m) => m.headers.get('subject') === subject)).toHaveLength(1);
  });

  it('marks FAILED a message whose job pg-boss gave up on without the worker recording it (dead letter)', async () => {
    // a row whose job has no retries left while its data says more attempts follow: the worker
    // throws for a retry that pg-boss will not make, and the job lands in mail.send-failed
    const simplyId = mailId.create();
    await services.prisma.mailMessage.create({
      data: { simplyId, teamId, fromAddress: 'no-reply@svc.invalid', toAddresses: ['reject-dl@example.test'], subject: 'Dead letter', textBody: 'x', transport: 'SMTP', source: 'SYSTEM' },
    });
    const client = await services.pool.connect();
    try {
      await queueDeliveries(services.jobs, client, [{ teamId: teamId.toString(), mailSimplyId: simplyId, attempts: 5 }], { ...FAST, attempts: 1 });
    } finally {
      client.release();
    }
    const failed = await settled(simplyId);
    expect(failed).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(failed.errorMessage).toContain('550');
  });
});

describe("the caller's transaction", () => {
  it('sends nothing for a rolled-back transaction, and sends once it commits', async () => {
    const client = await services.pool.connect();
    let rolledBack: string;
    let committed: string;
    try {
      await client.query('BEGIN');
      rolledBack = (await services.mail.enqueue(mail({ subject: 'Rolled back' }), client)).simplyId;
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      committed = (await services.mail.enqueue(mail({ subject: 'Committed' }), client)).simplyId;
      // a worker cannot see the job before the commit either
      await new Promise((r) => setTimeout(r, 1200));
      expect(receivedWith('Committed')).toBeUndefined();
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await settled(committed);
    expect(receivedWith('Committed')).toBeDefined();
    expect(await services.prisma.mailMessage.count({ where: { simplyId: rolledBack } })).toBe(0);
    expect(await services.jobs.boss.findJobs(SEND_MAIL, { data: { mailSimplyId: rolledBack } })).toEqual([]);
    expect(receivedWith('Rolled back')).toBeUndefined();
  });

  it('stores many messages at once, refusing only the invalid ones, and delivers each with its own lists', async () => {
    const client = await services.pool.connect();
    let outcomes: Awaited<ReturnType<Mailer['enqueueMany']>>;
    try {
      await client.query('BEGIN');
      outcomes = await services.mail.enqueueMany(
        [
          mail({ subject: 'Many one', to: ['Ada <ada@example.test>', 'grace@example.test'], cc: ['alan@example.test'] }),
          mail({ subject: 'Many refused', to: ['not an address'] }),
          mail({ subject: 'Many three', to: ['edsger@example.test'], html: '<p>three</p>' }),
        ],
        client,
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    const refused = outcomes[1]!;
    expect(!refused.ok && refused.error.code).toBe('VALIDATION_ERROR');
    const [first, , third] = outcomes.map((o) => (o.ok ? o.simplyId : ''));
    expect(await row(first!)).toMatchObject({ toAddresses: ['Ada <ada@example.test>', 'grace@example.test'], ccAddresses: ['alan@example.test'], bccAddresses: [] });
    expect(await row(third!)).toMatchObject({ toAddresses: ['edsger@example.test'], htmlBody: '<p>three</p>' });
    await settled(first!);
    await settled(third!);
    expect([...receivedWith('Many one')!.rcptTo].sort()).toEqual(['ada@example.test', 'alan@example.test', 'grace@example.test']);
    expect(receivedWith('Many three')).toBeDefined();
    expect(receivedWith('Many refused')).toBeUndefined();
    expect(await services.prisma.mailMessage.count({ where: { teamId, subject: 'Many refused' } })).toBe(0);
  });
});
