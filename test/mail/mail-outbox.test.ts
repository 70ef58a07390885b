// Outgoing mail without SMTP_URL (the embedded default): services.mail.enqueue stores the message
// as STORED, team admins (or OUTGOING_MESSAGES_VIEW) read it over REST and GraphQL, nothing else
// does; enqueue validates its input and follows the caller's transaction. docs/api/mail.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverMail } from '../../src/modules/mail/mail-delivery.ts';
import type { SendMailJob } from '../../src/modules/mail/mail-queue.ts';
import type { OutgoingMail } from '../../src/modules/mail/mailer.ts';
import { mailId } from '../../src/modules/mail/mail.ids.ts';
import type { Job } from 'pg-boss';
import { ValidationError } from '../../src/app/errors.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { countSql } from '../support/sql-counter.ts';

const MAIL_ID = /^mail-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;
const SUMMARY_KEYS = ['attempts', 'bcc', 'cc', 'createdAt', 'errorMessage', 'feedbackAt', 'feedbackDetail', 'feedbackState', 'from', 'id', 'messageId', 'replyTo', 'sentAt', 'source', 'sourceId', 'status', 'subject', 'to', 'transport'];

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;

function mail(overrides: Partial<OutgoingMail> = {}, owner: TeamFixture = team): OutgoingMail {
  return { teamId: owner.teamId, to: ['ada@example.test'], subject: 'Hello', text: 'Plain body', source: 'SYSTEM', ...overrides };
}

const enqueue = (m: OutgoingMail) => server.app.services.mail.enqueue(m);
const get = (path: string, token = team.apiKey, teamId?: string) => server.request('GET', path, { token, teamId });

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  other = await createTeam(server);
});
afterAll(() => server?.close());

describe('outbox transport (no SMTP_URL)', () => {
  it('stores the message as STORED with the configured sender, readable in full by id', async () => {
    // everything but the sender reads back as given
    const given = {
      to: ['Ada Lovelace <ada@example.test>', 'grace@example.test'],
      cc: ['alan@example.test'],
      bcc: ['audit@example.test'],
      replyTo: 'Help Desk <help@example.test>',
      subject: 'Your case  is open',
      text: 'Line one\nLine two',
      html: '<p>Line one</p>',
      source: 'AUTOMATION' as const,
      sourceId: 'exe-2345-6789-ABCD',
    };
    const { simplyId } = await enqueue(mail(given));
    expect(simplyId).toMatch(MAIL_ID);
    const detail = expectOk(await get(`/v1/mail-messages/${simplyId}`));
    expect(detail).toEqual({
      ...given,
      id: simplyId,
      from: 'svc platform <no-reply@svc.invalid>',
      transport: 'OUTBOX',
      status: 'STORED',
      attempts: 0,
      messageId: null,
      errorMessage: null,
      feedbackState: null,
      feedbackAt: null,
      feedbackDetail: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      sentAt: null,
    });
    // nothing was queued for delivery
    const jobs = await server.app.services.jobs.boss.findJobs('mail.send', { data: { mailSimplyId: simplyId } });
    expect(jobs).toEqual([]);
  });

  it('keeps an explicit sender, normalizes address domains, and accepts an html-only message', async () => {
    const { simplyId } = await enqueue(mail({ from: '"Team A" <News@Example.TEST>', to: [' bob@EXAMPLE.test '], text: '', html: '<b>hi</b>' }));
    const detail = expectOk(await get(`/v1/mail-messages/${simplyId}`));
    expect(detail).toMatchObject({ from: 'Team A <News@example.test>', to: ['bob@example.test'], text: '', html: '<b>hi</b>' });
  });

  it('keeps a message queued for SMTP when the worker that picks it up has no SMTP_URL (STORED, with the reason)', async () => {
    const simplyId = mailId.create();
    await server.app.services.prisma.mailMessage.create({
      data: { simplyId, teamId: team.teamId, fromAddress: 'no-reply@svc.invalid', toAddresses: ['ada@example.test'], subject: 'Queued', textBody: 'x', transport: 'SMTP', source: 'SYSTEM' },
    });
    const job = { id: 'job', name: 'mail.send', retryCount: 0, data: { teamId: team.teamId.toString(), mailSimplyId: simplyId, attempts: 6 } } as Job<SendMailJob>;
    await deliverMail(server.app.services, null, job);
    const detail = expectOk(await get(`/v1/mail-messages/${simplyId}`));
    expect(detail).toMatchObject({ status: 'STORED', transport: 'OUTBOX', attempts: 0, errorMessage: expect.stringContaining('no SMTP_URL') });
  });
});

describe('listing', () => {
  let listTeam: TeamFixture;
  const ids: string[] = [];
  beforeAll(async () => {
    listTeam = await createTeam(server);
    for (let i = 0; i < 5; i++) ids.push((await enqueue(mail({ subject: `Message ${i}` }, listTeam))).simplyId);
    // one of each other status, written as delivery would leave them
    await server.app.services.prisma.mailMessage.update({ where: { teamId_simplyId: { teamId: listTeam.teamId, simplyId: ids[1]! } }, data: { status: 'FAILED', attempts: 6, errorMessage: '550 no' } });
    await server.app.services.prisma.mailMessage.update({ where: { teamId_simplyId: { teamId: listTeam.teamId, simplyId: ids[2]! } }, data: { status: 'SENT', attempts: 1, messageId: '<x@y>', sentAt: new Date() } });
  });

  it('pages newest first without bodies, and filters by status', async () => {
    const first = await get('/v1/mail-messages?limit=2', listTeam.apiKey);
    expect(first.status).toBe(200);
    expect(first.body.data.map((m: { id: string }) => m.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.meta.pagination).toEqual({ total: 5, limit: 2, offset: 0, hasMore: true });
    expect(Object.keys(first.body.data[0]).sort()).toEqual(SUMMARY_KEYS);

    const rest = await get('/v1/mail-messages?limit=2&offset=4', listTeam.apiKey);
    expect(rest.body.data.map((m: { id: string }) => m.id)).toEqual([ids[0]]);
    expect(rest.body.meta.pagination).toEqual({ total: 5, limit: 2, offset: 4, hasMore: false });

    const failed = expectOk(await get('/v1/mail-messages?status=FAILED', listTeam.apiKey));
    expect(failed).toEqual([expect.objectContaining({ id: ids[1], status: 'FAILED', attempts: 6, errorMessage: '550 no' })]);
    const stored = expectOk(await get('/v1/mail-messages?status=STORED', listTeam.apiKey));
    expect(stored.map((m: { id: string }) => m.id)).toEqual([ids[4], ids[3], ids[0]]);
  });

  it('answers the same over GraphQL', async () => {
    const data = gqlData(
      await server.graphql(
        `query($s: String) { mailMessages(limit: 10, status: $s) { nodes { mailSimplyId status messageId sentAt } pagination { total } } }`,
        { s: 'SENT' },
        { token: listTeam.apiKey },
      ),
    );
    expect(data.mailMessages).toEqual({
      nodes: [{ mailSimplyId: ids[2], status: 'SENT', messageId: '<x@y>', sentAt: expect.any(String) }],
      pagination: { total: 1 },
    });
  });

  it('reads the bodies only for the detail: one statement for a short list page', async () => {
    const sql = countSql(server.app.services.pool);
    sql.reset();
    await get('/v1/mail-messages?limit=10', listTeam.apiKey);
    const list = sql.statements.filter((s) => s.includes('"MailMessage"'));
    expect(list).toHaveLength(1);
    expect(list[0]).not.toMatch(/textBody|htmlBody/);
    sql.reset();
    await get(`/v1/mail-messages/${ids[0]}`, listTeam.apiKey);
    expect(sql.statements.filter((s) => s.includes('"MailMessage"'))[0]).toMatch(/textBody.*htmlBody|htmlBody.*textBody/s);
  });

  it('refuses bad paging, an unknown status and a malformed id with 400 naming the field', async () => {
    expect(expectError(await get('/v1/mail-messages?status=DELIVERED'), 400, 'VALIDATION_ERROR').details).toEqual([
      { field: 'status', message: expect.stringContaining('DELIVERED') },
    ]);
    expect(expectError(await get('/v1/mail-messages?limit=101'), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('limit');
    expect(expectError(await get('/v1/mail-messages?offset=-1'), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('offset');
    expect(expectError(await get('/v1/mail-messages/12'), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('mailSimplyId');
    expectError(await get('/v1/mail-messages/mail-2222-3333-4444'), 404, 'NOT_FOUND');
  });
});

describe('who may read', () => {
  let simplyId: string;
  beforeAll(async () => {
    ({ simplyId } = await enqueue(mail({ subject: 'Private' })));
  });

  it('lets a team-admin user and a non-admin holding OUTGOING_MESSAGES_VIEW read', async () => {
    expect(expectOk(await get(`/v1/mail-messages/${simplyId}`, team.userToken, team.teamSimplyId)).subject).toBe('Private');
    const viewerRole = await createRole(server, team, { name: 'Mail viewers', featurePermissions: [{ name: 'OUTGOING_MESSAGES_VIEW', level: 'VIEW' }] });
    const viewer = await addMember(server, team, { teamRoleSimplyId: viewerRole });
    expect(expectOk(await get(`/v1/mail-messages/${simplyId}`, viewer.token, team.teamSimplyId)).id).toBe(simplyId);
    const key = await createApiKey(server, team, { name: 'mail reader', featurePermissions: ['OUTGOING_MESSAGES_VIEW:VIEW'] });
    expect(expectOk(await get('/v1/mail-messages', key.key)).length).toBeGreaterThan(0);
  });

  it('refuses a non-admin role without OUTGOING_MESSAGES_VIEW, such a key, and session tokens (403)', async () => {
    const role = await createRole(server, team, { name: 'No mail', featurePermissions: [{ name: 'TEAM_SETTINGS', level: 'EDIT' }], dataFullAccess: 'EDIT' });
    const member = await addMember(server, team, { teamRoleSimplyId: role });
    expectError(await get(`/v1/mail-messages/${simplyId}`, member.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
    expectError(await get('/v1/mail-messages', member.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
    const key = await createApiKey(server, team, { name: 'no mail', featurePermissions: ['TEAM_SETTINGS'] });
    expectError(await get('/v1/mail-messages', key.key), 403, 'PERMISSION_DENIED');
    // a session token of the full admin key still carries OUTGOING_MESSAGES_VIEW, but it is a scoped token
    const session = expectOk(await server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: {} }), 201);
    expectError(await get(`/v1/mail-messages/${simplyId}`, session.token), 403, 'PERMISSION_DENIED');
    expectGqlError(await server.graphql(`{ mailMessages { nodes { id } } }`, {}, { token: session.token }), 'PERMISSION_DENIED', 403);
    expectError(await server.request('GET', '/v1/mail-messages'), 401, 'UNAUTHENTICATED');
  });

  it("hides one team's mail from another team's admin (404, not in the list)", async () => {
    expectError(await get(`/v1/mail-messages/${simplyId}`, other.apiKey), 404, 'NOT_FOUND');
    expectError(await get(`/v1/mail-messages/${simplyId}`, other.userToken, other.teamSimplyId), 404, 'NOT_FOUND');
    const theirs = expectOk(await get('/v1/mail-messages?limit=100', other.apiKey));
    expect(theirs.map((m: { id: string }) => m.id)).not.toContain(simplyId);
    // the GraphQL twin: the same answers
    const one = `query($id: String!) { mailMessage(mailSimplyId: $id) { mailSimplyId } }`;
    expect(gqlData(await server.graphql(one, { id: simplyId }, { token: team.apiKey })).mailMessage).toEqual({ mailSimplyId: simplyId });
    expectGqlError(await server.graphql(one, { id: simplyId }, { token: other.apiKey }), 'NOT_FOUND', 404);
    const list = gqlData(await server.graphql(`{ mailMessages(limit: 100) { nodes { mailSimplyId } } }`, {}, { token: other.apiKey })).mailMessages;
    expect(list.nodes.map((m: { mailSimplyId: string }) => m.mailSimplyId)).not.toContain(simplyId);
  });
});

describe("the caller's transaction", () => {
  it('stores nothing when the transaction rolls back, and the message when it commits', async () => {
    const { pool, prisma } = server.app.services;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const rolledBack = await server.app.services.mail.enqueue(mail({ subject: 'Never' }), client);
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      const committed = await server.app.services.mail.enqueue(mail({ subject: 'Kept' }), client);
      // not visible outside the transaction before it commits
      expect(await prisma.mailMessage.count({ where: { simplyId: committed.simplyId } })).toBe(0);
      await client.query('COMMIT');
      expect(await prisma.mailMessage.count({ where: { simplyId: rolledBack.simplyId } })).toBe(0);
      expect(await prisma.mailMessage.findFirst({ where: { simplyId: committed.simplyId }, select: { status: true } })).toEqual({ status: 'STORED' });
    } finally {
      client.release();
    }
  });
});

describe('validation', () => {
  const refused = async (m: OutgoingMail): Promise<ValidationError> => {
    const error = await enqueue(m).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  };
  const fields = (e: ValidationError) => (e.details ?? []).map((d) => d.field);

  it('refuses missing, malformed and too many recipients', async () => {
    expect(fields(await refused(mail({ to: [] })))).toEqual(['to']);
    expect(fields(await refused(mail({ to: ['not-an-address'] })))).toEqual(['to.0']);
    expect(fields(await refused(mail({ cc: ['ok@example.test', 'a@b'] })))).toEqual(['cc.1']);
    expect(fields(await refused(mail({ bcc: ['two@@example.test'] })))).toEqual(['bcc.0']);
    expect(fields(await refused(mail({ replyTo: 'nobody' })))).toEqual(['replyTo']);
    expect(fields(await refused(mail({ from: 'Name <>' })))).toEqual(['from']);
    const many = Array.from({ length: 51 }, (_, i) => `r${i}@example.test`);
    expect(fields(await refused(mail({ to: many })))).toEqual(['to']);
    const split = await refused(mail({ to: many.slice(0, 20), cc: many.slice(20, 40), bcc: many.slice(40) }));
    expect(split.details).toEqual([{ field: 'to', message: expect.stringContaining('at most 50') }]);
    // exactly 50 across the three lists is fine
    await expect(enqueue(mail({ to: many.slice(0, 20), cc: many.slice(20, 40), bcc: many.slice(40, 50) }))).resolves.toBeTruthy();
  });

  it('refuses header injection: CR or LF in the subject or in any address', async () => {
    expect(fields(await refused(mail({ subject: 'Hi\r\nBcc: victim@example.test' })))).toEqual(['subject']);
    expect(fields(await refused(mail({ subject: 'Hi\nthere' })))).toEqual(['subject']);
    expect(fields(await refused(mail({ to: ['a@example.test\r\nBcc: victim@example.test'] })))).toEqual(['to.0']);
    expect(fields(await refused(mail({ from: 'Evil\r\nBcc: x@example.test <a@example.test>' })))).toEqual(['from']);
    expect(fields(await refused(mail({ replyTo: 'a@example.test\nX-Spam: no' })))).toEqual(['replyTo']);
    expect(fields(await refused(mail({ sourceId: 'x\ny' })))).toEqual(['sourceId']);
  });

  it('refuses empty or oversized subjects and bodies, and unknown keys', async () => {
    expect(fields(await refused(mail({ subject: '  ' })))).toEqual(['subject']);
    expect(fields(await refused(mail({ subject: 'x'.repeat(256) })))).toEqual(['subject']);
    expect(fields(await refused(mail({ text: ' ', html: undefined })))).toEqual(['text']);
    expect(fields(await refused(mail({ text: 'x'.repeat(200_001) })))).toEqual(['text']);
    expect(fields(await refused(mail({ text: 'bad \u0000 byte' })))).toEqual(['text']);
    expect(fields(await refused(mail({ source: 'automation' })))).toEqual(['source']);
    expect(fields(await refused({ ...mail(), attachments: [] } as unknown as OutgoingMail))).toEqual(['attachments']);
  });

  it('stores nothing for a refused message', async () => {
    const before = await server.app.services.prisma.mailMessage.count({ where: { teamId: team.teamId } });
    await refused(mail({ to: ['nope'] }));
    expect(await server.app.services.prisma.mailMessage.count({ where: { teamId: team.teamId } })).toBe(before);
  });
});
