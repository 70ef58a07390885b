// Sending end to end, with workers and a real SMTP sink: recipients resolved once (view, filters,
// deduplicated, suppressed addresses kept out), merge tags rendered per recipient (escaped in
// HTML), the communication history, the status aggregate and statistics (which keep changing as
// bounces and complaints arrive), crash safety (a batch that dies mid-way is retried and nobody is
// lost or doubled; a send whose jobs were lost is repaired), scheduled sends, ERROR_SENDING, and
// test sends. A database of the file's own keeps other files' workers off its jobs.
import type { Env } from '../../src/app/config.ts';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repairStalledSends, resolveRecipients, sendBatch, SEND_BATCH } from '../../src/modules/outgoing-messages/send-pipeline.ts';
import { expectError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { untilWith } from '../support/until.ts';
import { useServer } from '../support/use-server.ts';
import type { CollectionFixture } from '../support/data-fixtures.ts';
import { addPeople, addSender, createDraft, createPeople, draftBody, GQL, move, PATH, type Person, type SenderFixture } from './message-fixtures.ts';

const until = untilWith({ timeoutMs: 30_000, everyMs: 100 });
const seconds = (n: number) => new Date(Date.now() + n * 1000).toISOString();

describe('outgoing messages: sending', () => {
  const env: Partial<Env> = { MESSAGE_SEND_RATE: 1000 };
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    env.SMTP_URL = sink.url;
  });
  afterAll(() => sink?.close());
  const { server } = useServer({ ownDatabase: 'outgoing_sending', runJobs: true, env });
  const db = () => server.app.services.pool;

  interface Setup {
    team: TeamFixture;
    sender: SenderFixture;
    people: CollectionFixture;
    ids: string[];
  }
  async function setup(persons: readonly Person[]): Promise<Setup> {
    const team = await createTeam(server);
    const sender = await addSender(server, team, { name: 'Riverside "Clinic"' });
    const people = await createPeople(server, team);
    return { team, sender, people, ids: await addPeople(server, team, people, persons) };
  }
  const mailsOf = (sender: SenderFixture) => sink.received.filter((m) => (m.headers.get('from') ?? '').includes(sender.domain));
  const parsed = (sender: SenderFixture): Promise<ParsedMail[]> => Promise.all(mailsOf(sender).map((m) => simpleParser(m.raw)));
  const internalId = async (s: Setup, id: string) => (await server.app.services.prisma.outgoingMessage.findFirstOrThrow({ where: { teamId: s.team.teamId, simplyId: id } })).id;
  const get = async (s: Setup, path: string) => expectOk(await server.request('GET', path, { token: s.team.apiKey }));
  const statusOf = async (s: Setup, id: string) => (await get(s, `${PATH}/${id}`)).status;
  const recipientStates = async (s: Setup, id: string) => {
    const rows = await server.app.services.prisma.outgoingMessageRecipient.findMany({ where: { teamId: s.team.teamId, outgoingMessageId: await internalId(s, id) } });
    return rows;
  };

  it('sends one rendered copy per distinct address, keeps suppressed addresses out, records the history and counts', async () => {
    const regular = Array.from({ length: 18 }, (_, i) => ({ first_name: `Person ${String(i + 1).padStart(2, '0')}`, email: `p${String(i + 1).padStart(2, '0')}@example.test`, city: `Town ${i + 1}` }));
    const s = await setup([
      ...regular,
      { first_name: '<b>Tom & "Jerry"</b>', email: 'tom@example.test', city: 'Springfield' },
      { first_name: 'Tommy', email: 'TOM@example.test', city: 'Shelbyville' },
      { first_name: 'Nomail', city: 'Nowhere' },
      { first_name: 'Gone', email: 'gone@example.test', city: 'Elsewhere' },
    ]);
    await server.app.services.prisma.mailSuppression.create({ data: { teamId: s.team.teamId, address: 'gone@example.test', reason: 'UNSUBSCRIBED' } });
    const m = await createDraft(server, s.team.apiKey, draftBody(s.people));
    const readiness = await get(s, `${PATH}/${m.id}/send-readiness`);
    expect(readiness).toMatchObject({ ready: true, estimatedRecipients: 19 });

    expect((await move(server, s.team.apiKey, m.id, 'SENDING')).status).toBe('SENDING');
    await until('the message to be SENT', async () => (await statusOf(s, m.id)) === 'SENT');
    await until('19 mails in the sink', () => mailsOf(s.sender).length >= 19);

    const mails = await parsed(s.sender);
    expect(mails).toHaveLength(19);
    const byAddress = new Map(mails.map((mail) => [(mail.to as { value: { address: string }[] }).value[0]!.address, mail]));
    expect([...byAddress.keys()].sort()).toEqual([...regular.map((p) => p.email), 'tom@example.test'].sort());
    for (const person of regular) {
      const mail = byAddress.get(person.email)!;
      expect(mail.subject).toBe(`Hello ${person.first_name}`);
      expect(mail.from?.value[0]).toEqual({ name: 'Riverside Clinic', address: s.sender.emailAddress });
      // then the default unsubscribe footer (visible-unsubscribe.test.ts)
      expect(mail.text?.trim()).toMatch(new RegExp(`^Dear ${person.first_name} of ${person.city}, spring is here\\.\\n\\nTo stop receiving these messages, unsubscribe here: https://\\S+$`));
      expect(mail.html).toContain(`<p>Dear ${person.first_name} of ${person.city},</p>`);
    }
    const tom = byAddress.get('tom@example.test')!;
    expect(tom.subject).toBe('Hello <b>Tom & "Jerry"</b>');
    expect(tom.html).toContain('<p>Dear &lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt; of Springfield,</p>');
    expect(tom.text).toContain('Dear <b>Tom & "Jerry"</b> of Springfield');

    const rows = await recipientStates(s, m.id);
    expect(rows).toHaveLength(20);
    expect(rows.filter((r) => r.state === 'SUPPRESSED').map((r) => r.address)).toEqual(['gone@example.test']);
    expect(rows.filter((r) => r.mailMessageId !== null)).toHaveLength(19);
    const history = await server.app.services.prisma.constituentMessageDelivery.findMany({ where: { teamId: s.team.teamId, outgoingMessageId: await internalId(s, m.id) } });
    expect(history).toHaveLength(19);
    expect(new Set(history.map((h) => h.sourceType))).toEqual(new Set(['MESSAGE_COMPOSER']));
    expect(history.find((h) => h.destination === 'tom@example.test')).toMatchObject({ channelId: 'EMAIL', sourceSimplyId: m.id, renderedSubject: 'Hello <b>Tom & "Jerry"</b>', senderAddress: s.sender.emailAddress });

    // the aggregate follows the mail states: all accepted by the sink
    await until('every recipient SENT', async () => (await get(s, `/v1/messages/${m.id}/status`)).delivered === 19);
    expect(await get(s, `/v1/messages/${m.id}/status`)).toEqual({ status: 'SENT', totalRecipients: 20, delivered: 19, bounced: 0, complained: 0 });
    const detail = await get(s, `${PATH}/${m.id}`);
    expect(detail).toMatchObject({ status: 'SENT', totalRecipients: 20, sentAt: expect.any(String), errorMessage: null });
    expect((await get(s, `${PATH}/sent`)).map((x: any) => x.id)).toEqual([m.id]);
    expect((await get(s, '/v1/messages?status=SENT')).map((x: any) => x.id)).toEqual([m.id]);

    // later reports change the counts: a bounce and a complaint arrive after sending
    const [bounced, complained] = ['p01@example.test', 'p02@example.test'].map((a) => rows.find((r) => r.address === a)!.mailMessageId!);
    await db().query(`UPDATE "MailMessage" SET "feedbackState" = 'BOUNCED', "feedbackAt" = now() WHERE id = $1`, [bounced]);
    await db().query(`UPDATE "MailMessage" SET "feedbackState" = 'COMPLAINED', "feedbackAt" = now() WHERE id = $1`, [complained]);
    const status = gqlData(await server.graphql(GQL.status, { id: m.id }, { token: s.team.apiKey })).messageStatus;
    expect(status).toEqual({ status: 'SENT', totalRecipients: 20, delivered: 17, bounced: 1, complained: 1 });
    expect(await get(s, `${PATH}/${m.id}/stats`)).toEqual({
      totalRecipients: 20, pending: 0, queued: 0, sent: 17, delivered: 0, bounced: 1, complained: 1, failed: 0, suppressed: 1, attempted: 19,
      deliveryRate: 0.8947, bounceRate: 0.0526, complaintRate: 0.0526,
    });

    // running the jobs again changes nothing
    const job = { teamId: String(s.team.teamId), outgoingMessageId: String(await internalId(s, m.id)) };
    await resolveRecipients(server.app.services, job);
    await sendBatch(server.app.services, job);
    await new Promise((r) => setTimeout(r, 500));
    expect(await recipientStates(s, m.id)).toHaveLength(20);
    expect(mailsOf(s.sender)).toHaveLength(19);
  });

  it('a batch that dies mid-way rolls back whole and its retry sends each recipient exactly once', { timeout: 90_000 }, async () => {
    const persons = Array.from({ length: 12 }, (_, i) => ({ first_name: `C${i}`, email: `c${String(i).padStart(2, '0')}@example.test` }));
    const s = await setup(persons);
    const m = await createDraft(server, s.team.apiKey, draftBody(s.people));
    // the database refuses the seventh recipient's mail: the batch's transaction fails half-way through
    await db().query(`CREATE OR REPLACE FUNCTION om_test_crash() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW."toAddresses"[1] = 'c06@example.test' THEN RAISE EXCEPTION 'simulated crash'; END IF; RETURN NEW; END $$`);
    await db().query(`CREATE TRIGGER om_test_crash BEFORE INSERT ON "MailMessage" FOR EACH ROW EXECUTE FUNCTION om_test_crash()`);
    try {
      await move(server, s.team.apiKey, m.id, 'SENDING');
      const id = String(await internalId(s, m.id));
      await until('the batch to fail once', async () => {
        const jobs = await server.app.services.jobs.boss.findJobs(SEND_BATCH, { data: { outgoingMessageId: id } });
        return jobs.some((j) => j.retryCount >= 1 || j.state === 'retry');
      });
      const rows = await recipientStates(s, m.id);
      expect(rows).toHaveLength(12);
      expect(rows.every((r) => r.state === 'PENDING' && r.mailMessageId === null)).toBe(true);
      expect(await server.app.services.prisma.mailMessage.count({ where: { teamId: s.team.teamId } })).toBe(0);
      expect(await server.app.services.prisma.constituentMessageDelivery.count({ where: { teamId: s.team.teamId } })).toBe(0);
      expect(await statusOf(s, m.id)).toBe('SENDING');
    } finally {
      await db().query('DROP TRIGGER IF EXISTS om_test_crash ON "MailMessage"');
      await db().query('DROP FUNCTION IF EXISTS om_test_crash()');
    }
    await until('the message to be SENT after the retry', async () => (await statusOf(s, m.id)) === 'SENT', 60_000);
    await until('12 mails', () => mailsOf(s.sender).length >= 12);
    await new Promise((r) => setTimeout(r, 500));
    const addresses = (await parsed(s.sender)).map((mail) => (mail.to as { value: { address: string }[] }).value[0]!.address).sort();
    expect(addresses).toEqual(persons.map((p) => p.email));
    expect(await server.app.services.prisma.constituentMessageDelivery.count({ where: { teamId: s.team.teamId } })).toBe(12);
  });

  it('the every-minute check picks up a send whose jobs were lost and finishes it', async () => {
    const s = await setup([{ first_name: 'Lost', email: 'lost@example.test' }, { first_name: 'Found', email: 'found@example.test' }]);
    const m = await createDraft(server, s.team.apiKey, draftBody(s.people));
    // SENDING for three minutes with no job of its own: as if pg-boss had lost the resolve job
    const id = await internalId(s, m.id);
    await db().query(`UPDATE "OutgoingMessage" SET status = 'SENDING', "sendStartedAt" = now() - interval '3 minutes' WHERE id = $1`, [id]);
    const repaired = await repairStalledSends(server.app.services);
    expect(repaired).toBeGreaterThanOrEqual(1);
    await until('the repaired message to be SENT', async () => (await statusOf(s, m.id)) === 'SENT');
    await until('both mails', () => mailsOf(s.sender).length >= 2);
    expect((await recipientStates(s, m.id)).map((r) => r.address).sort()).toEqual(['found@example.test', 'lost@example.test']);
    // a started send with its jobs in place is left alone
    const n = await createDraft(server, s.team.apiKey, draftBody(s.people));
    await move(server, s.team.apiKey, n.id, 'SENDING');
    await db().query(`UPDATE "OutgoingMessage" SET "sendStartedAt" = now() - interval '3 minutes' WHERE id = $1`, [await internalId(s, n.id)]);
    await repairStalledSends(server.app.services);
    await until('the second message to be SENT', async () => (await statusOf(s, n.id)) === 'SENT');
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsOf(s.sender)).toHaveLength(4);
  });

  it('starts scheduled messages at their time; a send nobody can receive ends ERROR_SENDING', async () => {
    const s = await setup([{ first_name: 'Ada', email: 'ada@example.test', city: 'London' }]);
    const lonely = await createPeople(server, s.team, 'Lonely');
    await addPeople(server, s.team, lonely, [{ first_name: 'Bob', email: 'bob@example.test' }]);
    const a = await createDraft(server, s.team.apiKey, draftBody(s.people));
    const b = await createDraft(server, s.team.apiKey, draftBody(lonely));
    await move(server, s.team.apiKey, a.id, 'SCHEDULED', { scheduledAt: seconds(2) });
    await move(server, s.team.apiKey, b.id, 'SCHEDULED', { scheduledAt: seconds(2) });
    // Bob unsubscribes before the message reaches him
    await server.app.services.prisma.mailSuppression.create({ data: { teamId: s.team.teamId, address: 'bob@example.test', reason: 'UNSUBSCRIBED' } });
    await until('the scheduled message to be SENT', async () => (await statusOf(s, a.id)) === 'SENT');
    await until('the mail', () => mailsOf(s.sender).length === 1);
    expect((await parsed(s.sender))[0]!.subject).toBe('Hello Ada');
    await until('the other to fail', async () => (await statusOf(s, b.id)) === 'ERROR_SENDING');
    expect(await get(s, `${PATH}/${b.id}`)).toMatchObject({ status: 'ERROR_SENDING', sentAt: null, totalRecipients: 1, errorMessage: expect.stringContaining('suppression list') });
    expect(await get(s, `/v1/messages/${b.id}/status`)).toEqual({ status: 'ERROR_SENDING', totalRecipients: 1, delivered: 0, bounced: 0, complained: 0 });
  });

  it('test-sends a rendered copy marked as a test, and nothing else', async () => {
    const s = await setup([{ first_name: '<i>Ada</i>', email: 'ada@example.test', city: 'London' }]);
    const other = await setup([{ first_name: 'Theirs', email: 'theirs@example.test' }]);
    const m = await createDraft(server, s.team.apiKey, draftBody(s.people));
    const answer = expectOk(await server.request('POST', `${PATH}/${m.id}/test-send`, { token: s.team.apiKey, body: { to: ['qa@example.test', 'boss@example.test'], dataRecordSimplyId: s.ids[0] } }));
    expect(answer.mailSimplyIds).toHaveLength(2);
    await until('two test mails', () => mailsOf(s.sender).length === 2);
    const mails = await parsed(s.sender);
    expect(mails.map((mail) => (mail.to as { value: { address: string }[] }).value[0]!.address).sort()).toEqual(['boss@example.test', 'qa@example.test']);
    for (const mail of mails) {
      expect(mail.subject).toBe('[TEST] Hello <i>Ada</i>');
      expect(mail.html).toContain('Dear &lt;i&gt;Ada&lt;/i&gt; of London');
    }
    const logged = expectOk(await server.request('GET', `/v1/mail-messages/${answer.mailSimplyIds[0]}`, { token: s.team.apiKey }));
    expect(logged).toMatchObject({ source: 'MESSAGE_COMPOSER_TEST', sourceId: m.id, to: ['qa@example.test'] });
    // without a record every tag is empty; over GraphQL too
    const viaGql = gqlData(await server.graphql(GQL.testSend, { id: m.id, input: { to: ['qa@example.test'] } }, { token: s.team.apiKey })).testSendOutgoingMessage;
    expect(viaGql.mailSimplyIds).toHaveLength(1);
    await until('the third mail', () => mailsOf(s.sender).length === 3);
    expect((await parsed(s.sender)).map((x) => x.subject)).toContain('[TEST] Hello');
    expect(await recipientStates(s, m.id)).toEqual([]);
    expect(await server.app.services.prisma.constituentMessageDelivery.count({ where: { teamId: s.team.teamId } })).toBe(0);
    expect(await statusOf(s, m.id)).toBe('DRAFT');

    const call = (body: unknown) => server.request('POST', `${PATH}/${m.id}/test-send`, { token: s.team.apiKey, body });
    for (const body of [{}, { to: [] }, { to: Array.from({ length: 6 }, (_, i) => `t${i}@example.test`) }, { to: ['not an address'] }, { to: ['a@example.test'], extra: 1 }, { to: ['a@example.test'], dataRecordSimplyId: 'x' }]) {
      expectError(await call(body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
    }
    expectError(await call({ to: ['a@example.test'], dataRecordSimplyId: other.ids[0] }), 404, 'NOT_FOUND');
    const noSubject = await createDraft(server, s.team.apiKey, draftBody(s.people, { subjectLine: null }));
    const refused = expectError(await server.request('POST', `${PATH}/${noSubject.id}/test-send`, { token: s.team.apiKey, body: { to: ['a@example.test'] } }), 409, 'NOT_READY_TO_SEND');
    expect(refused.details?.map((d: any) => d.code)).toEqual(['SUBJECT_MISSING']);
  });
});
