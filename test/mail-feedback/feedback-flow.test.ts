// Bounces, complaints and one-click unsubscribes end to end (docs/api/mail-feedback.md): the
// platform's worker sends each message over SMTP to a local sink with its own return path; delivery
// status notifications and complaint reports, built as receiving servers build them, come back
// over SMTP to the running inbound listener; the unsubscribe link is used over HTTPS. A database of
// this file's own keeps other files' workers off its mail.send jobs.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/app/transaction.ts';
import { recordDelivery } from '../../src/modules/communications/record-delivery.ts';
import { mailTokensFor } from '../../src/modules/mail/mail-tokens.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { expectError } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../support/smtp-sink.ts';
import { tcpProbe } from '../support/tcp-probe.ts';
import { untilWith } from '../support/until.ts';
import { complaintReport, deliveryStatusNotification, sendToListener } from './report-messages.ts';

const until = untilWith({ timeoutMs: 20_000, everyMs: 50 });
const BOUNCE_DOMAIN = 'bounces.example.org';
const RETURN_PATH = new RegExp(`^bounces\\+([0-9a-f]{52})@${BOUNCE_DOMAIN.replaceAll('.', '\\.')}$`);

let db: ThrowawayDatabase;
let sink: SmtpSink;
let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;

beforeAll(async () => {
  sink = await startSmtpSink();
  db = await createMigratedDatabase('mail_feedback');
  server = await startTestServer({
    databaseUrl: db.url,
    runJobs: true,
    env: { SMTP_URL: sink.url, INBOUND_SMTP_PORT: 0, INBOUND_SMTP_HOST: '127.0.0.1', MAIL_BOUNCE_DOMAIN: BOUNCE_DOMAIN },
  });
  [team, other] = await Promise.all([createTeam(server), createTeam(server)]);
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
  await db?.drop();
});

const services = () => server.app.services;
const inboundPort = () => services().inboundSmtp.address!.port;

interface SentMail {
  id: string;
  simplyId: string;
  address: string;
  received: ReceivedMail;
  teamId: bigint;
}

/**
 * One message to a fresh address, queued as the composer queues it: with its recipient row and its
 * history row in the same transaction. Answers once the sink has it.
 */
async function send(options: { unsubscribe?: boolean; owner?: TeamFixture } = {}): Promise<SentMail> {
  const owner = options.owner ?? team;
  const address = `person-${randomBytes(4).toString('hex')}@receiver.example`;
  const subject = `News ${randomBytes(4).toString('hex')}`;
  const { id, simplyId } = await inTransaction(services().pool, async (client) => {
    const queued = await services().mail.enqueue(
      { teamId: owner.teamId, to: [address], subject, text: 'Hello, here is the news.', source: 'SYSTEM', unsubscribe: options.unsubscribe ?? false },
      client,
    );
    await client.query(
      `INSERT INTO "OutgoingMessageRecipient" ("teamId", "outgoingMessageId", "dataRecordId", address, state, "mailMessageId") VALUES ($1, 1, $2, $3, 'QUEUED', $4)`,
      [owner.teamId, BigInt(Number.parseInt(randomBytes(4).toString('hex'), 16)), address, queued.id],
    );
    await recordDelivery(client, {
      teamId: owner.teamId,
      dataRecordId: 1n,
      sourceType: 'MESSAGE_COMPOSER',
      channelId: 'EMAIL',
      mailMessageId: queued.id,
      destination: address,
      subject,
      text: 'Hello, here is the news.',
    });
    return queued;
  });
  const received = await until(`the sink to receive ${subject}`, () => sink.received.find((m) => m.headers.get('subject') === subject));
  return { id, simplyId, address, received, teamId: owner.teamId };
}

const mailRow = (mail: SentMail) => services().prisma.mailMessage.findUniqueOrThrow({ where: { id: BigInt(mail.id) } });
const suppressionOf = (mail: SentMail, teamId = mail.teamId) =>
  services().prisma.mailSuppression.findUnique({ where: { teamId_address: { teamId, address: mail.address } } });
const recipientState = async (mail: SentMail) =>
  (await services().prisma.outgoingMessageRecipient.findFirstOrThrow({ where: { mailMessageId: BigInt(mail.id) } })).state;
const history = async (mail: SentMail) => {
  const delivery = await services().prisma.constituentMessageDelivery.findFirstOrThrow({ where: { mailMessageId: BigInt(mail.id) } });
  const events = await services().prisma.constituentMessageDeliveryEvent.findMany({ where: { deliveryId: delivery.id }, orderBy: { id: 'asc' } });
  return { state: delivery.currentStateId, events: events.map((e) => ({ state: e.stateId, detail: e.detail })) };
};

/** Waits until the worker's SENT reached the mail row (committed right after the sink's reply). */
const sent = (mail: SentMail) => until(`${mail.simplyId} SENT`, async () => (await mailRow(mail)).status === 'SENT');

function bounce(mail: SentMail, action: string, status: string, diagnostic?: string): Promise<{ response: string }> {
  const raw = deliveryStatusNotification({
    returnPath: mail.received.mailFrom,
    recipients: [{ action, status, finalRecipient: mail.address, diagnostic }],
    original: mail.received.raw,
  });
  return sendToListener(inboundPort(), mail.received.mailFrom, raw);
}

function complain(mail: SentMail, feedbackType = 'abuse'): Promise<{ response: string }> {
  const raw = complaintReport({ returnPath: mail.received.mailFrom, feedbackType, originalRcptTo: mail.address, original: mail.received.raw });
  return sendToListener(inboundPort(), mail.received.mailFrom, raw);
}

describe('outgoing mail', () => {
  it('goes out with its own return path as MAIL FROM, stored as envelopeFrom', async () => {
    const a = await send();
    const b = await send();
    const row = await mailRow(a);
    expect(a.received.mailFrom).toMatch(RETURN_PATH);
    expect(row.envelopeFrom).toBe(a.received.mailFrom);
    expect(b.received.mailFrom).toMatch(RETURN_PATH);
    expect(b.received.mailFrom).not.toBe(a.received.mailFrom);
    // the token shows neither the address nor the mail's id; two mails of one team share no visible team part
    const local = a.received.mailFrom.split('@')[0]!;
    expect(local.length).toBeLessThanOrEqual(64);
    expect(local).not.toContain(a.address.split('@')[0]!);
    expect(local).not.toContain(a.simplyId.slice(5).replaceAll('-', '').toLowerCase());
    expect(local.slice(0, 16)).not.toBe(b.received.mailFrom.slice(0, 16));
    // no unsubscribe link unless asked for
    expect(a.received.headers.has('list-unsubscribe')).toBe(false);
    expect(row.headers).toBeNull();
  });

  it('carries List-Unsubscribe with one-click (RFC 8058) when unsubscribable', async () => {
    const mail = await send({ unsubscribe: true });
    const link = /^<(https:\/\/[^>]+)>$/.exec(mail.received.headers.get('list-unsubscribe') ?? '');
    expect(link).not.toBeNull();
    expect(link![1]).toMatch(new RegExp(`^${server.baseUrl}/unsubscribe/[0-9a-f]{52}$`));
    expect(link![1]).not.toContain(mail.address.split('@')[0]);
    expect(mail.received.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect((await mailRow(mail)).headers).toEqual({ 'List-Unsubscribe': `<${link![1]}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });
});

describe('delivery status notifications', () => {
  it('a failure (5.1.1) bounces the mail, suppresses the address, and the recipient and history rows follow', async () => {
    const mail = await send();
    await sent(mail);
    expect(await recipientState(mail)).toBe('SENT');
    const { response } = await bounce(mail, 'failed', '5.1.1', '550 5.1.1 <person@receiver.example>: Recipient address rejected: User unknown in virtual mailbox table');
    expect(response).toMatch(/^250 /);

    const row = await mailRow(mail);
    expect(row.status).toBe('SENT');
    expect(row.feedbackState).toBe('BOUNCED');
    expect(row.feedbackAt).toBeInstanceOf(Date);
    expect(row.feedbackDetail).toBe('failed 5.1.1 smtp; 550 5.1.1 <person@receiver.example>: Recipient address rejected: User unknown in virtual mailbox table');
    expect(await suppressionOf(mail)).toMatchObject({ reason: 'HARD_BOUNCE', mailMessageId: BigInt(mail.id) });
    // the team's suppression only
    expect(await suppressionOf(mail, other.teamId)).toBeNull();
    expect(await recipientState(mail)).toBe('BOUNCED');
    expect(await history(mail)).toEqual({
      state: 'BOUNCED',
      events: [
        { state: 'QUEUED', detail: null },
        { state: 'SENT', detail: null },
        { state: 'BOUNCED', detail: row.feedbackDetail },
      ],
    });
    // team admins read it with the message, over REST and GraphQL
    const rest = await server.request('GET', `/v1/mail-messages/${mail.simplyId}`, { token: team.apiKey });
    expect(rest.body.data).toMatchObject({ feedbackState: 'BOUNCED', feedbackAt: row.feedbackAt!.toISOString(), feedbackDetail: row.feedbackDetail });
    const gql = await server.graphql('query($id: String!) { mailMessage(mailSimplyId: $id) { feedbackState feedbackDetail } }', { id: mail.simplyId }, { token: team.apiKey });
    expect(gql.data).toEqual({ mailMessage: { feedbackState: 'BOUNCED', feedbackDetail: row.feedbackDetail } });
  });

  it('a delivery marks DELIVERED; a late bounce still replaces it', async () => {
    const mail = await send();
    await sent(mail);
    await bounce(mail, 'delivered', '2.0.0', '250 2.0.0 Ok: queued as 4Z2abc');
    expect(await mailRow(mail)).toMatchObject({ feedbackState: 'DELIVERED', feedbackDetail: 'delivered 2.0.0 smtp; 250 2.0.0 Ok: queued as 4Z2abc' });
    expect(await recipientState(mail)).toBe('DELIVERED');
    expect(await suppressionOf(mail)).toBeNull();

    await bounce(mail, 'failed', '5.2.1', '550 5.2.1 mailbox disabled');
    expect(await mailRow(mail)).toMatchObject({ feedbackState: 'BOUNCED', feedbackDetail: 'failed 5.2.1 smtp; 550 5.2.1 mailbox disabled' });
    expect(await recipientState(mail)).toBe('BOUNCED');
    expect((await history(mail)).events.map((e) => e.state)).toEqual(['QUEUED', 'SENT', 'DELIVERED', 'BOUNCED']);
  });

  it('a delay changes no state: it is only noted', async () => {
    const mail = await send();
    await sent(mail);
    await bounce(mail, 'delayed', '4.4.1', '421 4.4.1 connection timed out');
    expect(await mailRow(mail)).toMatchObject({ feedbackState: null, feedbackAt: null, feedbackDetail: 'delayed 4.4.1 smtp; 421 4.4.1 connection timed out' });
    expect(await recipientState(mail)).toBe('SENT');
    expect((await history(mail)).state).toBe('SENT');
    expect(await suppressionOf(mail)).toBeNull();
  });

  it('a failure with a temporary status (4.x.x) bounces the mail but keeps the address usable', async () => {
    const mail = await send();
    await bounce(mail, 'failed', '4.4.7', '421 4.4.7 message expired in queue');
    expect((await mailRow(mail)).feedbackState).toBe('BOUNCED');
    expect(await suppressionOf(mail)).toBeNull();
  });
});

describe('complaints', () => {
  it('a complaint after a delivery marks COMPLAINED and suppresses the address', async () => {
    const mail = await send();
    await sent(mail);
    await bounce(mail, 'delivered', '2.0.0');
    const { response } = await complain(mail);
    expect(response).toMatch(/^250 /);
    expect(await mailRow(mail)).toMatchObject({ feedbackState: 'COMPLAINED', feedbackDetail: 'complaint abuse' });
    expect(await suppressionOf(mail)).toMatchObject({ reason: 'COMPLAINT', mailMessageId: BigInt(mail.id) });
    expect(await recipientState(mail)).toBe('COMPLAINED');
    expect((await history(mail)).events.map((e) => e.state)).toEqual(['QUEUED', 'SENT', 'DELIVERED', 'COMPLAINED']);
  });

  it('a bounce or a delivery after a complaint keeps COMPLAINED', async () => {
    const mail = await send();
    await sent(mail);
    await complain(mail);
    await bounce(mail, 'failed', '5.1.1', '550 5.1.1 user unknown');
    await bounce(mail, 'delivered', '2.0.0');
    expect(await mailRow(mail)).toMatchObject({ feedbackState: 'COMPLAINED', feedbackDetail: 'complaint abuse' });
    expect(await recipientState(mail)).toBe('COMPLAINED');
    // the complaint is the suppression's reason, whatever came after
    expect(await suppressionOf(mail)).toMatchObject({ reason: 'COMPLAINT' });
  });

  it('a complaint records its reason over an earlier unsubscribe', async () => {
    const mail = await send({ unsubscribe: true });
    const path = new URL(/^<(.+)>$/.exec(mail.received.headers.get('list-unsubscribe')!)![1]!).pathname;
    await server.request('POST', path, { rawBody: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(await suppressionOf(mail)).toMatchObject({ reason: 'UNSUBSCRIBED' });
    await complain(mail);
    expect(await suppressionOf(mail)).toMatchObject({ reason: 'COMPLAINT' });
  });

  it('a not-spam report is no complaint', async () => {
    const mail = await send();
    await complain(mail, 'not-spam');
    expect((await mailRow(mail)).feedbackState).toBeNull();
    expect(await suppressionOf(mail)).toBeNull();
  });
});

describe('the inbound listener', () => {
  it('refuses at RCPT any recipient but a return path it issued (550)', async () => {
    const mail = await send();
    const token = RETURN_PATH.exec(mail.received.mailFrom)![1]!;
    const flipped = `${token.slice(0, 20)}${token[20] === 'a' ? 'b' : 'a'}${token.slice(21)}`;
    const unsubscribeToken = mailTokensFor(services().config.secretsKeyFile).mint('unsubscribe', { teamId: mail.teamId, simplyId: mail.simplyId });
    const raw = deliveryStatusNotification({ returnPath: 'x', recipients: [{ action: 'failed', status: '5.1.1', finalRecipient: mail.address }], original: mail.received.raw });
    for (const forged of [`bounces+${flipped}@${BOUNCE_DOMAIN}`, `bounces+${unsubscribeToken}@${BOUNCE_DOMAIN}`, `bounces@${BOUNCE_DOMAIN}`, `postmaster@${BOUNCE_DOMAIN}`, mail.address]) {
      const refused = await sendToListener(inboundPort(), forged, raw).then(
        () => null,
        (error: { responseCode?: number }) => error,
      );
      expect(refused?.responseCode, forged).toBe(550);
    }
    expect((await mailRow(mail)).feedbackState).toBeNull();
    expect(await suppressionOf(mail)).toBeNull();
  });

  it('accepts a return path in any letter case', async () => {
    const mail = await send();
    const raw = deliveryStatusNotification({ returnPath: mail.received.mailFrom, recipients: [{ action: 'delivered', status: '2.0.0', finalRecipient: mail.address }], original: mail.received.raw });
    await sendToListener(inboundPort(), mail.received.mailFrom.toUpperCase(), raw);
    expect((await mailRow(mail)).feedbackState).toBe('DELIVERED');
  });

  it('accepts and drops garbage and auto-replies, and goes on reading reports', async () => {
    const mail = await send();
    const garbage = [
      randomBytes(4096),
      'no headers at all, just text\r\n',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="never-closed"\r\n\r\n--never-closed\r\nContent-Type: message/delivery-status\r\n\r\nAction: exploded\r\nStatus: 9.9\r\n',
      'From: ada@receiver.example\r\nSubject: Out of office\r\nAuto-Submitted: auto-replied\r\n\r\nI am away until Monday.\r\n',
    ];
    for (const raw of garbage) {
      const { response } = await sendToListener(inboundPort(), mail.received.mailFrom, raw);
      expect(response).toMatch(/^250 /);
    }
    expect((await mailRow(mail)).feedbackState).toBeNull();
    await bounce(mail, 'failed', '5.1.1');
    expect((await mailRow(mail)).feedbackState).toBe('BOUNCED');
  });

  it('refuses a message over the size limit (552)', async () => {
    const mail = await send();
    const huge = `Subject: big\r\n\r\n${'x'.repeat(998)}\r\n`.repeat(2200);
    const refused = await sendToListener(inboundPort(), mail.received.mailFrom, huge).then(
      () => null,
      (error: { responseCode?: number }) => error,
    );
    expect(refused?.responseCode).toBe(552);
  });

  it('is off without INBOUND_SMTP_PORT, and closes with the server', async () => {
    const plain = await startTestServer({ databaseUrl: db.url });
    expect(plain.app.services.inboundSmtp.address).toBeNull();
    await plain.close();

    const withListener = await startTestServer({ databaseUrl: db.url, env: { INBOUND_SMTP_PORT: 0, INBOUND_SMTP_HOST: '127.0.0.1' } });
    const { port } = withListener.app.services.inboundSmtp.address!;
    expect(await tcpProbe(port)).toBe('accepted');
    await withListener.close();
    expect(await tcpProbe(port)).toBe('refused');
  });
});

describe('one-click unsubscribe', () => {
  const linkOf = (mail: SentMail) => new URL(/^<(.+)>$/.exec(mail.received.headers.get('list-unsubscribe')!)![1]!).pathname;
  const oneClick = (path: string, body = 'List-Unsubscribe=One-Click', type = 'application/x-www-form-urlencoded') =>
    server.request('POST', path, { rawBody: body, headers: { 'content-type': type } });

  it('GET shows a confirmation form and changes nothing', async () => {
    const mail = await send({ unsubscribe: true });
    const res = await server.request('GET', linkOf(mail));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.text).toContain('<form method="post">');
    expect(res.text).toContain('name="List-Unsubscribe" value="One-Click"');
    expect(res.text).not.toContain(mail.address);
    expect(await suppressionOf(mail)).toBeNull();
  });

  it('POST List-Unsubscribe=One-Click suppresses the address for the team, once however often', async () => {
    const mail = await send({ unsubscribe: true });
    const first = await oneClick(linkOf(mail));
    expect(first.status).toBe(200);
    expect(first.text).toContain('You are unsubscribed');
    expect(first.text).not.toContain(mail.address);
    expect(await suppressionOf(mail)).toMatchObject({ reason: 'UNSUBSCRIBED', mailMessageId: BigInt(mail.id) });
    expect(await suppressionOf(mail, other.teamId)).toBeNull();
    const again = await oneClick(linkOf(mail));
    expect(again.status).toBe(200);
    expect(await services().prisma.mailSuppression.count({ where: { address: mail.address } })).toBe(1);
    // an unsubscribe is no feedback about the message
    expect((await mailRow(mail)).feedbackState).toBeNull();
  });

  it('takes the form as multipart/form-data too', async () => {
    const mail = await send({ unsubscribe: true, owner: other });
    const boundary = 'form-boundary-1';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    expect((await oneClick(linkOf(mail), body, `multipart/form-data; boundary=${boundary}`)).status).toBe(200);
    expect(await suppressionOf(mail)).toMatchObject({ reason: 'UNSUBSCRIBED' });
    expect(await suppressionOf(mail, team.teamId)).toBeNull();
  });

  it('answers 400 to a POST without the one-click field and 413 to a long body, and changes nothing', async () => {
    const mail = await send({ unsubscribe: true });
    expectError(await oneClick(linkOf(mail), 'List-Unsubscribe=Yes'), 400, 'VALIDATION_ERROR');
    expectError(await oneClick(linkOf(mail), ''), 400, 'VALIDATION_ERROR');
    expectError(await oneClick(linkOf(mail), `List-Unsubscribe=One-Click&pad=${'x'.repeat(5000)}`), 413, 'PAYLOAD_TOO_LARGE');
    expect(await suppressionOf(mail)).toBeNull();
  });

  it('answers 404 to a tampered token, a return-path token, or an unknown path, whatever the method', async () => {
    const mail = await send({ unsubscribe: true });
    const path = linkOf(mail);
    const token = path.slice('/unsubscribe/'.length);
    const returnPathToken = RETURN_PATH.exec(mail.received.mailFrom)![1]!;
    const tampered = [
      `/unsubscribe/${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`,
      `/unsubscribe/${token.slice(0, 10)}`,
      `/unsubscribe/${returnPathToken}`,
      `/unsubscribe/${token}/more`,
      '/unsubscribe/',
    ];
    for (const bad of tampered) {
      expectError(await server.request('GET', bad), 404, 'NOT_FOUND', bad);
      expectError(await oneClick(bad), 404, 'NOT_FOUND', bad);
    }
    expect(await suppressionOf(mail)).toBeNull();
    expectError(await server.request('DELETE', path), 405, 'METHOD_NOT_ALLOWED');
  });
});
