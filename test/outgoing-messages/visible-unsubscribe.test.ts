// The unsubscribe link a person sees (docs/api/outgoing-messages.md "Unsubscribe link"): composed
// messages sent through workers to a real SMTP sink carry each recipient's own link in the body:
// where the author wrote `{{unsubscribe_url}}`, else in a default footer of each body part. Opening
// the link (GET) only asks; the page's form confirms, and the address is then suppressed, so a later
// send skips it. A test copy shows a sample link that unsubscribes nobody. A database of the file's
// own keeps other files' workers off its jobs.
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../src/app/config.ts';
import { MASK } from '../../src/modules/communications/masking.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../support/smtp-sink.ts';
import { untilWith } from '../support/until.ts';
import { useServer } from '../support/use-server.ts';
import type { CollectionFixture } from '../support/data-fixtures.ts';
import { addPeople, addSender, createDraft, createPeople, draftBody, move, PATH, type Person, type SenderFixture } from './message-fixtures.ts';

const until = untilWith({ timeoutMs: 30_000, everyMs: 100 });
const FOOTER_TEXT = 'To stop receiving these messages, unsubscribe here: ';
const PEOPLE: Person[] = [
  { first_name: 'Ada', email: 'ada@example.test', city: 'London' },
  { first_name: 'Bob', email: 'bob@example.test', city: 'Leeds' },
];

interface Copy {
  address: string;
  mail: ParsedMail;
  received: ReceivedMail;
  /** the List-Unsubscribe link, or null */
  header: string | null;
}

describe('outgoing messages: the visible unsubscribe link', () => {
  const env: Partial<Env> = { MESSAGE_SEND_RATE: 1000 };
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    env.SMTP_URL = sink.url;
  });
  afterAll(() => sink?.close());
  const { server } = useServer({ ownDatabase: 'outgoing_visible_unsubscribe', runJobs: true, env });
  const prisma = () => server.app.services.prisma;

  interface Setup {
    team: TeamFixture;
    sender: SenderFixture;
    people: CollectionFixture;
  }
  async function setup(): Promise<Setup> {
    const team = await createTeam(server);
    const sender = await addSender(server, team);
    const people = await createPeople(server, team);
    await addPeople(server, team, people, PEOPLE);
    return { team, sender, people };
  }
  const receivedBy = (s: Setup) => sink.received.filter((m) => (m.headers.get('from') ?? '').includes(s.sender.domain));
  const statusOf = async (s: Setup, id: string) => expectOk(await server.request('GET', `${PATH}/${id}`, { token: s.team.apiKey })).status;

  /** Sends a draft with `overrides` to the people and answers the copies that arrived, by address. */
  async function send(s: Setup, overrides: Record<string, unknown> = {}, expected = PEOPLE.length): Promise<{ id: string; copies: Map<string, Copy> }> {
    const before = new Set(receivedBy(s));
    const m = await createDraft(server, s.team.apiKey, draftBody(s.people, overrides));
    const readiness = expectOk(await server.request('GET', `${PATH}/${m.id}/send-readiness`, { token: s.team.apiKey }));
    expect(readiness.blockers).toEqual([]);
    await move(server, s.team.apiKey, m.id, 'SENDING');
    await until('the message to be SENT', async () => (await statusOf(s, m.id)) === 'SENT');
    const fresh = () => receivedBy(s).filter((r) => !before.has(r));
    await until(`${expected} mails`, () => fresh().length >= expected);
    const copies = new Map<string, Copy>();
    for (const received of fresh()) {
      const mail = await simpleParser(received.raw);
      const address = (mail.to as { value: { address: string }[] }).value[0]!.address;
      const header = /^<(.+)>$/.exec(received.headers.get('list-unsubscribe') ?? '')?.[1] ?? null;
      copies.set(address, { address, mail, received, header });
    }
    return { id: m.id, copies };
  }

  const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!);
  const linkPattern = () => new RegExp(`^${server.baseUrl.replaceAll('.', '\\.')}/unsubscribe/[0-9a-f]{52}$`);
  const suppressionOf = (s: Setup, address: string) => prisma().mailSuppression.findFirst({ where: { teamId: s.team.teamId, address } });
  const confirm = (path: string) =>
    server.request('POST', path, { rawBody: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  it('puts each recipient\'s own link in a footer of both parts; GET asks, the page\'s form unsubscribes, a later send skips them', async () => {
    const s = await setup();
    const first = await send(s);
    expect([...first.copies.keys()].sort()).toEqual(['ada@example.test', 'bob@example.test']);
    const links = new Map<string, string>();
    for (const copy of first.copies.values()) {
      // the link the header carries, and nothing left of the slot the mailer fills
      expect(copy.header).toMatch(linkPattern());
      expect(copy.received.raw).not.toContain('svc-unsubscribe-url-');
      const html = copy.mail.html as string;
      expect(html).toContain('spring is here.</p><p style=');
      expect(html).toMatch(/<p style="[^"]*font-size:12px[^"]*">To stop receiving these messages, <a href="[^"]+"[^>]*>unsubscribe here<\/a>\.<\/p>$/);
      expect(hrefs(html)).toEqual([copy.header]);
      const text = copy.mail.text!.trim();
      const first_name = copy.address === 'ada@example.test' ? 'Ada' : 'Bob';
      expect(text.startsWith(`Dear ${first_name} of `)).toBe(true);
      expect(text.endsWith(`${FOOTER_TEXT}${copy.header}`)).toBe(true);
      links.set(copy.address, copy.header!);
    }
    // each recipient their own
    expect(new Set(links.values()).size).toBe(2);

    // a browser (or a link scanner) opening it: a page that asks, and nothing changes
    const ada = new URL(links.get('ada@example.test')!).pathname;
    const page = await server.request('GET', ada);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<form method="post">');
    expect(page.text).toContain('<input type="hidden" name="List-Unsubscribe" value="One-Click">');
    expect(page.text).not.toContain('ada@example.test');
    expect((await server.request('HEAD', ada)).status).toBe(200);
    expect(await suppressionOf(s, 'ada@example.test')).toBeNull();

    // confirming posts the page's form to the page's own URL
    const done = await confirm(ada);
    expect(done.status).toBe(200);
    expect(done.text).toContain('You are unsubscribed');
    const adaRow = await prisma().outgoingMessageRecipient.findFirstOrThrow({ where: { teamId: s.team.teamId, address: 'ada@example.test' } });
    expect(await suppressionOf(s, 'ada@example.test')).toMatchObject({ reason: 'UNSUBSCRIBED', mailMessageId: adaRow.mailMessageId });
    expect(await suppressionOf(s, 'bob@example.test')).toBeNull();

    // the history keeps the copies with the link masked, like any credential
    const history = await prisma().constituentMessageDelivery.findMany({ where: { teamId: s.team.teamId } });
    expect(history).toHaveLength(2);
    for (const row of history) {
      expect(row.renderedText).toContain(`${FOOTER_TEXT}${MASK}`);
      expect(row.renderedHtml).toContain(`<a href="${MASK}"`);
      expect(row.sensitivity).toBe('SENSITIVE');
    }

    // the next message reaches Bob only
    const second = await send(s, { internalName: 'Summer newsletter' }, 1);
    expect([...second.copies.keys()]).toEqual(['bob@example.test']);
    const message = await prisma().outgoingMessage.findFirstOrThrow({ where: { teamId: s.team.teamId, simplyId: second.id } });
    const rows = await prisma().outgoingMessageRecipient.findMany({ where: { teamId: s.team.teamId, outgoingMessageId: message.id } });
    expect(Object.fromEntries(rows.map((r) => [r.address, r.state]))).toEqual({ 'ada@example.test': 'SUPPRESSED', 'bob@example.test': expect.stringMatching(/^(QUEUED|SENT)$/) });
    // Bob's new copy has a new link: the one of that copy
    expect(second.copies.get('bob@example.test')!.header).not.toBe(links.get('bob@example.test'));
  });

  it('puts the link where {{unsubscribe_url}} stands and adds no footer there; a part without the tag still gets one', async () => {
    const s = await setup();
    const { copies } = await send(s, {
      htmlContent: '<p>Hi {{first_name}}</p><p><a href="{{unsubscribe_url}}" title="{{ unsubscribe_url }}">Leave the list</a></p>',
      textContent: 'Hi {{first_name}}. Leave the list: {{unsubscribe_url}}',
    });
    for (const copy of copies.values()) {
      const html = copy.mail.html as string;
      expect(html).toBe(`<p>Hi ${copy.address === 'ada@example.test' ? 'Ada' : 'Bob'}</p><p><a href="${copy.header}" title="${copy.header}">Leave the list</a></p>`);
      expect(copy.mail.text!.trim()).toBe(`Hi ${copy.address === 'ada@example.test' ? 'Ada' : 'Bob'}. Leave the list: ${copy.header}`);
      expect(copy.header).toMatch(linkPattern());
    }
    expect(copies.get('ada@example.test')!.header).not.toBe(copies.get('bob@example.test')!.header);
    // the link works from where the author put it
    const bob = new URL(hrefs(copies.get('bob@example.test')!.mail.html as string)[0]!).pathname;
    expect((await server.request('GET', bob)).status).toBe(200);
    expect(await suppressionOf(s, 'bob@example.test')).toBeNull();
    expect((await confirm(bob)).status).toBe(200);
    expect(await suppressionOf(s, 'bob@example.test')).toMatchObject({ reason: 'UNSUBSCRIBED' });

    // the tag in the HTML only: the text part gets the footer; a whole document gets it before </body>
    const t = await setup();
    const mixed = await send(t, {
      htmlContent: '<html><body><p>Hi {{first_name}}</p><p><a href="{{unsubscribe_url}}">Leave</a></p></body></html>',
      textContent: 'Hi {{first_name}}.',
    });
    for (const copy of mixed.copies.values()) {
      expect(copy.mail.html).not.toContain('To stop receiving');
      expect(hrefs(copy.mail.html as string)).toEqual([copy.header]);
      expect(copy.mail.text!.trim()).toMatch(new RegExp(`^Hi (Ada|Bob)\\.\\n\\n${FOOTER_TEXT}${copy.header!.replaceAll('.', '\\.')}$`));
    }
    const documentHtml = await send(t, { internalName: 'Document', htmlContent: '<html><body><p>Hi {{first_name}}</p></body></html>', textContent: null });
    for (const copy of documentHtml.copies.values()) {
      expect(copy.mail.html).toMatch(/<p>Hi (Ada|Bob)<\/p><p style="[^"]*">To stop receiving these messages, <a href="[^"]+"[^>]*>unsubscribe here<\/a>\.<\/p><\/body><\/html>\s*$/);
      expect(hrefs(copy.mail.html as string)).toEqual([copy.header]);
    }
  });

  it('plain-text messages get the footer line; the tag in a subject is an unknown tag', async () => {
    const s = await setup();
    const { copies } = await send(s, { contentType: 'PLAIN_TEXT', htmlContent: null, textContent: 'Hello {{first_name}}.' });
    for (const copy of copies.values()) {
      expect(copy.mail.html).toBe(false);
      expect(copy.mail.text!.trim()).toBe(`Hello ${copy.address === 'ada@example.test' ? 'Ada' : 'Bob'}.\n\n${FOOTER_TEXT}${copy.header}`);
    }
    const m = await createDraft(server, s.team.apiKey, draftBody(s.people, { subjectLine: 'News {{unsubscribe_url}}' }));
    const readiness = expectOk(await server.request('GET', `${PATH}/${m.id}/send-readiness`, { token: s.team.apiKey }));
    expect(readiness.ready).toBe(false);
    expect(readiness.blockers).toEqual([{ code: 'UNKNOWN_MERGE_TAGS', message: expect.stringContaining('{{unsubscribe_url}}') }]);
  });

  it('a test copy shows the footer with a sample link that says so and unsubscribes nobody', async () => {
    const s = await setup();
    const m = await createDraft(server, s.team.apiKey, draftBody(s.people));
    const tagged = await createDraft(server, s.team.apiKey, draftBody(s.people, { internalName: 'Tagged', textContent: 'Leave: {{unsubscribe_url}}' }));
    expectOk(await server.request('POST', `${PATH}/${m.id}/test-send`, { token: s.team.apiKey, body: { to: ['qa@example.test'] } }));
    expectOk(await server.request('POST', `${PATH}/${tagged.id}/test-send`, { token: s.team.apiKey, body: { to: ['qa@example.test'] } }));
    await until('two test copies', () => receivedBy(s).length === 2);
    const sample = `${server.baseUrl}/unsubscribe/test-copy`;
    const [plain, withTag] = await Promise.all(receivedBy(s).map((r) => simpleParser(r.raw)));
    const byText = [plain!, withTag!].sort((a, b) => (a.text!.startsWith('Leave') ? 1 : 0) - (b.text!.startsWith('Leave') ? 1 : 0));
    expect(byText[0]!.text!.trim().endsWith(`${FOOTER_TEXT}${sample}`)).toBe(true);
    expect(hrefs(byText[0]!.html as string)).toEqual([sample]);
    expect(byText[1]!.text!.trim()).toBe(`Leave: ${sample}`);
    for (const r of receivedBy(s)) expect(r.headers.has('list-unsubscribe')).toBe(false);

    for (const method of ['GET', 'POST']) {
      const res = method === 'GET' ? await server.request('GET', '/unsubscribe/test-copy') : await confirm('/unsubscribe/test-copy');
      expect(res.status).toBe(200);
      expect(res.text).toContain('test copy');
      expect(res.text).not.toContain('<form');
    }
    expect(await prisma().mailSuppression.count({ where: { teamId: s.team.teamId } })).toBe(0);
  });
});
