// The threading corpus of the email channel (docs/api/conversations.md "Threading"): replies as
// Gmail, Outlook, Apple Mail and Thunderbird send them (quoted blocks, signatures, HTML), with
// headers mutated or missing, forwards, new-subject follow-ups, a reply address passed on to
// someone else, a merged conversation, and twenty people answering one newsletter, all through the
// real inbound SMTP listener. Each mail must land where the rules say; above all, no mail may ever
// join a conversation of another contact (0 wrong joins).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { untilWith } from '../support/until.ts';
import { deliver, landingOf, newMessageId, REPLY_DOMAIN, replyAddress, replyTokenOf, type RawMailOptions } from './email-fixtures.ts';

const until = untilWith({ timeoutMs: 20_000, everyMs: 50 });

let db: ThrowawayDatabase;
let sink: SmtpSink;
let server: TestServer;
let team: TeamFixture;
let inbox: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  db = await createMigratedDatabase('conversation_email_corpus');
  server = await startTestServer({
    databaseUrl: db.url,
    runJobs: true,
    env: { SMTP_URL: sink.url, INBOUND_SMTP_PORT: 0, INBOUND_SMTP_HOST: '127.0.0.1', INBOUND_MAIL_DOMAIN: REPLY_DOMAIN, MAIL_FROM: 'Acme <no-reply@acme.test>' },
  });
  team = await createTeam(server);
  inbox = (await server.graphql('{ conversationEmailAddresses { inboundAddress } }', {}, { token: team.apiKey })).data.conversationEmailAddresses.inboundAddress;
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
  await db?.drop();
});

const api = async (method: string, path: string, body?: unknown, status = method === 'POST' ? 201 : 200) => expectOk(await server.request(method, path, { token: team.apiKey, body }), status) as any;

/** An outbound-first EMAIL conversation with one agent mail sent: its id, reply address and the sent mail's Message-ID. */
async function startThread(visitorEmail: string, subject: string): Promise<{ id: string; reply: string; sentId: string }> {
  const id = (await api('POST', '/v1/conversations', { channel: 'EMAIL', subject, visitorEmail })).id;
  const marker = `opening-${id}`;
  await api('POST', `/v1/conversations/${id}/messages`, { channel: 'EMAIL', content: `Hello from Acme. ${marker}` });
  const sent = await until('the opening mail', () => sink.received.find((m) => m.raw.includes(marker)));
  return { id, reply: replyAddress(await replyTokenOf(server, team.teamId, id)), sentId: sent.headers.get('message-id')! };
}

const ALICE = 'alice@example.org';
const BOB = 'bob@example.net';
const CAROL = 'carol@example.com';

const gmailQuote = (body: string) => `${body}\n\nOn Tue, Dec 2, 2026 at 9:14 AM Acme <no-reply@acme.test> wrote:\n> Hello from Acme.\n>\n> Best,\n> The team\n`;
const outlookQuote = (body: string) =>
  `${body}\n\nKind regards,\nAlice\n\n________________________________\nFrom: Acme <no-reply@acme.test>\nSent: Tuesday, December 2, 2026 9:14 AM\nTo: Alice <${ALICE}>\nSubject: Membership\n\nHello from Acme.\n`;
const appleQuote = (body: string) => `${body}\n\nSent from my iPhone\n\n> On 2 Dec 2026, at 09:14, Acme <no-reply@acme.test> wrote:\n>\n> Hello from Acme.\n`;
const thunderbirdQuote = (body: string) => `${body}\n\n-- \nAlice Example\nChair, Garden Club\n\nOn 02/12/2026 09:14, Acme wrote:\n> Hello from Acme.\n`;
const gmailHtml = (body: string) =>
  `<div dir="ltr">${body}</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Tue, Dec 2, 2026 at 9:14 AM Acme &lt;no-reply@acme.test&gt; wrote:<br></div><blockquote class="gmail_quote" style="margin:0 0 0 .8ex">Hello from Acme.</blockquote></div>`;

interface Case {
  name: string;
  mail: RawMailOptions;
  /** the conversation it must land in, or 'new': a conversation of its own (of the sender) */
  expected: string | 'new';
  /** the visible content the message must hold */
  content?: string;
}

describe('the threading corpus', () => {
  it('lands every mail where the rules say, with 0 wrong joins', async () => {
    const alice = await startThread(ALICE, 'Membership');
    const aliceSecond = await startThread(ALICE, 'Volunteering');
    const merged = await startThread(ALICE, 'Old question');
    // the third thread is merged into the first: replies to it read in the first
    await api('POST', `/v1/conversations/inbox/${merged.id}/merge`, { into: alice.id }, 200);

    const cases: Case[] = [
      { name: 'Gmail reply to the reply address', expected: alice.id, content: 'Yes, please renew it.',
        mail: { from: `Alice <${ALICE}>`, to: alice.reply, subject: 'Re: Membership', inReplyTo: alice.sentId, references: alice.sentId, text: gmailQuote('Yes, please renew it.') } },
      { name: 'Gmail HTML-only reply', expected: alice.id, content: 'Renewed, thanks!',
        mail: { from: ALICE, to: alice.reply, subject: 'Re: Membership', inReplyTo: alice.sentId, references: alice.sentId, html: gmailHtml('Renewed, thanks!') } },
      { name: 'Outlook reply without In-Reply-To (reply address only)', expected: alice.id, content: 'Outlook says hi.',
        mail: { from: `"Alice" <${ALICE}>`, to: alice.reply, subject: 'RE: Membership', headers: { 'Thread-Index': 'AQHZ1234567890abcdef==' }, text: outlookQuote('Outlook says hi.') } },
      { name: 'Apple Mail reply sent to the team inbox, headers intact', expected: alice.id, content: 'From my phone.',
        mail: { from: ALICE, to: inbox, subject: 'Re: Membership', inReplyTo: alice.sentId, references: alice.sentId, text: appleQuote('From my phone.') } },
      { name: 'Thunderbird reply to the inbox, References without brackets', expected: aliceSecond.id, content: 'I can help on Saturday.',
        mail: { from: ALICE, to: inbox, subject: 'Re: Volunteering', references: aliceSecond.sentId.slice(1, -1), text: thunderbirdQuote('I can help on Saturday.') } },
      { name: 'upper-case sender address is the same contact', expected: alice.id,
        mail: { from: ALICE.toUpperCase(), to: inbox, subject: 'Re: Membership', inReplyTo: alice.sentId, text: 'Caps lock.' } },
      { name: 'In-Reply-To mangled with a comma list', expected: aliceSecond.id,
        mail: { from: ALICE, to: inbox, subject: 'Re: Volunteering', inReplyTo: `${aliceSecond.sentId}, <unknown@elsewhere.example>`, text: 'Mangled header.' } },
      { name: 'reply to a merged conversation reads in the one it went into', expected: alice.id,
        mail: { from: ALICE, to: merged.reply, subject: 'Re: Old question', inReplyTo: merged.sentId, text: 'About the old question.' } },
      { name: 'new-subject follow-up to the reply address continues the thread', expected: alice.id,
        mail: { from: ALICE, to: alice.reply, subject: 'Another thing', text: 'One more question.' } },
      { name: 'new-subject mail to the inbox without headers starts a new conversation', expected: 'new',
        mail: { from: ALICE, to: inbox, subject: 'Completely different', text: 'Something new.' } },
      { name: 'garbage In-Reply-To to the inbox starts a new conversation', expected: 'new',
        mail: { from: ALICE, to: inbox, subject: 'Re: ???', inReplyTo: '<not-a-known-id@nowhere.example>', text: 'Lost headers.' } },
      { name: 'no Message-ID and no threading headers to the inbox', expected: 'new',
        mail: { from: ALICE, to: inbox, subject: 'No id', messageId: null, text: 'My client sends no Message-ID.' } },
      { name: 'Bob forwards Alice’s thread to the inbox: his own conversation', expected: 'new',
        mail: { from: BOB, to: inbox, subject: 'Fwd: Membership', references: alice.sentId,
          text: `FYI see below.\n\n---------- Forwarded message ---------\nFrom: Alice <${ALICE}>\nSubject: Re: Membership\n\nYes, please renew it.\n` } },
      { name: 'Carol writes to Alice’s reply address (passed on): her own conversation', expected: 'new',
        mail: { from: CAROL, to: alice.reply, subject: 'Re: Membership', inReplyTo: alice.sentId, references: alice.sentId, text: gmailQuote('Can I join too?') } },
      { name: 'Bob replies with Alice’s Message-ID to the inbox: his own conversation', expected: 'new',
        mail: { from: BOB, to: inbox, subject: 'Re: Membership', inReplyTo: alice.sentId, references: alice.sentId, text: 'Me too!' } },
    ];

    // a newsletter (one mail to many, sent by the composer's path, not a conversation) answered by twenty people
    const newsletterId = newMessageId('acme.test');
    for (let i = 0; i < 20; i++) {
      cases.push({
        name: `newsletter reply ${i + 1}`,
        expected: 'new',
        mail: { from: `reader${i}@readers.example`, to: inbox, subject: 'Re: December newsletter', inReplyTo: newsletterId, references: newsletterId, text: gmailQuote(`Reader ${i} says thanks.`) },
      });
    }
    const wrong: string[] = [];
    const landedIn = new Map<string, string>();
    for (const c of cases) {
      const messageId = c.mail.messageId === null ? null : (c.mail.messageId ?? newMessageId());
      const response = await deliver(server, { ...c.mail, messageId });
      expect(response, c.name).toMatch(/^250/);
      const sender = c.mail.from.replace(/^.*<([^<>]+)>$/, '$1').toLowerCase();
      let landed;
      if (messageId) landed = await landingOf(server, team.teamId, messageId);
      else {
        const { rows } = await server.app.services.pool.query(
          `SELECT e."headerMessageId" FROM "ConversationEmail" e WHERE e."teamId" = $1 AND e.direction = 'INBOUND' ORDER BY e.id DESC LIMIT 1`, [team.teamId]);
        landed = await landingOf(server, team.teamId, rows[0].headerMessageId);
      }
      if (!landed) { wrong.push(`${c.name}: not stored`); continue; }
      const conversation = await api('GET', `/v1/conversations/${landed.liveSimplyId}`);
      if (conversation.visitorEmail?.toLowerCase() !== sender) wrong.push(`${c.name}: joined ${conversation.visitorEmail}'s conversation`);
      if (c.expected === 'new') {
        if ([alice.id, aliceSecond.id, merged.id].includes(landed.liveSimplyId) || [...landedIn.values()].includes(landed.liveSimplyId)) wrong.push(`${c.name}: joined an existing conversation`);
      } else if (landed.liveSimplyId !== c.expected) wrong.push(`${c.name}: landed in ${landed.liveSimplyId}, not ${c.expected}`);
      if (c.content !== undefined && landed.content !== c.content) wrong.push(`${c.name}: content ${JSON.stringify(landed.content)}`);
      if (c.expected === 'new') landedIn.set(c.name, landed.liveSimplyId);
    }
    expect(wrong).toEqual([]);

    // the twenty readers each have exactly one conversation, and their follow-ups thread into it alone
    const readers = cases.filter((c) => c.name.startsWith('newsletter'));
    expect(new Set(readers.map((c) => landedIn.get(c.name))).size).toBe(20);
    for (const [i, c] of readers.slice(0, 5).entries()) {
      const own = landedIn.get(c.name)!;
      const { rows } = await server.app.services.pool.query(
        `SELECT e."headerMessageId" FROM "ConversationEmail" e JOIN "Conversation" c ON c."teamId" = e."teamId" AND c.id = e."conversationId" WHERE c."simplyId" = $1`, [own]);
      const followUp = newMessageId();
      await deliver(server, { from: `reader${i}@readers.example`, to: inbox, subject: 'Re: Re: December newsletter', messageId: followUp, inReplyTo: rows[0].headerMessageId, references: `${newsletterId} ${rows[0].headerMessageId}`, text: 'Following up.' });
      expect((await landingOf(server, team.teamId, followUp))?.liveSimplyId).toBe(own);
    }
  });
});
