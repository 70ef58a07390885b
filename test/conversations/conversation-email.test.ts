// The email channel of conversations (docs/api/conversations.md "Email"), end to end: an agent's
// EMAIL message goes out over SMTP (a local sink) from the team, with its Message-ID, Reply-To the
// conversation's reply address, In-Reply-To/References and "Re:" once the thread has mail, and its
// deliveryStatus follows the mail; internal notes never leave. Mail comes back through the real
// inbound SMTP listener: the reply lands in its conversation without quotes and signature, hostile
// HTML is sanitized, attachments go through the files area's inspection, a redelivery adds
// nothing, the team's inbound address starts conversations, and an SMTP outage keeps the message
// queued until the server is back. A database of this file's own keeps other files' workers off
// its mail.send jobs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EICAR } from '../../src/modules/files/scanning/builtin-scanner.ts';
import { createMailer } from '../../src/modules/mail/create-mailer.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { startPostgresProxy, type PostgresProxy } from '../support/postgres-proxy.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../support/smtp-sink.ts';
import { untilWith } from '../support/until.ts';
import { deliver, landingOf, newMessageId, REPLY_DOMAIN, replyAddress, replyTokenOf } from './email-fixtures.ts';

const until = untilWith({ timeoutMs: 20_000, everyMs: 50 });

let db: ThrowawayDatabase;
let sink: SmtpSink;
/** a TCP proxy in front of the sink: cut, it is an SMTP outage */
let smtp: PostgresProxy;
let server: TestServer;
let team: TeamFixture;

beforeAll(async () => {
  sink = await startSmtpSink();
  smtp = await startPostgresProxy(sink.url);
  db = await createMigratedDatabase('conversation_email');
  server = await startTestServer({
    databaseUrl: db.url,
    runJobs: true,
    env: { SMTP_URL: smtp.url, INBOUND_SMTP_PORT: 0, INBOUND_SMTP_HOST: '127.0.0.1', INBOUND_MAIL_DOMAIN: REPLY_DOMAIN, MAIL_FROM: 'Acme <no-reply@acme.test>' },
  });
  // retries a second apart (the default backoff starts at 30 s): the outage test waits for one
  server.app.services.mail = createMailer(server.app.services, { retry: { attempts: 20, delaySeconds: 1, backoff: false, maxDelaySeconds: 1 } });
  team = await createTeam(server);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
  await sink?.close();
  await db?.drop();
});

const api = async (method: string, path: string, body?: unknown, status = method === 'POST' ? 201 : 200) =>
  expectOk(await server.request(method, path, { token: team.apiKey, body }), status) as any;
const messages = async (id: string): Promise<any[]> => api('GET', `/v1/conversations/${id}/messages?limit=100`);
const mailTo = (address: string, contains: string) => sink.received.find((m) => m.rcptTo.includes(address) && m.raw.includes(contains));
const header = (mail: ReceivedMail, name: string) => mail.headers.get(name.toLowerCase()) ?? null;
let n = 0;
const visitor = (label: string) => `${label}-${++n}-${Date.now().toString(36)}@example.org`;

async function emailConversation(email: string, subject: string): Promise<string> {
  return (await api('POST', '/v1/conversations', { channel: 'EMAIL', subject, visitorEmail: email, visitorName: 'Ada Lovelace' })).id;
}

describe('outbound email', () => {
  it('an outbound-first conversation mails the agent message with its headers, and the thread continues as Re:', async () => {
    const ada = visitor('ada');
    const id = await emailConversation(ada, 'Membership renewal');
    const posted = await api('POST', `/v1/conversations/${id}/messages`, { channel: 'EMAIL', content: 'Your renewal is due next week. first-mail' });
    expect(posted).toMatchObject({ channel: 'EMAIL', deliveryStatus: 'QUEUED', attachments: [] });

    const first = await until('the mail', () => mailTo(ada, 'first-mail'));
    const token = await replyTokenOf(server, team.teamId, id);
    expect(header(first, 'reply-to')).toBe(replyAddress(token));
    expect(header(first, 'subject')).toBe('Membership renewal');
    expect(header(first, 'in-reply-to')).toBeNull();
    const { rows } = await server.app.services.pool.query(`SELECT "emailMessageId" FROM "ConversationMessage" WHERE "simplyId" = $1`, [posted.id]);
    expect(header(first, 'message-id')).toBe(rows[0].emailMessageId);
    await until('the state', async () => (await messages(id)).find((m) => m.id === posted.id)?.deliveryStatus === 'SENT');

    // the visitor answers from their mail client; the agent's next mail threads under it
    const answerId = newMessageId('gmail.example');
    expect(await deliver(server, {
      from: `Ada Lovelace <${ada}>`, to: replyAddress(token), subject: 'Re: Membership renewal', messageId: answerId, inReplyTo: header(first, 'message-id')!, references: header(first, 'message-id')!,
      text: `Thanks, I will renew today.\n\nOn Mon, 1 Dec 2026 at 10:00, Acme <no-reply@acme.test> wrote:\n> Your renewal is due next week. first-mail\n`,
    })).toMatch(/^250/);
    const thread = await messages(id);
    expect(thread.at(-1)).toMatchObject({ authorType: 'END_USER', channel: 'EMAIL', content: 'Thanks, I will renew today.', deliveryStatus: null });
    const landed = await landingOf(server, team.teamId, answerId);
    expect(landed?.fullText).toContain('> Your renewal is due next week.');

    await api('POST', `/v1/conversations/${id}/messages`, { channel: 'EMAIL', content: 'Great, see you then. second-mail' });
    const second = await until('the mail', () => mailTo(ada, 'second-mail'));
    expect(header(second, 'subject')).toBe('Re: Membership renewal');
    expect(header(second, 'in-reply-to')).toBe(answerId);
    expect(header(second, 'references')!.split(/\s+/)).toEqual([header(first, 'message-id'), answerId]);
    expect(header(second, 'reply-to')).toBe(replyAddress(token));
  });

  it('an INTERNAL_NOTE never leaves the team', async () => {
    const grace = visitor('grace');
    const id = await emailConversation(grace, 'Internal only');
    await api('POST', `/v1/conversations/${id}/messages`, { channel: 'INTERNAL_NOTE', content: 'secret-note: she owes us 40 dollars' });
    await api('POST', `/v1/conversations/${id}/messages`, { channel: 'EMAIL', content: 'public-reply after the note' });
    const mail = await until('the mail', () => mailTo(grace, 'public-reply'));
    expect(mail.raw).not.toContain('secret-note');
    expect(sink.received.some((m) => m.raw.includes('secret-note'))).toBe(false);
    const { rows } = await server.app.services.pool.query(`SELECT count(*)::int AS n FROM "MailMessage" WHERE "teamId" = $1 AND "textBody" LIKE '%secret-note%'`, [team.teamId]);
    expect(rows[0].n).toBe(0);
  });

  it('an SMTP outage keeps the message QUEUED, retried, and delivered once the server is back', async () => {
    const linus = visitor('linus');
    const id = await emailConversation(linus, 'During the outage');
    await smtp.cut();
    let posted: any;
    try {
      posted = await api('POST', `/v1/conversations/${id}/messages`, { channel: 'EMAIL', content: 'outage-mail: written while SMTP is down' });
      await until('the state', async () => {
        const { rows } = await server.app.services.pool.query(`SELECT attempts, status FROM "MailMessage" WHERE "teamId" = $1 AND "textBody" LIKE 'outage-mail%'`, [team.teamId]);
        return rows[0]?.attempts >= 2 && rows[0].status === 'QUEUED';
      });
      expect((await messages(id)).find((m) => m.id === posted.id).deliveryStatus).toBe('QUEUED');
    } finally {
      await smtp.restore();
    }
    await until('the mail', () => mailTo(linus, 'outage-mail'));
    await until('the state', async () => (await messages(id)).find((m) => m.id === posted.id)?.deliveryStatus === 'SENT');
  });
});

describe('inbound email', () => {
  it('the team inbound address starts a new EMAIL conversation with the sender as visitor', async () => {
    const addresses = (await server.graphql('{ conversationEmailAddresses { inboundAddress domain } }', {}, { token: team.apiKey })).data.conversationEmailAddresses;
    expect(addresses.inboundAddress).toMatch(new RegExp(`^inbox\\+[0-9a-f]{20}@${REPLY_DOMAIN.replaceAll('.', '\\.')}$`));
    const mary = visitor('mary');
    const messageId = newMessageId();
    await deliver(server, { from: `Mary Somerville <${mary}>`, to: addresses.inboundAddress, subject: 'Question about events', messageId, text: 'Is the gala on Friday?\n\n-- \nMary\n' });
    const landed = (await landingOf(server, team.teamId, messageId))!;
    const conversation = await api('GET', `/v1/conversations/${landed.conversationSimplyId}`);
    expect(conversation).toMatchObject({ channel: 'EMAIL', subject: 'Question about events', visitorEmail: mary, visitorName: 'Mary Somerville', messageCount: 1, lastMessageAuthorType: 'END_USER' });
    expect(landed.content).toBe('Is the gala on Friday?');
    // it waits for routing like a conversation created over the API
    const routing = await server.app.services.pool.query(`SELECT r.state FROM "ConversationRouting" r JOIN "Conversation" c ON c.id = r."conversationId" WHERE c."simplyId" = $1`, [landed.conversationSimplyId]);
    expect(routing.rows).toHaveLength(1);
  });

  it('a redelivery of the same Message-ID is stored once', async () => {
    const ada = visitor('ada');
    const id = await emailConversation(ada, 'Twice');
    const token = await replyTokenOf(server, team.teamId, id);
    const mail = { from: ada, to: replyAddress(token), subject: 'Re: Twice', messageId: newMessageId(), text: 'Only once please.' };
    await deliver(server, mail);
    await Promise.all([deliver(server, mail), deliver(server, mail)]);
    expect((await messages(id)).filter((m) => m.content === 'Only once please.')).toHaveLength(1);
  });

  it('hostile HTML is sanitized: the message holds text, the audit copy no script, handler or javascript: link', async () => {
    const eve = visitor('eve');
    const id = await emailConversation(eve, 'Hostile');
    const messageId = newMessageId();
    await deliver(server, {
      from: eve, to: replyAddress(await replyTokenOf(server, team.teamId, id)), subject: 'Re: Hostile', messageId,
      html: '<p>Click <a href="javascript:alert(1)">here</a></p><script>alert("x")</script><img src=x onerror="alert(2)"><iframe src="https://evil.example"></iframe><b onclick="steal()">bold</b>',
    });
    const landed = (await landingOf(server, team.teamId, messageId))!;
    expect(landed.content).toContain('Click');
    for (const bad of ['<script', 'javascript:', 'onerror', 'onclick', '<iframe', 'alert(']) {
      expect(landed.content).not.toContain(bad);
      expect(landed.fullHtml ?? '').not.toContain(bad);
    }
    expect(landed.fullHtml).toContain('<b>bold</b>');
  });

  it('attachments become team files through the inspection pipeline; what it refuses is noted', async () => {
    const ada = visitor('ada');
    const id = await emailConversation(ada, 'Files');
    const messageId = newMessageId();
    await deliver(server, {
      from: ada, to: replyAddress(await replyTokenOf(server, team.teamId, id)), subject: 'Re: Files', messageId, text: 'Here are the documents.',
      attachments: [
        { filename: 'notes.txt', contentType: 'text/plain', content: Buffer.from('meeting notes\n') },
        { filename: 'virus.txt', contentType: 'text/plain', content: EICAR },
        { filename: 'setup.exe', contentType: 'application/x-msdownload', content: Buffer.from('MZ fake executable') },
      ],
    });
    const landed = (await landingOf(server, team.teamId, messageId))!;
    const read = async () => (await messages(id)).find((m) => m.id === landed.messageSimplyId).attachments as any[];
    const settled = await until('the state', async () => {
      const list = await read();
      return list.every((a) => a.status !== 'PENDING') ? list : null;
    });
    expect(settled).toMatchObject([
      { filename: 'notes.txt', contentType: 'text/plain', sizeBytes: 14, status: 'STORED' },
      { filename: 'virus.txt', status: 'REJECTED', reason: 'MALWARE_DETECTED', fileSimplyId: null },
      { filename: 'setup.exe', status: 'REJECTED', reason: 'UNSUPPORTED_TYPE', fileSimplyId: null },
    ]);
    expect(settled[0].fileSimplyId).toMatch(/^file-/);
    const file = await api('GET', `/v1/files/${settled[0].fileSimplyId}`);
    expect(file).toMatchObject({ filename: 'notes.txt' });
  });

  it('refuses unknown addresses on the reply domain at RCPT', async () => {
    await expect(deliver(server, { from: visitor('x'), to: `reply+${'A'.repeat(32)}@${REPLY_DOMAIN}`, subject: 'Hi', text: 'hello' })).rejects.toThrow(/550/);
    await expect(deliver(server, { from: visitor('x'), to: `support@${REPLY_DOMAIN}`, subject: 'Hi', text: 'hello' })).rejects.toThrow(/550/);
  });
});
