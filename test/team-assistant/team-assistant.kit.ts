// The team assistant in the route-table suites (test/support/area-kit.ts): a finished run of the
// team admin's in the route world (written as a run writes it: there is no model in these suites),
// and the races of its write routes. The suites' model is a closed port: a run they start fails
// at once, so a repeated send answers 202, or 409 TEAM_AGENT_RUN_FAILED once its run failed.
import { randomBytes, randomUUID } from 'node:crypto';
import { hashToken } from '../../src/app/auth/tokens.ts';
import { isDeepStrictEqual } from 'node:util';
import { expectSame, expectSuccesses } from '../concurrency/race-checks.ts';
import type { RaceKit, RaceTable } from '../concurrency/race-kit.ts';
import { PERSON_ONLY } from '../concurrency/race-person.ts';
import type { AreaTestKit } from '../support/area-kit.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { assistantMessageId, assistantProposalId, assistantRunId, assistantSessionId } from '../../src/modules/team-assistant/team-assistant.ids.ts';

/** A session of the team admin with one question, its reply and their COMPLETED run. */
async function finishedRun(server: TestServer, team: TeamFixture, title: string) {
  const { prisma } = server.app.services;
  const user = await prisma.user.findUniqueOrThrow({ where: { simplyId: team.userSimplyId }, select: { id: true } });
  const session = await prisma.assistantSession.create({ data: { simplyId: assistantSessionId.create(), teamId: team.teamId, userId: user.id, title } });
  const question = await prisma.assistantMessage.create({ data: { simplyId: assistantMessageId.create(), teamId: team.teamId, sessionId: session.id, role: 'USER', content: title } });
  const reply = await prisma.assistantMessage.create({ data: { simplyId: assistantMessageId.create(), teamId: team.teamId, sessionId: session.id, role: 'ASSISTANT', content: `${title}: answered` } });
  const idempotencyKey = randomUUID();
  const run = await prisma.assistantRun.create({
    data: { simplyId: assistantRunId.create(), teamId: team.teamId, userId: user.id, sessionId: session.id, idempotencyKey, userMessageId: question.id, assistantMessageId: reply.id, status: 'COMPLETED', completedAt: new Date(), nextEventSequence: 2 },
  });
  await prisma.assistantRunEvent.create({ data: { teamId: team.teamId, runId: run.id, sequence: 1, eventType: 'RUN_COMPLETED' } });
  return { sessionSimplyId: session.simplyId, runSimplyId: run.simplyId, runId: run.id, userId: user.id, messageSimplyId: reply.simplyId, idempotencyKey };
}

/** A DRAFT proposal of the team admin's: set the record's name field to `value` (as draft_update_data_record drafts it). */
async function draftedProposal(server: TestServer, team: TeamFixture, record: { dataRecordSimplyId: string; updatedAt: string }, fieldId: string, value: string) {
  const run = await finishedRun(server, team, 'proposal');
  const proposal = await server.app.services.prisma.assistantProposal.create({
    data: {
      simplyId: assistantProposalId.create(),
      teamId: team.teamId,
      userId: run.userId,
      runId: run.runId,
      toolCallId: 'call_1',
      tool: 'draft_update_data_record',
      arguments: { dataRecordSimplyId: record.dataRecordSimplyId, fields: { [fieldId]: value } },
      riskLevel: 'MEDIUM',
      permissionSummary: 'You may edit this record and these fields.',
      validationSummary: 'The values are valid for their fields.',
      fingerprint: JSON.stringify({ [record.dataRecordSimplyId]: record.updatedAt }),
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  return proposal.simplyId;
}

/** A prefill of the team admin's, as prepare_message_builder_prefill makes it; its nonce. */
async function preparedPrefill(server: TestServer, team: TeamFixture): Promise<string> {
  const run = await finishedRun(server, team, 'prefill');
  const nonce = randomBytes(32).toString('base64url');
  await server.app.services.prisma.assistantPrefill.create({
    data: { teamId: team.teamId, userId: run.userId, runId: run.runId, toolCallId: 'call_1', nonceHash: hashToken(nonce), builder: 'OUTGOING_MESSAGE', payload: { details: {}, content: { text: 'Hello' } }, expiresAt: new Date(Date.now() + 300_000) },
  });
  return nonce;
}

/** A collection with one text field and a record in it, through the API. */
async function recordToChange(kit: RaceKit) {
  const collection = await kit.admin('POST', '/v1/data-collections', { name: `Assistant race ${randomUUID().slice(0, 6)}`, fields: [{ title: 'name', columnName: 'name', dataType: 'PLAIN_TEXT' }] });
  const fieldId = collection.fields[0].id as string;
  const record = await kit.admin('POST', '/v1/data-records', { dataCollectionSimplyId: collection.id, fields: { [fieldId]: 'before' } });
  return { record, fieldId };
}

const teamAssistantRaces: RaceTable = {
  'POST /v1/team-agent/messages': [
    {
      what: 'N sends with one idempotency key',
      callers: PERSON_ONLY,
      async run(kit: RaceKit) {
        const idempotencyKey = randomUUID();
        const xs = await kit.race({ method: 'POST', path: '/v1/team-agent/messages', body: { message: 'How many records are there?', idempotencyKey } });
        kit.expectAnswers(xs, ['202', '201', '409 TEAM_AGENT_RUN_FAILED']);
        const runs = await kit.server.app.services.prisma.assistantRun.findMany({ where: { teamId: kit.team.teamId, idempotencyKey } });
        expectSame(kit, 'runs for one key', runs.length, 1, xs);
        expectSame(kit, 'run ids answered', new Set(xs.filter((x) => x.response.status < 300).map((x) => x.response.body.data.runSimplyId)).size, 1, xs);
        const messages = await kit.server.app.services.prisma.assistantMessage.count({ where: { teamId: kit.team.teamId, sessionId: runs[0]?.sessionId, role: 'USER' } });
        expectSame(kit, 'member messages stored', messages, 1, xs);
      },
    },
  ],
  'PUT /v1/team-agent/sessions/{sessionSimplyId}/archive': [
    {
      what: 'N archives of one session',
      callers: PERSON_ONLY,
      async run(kit) {
        const { sessionSimplyId } = await finishedRun(kit.server, kit.team, 'archive race');
        const xs = await kit.race({ method: 'PUT', path: `/v1/team-agent/sessions/${sessionSimplyId}/archive` });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'statuses answered', new Set(xs.map((x) => x.response.body?.data?.status)), new Set(['ARCHIVED']), xs);
      },
    },
  ],
  'POST /v1/team-agent/runs/{runSimplyId}/cancel': [
    {
      what: 'N cancels of one finished run',
      callers: PERSON_ONLY,
      async run(kit) {
        const { runSimplyId } = await finishedRun(kit.server, kit.team, 'cancel race');
        const xs = await kit.race({ method: 'POST', path: `/v1/team-agent/runs/${runSimplyId}/cancel` });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'statuses answered', new Set(xs.map((x) => x.response.body?.data?.status)), new Set(['COMPLETED']), xs);
      },
    },
  ],
  'POST /v1/team-agent/messages/{messageSimplyId}/feedback': [
    {
      what: 'N first ratings of one reply',
      callers: PERSON_ONLY,
      async run(kit) {
        const { messageSimplyId } = await finishedRun(kit.server, kit.team, 'feedback race');
        const xs = await kit.race({ method: 'POST', path: `/v1/team-agent/messages/${messageSimplyId}/feedback`, body: { rating: 'UP' } });
        kit.expectAnswers(xs, ['201', '200']);
        expectSame(kit, 'ratings answered 201', xs.filter((x) => x.response.status === 201).length, 1, xs);
        expectSame(kit, 'feedback ids answered', new Set(xs.map((x) => x.response.body?.data?.feedback?.feedbackSimplyId)).size, 1, xs);
      },
    },
  ],
  'POST /v1/team-agent/proposals/{proposalSimplyId}/approve': [
    {
      what: 'N approvals of one proposal',
      callers: PERSON_ONLY,
      async run(kit) {
        const { record, fieldId } = await recordToChange(kit);
        const id = await draftedProposal(kit.server, kit.team, record, fieldId, 'after');
        const xs = await kit.race({ method: 'POST', path: `/v1/team-agent/proposals/${id}/approve` });
        kit.expectAnswers(xs, ['200']);
        const writes = await kit.server.app.services.prisma.auditLogEntry.count({ where: { teamId: kit.team.teamId, entitySimplyId: record.dataRecordSimplyId, source: 'TEAM_AGENT' } });
        expectSame(kit, 'writes of the approved change', writes, 1, xs);
        const now = await kit.server.app.services.prisma.assistantProposal.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: kit.team.teamId, simplyId: id } } });
        expectSame(kit, 'the proposal after the approvals', now.status, 'EXECUTED', xs);
      },
    },
  ],
  'POST /v1/team-agent/proposals/{proposalSimplyId}/reject': [
    {
      what: 'N rejections racing N approvals',
      callers: PERSON_ONLY,
      async run(kit) {
        const { record, fieldId } = await recordToChange(kit);
        const id = await draftedProposal(kit.server, kit.team, record, fieldId, 'after');
        const xs = await kit.race([
          ...Array.from({ length: 4 }, () => ({ method: 'POST', path: `/v1/team-agent/proposals/${id}/reject` })),
          ...Array.from({ length: 4 }, () => ({ method: 'POST', path: `/v1/team-agent/proposals/${id}/approve` })),
        ]);
        kit.expectAnswers(xs, ['200', '409 TEAM_AGENT_PROPOSAL_NOT_PENDING']);
        const now = await kit.server.app.services.prisma.assistantProposal.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: kit.team.teamId, simplyId: id } } });
        const writes = await kit.server.app.services.prisma.auditLogEntry.count({ where: { teamId: kit.team.teamId, entitySimplyId: record.dataRecordSimplyId, source: 'TEAM_AGENT' } });
        expectSame(kit, 'one decision: written once if approved, never if rejected', writes, now.status === 'EXECUTED' ? 1 : 0, xs);
      },
    },
  ],
  'POST /v1/team-agent/prefills/{prefillNonce}/redeem': [
    {
      what: 'N redemptions of one nonce',
      callers: PERSON_ONLY,
      async run(kit) {
        const nonce = await preparedPrefill(kit.server, kit.team);
        const xs = await kit.race({ method: 'POST', path: `/v1/team-agent/prefills/${nonce}/redeem` });
        kit.expectAnswers(xs, ['200', '404 TEAM_AGENT_PREFILL_NOT_FOUND']);
        expectSuccesses(kit, xs, 1, 'a nonce is redeemed once');
      },
    },
  ],
  'POST /v1/team-agent/support/handoffs': [
    {
      what: 'N handoff requests for one session',
      callers: PERSON_ONLY,
      async run(kit) {
        const { prisma } = kit.server.app.services;
        await prisma.assistantSettings.upsert({ where: { teamId: kit.team.teamId }, create: { teamId: kit.team.teamId, supportScope: { enabled: true, topics: [], instructions: null } }, update: { supportScope: { enabled: true, topics: [], instructions: null } } });
        const { sessionSimplyId } = await finishedRun(kit.server, kit.team, 'handoff race');
        const xs = await kit.race({ method: 'POST', path: '/v1/team-agent/support/handoffs', body: { sessionSimplyId } });
        kit.expectAnswers(xs, ['201', '200']);
        expectSame(kit, 'handoffs created', xs.filter((x) => x.response.status === 201).length, 1, xs);
        const handoffs = await prisma.assistantHandoff.findMany({ where: { teamId: kit.team.teamId } });
        expectSame(kit, 'handoff rows', handoffs.length, 1, xs);
        const notified = await prisma.userNotification.count({ where: { teamId: kit.team.teamId, source: 'TEAM_AGENT_HANDOFF', sourceId: handoffs[0]?.simplyId } });
        expectSame(kit, 'notifications of the one responder', notified, 1, xs);
      },
    },
  ],
  'PUT /v1/team-agent/settings/knowledge-sources': [
    {
      what: 'N settings writes',
      callers: PERSON_ONLY,
      async run(kit) {
        const xs = await kit.race(Array.from({ length: 8 }, (_, i) => ({ method: 'PUT', path: '/v1/team-agent/settings/knowledge-sources', body: { mode: i % 2 ? 'SELECTED' : 'ALL_READABLE' } })));
        kit.expectAnswers(xs, ['200']);
        expectSuccesses(kit, xs, xs.length, 'every write is answered');
      },
    },
  ],
  'PUT /v1/team-agent/settings/support-scope': [
    {
      what: 'N settings writes',
      callers: PERSON_ONLY,
      async run(kit) {
        const xs = await kit.race(Array.from({ length: 8 }, (_, i) => ({ method: 'PUT', path: '/v1/team-agent/settings/support-scope', body: { enabled: i % 2 === 0, topics: [`topic ${i}`] } })));
        kit.expectAnswers(xs, ['200']);
        const stored = await kit.server.app.services.prisma.assistantSettings.findUnique({ where: { teamId: kit.team.teamId } });
        expectSame(kit, 'stored scope is one answered', xs.some((x) => isDeepStrictEqual(x.response.body?.data, stored?.supportScope)), true, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: teamAssistantRaces,
  async world({ server, team, name }) {
    const run = await finishedRun(server, team, name('Assistant question'));
    const proposalSimplyId = await draftedProposal(server, team, { dataRecordSimplyId: 'AAAA-BBBB-CCCC', updatedAt: new Date(0).toISOString() }, 'fld-AAAA-BBBB-CCCC', name('Assistant proposal'));
    // {sessionSimplyId} and {messageSimplyId} name sign-in sessions and outgoing messages elsewhere
    const session = '/v1/team-agent/sessions/{sessionSimplyId}';
    return {
      ids: {
        [`GET ${session} {sessionSimplyId}`]: run.sessionSimplyId,
        [`PUT ${session}/archive {sessionSimplyId}`]: run.sessionSimplyId,
        [`GET ${session}/support-handoffs {sessionSimplyId}`]: run.sessionSimplyId,
        'POST /v1/team-agent/messages/{messageSimplyId}/feedback {messageSimplyId}': run.messageSimplyId,
        runSimplyId: run.runSimplyId,
        proposalSimplyId,
        prefillNonce: await preparedPrefill(server, team),
        teamAgentIdempotencyKey: run.idempotencyKey,
      },
      names: ['Assistant question', 'Assistant proposal'],
    };
  },
  idRouteBodies: { 'POST /v1/team-agent/messages/{messageSimplyId}/feedback': () => ({ rating: 'UP' }) },
  readQueries: { 'GET /v1/team-agent/runs': (ids) => `idempotencyKey=${ids.teamAgentIdempotencyKey}` },
};
