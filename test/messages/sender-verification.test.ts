// Single-sender verification end to end, with real jobs and a real SMTP sink: a sender on an
// address nobody proved is created PENDING and its address is mailed a confirmation link; the link
// shows a page (GET changes nothing) whose button (POST) verifies that one sender; a used, replaced,
// expired or unknown link gets a page with 404 or 410; resending has a cooldown; a pending sender
// cannot send; verified and operator pre-verified domains verify at once without mail; other teams
// see nothing. A database of the file's own keeps other files' workers off its mail jobs.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../src/app/config.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { MESSAGE_SENDER } from '../../src/modules/messages/messages.fragments.ts';
import { startDnsServer, type LocalDnsServer } from '../support/dns-server.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { untilWith } from '../support/until.ts';
import { useServer } from '../support/use-server.ts';
import { addPeople, createDraft, createPeople, draftBody, move, PATH as OUTGOING } from '../outgoing-messages/message-fixtures.ts';

const PATH = '/v1/message-senders';
const PAGE = '/sender-verification/';
const PREVERIFIED = `pre-${process.pid}-${randomBytes(3).toString('hex')}.example`;
const until = untilWith({ timeoutMs: 30_000, everyMs: 100 });
const GQL = {
  resend: operation(['mutation($id: String!) { resendMessageSenderVerification(messageSenderSimplyId: $id) { ', ' } }'], MESSAGE_SENDER),
};

type Sender = { id: string; emailAddress: string; verificationStatus: string; verifiedAt: string | null; isDefault: boolean };

const mailbox = (label = 'news') => `${label}-${randomBytes(4).toString('hex')}@mailbox-${randomBytes(3).toString('hex')}.example`;

describe('sender verification', () => {
  const env: Partial<Env> = { MAIL_PREVERIFIED_DOMAINS: `other.example, ${PREVERIFIED.toUpperCase()}` };
  let sink: SmtpSink;
  let dns: LocalDnsServer;
  beforeAll(async () => {
    sink = await startSmtpSink();
    dns = await startDnsServer();
    env.SMTP_URL = sink.url;
    env.MAIL_DOMAIN_DNS_SERVERS = dns.address;
  });
  afterAll(async () => {
    await sink?.close();
    dns?.close();
  });
  const { server, teams: [team, other] } = useServer({ teams: 2, runJobs: true, ownDatabase: 'sender_verification', env });
  const db = () => server.app.services.prisma;

  const create = async (t: TeamFixture, body: Record<string, unknown>): Promise<Sender> => expectOk(await server.request('POST', PATH, { token: t.apiKey, body }), 201);
  const list = async (t: TeamFixture): Promise<Sender[]> => expectOk(await server.request('GET', `${PATH}?limit=100`, { token: t.apiKey }));
  const read = async (t: TeamFixture, id: string) => (await list(t)).find((s) => s.id === id);
  const resend = (t: TeamFixture, id: string) => server.request('POST', `${PATH}/${id}/resend-verification`, { token: t.apiKey });
  const page = (method: string, token: string) => server.request(method, `${PAGE}${token}`);

  /** Every confirmation link mailed to `address`, oldest first. */
  const linksTo = (address: string) =>
    sink.received
      .filter((m) => m.rcptTo.includes(address))
      .flatMap((m) => [...m.raw.replace(/=\r\n/g, '').matchAll(/https?:\/\/\S+?\/sender-verification\/(svc_msv_[A-Za-z0-9_-]{43})/g)].map((x) => ({ url: x[0], token: x[1]! })));
  const mailedToken = (address: string, n = 1) => until(`confirmation ${n} mailed to ${address}`, async () => linksTo(address)[n - 1]?.token ?? null);
  const verificationMails = (senderId: string) => db().mailMessage.count({ where: { source: 'SENDER_VERIFICATION', sourceId: senderId } });

  it('an address on an unverified domain: PENDING, a link mailed; GET asks, POST verifies that one address; the link again is refused', async () => {
    const address = mailbox();
    const sender = await create(team, { name: 'Clinic news', emailAddress: address });
    expect(sender).toMatchObject({ emailAddress: address, verificationStatus: 'PENDING', verifiedAt: null, isDefault: true });

    const token = await mailedToken(address);
    const mail = sink.received.find((m) => m.rcptTo.includes(address))!;
    expect(linksTo(address)[0]!.url).toBe(`${server.baseUrl}${PAGE}${token}`);
    // the platform's own From and envelope sender, never the address being proven
    expect(mail.headers.get('from')).not.toContain(address);
    expect(mail.mailFrom).not.toBe(address);
    expect(mail.headers.get('subject')).toBe('Confirm this address as a sender');
    // only a keyed hash of the token is stored
    const row = await db().messageSender.findFirstOrThrow({ where: { simplyId: sender.id } });
    expect(row.verificationTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(token.slice('svc_msv_'.length));
    expect(row.verificationExpiresAt!.getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
    // the team's mail log withholds the content: nobody in the team confirms the address from there
    const logged = await db().mailMessage.findFirstOrThrow({ where: { source: 'SENDER_VERIFICATION', sourceId: sender.id } });
    const shownInLog = expectOk(await server.request('GET', `/v1/mail-messages/${logged.simplyId}`, { token: team.apiKey }));
    expect(JSON.stringify(shownInLog)).not.toContain(token);
    expect(shownInLog.text).toContain('withheld');

    // GET (what a mail scanner does) only shows the page
    for (const method of ['GET', 'HEAD']) {
      const shown = await page(method, token);
      expect(shown.status, method).toBe(200);
      expect(shown.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(shown.headers.get('cache-control')).toBe('no-store');
      expect(shown.headers.get('referrer-policy')).toBe('no-referrer');
    }
    const shown = await page('GET', token);
    expect(shown.text).toContain('<form method="post">');
    expect(shown.text).toContain(address);
    expect(shown.text).toContain((await db().team.findUniqueOrThrow({ where: { id: team.teamId } })).name);
    expect((await read(team, sender.id))!.verificationStatus).toBe('PENDING');
    expectError(await page('PUT', token), 405, 'METHOD_NOT_ALLOWED');

    // the button
    const done = await page('POST', token);
    expect(done.status).toBe(200);
    expect(done.text).toContain('Address confirmed');
    const verified = (await read(team, sender.id))!;
    expect(verified.verificationStatus).toBe('VERIFIED');
    expect(Date.parse(verified.verifiedAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect((await db().messageSender.findFirstOrThrow({ where: { simplyId: sender.id } })).verificationTokenHash).toBeNull();

    // single use
    for (const method of ['GET', 'POST']) {
      const again = await page(method, token);
      expect(again.status, method).toBe(404);
      expect(again.text).toContain('This link is not valid');
    }
    // one address, not its domain: another address there waits for its own link
    const neighbour = await create(team, { name: 'Neighbour', emailAddress: `other@${address.split('@')[1]}` });
    expect(neighbour.verificationStatus).toBe('PENDING');
    expectError(await resend(team, sender.id), 409, 'CONFLICT');
  });

  it('unknown and malformed tokens get the not-valid page (404), never a 500', async () => {
    const address = mailbox();
    await create(team, { name: 'x', emailAddress: address });
    const token = await mailedToken(address);
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const path of [`${PAGE}${flipped}`, `${PAGE}${token.slice(0, 20)}`, `${PAGE}svc_msv_${'A'.repeat(43)}`, PAGE, `${PAGE}${token}/more`, `${PAGE}%00%ff`, `${PAGE}${'x'.repeat(5000)}`]) {
      for (const method of ['GET', 'POST']) {
        const answer = await server.request(method, path);
        expect(answer.status, `${method} ${path.slice(0, 60)}`).toBe(404);
        expect(answer.text).toContain('This link is not valid');
      }
    }
  });

  it('an expired link is refused (410) and changes nothing; a resend (after the cooldown) replaces it with one that works', async () => {
    const address = mailbox();
    const sender = await create(team, { name: 'Expiring', emailAddress: address });
    const first = await mailedToken(address);
    await db().messageSender.updateMany({ where: { simplyId: sender.id }, data: { verificationExpiresAt: new Date(Date.now() - 1000) } });
    for (const method of ['GET', 'POST']) {
      const answer = await page(method, first);
      expect(answer.status, method).toBe(410);
      expect(answer.text).toContain('This link has expired');
    }
    expect((await read(team, sender.id))!.verificationStatus).toBe('PENDING');

    // the mail went out moments ago: too soon
    const tooSoon = expectError(await resend(team, sender.id), 429, 'RATE_LIMIT_EXCEEDED');
    expect(tooSoon).toBeTruthy();
    expect(Number((await resend(team, sender.id)).headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await verificationMails(sender.id)).toBe(1);

    await db().messageSender.updateMany({ where: { simplyId: sender.id }, data: { verificationSentAt: new Date(Date.now() - 120_000) } });
    // two at once: one mail
    const both = await Promise.all([resend(team, sender.id), resend(team, sender.id)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 429]);
    expect((both.find((r) => r.status === 200)!.body as any).data.verificationStatus).toBe('PENDING');
    expect(await verificationMails(sender.id)).toBe(2);
    const second = await mailedToken(address, 2);
    expect(second).not.toBe(first);
    // the replaced link is no longer valid, even once the new one is used
    expect((await page('POST', first)).status).toBe(404);
    expect((await page('POST', second)).status).toBe(200);
    expect((await read(team, sender.id))!.verificationStatus).toBe('VERIFIED');
    expect((await page('POST', first)).status).toBe(404);
  });

  it('a pending sender cannot be used to send or test-send a composed message', async () => {
    const t = await createTeam(server);
    const address = mailbox();
    const sender = await create(t, { name: 'Pending', emailAddress: address });
    expect(sender).toMatchObject({ verificationStatus: 'PENDING', isDefault: true });
    const people = await createPeople(server, t);
    for (const body of [draftBody(people, { messageSenderSimplyId: sender.id }), draftBody(people)]) {
      const m = await createDraft(server, t.apiKey, body);
      const readiness = expectOk(await server.request('GET', `${OUTGOING}/${m.id}/send-readiness`, { token: t.apiKey }));
      expect(readiness.ready).toBe(false);
      expect(readiness.blockers.map((b: { code: string }) => b.code)).toContain('SENDER_UNVERIFIED');
      const testSend = expectError(await server.request('POST', `${OUTGOING}/${m.id}/test-send`, { token: t.apiKey, body: { to: ['qa@example.test'] } }), 409, 'NOT_READY_TO_SEND');
      expect(testSend.details?.map((d: any) => d.code)).toEqual(['SENDER_UNVERIFIED']);
      expectError(await server.request('PUT', `${OUTGOING}/${m.id}/status`, { token: t.apiKey, body: { status: 'SENDING' } }), 409, 'NOT_READY_TO_SEND');
    }
    // only the confirmation mail went to the address; nothing to the test recipient
    expect(sink.received.some((m) => m.rcptTo.includes('qa@example.test'))).toBe(false);
  });

  it('a confirmed sender and a sender on a pre-verified domain can send and test-send a composed message', async () => {
    const t = await createTeam(server);
    const people = await createPeople(server, t);
    const reader = `reader-${randomBytes(4).toString('hex')}@example.test`;
    await addPeople(server, t, people, [{ first_name: 'Ada', email: reader, city: 'Oslo' }]);
    const confirmed = await create(t, { name: 'Confirmed', emailAddress: mailbox('confirmed') });
    expect((await page('POST', await mailedToken(confirmed.emailAddress))).status).toBe(200);
    const vouched = await create(t, { name: 'Vouched', emailAddress: `letters-${randomBytes(3).toString('hex')}@${PREVERIFIED}` });
    expect(vouched.verificationStatus).toBe('VERIFIED');

    for (const sender of [confirmed, vouched]) {
      const m = await createDraft(server, t.apiKey, draftBody(people, { messageSenderSimplyId: sender.id }));
      const readiness = expectOk(await server.request('GET', `${OUTGOING}/${m.id}/send-readiness`, { token: t.apiKey }));
      expect(readiness, sender.emailAddress).toMatchObject({ ready: true, blockers: [] });
      const qa = `qa-${randomBytes(4).toString('hex')}@example.test`;
      expect((await server.request('POST', `${OUTGOING}/${m.id}/test-send`, { token: t.apiKey, body: { to: [qa] } })).status).toBeLessThan(300);
      const copy = await until(`the test copy from ${sender.emailAddress}`, async () => sink.received.find((x) => x.rcptTo.includes(qa)) ?? null);
      expect(copy.headers.get('from')).toContain(sender.emailAddress);
    }
    // and a real send, from the confirmed address
    const m = await createDraft(server, t.apiKey, draftBody(people, { messageSenderSimplyId: confirmed.id }));
    await move(server, t.apiKey, m.id, 'SENDING');
    const sent = await until('the sent message', async () => sink.received.find((x) => x.rcptTo.includes(reader)) ?? null);
    expect(sent.headers.get('from')).toContain(confirmed.emailAddress);
  });

  it('a sender on a VERIFIED domain of the team or on a pre-verified domain is VERIFIED at once, without mail', async () => {
    const pre = await create(team, { name: 'Operator vouched', emailAddress: `news@${PREVERIFIED}` });
    expect(pre).toMatchObject({ verificationStatus: 'VERIFIED', verifiedAt: expect.any(String) });
    // for every team
    const theirs = await create(other, { name: 'Also vouched', emailAddress: `info@${PREVERIFIED}` });
    expect(theirs.verificationStatus).toBe('VERIFIED');

    const d = expectOk(await server.request('POST', `${PATH}/domains`, { token: team.apiKey, body: { domain: `v-${randomBytes(4).toString('hex')}.example` } }), 201);
    dns.txt.set(d.verification.recordName, [d.verification.recordValue]);
    expect(expectOk(await server.request('POST', `${PATH}/domains/${d.id}/verify`, { token: team.apiKey })).status).toBe('VERIFIED');
    const onDomain = await create(team, { name: 'Domain', emailAddress: `hello@${d.domain}` });
    expect(onDomain.verificationStatus).toBe('VERIFIED');

    for (const s of [pre, theirs, onDomain]) expect(await verificationMails(s.id), s.emailAddress).toBe(0);
    expectError(await resend(team, pre.id), 409, 'CONFLICT');
  });

  it('verifying the domain verifies its pending senders and spends their links; a pending domain stays deletable', async () => {
    const t = await createTeam(server);
    const d = expectOk(await server.request('POST', `${PATH}/domains`, { token: t.apiKey, body: { domain: `p-${randomBytes(4).toString('hex')}.example` } }), 201);
    const sender = await create(t, { name: 'Early', emailAddress: `early@${d.domain}` });
    expect(sender.verificationStatus).toBe('PENDING');
    const token = await mailedToken(sender.emailAddress);
    dns.txt.set(d.verification.recordName, [d.verification.recordValue]);
    expect(expectOk(await server.request('POST', `${PATH}/domains/${d.id}/verify`, { token: t.apiKey })).status).toBe('VERIFIED');
    expect((await read(t, sender.id))!.verificationStatus).toBe('VERIFIED');
    expect((await page('GET', token)).status).toBe(404);
    // now the domain vouches for it: deleting the domain is refused while it is active
    expectError(await server.request('DELETE', `${PATH}/domains/${d.id}`, { token: t.apiKey }), 409, 'CONFLICT');

    const pending = expectOk(await server.request('POST', `${PATH}/domains`, { token: t.apiKey, body: { domain: `q-${randomBytes(4).toString('hex')}.example` } }), 201);
    await create(t, { name: 'Waiting', emailAddress: `w@${pending.domain}` });
    expectOk(await server.request('DELETE', `${PATH}/domains/${pending.id}`, { token: t.apiKey }));
  });

  it("another team cannot see or resend a sender (404), and a link verifies only the sender it was mailed for", async () => {
    const address = mailbox('shared');
    const mine = await create(team, { name: 'Mine', emailAddress: address });
    const first = await mailedToken(address);
    await db().messageSender.updateMany({ where: { simplyId: mine.id }, data: { verificationSentAt: new Date(Date.now() - 120_000) } });
    expectError(await resend(other, mine.id), 404, 'NOT_FOUND');
    expectGqlError(await server.graphql(GQL.resend, { id: mine.id }, { token: other.apiKey }), 'NOT_FOUND', 404);
    expect((await list(other)).map((s) => s.id)).not.toContain(mine.id);
    expect(await verificationMails(mine.id)).toBe(1);

    // the same address in another team is a sender of its own, with its own link
    const theirs = await create(other, { name: 'Theirs', emailAddress: address });
    const second = await mailedToken(address, 2);
    expect(second).not.toBe(first);
    expect((await page('POST', first)).status).toBe(200);
    expect((await read(team, mine.id))!.verificationStatus).toBe('VERIFIED');
    expect((await read(other, theirs.id))!.verificationStatus).toBe('PENDING');

    // GraphQL resend for the caller's own pending sender
    await db().messageSender.updateMany({ where: { simplyId: theirs.id }, data: { verificationSentAt: new Date(Date.now() - 120_000) } });
    const resent = gqlData(await server.graphql(GQL.resend, { id: theirs.id }, { token: other.apiKey })).resendMessageSenderVerification;
    expect(resent).toMatchObject({ id: theirs.id, verificationStatus: 'PENDING', verifiedAt: null });
    expect((await page('POST', second)).status).toBe(404);
    expect((await page('POST', await mailedToken(address, 3))).status).toBe(200);
    expect((await read(other, theirs.id))!.verificationStatus).toBe('VERIFIED');
  });

  it('an archived pending sender: its link is not valid and resending is 404', async () => {
    const address = mailbox();
    const sender = await create(team, { name: 'Gone', emailAddress: address });
    const token = await mailedToken(address);
    expectOk(await server.request('DELETE', `${PATH}/${sender.id}`, { token: team.apiKey }));
    expect((await page('POST', token)).status).toBe(404);
    expectError(await resend(team, sender.id), 404, 'NOT_FOUND');
  });
});
