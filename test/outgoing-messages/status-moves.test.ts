// Status moves over REST and GraphQL, without workers: the transition table with and without the
// team's approval setting, every refusal and its code, self-approval, scheduling times, readiness
// blockers stopping a send, the jobs a move queues, and concurrent moves of one message.
import { beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/app/transaction.ts';
import { batchSizeFor, queueBatches, RESOLVE_RECIPIENTS, SEND_BATCH, START_DUE } from '../../src/modules/outgoing-messages/send-pipeline.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import type { CollectionFixture } from '../support/data-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { addPeople, addSender, createDraft, createPeople, draftBody, GQL, move, PATH } from './message-fixtures.ts';

const future = (minutes = 60) => new Date(Date.now() + minutes * 60_000).toISOString();

describe('outgoing messages: status moves', () => {
  const { server } = useServer({ ownDatabase: 'outgoing_status_moves' });
  let team: TeamFixture;
  let people: CollectionFixture;
  const status = async (id: string) => expectOk(await server.request('GET', `${PATH}/${id}`, { token: team.apiKey })).status;
  const put = (id: string, body: unknown, token = team.apiKey, teamId?: string) => server.request('PUT', `${PATH}/${id}/status`, { token, teamId, body });
  const jobsOf = async (queue: string, id: string) => {
    const row = await server.app.services.prisma.outgoingMessage.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: id } });
    return server.app.services.jobs.boss.findJobs(queue, { data: { outgoingMessageId: String(row.id) } });
  };
  const draft = (extra: Record<string, unknown> = {}) => createDraft(server, team.apiKey, draftBody(people, extra));

  beforeAll(async () => {
    team = await createTeam(server);
    await addSender(server, team);
    people = await createPeople(server, team);
    await addPeople(server, team, people, [{ first_name: 'Ada', email: 'ada@example.test', city: 'London' }]);
  });

  it('without approval: DRAFT → SCHEDULED → SCHEDULED (new time) → DRAFT → SENDING, and the jobs each move queues', async () => {
    const m = await draft();
    const when = future(30);
    const scheduled = await move(server, team.apiKey, m.id, 'SCHEDULED', { scheduledAt: when });
    expect(scheduled).toMatchObject({ status: 'SCHEDULED', scheduledAt: when });
    expect((await jobsOf(START_DUE, m.id)).map((j) => new Date(j.startAfter).toISOString())).toEqual([when]);
    const later = future(90);
    expect(await move(server, team.apiKey, m.id, 'SCHEDULED', { scheduledAt: later })).toMatchObject({ status: 'SCHEDULED', scheduledAt: later });
    expect((await move(server, team.apiKey, m.id, 'DRAFT')).status).toBe('DRAFT');
    // the stored scheduledAt is used when the body has none
    expect((await move(server, team.apiKey, m.id, 'SCHEDULED')).scheduledAt).toBe(later);
    const sending = await move(server, team.apiKey, m.id, 'SENDING');
    expect(sending).toMatchObject({ status: 'SENDING', sendStartedAt: expect.any(String), sentAt: null });
    expect(await jobsOf(RESOLVE_RECIPIENTS, m.id)).toHaveLength(1);
    // nothing moves a message out of SENDING but the platform; it cannot be changed any more
    for (const to of ['DRAFT', 'SENT', 'ERROR_SENDING', 'SCHEDULED', 'SENDING']) {
      const error = expectError(await put(m.id, { status: to }), 409, 'INVALID_STATUS_TRANSITION', to);
      expect(error.details).toEqual([{ field: 'status', message: `cannot move from SENDING to ${to}`, from: 'SENDING', to, allowed: [] }]);
    }
    expectError(await server.request('PUT', `${PATH}/${m.id}`, { token: team.apiKey, body: { internalName: 'late' } }), 409, 'MESSAGE_NOT_EDITABLE');
    expect(expectOk(await server.request('GET', `${PATH}/${m.id}/send-readiness`, { token: team.apiKey })).blockers.map((b: any) => b.code)).toEqual(['ALREADY_SENT']);
  });

  it('refuses moves the table lacks, with from, to and what is allowed', async () => {
    const m = await draft();
    const refused = expectError(await put(m.id, { status: 'AWAITING_APPROVAL' }), 409, 'INVALID_STATUS_TRANSITION');
    expect(refused.message).toContain('does not require approval');
    expect(refused.details).toEqual([{ field: 'status', message: 'cannot move from DRAFT to AWAITING_APPROVAL', from: 'DRAFT', to: 'AWAITING_APPROVAL', allowed: ['SCHEDULED', 'SENDING'] }]);
    for (const to of ['APPROVED', 'SENT', 'ERROR_SENDING', 'DRAFT']) expectError(await put(m.id, { status: to }), 409, 'INVALID_STATUS_TRANSITION', to);
    expect(expectError(await put(m.id, { status: 'SENT' }), 409, 'INVALID_STATUS_TRANSITION').message).toContain('only the platform');
    const cases: [unknown, string][] = [
      [{ status: 'PAUSED' }, 'status'],
      [{}, 'status'],
      [{ status: 'SENDING', scheduledAt: future() }, 'scheduledAt'],
      [{ status: 'SCHEDULED' }, 'scheduledAt'],
      [{ status: 'SCHEDULED', scheduledAt: '2020-01-01T00:00:00Z' }, 'scheduledAt'],
      [{ status: 'SCHEDULED', scheduledAt: 'soon' }, 'scheduledAt'],
      [{ status: 'SENDING', extra: true }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await put(m.id, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field)).toContain(field);
    }
    expect(await status(m.id)).toBe('DRAFT');
    expectGqlError(await server.graphql(GQL.setStatus, { id: m.id, input: { status: 'APPROVED' } }, { token: team.apiKey }), 'INVALID_STATUS_TRANSITION', 409);
  });

  it('readiness blockers stop scheduling and sending: 409 NOT_READY_TO_SEND lists them', async () => {
    const m = await draft({ subjectLine: null, htmlContent: 'Hi {{shoe_size}}' });
    for (const body of [{ status: 'SENDING' }, { status: 'SCHEDULED', scheduledAt: future() }]) {
      const error = expectError(await put(m.id, body), 409, 'NOT_READY_TO_SEND', JSON.stringify(body));
      expect(error.details?.map((d: any) => d.code).sort()).toEqual(['SUBJECT_MISSING', 'UNKNOWN_MERGE_TAGS']);
      expect(error.details?.every((d) => d.message.length > 0)).toBe(true);
    }
    expect(await status(m.id)).toBe('DRAFT');
    expect(await jobsOf(RESOLVE_RECIPIENTS, m.id)).toEqual([]);
  });

  it('with approval: DRAFT → AWAITING_APPROVAL → APPROVED (by someone else) → SENDING; withdraw and re-draft clear the approval', async () => {
    const t = await createTeam(server);
    await addSender(server, t);
    const tp = await createPeople(server, t);
    await addPeople(server, t, tp, [{ first_name: 'Ada', email: 'ada@example.test' }]);
    expectOk(await server.request('PUT', '/v1/message-settings', { token: t.apiKey, body: { approvalRequired: true } }));
    const m = await createDraft(server, t.apiKey, draftBody(tp));
    for (const to of ['SENDING', 'SCHEDULED']) {
      const error = expectError(await put(m.id, { status: to, ...(to === 'SCHEDULED' ? { scheduledAt: future() } : {}) }, t.apiKey), 409, 'APPROVAL_REQUIRED', to);
      expect(error.details?.[0]).toMatchObject({ field: 'status', from: 'DRAFT', to, allowed: ['AWAITING_APPROVAL'] });
    }
    expect((await move(server, t.apiKey, m.id, 'AWAITING_APPROVAL')).status).toBe('AWAITING_APPROVAL');
    expectError(await server.request('PUT', `${PATH}/${m.id}`, { token: t.apiKey, body: { internalName: 'sneaky' } }), 409, 'MESSAGE_NOT_EDITABLE');
    // withdraw, submit again
    expect((await move(server, t.apiKey, m.id, 'DRAFT')).status).toBe('DRAFT');
    await move(server, t.apiKey, m.id, 'AWAITING_APPROVAL');
    expectError(await put(m.id, { status: 'SENDING' }, t.apiKey), 409, 'INVALID_STATUS_TRANSITION');
    // four eyes: the creator cannot approve
    expectError(await put(m.id, { status: 'APPROVED' }, t.apiKey), 403, 'SELF_APPROVAL_FORBIDDEN');
    const approved = await move(server, t.userToken, m.id, 'APPROVED', {}, t.teamSimplyId);
    expect(approved).toMatchObject({ status: 'APPROVED', approvedAt: expect.any(String), approvedBy: t.userSimplyId });
    // back to DRAFT loses the approval
    const redrafted = await move(server, t.apiKey, m.id, 'DRAFT');
    expect(redrafted).toMatchObject({ status: 'DRAFT', approvedAt: null, approvedBy: null });
    await move(server, t.apiKey, m.id, 'AWAITING_APPROVAL');
    await move(server, t.userToken, m.id, 'APPROVED', {}, t.teamSimplyId);
    const scheduled = gqlData(await server.graphql(GQL.setStatus, { id: m.id, input: { status: 'SCHEDULED', scheduledAt: future(5) } }, { token: t.apiKey })).setOutgoingMessageStatus;
    expect(scheduled.status).toBe('SCHEDULED');
    expect((await move(server, t.apiKey, m.id, 'SENDING')).status).toBe('SENDING');
  });

  it('concurrent moves of one message: exactly one lands, the others are told where it is', async () => {
    const m = await draft();
    const answers = await Promise.all(Array.from({ length: 8 }, () => put(m.id, { status: 'SENDING' })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expectError(a, 409, 'INVALID_STATUS_TRANSITION');
      expect(a.body.error.details[0]).toMatchObject({ from: 'SENDING', to: 'SENDING' });
    }
    expect(await jobsOf(RESOLVE_RECIPIENTS, m.id)).toHaveLength(1);
    // an edit racing a send: never written after the move
    const n = await draft();
    const [edit, send] = await Promise.all([
      server.request('PUT', `${PATH}/${n.id}`, { token: team.apiKey, body: { internalName: 'edited' } }),
      put(n.id, { status: 'SENDING' }),
    ]);
    expect(send.status).toBe(200);
    if (edit.status !== 200) expectError(edit, 409, 'MESSAGE_NOT_EDITABLE');
    const row = expectOk(await server.request('GET', `${PATH}/${n.id}`, { token: team.apiKey }));
    expect(row.status).toBe('SENDING');
    expect(row.internalName).toBe(edit.status === 200 ? 'edited' : 'Spring newsletter');
  });

  it('spaces batch jobs of every send together: a second holds MESSAGE_SEND_RATE recipients in batches of at most 200', async () => {
    const { services } = server.app;
    const starts = async (job: { teamId: string; outgoingMessageId: string }) =>
      (await services.jobs.boss.findJobs(SEND_BATCH, { data: job })).map((j) => new Date(j.startAfter).getTime()).sort();
    // the default rate (200/s): one batch of 200 a second
    expect(batchSizeFor(services)).toBe(200);
    const a = { teamId: '1', outgoingMessageId: '900000001' };
    const b = { teamId: '2', outgoingMessageId: '900000002' };
    await inTransaction(services.pool, (db) => queueBatches(services, db, a, 3));
    await inTransaction(services.pool, (db) => queueBatches(services, db, b, 2));
    const [ofA, ofB] = [await starts(a), await starts(b)];
    expect(ofA.map((t) => t - ofA[0]!)).toEqual([0, 1000, 2000]);
    // the second send continues where the first left off: the rate is shared, not doubled
    expect(ofB.map((t) => t - ofA[0]!)).toEqual([3000, 4000]);
    await services.jobs.boss.deleteQueuedJobs(SEND_BATCH);
    // 1,000/s: five batches of 200 a second; 50/s: one batch of 50
    const fast = { ...services, config: { ...services.config, MESSAGE_SEND_RATE: 1000 } };
    expect(batchSizeFor(fast)).toBe(200);
    const c = { teamId: '3', outgoingMessageId: '900000003' };
    await inTransaction(services.pool, (db) => queueBatches(fast, db, c, 7));
    const ofC = await starts(c);
    expect(ofC.map((t) => t - ofC[0]!)).toEqual([0, 0, 0, 0, 0, 1000, 1000]);
    expect(batchSizeFor({ ...services, config: { ...services.config, MESSAGE_SEND_RATE: 50 } })).toBe(50);
    await services.jobs.boss.deleteQueuedJobs(SEND_BATCH);
  });
});
