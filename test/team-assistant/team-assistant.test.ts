// The team assistant end to end: a real server with its job workers, a real local model server
// speaking Chat Completions, members with and without the assistant permissions.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createApiKey, createRole, createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { createPeople, createRecord } from '../support/record-fixtures.ts';
import type { CollectionFixture } from '../support/data-fixtures.ts';
import { serverGraphqlWsClient } from '../support/realtime.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { failAbandonedRuns } from '../../src/modules/team-assistant/run-worker.ts';
import { untilWith } from '../support/until.ts';

const until = untilWith({ timeoutMs: 10_000, everyMs: 20 });
import { OAUTH_TEST_REDIRECT, oauthBed } from '../support/oauth-fixtures.ts';
import { oauthClientsFor } from '../../src/modules/oauth/index.ts';

let model: ModelServer;
let server: TestServer;
let team: TeamFixture;
let people: CollectionFixture;
let viewer: { token: string; userSimplyId: string };
let outsider: { token: string };

const SECRET = 'sk-live-provider-secret-text';

interface Caller {
  token: string;
}

const send = (who: Caller, body: unknown) => server.request('POST', '/v1/team-agent/messages', { token: who.token, teamId: team.teamSimplyId, body });
const get = (who: Caller, path: string) => server.request('GET', path, { token: who.token, teamId: who.token.startsWith('svc_oat_') ? undefined : team.teamSimplyId });

async function settled(who: Caller, runSimplyId: string): Promise<any> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await get(who, `/v1/team-agent/runs/${runSimplyId}`);
    expect(response.status).toBe(200);
    if (response.body.data.status !== 'RUNNING') return response.body.data;
    if (Date.now() > deadline) throw new Error(`run ${runSimplyId} still RUNNING`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const admin = (): Caller => ({ token: team.userToken });

beforeAll(async () => {
  model = await startModelServer();
  ({ server, team } = await startServerWithTeam({ runJobs: true, env: { AI_BASE_URL: model.baseUrl, AI_MODEL: 'test-model', AI_MAX_RETRIES: 0, AI_TIMEOUT_MS: 5000 } as never }));
  people = await createPeople(server, team);
  for (const first of ['Ada', 'Grace', 'Alan']) await createRecord(server, team.apiKey, people.id, { [people.fields.first_name!]: first, [people.fields.last_name!]: 'Tester' });
  const viewerRole = await createRole(server, team, {
    name: 'Assistant viewers',
    dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'READ' }],
    featurePermissions: [{ name: 'TEAM_AGENT_USE', level: 'VIEW' }],
  });
  viewer = await addMember(server, team, { teamRoleSimplyId: viewerRole });
  outsider = await addMember(server, team);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await model?.close();
});

describe('access', () => {
  it('refuses API keys, members without the permission, and answers FEATURE_UNAVAILABLE without a model', async () => {
    const byKey = await server.request('GET', '/v1/team-agent/sessions', { token: team.apiKey });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.code).toBe('IDP_REQUIRED');
    const { key } = await createApiKey(server, team, { name: 'agent key', featurePermissions: ['TEAM_AGENT_USE'] });
    expect((await server.request('POST', '/v1/team-agent/messages', { token: key, body: { message: 'hi', idempotencyKey: randomUUID() } })).body.error.code).toBe('IDP_REQUIRED');
    const denied = await get(outsider, '/v1/team-agent/sessions');
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('TEAM_AGENT_PERMISSION_DENIED');

    const bare = await startTestServer();
    try {
      const bareTeam = await createTeam(bare);
      const response = await bare.request('GET', '/v1/team-agent/sessions', { token: bareTeam.userToken, teamId: bareTeam.teamSimplyId });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('TEAM_AGENT_FEATURE_UNAVAILABLE');
    } finally {
      await bare.close();
    }
  });

  it('accepts an allowlisted first-party OAuth client with identity:read, and refuses other OAuth clients', async () => {
    const bed = await oauthBed(server);
    const who = { token: viewer.token, teamId: team.teamSimplyId };
    const native = await oauthClientsFor(server.app.services).registerClient({ name: 'Our app', redirectUris: [OAUTH_TEST_REDIRECT], firstParty: true, allowances: ['team-assistant'] });
    const nativeClient = { client_id: native.clientId, token_endpoint_auth_method: 'none' };
    const allowed = (await bed.tokensFor(nativeClient, 'identity:read records:read', who)).access_token;
    const sessions = await server.request('GET', '/v1/team-agent/sessions', { token: allowed });
    expect(sessions.status).toBe(200);
    const noIdentity = (await bed.tokensFor(nativeClient, 'records:read', who)).access_token;
    expect((await server.request('GET', '/v1/team-agent/sessions', { token: noIdentity })).body.error.code).toBe('OAUTH_SCOPE_REQUIRED');
    const firstPartyOnly = await oauthClientsFor(server.app.services).registerClient({ name: 'Other app', redirectUris: [OAUTH_TEST_REDIRECT], firstParty: true });
    const other = (await bed.tokensFor({ client_id: firstPartyOnly.clientId, token_endpoint_auth_method: 'none' }, 'identity:read records:read', who)).access_token;
    expect((await server.request('GET', '/v1/team-agent/sessions', { token: other })).body.error.code).toBe('OAUTH_CLIENT_FORBIDDEN');
    const integration = (await bed.tokensFor(await bed.registerClient(), 'identity:read records:read', who)).access_token;
    expect((await server.request('GET', '/v1/team-agent/sessions', { token: integration })).body.error.code).toBe('OAUTH_CLIENT_FORBIDDEN');

    // the token's scopes limit the run's tools: without records:read, no data tool
    const identityOnly = (await bed.tokensFor(nativeClient, 'identity:read', who)).access_token;
    model.reset();
    model.otherwise({ text: 'ok' });
    const sent = await server.request('POST', '/v1/team-agent/messages', { token: identityOnly, body: { message: 'hi', idempotencyKey: randomUUID() } });
    expect(sent.status).toBe(202);
    expect(sent.body.data.availableTools).toEqual([]);
    await settled({ token: identityOnly }, sent.body.data.runSimplyId);
    expect(model.requests.at(-1)!.body.tools ?? []).toEqual([]);
  });

  it('keeps settings for Team Admins and edit-level TEAM_ADMIN_AGENT_USE', async () => {
    const denied = await server.request('GET', '/v1/team-agent/settings/knowledge-sources', { token: viewer.token, teamId: team.teamSimplyId });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('TEAM_AGENT_SETTINGS_DENIED');
    const read = await get(admin(), '/v1/team-agent/settings/knowledge-sources');
    expect(read.body.data).toEqual({ mode: 'ALL_READABLE', collections: [], views: [] });
    const unknown = await server.request('PUT', '/v1/team-agent/settings/knowledge-sources', { token: team.userToken, teamId: team.teamSimplyId, body: { mode: 'SELECTED', collections: ['dcl-AAAA-BBBB-CCCC'] } });
    expect(unknown.status).toBe(400);
    const unknownView = await server.request('PUT', '/v1/team-agent/settings/knowledge-sources', { token: team.userToken, teamId: team.teamSimplyId, body: { mode: 'ALL_READABLE', views: ['view-AAAA-BBBB-CCCC'] } });
    expect(unknownView.body.error.details).toEqual([{ field: 'views', message: 'view-AAAA-BBBB-CCCC is not a data view of this team' }]);
    const scope = await server.request('PUT', '/v1/team-agent/settings/support-scope', { token: team.userToken, teamId: team.teamSimplyId, body: { enabled: true, topics: ['Billing'] } });
    expect(scope.status).toBe(200);
    expect(scope.body.data).toEqual({ enabled: true, topics: ['Billing'], instructions: null });
  });
});

describe('a run', () => {
  it('answers 202, works out the reply with a tool, and replays 201 by key', async () => {
    model.reset();
    model.reply({ toolCalls: [{ name: 'count_data_records', arguments: { dataCollectionSimplyId: people.id } }] }, { text: 'There are 3 people.' });
    const key = randomUUID();
    const first = await send(viewer, { message: 'How many people are there?', idempotencyKey: key });
    expect(first.status).toBe(202);
    expect(first.body.data.status).toBe('RUNNING');
    expect(first.body.data.assistantMessage).toBeNull();
    expect(first.body.data.availableTools).toEqual(expect.arrayContaining(['count_data_records', 'search_team_records', 'get_data_record', 'list_collections']));
    expect(first.body.data.runtime).toEqual({ assistant: '1', tools: '1', events: '1' });

    const run = await settled(viewer, first.body.data.runSimplyId);
    expect(run.status).toBe('COMPLETED');
    expect(run.assistantMessage.content).toBe('There are 3 people.');
    expect(run.assistantMessage.toolCalls).toEqual([{ tool: 'count_data_records', status: 'OK', summary: 'Counted 3 records' }]);
    expect(run.runtimeEvents.map((e: { sequence: number }) => e.sequence)).toEqual(run.runtimeEvents.map((_: unknown, i: number) => i + 1));
    expect(run.runtimeEvents.map((e: { eventType: string }) => e.eventType)).toEqual([
      'RUN_STARTED', 'STEP_STARTED', 'TOOL_CALL_STARTED', 'TOOL_CALL_FINISHED', 'STEP_STARTED', 'RUN_COMPLETED',
    ]);
    // the tool's result reached the model, with the declared tools
    const second = model.requests[1]!.body;
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool' });
    expect(JSON.parse(second.messages.at(-1)!.content as string)).toEqual({ dataCollectionSimplyId: people.id, count: 3, exact: true });
    expect((second as { tools?: { function: { name: string } }[] }).tools?.map((t) => t.function.name)).toContain('count_data_records');

    const replay = await send(viewer, { message: 'How many people are there?', idempotencyKey: key });
    expect(replay.status).toBe(201);
    expect(replay.body.data.assistantMessage.content).toBe('There are 3 people.');
    expect(replay.body.data.runSimplyId).toBe(first.body.data.runSimplyId);

    const discovered = await get(viewer, `/v1/team-agent/runs?idempotencyKey=${key}`);
    expect(discovered.body.data.runSimplyId).toBe(first.body.data.runSimplyId);
    // another member, even an admin of the team, does not see it
    expect((await get(admin(), `/v1/team-agent/runs/${run.runSimplyId}`)).body.error.code).toBe('TEAM_AGENT_RUN_NOT_FOUND');
    expect((await get(admin(), `/v1/team-agent/runs?idempotencyKey=${key}`)).body.error.code).toBe('TEAM_AGENT_RUN_NOT_FOUND');
    expect((await get(viewer, `/v1/team-agent/runs?idempotencyKey=${randomUUID()}`)).status).toBe(404);

    const usage = await server.app.services.prisma.aiUsage.count({ where: { teamId: team.teamId, feature: 'team-assistant' } });
    expect(usage).toBeGreaterThanOrEqual(2);
  });

  it('fails safely: the provider\'s words stay out of the run, and the key answers 409 after', async () => {
    model.reset();
    model.reply({ error: { status: 400, message: `bad request: ${SECRET}` } });
    const key = randomUUID();
    const first = await send(viewer, { message: 'Tell me something', idempotencyKey: key });
    const run = await settled(viewer, first.body.data.runSimplyId);
    expect(run.status).toBe('FAILED');
    expect(run.error.userVisibleSummary).toBeTruthy();
    expect(JSON.stringify(run)).not.toContain(SECRET);
    expect(run.runtimeEvents.at(-1).eventType).toBe('RUN_FAILED');
    const again = await send(viewer, { message: 'Tell me something', idempotencyKey: key });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('TEAM_AGENT_RUN_FAILED');
    expect(again.text).not.toContain(SECRET);
  });

  it('fails safely on a model answer that is not Chat Completions at all', async () => {
    model.reset();
    model.reply({ raw: { status: 200, body: '<html>gateway says hello</html>' } });
    const discovered = await get(viewer, `/v1/team-agent/runs?idempotencyKey=not-sent-yet-${randomUUID()}`);
    expect(discovered.body.error.code).toBe('TEAM_AGENT_RUN_NOT_FOUND');
    const first = await send(viewer, { message: 'Hello?', idempotencyKey: randomUUID() });
    const run = await settled(viewer, first.body.data.runSimplyId);
    expect(run).toMatchObject({ status: 'FAILED', error: { code: 'MODEL_BAD_RESPONSE' } });
    expect(JSON.stringify(run)).not.toContain('gateway');
  });

  it('answers an unknown tool and invalid arguments with tool errors, never a write or a 500', async () => {
    model.reset();
    model.reply(
      { toolCalls: [{ name: 'drop_everything', arguments: {} }, { name: 'get_data_record', arguments: '{not json' }] },
      { text: 'I could not do that.' },
    );
    const first = await send(viewer, { message: 'Delete it all', idempotencyKey: randomUUID() });
    const run = await settled(viewer, first.body.data.runSimplyId);
    expect(run.status).toBe('COMPLETED');
    expect(run.assistantMessage.toolCalls.map((c: { status: string }) => c.status)).toEqual(['ERROR', 'ERROR']);
    const finished = run.runtimeEvents.filter((e: { eventType: string }) => e.eventType === 'TOOL_CALL_FINISHED');
    expect(finished[0].payload.tool).toBe('unknown_tool');
  });

  it('sees only what the member may read and what the knowledge sources allow', async () => {
    const hidden = await createPeople(server, team, 'Hidden people');
    model.reset();
    model.reply({ toolCalls: [{ name: 'count_data_records', arguments: { dataCollectionSimplyId: hidden.id } }] }, { text: 'done' });
    const first = await send(viewer, { message: 'Count hidden', idempotencyKey: randomUUID() });
    const run = await settled(viewer, first.body.data.runSimplyId);
    expect(run.assistantMessage.toolCalls[0].status).toBe('ERROR');
    expect(JSON.stringify(model.requests[1]!.body.messages.at(-1))).toContain('PERMISSION_DENIED');
  });

  it('ends a run no job will finish any more as FAILED (WORKER_LOST)', async () => {
    model.reset();
    model.reply({ hang: true });
    const first = await send(viewer, { message: 'Are you there?', idempotencyKey: randomUUID() });
    const runSimplyId = first.body.data.runSimplyId;
    await until('the model to be asked', () => model.requests.length >= 1);
    const { prisma } = server.app.services;
    // as if its job had given up long ago
    await prisma.$executeRaw`UPDATE "AssistantRun" SET "updatedAt" = now() - interval '1 hour' WHERE "teamId" = ${team.teamId} AND "simplyId" = ${runSimplyId}`;
    expect(await failAbandonedRuns(server.app.services)).toBe(1);
    const run = (await get(viewer, `/v1/team-agent/runs/${runSimplyId}`)).body.data;
    expect(run).toMatchObject({ status: 'FAILED', error: { code: 'WORKER_LOST' } });
    expect(run.runtimeEvents.at(-1).eventType).toBe('RUN_FAILED');
    model.reset();
  });

  it('validates the body', async () => {
    const long = await send(viewer, { message: 'hi', idempotencyKey: 'k'.repeat(65) });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('VALIDATION_ERROR');
    expect((await send(viewer, { message: '   ', idempotencyKey: randomUUID() })).status).toBe(400);
    expect((await send(viewer, { idempotencyKey: randomUUID() })).status).toBe(400);
  });
});

describe('proposals', () => {
  let editor: { token: string; userSimplyId: string };
  let editorRole: string;
  let ada: string;

  beforeAll(async () => {
    const editorBody = {
      name: 'Assistant editors',
      dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'EDIT' }],
      featurePermissions: [{ name: 'TEAM_AGENT_USE', level: 'EDIT' }],
    };
    editorRole = await createRole(server, team, editorBody);
    editor = await addMember(server, team, { teamRoleSimplyId: editorRole });
    ada = (await createRecord(server, team.apiKey, people.id, { [people.fields.first_name!]: 'Ada', [people.fields.last_name!]: 'Draft' })).dataRecordSimplyId;
  });

  const editorCaller = (): Caller => ({ token: editor.token });
  const decide = (who: Caller, id: string, decision: 'approve' | 'reject') =>
    server.request('POST', `/v1/team-agent/proposals/${id}/${decision}`, { token: who.token, teamId: team.teamSimplyId });
  const firstName = async () => (await server.request('GET', `/v1/data-records/${ada}`, { token: team.apiKey })).body.data.fields[people.fields.first_name!];

  /** a run in which the model drafts `fields` for Ada; the proposal's id */
  async function drafted(fields: Record<string, unknown>): Promise<string> {
    model.reset();
    model.reply({ toolCalls: [{ name: 'draft_update_data_record', arguments: { dataRecordSimplyId: ada, fields } }] }, { text: 'I drafted the change; approve it to apply it.' });
    const first = await send(editorCaller(), { message: 'Rename Ada', idempotencyKey: randomUUID() });
    expect(first.body.data.availableTools).toContain('draft_update_data_record');
    const run = await settled(editorCaller(), first.body.data.runSimplyId);
    expect(run.status).toBe('WAITING');
    expect(run.controlState.stateType).toBe('AWAITING_PROPOSAL_APPROVAL');
    expect(run.runtimeEvents.at(-1).eventType).toBe('RUN_WAITING');
    const [id] = run.controlState.pendingProposalSimplyIds;
    expect(run.assistantMessage.proposalSimplyIds).toEqual([id]);
    return id;
  }

  it('offers no draft tool at view level, and refuses its approval', async () => {
    model.reset();
    model.otherwise({ text: 'ok' });
    const first = await send(viewer, { message: 'hello', idempotencyKey: randomUUID() });
    expect(first.body.data.availableTools.filter((t: string) => t.startsWith('draft_'))).toEqual([]);
    await settled(viewer, first.body.data.runSimplyId);
  });

  it('writes nothing until approved, then executes exactly once however often it is approved', async () => {
    const id = await drafted({ [people.fields.first_name!]: 'Augusta' });
    expect(await firstName()).toBe('Ada');
    const proposal = (await get(editorCaller(), `/v1/team-agent/proposals/${id}`)).body.data;
    expect(proposal).toMatchObject({ status: 'DRAFT', riskLevel: 'MEDIUM', tool: 'draft_update_data_record' });
    expect(proposal.diff).toEqual([expect.objectContaining({ dataRecordSimplyId: ada, before: 'Ada', after: 'Augusta' })]);
    expect((await decide(viewer, id, 'approve')).body.error.code).toBe('TEAM_AGENT_PERMISSION_DENIED');
    expect((await decide(admin(), id, 'approve')).body.error.code).toBe('TEAM_AGENT_PROPOSAL_NOT_FOUND');

    const answers = await Promise.all(Array.from({ length: 5 }, () => decide(editorCaller(), id, 'approve')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await firstName()).toBe('Augusta');
    const after = (await get(editorCaller(), `/v1/team-agent/proposals/${id}`)).body.data;
    expect(after.status).toBe('EXECUTED');
    expect(after.result).toMatchObject({ succeeded: 1, failed: 0, dataRecordSimplyIds: [ada] });
    // one write, by the member, from the assistant
    const writes = await server.app.services.prisma.auditLogEntry.findMany({ where: { teamId: team.teamId, entitySimplyId: ada, source: 'TEAM_AGENT' } });
    expect(writes).toHaveLength(1);
    expect(writes[0]!.actorUserSimplyId).toBe(editor.userSimplyId);
  });

  it('refuses a stale proposal and writes nothing', async () => {
    const id = await drafted({ [people.fields.first_name!]: 'Stale' });
    await server.request('PATCH', `/v1/data-records/${ada}`, { token: team.apiKey, body: { fields: { [people.fields.last_name!]: 'Changed meanwhile' } } });
    const answer = await decide(editorCaller(), id, 'approve');
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('TEAM_AGENT_PROPOSAL_STALE');
    expect(await firstName()).not.toBe('Stale');
    expect((await get(editorCaller(), `/v1/team-agent/proposals/${id}`)).body.data.status).toBe('FAILED');
  });

  it('rejects, expires, and refuses deciding twice', async () => {
    const rejected = await drafted({ [people.fields.first_name!]: 'Rejected' });
    expect((await decide(editorCaller(), rejected, 'reject')).body.data.status).toBe('REJECTED');
    expect((await decide(editorCaller(), rejected, 'reject')).body.data.status).toBe('REJECTED');
    expect((await decide(editorCaller(), rejected, 'approve')).body.error.code).toBe('TEAM_AGENT_PROPOSAL_NOT_PENDING');

    const expired = await drafted({ [people.fields.first_name!]: 'Expired' });
    await server.app.services.prisma.assistantProposal.update({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: expired } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await decide(editorCaller(), expired, 'approve')).body.error.code).toBe('TEAM_AGENT_PROPOSAL_EXPIRED');
    expect(await firstName()).not.toBe('Expired');
  });

  it('checks the member\'s permissions again when approving', async () => {
    const id = await drafted({ [people.fields.first_name!]: 'Demoted' });
    const demoted = await server.request('PUT', `/v1/team-roles/${editorRole}`, {
      token: team.apiKey,
      body: { name: 'Assistant editors', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'READ' }], featurePermissions: [{ name: 'TEAM_AGENT_USE', level: 'EDIT' }] },
    });
    expect(demoted.status).toBe(200);
    const answer = await decide(editorCaller(), id, 'approve');
    expect(answer.status).toBe(403);
    expect(await firstName()).not.toBe('Demoted');
    expect((await get(editorCaller(), `/v1/team-agent/proposals/${id}`)).body.data.status).toBe('FAILED');
  });
});

describe('sessions and feedback', () => {
  it('lists, reads and archives own sessions; rates own replies once, replacing after', async () => {
    model.reset();
    model.otherwise({ text: 'Hello!' });
    const first = await send(viewer, { message: 'Hello there', idempotencyKey: randomUUID() });
    const run = await settled(viewer, first.body.data.runSimplyId);
    const sessionId = first.body.data.session.sessionSimplyId;
    const follow = await send(viewer, { message: 'And again', sessionSimplyId: sessionId, idempotencyKey: randomUUID() });
    expect(follow.status).toBe(202);
    await settled(viewer, follow.body.data.runSimplyId);
    // the second run saw the first exchange
    expect(model.requests.at(-1)!.body.messages.map((m) => m.content)).toEqual(expect.arrayContaining(['Hello there', 'Hello!', 'And again']));

    const list = await get(viewer, '/v1/team-agent/sessions?limit=100');
    expect(list.body.data.map((s: { sessionSimplyId: string }) => s.sessionSimplyId)).toContain(sessionId);
    expect(list.body.meta.pagination.limit).toBe(100);
    expect((await get(viewer, '/v1/team-agent/sessions?limit=101')).status).toBe(400);
    const detail = await get(viewer, `/v1/team-agent/sessions/${sessionId}`);
    expect(detail.body.data.messages.map((m: { role: string }) => m.role)).toEqual(['USER', 'ASSISTANT', 'USER', 'ASSISTANT']);
    expect((await get(admin(), `/v1/team-agent/sessions/${sessionId}`)).status).toBe(404);

    const replyId = run.assistantMessage.messageSimplyId;
    const rate = (who: Caller, id: string, body: unknown) => server.request('POST', `/v1/team-agent/messages/${id}/feedback`, { token: who.token, teamId: team.teamSimplyId, body });
    const created = await rate(viewer, replyId, { rating: 'UP', comment: 'great' });
    expect(created.status).toBe(201);
    expect(created.body.data.created).toBe(true);
    const replaced = await rate(viewer, replyId, { rating: 'DOWN', comment: '  ' });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.feedback).toMatchObject({ feedbackSimplyId: created.body.data.feedback.feedbackSimplyId, rating: 'DOWN', comment: null });
    expect((await rate(viewer, replyId, { rating: 'UP', comment: 'x'.repeat(1001) })).status).toBe(400);
    expect((await rate(viewer, run.userMessage.messageSimplyId, { rating: 'UP' })).body.error.code).toBe('TEAM_AGENT_MESSAGE_NOT_FOUND');
    expect((await rate(admin(), replyId, { rating: 'UP' })).body.error.code).toBe('TEAM_AGENT_MESSAGE_NOT_FOUND');
    expect((await rate(viewer, 'tam-AAAA-BBBB-CCCC', { rating: 'UP' })).body.error.code).toBe('TEAM_AGENT_MESSAGE_NOT_FOUND');
    const reread = await get(viewer, `/v1/team-agent/sessions/${sessionId}`);
    expect(reread.body.data.messages[1].feedback.rating).toBe('DOWN');

    const archived = await server.request('PUT', `/v1/team-agent/sessions/${sessionId}/archive`, { token: viewer.token, teamId: team.teamSimplyId });
    expect(archived.body.data.status).toBe('ARCHIVED');
    const closed = await send(viewer, { message: 'still there?', sessionSimplyId: sessionId, idempotencyKey: randomUUID() });
    expect(closed.status).toBe(409);
  });
});

describe('ui intents', () => {
  it('offers the records a reply drew on, and a web client a single-use builder prefill without recipients', async () => {
    model.reset();
    model.reply(
      { toolCalls: [{ name: 'search_team_records', arguments: { query: 'Grace' } }, { name: 'prepare_message_builder_prefill', arguments: { details: { subjectLine: 'Hello Grace', deliveryMethod: 'EMAIL' }, content: { text: 'Dear Grace' } } }] },
      { text: 'Found Grace and prepared a message.' },
    );
    const first = await send(viewer, { message: 'Write to Grace', idempotencyKey: randomUUID(), contextSnapshot: { platform: 'WEB' } });
    expect(first.body.data.availableTools).toContain('prepare_message_builder_prefill');
    const run = await settled(viewer, first.body.data.runSimplyId);
    const intents = run.assistantMessage.uiIntents as { type: string; prefillNonce?: string; dataRecordSimplyId?: string }[];
    expect(intents.map((i) => i.type)).toEqual(['OPEN_RECORD', 'PREFILL_SUPPORTED_BUILDER']);
    expect(intents[0]!.dataRecordSimplyId).toBe(run.assistantMessage.sourceReferences[0].simplyId);
    // the nonce never reached the model
    expect(JSON.stringify(model.requests.at(-1)!.body)).not.toContain(intents[1]!.prefillNonce!);
    const redeem = (who: Caller) => server.request('POST', `/v1/team-agent/prefills/${intents[1]!.prefillNonce}/redeem`, { token: who.token, teamId: team.teamSimplyId });
    expect((await redeem(admin())).body.error.code).toBe('TEAM_AGENT_PREFILL_NOT_FOUND');
    const redeemed = await redeem(viewer);
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.data).toEqual({ version: 1, builder: 'OUTGOING_MESSAGE', builderPrefill: { details: { subjectLine: 'Hello Grace', deliveryMethod: 'EMAIL' }, content: { text: 'Dear Grace' } } });
    expect((await redeem(viewer)).body.error.code).toBe('TEAM_AGENT_PREFILL_NOT_FOUND');

    // recipients cannot ride along, and other clients are not offered the prefill
    model.reset();
    model.reply({ toolCalls: [{ name: 'prepare_message_builder_prefill', arguments: { details: {}, content: { text: 'x' }, recipients: ['a@example.test'] } }] }, { text: 'no' });
    const second = await send(viewer, { message: 'Write to everyone', idempotencyKey: randomUUID(), contextSnapshot: { platform: 'WEB' } });
    const refused = await settled(viewer, second.body.data.runSimplyId);
    expect(refused.assistantMessage.toolCalls[0].status).toBe('ERROR');
    expect(refused.assistantMessage.uiIntents).toEqual([]);
    const mobile = await send(viewer, { message: 'hi', idempotencyKey: randomUUID(), contextSnapshot: { platform: 'IOS' } });
    expect(mobile.body.data.availableTools).not.toContain('prepare_message_builder_prefill');
    model.reset();
    model.otherwise({ text: 'ok' });
    await settled(viewer, mobile.body.data.runSimplyId);
  });
});

describe('data views', () => {
  it('lists the views the member may read, and offers to open them', async () => {
    const created = await server.request('POST', '/v1/data-views', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, name: 'Testers', enumDataViewTypeId: 'TABLE' } });
    expect(created.status).toBe(201);
    model.reset();
    model.reply({ toolCalls: [{ name: 'list_data_views', arguments: {} }] }, { text: 'Open the Testers view.' });
    const first = await send(viewer, { message: 'Where do I see the testers?', idempotencyKey: randomUUID() });
    const run = await settled(viewer, first.body.data.runSimplyId);
    const listed = JSON.parse(model.requests[1]!.body.messages.at(-1)!.content as string);
    expect(listed).toContainEqual({ dataViewSimplyId: created.body.data.id, name: 'Testers', viewType: 'TABLE', dataCollectionSimplyId: people.id });
    expect(run.assistantMessage.uiIntents).toContainEqual({ type: 'OPEN_DATA_VIEW', dataViewSimplyId: created.body.data.id, label: 'Testers' });
  });
});

describe('support handoffs', () => {
  it('is offered by the support scope, notifies the team admins once, and lists per session', async () => {
    const scope = (enabled: boolean) =>
      server.request('PUT', '/v1/team-agent/settings/support-scope', { token: team.userToken, teamId: team.teamSimplyId, body: { enabled, topics: ['Billing'] } });
    await scope(false);
    expect((await get(viewer, '/v1/team-agent/support/availability')).body.data).toMatchObject({ available: false, reason: 'SUPPORT_DISABLED' });
    model.reset();
    model.otherwise({ text: 'Let me get someone.' });
    const first = await send(viewer, { message: 'I need a human', idempotencyKey: randomUUID() });
    await settled(viewer, first.body.data.runSimplyId);
    const sessionSimplyId = first.body.data.session.sessionSimplyId;
    const handoff = (body: unknown) => server.request('POST', '/v1/team-agent/support/handoffs', { token: viewer.token, teamId: team.teamSimplyId, body });
    expect((await handoff({ sessionSimplyId })).body.error.code).toBe('TEAM_AGENT_SUPPORT_UNAVAILABLE');

    await scope(true);
    expect((await get(viewer, '/v1/team-agent/support/availability')).body.data).toEqual({ available: true, reason: null, topics: ['Billing'], responders: 1 });
    expect((await handoff({ sessionSimplyId, topic: 'Gardening' })).status).toBe(400);
    const created = await handoff({ sessionSimplyId, topic: 'Billing', note: 'Invoice totals look wrong' });
    expect(created.status).toBe(201);
    expect(created.body.data.handoff).toMatchObject({ status: 'OPEN', topic: 'Billing', sessionSimplyId });
    const again = await handoff({ sessionSimplyId });
    expect(again.status).toBe(200);
    expect(again.body.data.handoff.handoffSimplyId).toBe(created.body.data.handoff.handoffSimplyId);
    const notes = await server.request('GET', '/v1/notifications', { token: team.userToken, teamId: team.teamSimplyId });
    expect(notes.body.data.notifications.filter((n: { referenceEntityId: string }) => n.referenceEntityId === created.body.data.handoff.handoffSimplyId)).toHaveLength(1);
    const list = await get(viewer, `/v1/team-agent/sessions/${sessionSimplyId}/support-handoffs`);
    expect(list.body.data.map((h: { handoffSimplyId: string }) => h.handoffSimplyId)).toEqual([created.body.data.handoff.handoffSimplyId]);
    expect((await get(admin(), `/v1/team-agent/sessions/${sessionSimplyId}/support-handoffs`)).status).toBe(404);
  });
});

describe('the GraphQL face', () => {
  it('sends, reads the run and its session, and refuses as REST does', async () => {
    model.reset();
    model.otherwise({ text: 'Hello from GraphQL.' });
    const as = { token: viewer.token, teamId: team.teamSimplyId };
    const sent = await server.graphql<{ sendTeamAgentMessage: { httpStatus: number; runSimplyId: string; status: string; assistantMessage: null } }>(
      'mutation($input: JSON!) { sendTeamAgentMessage(input: $input) { httpStatus runSimplyId status assistantMessage { content } } }',
      { input: { message: 'hi', idempotencyKey: randomUUID() } },
      as,
    );
    expect(sent.data!.sendTeamAgentMessage).toMatchObject({ httpStatus: 202, status: 'RUNNING', assistantMessage: null });
    const runSimplyId = sent.data!.sendTeamAgentMessage.runSimplyId;
    const run = await settled(viewer, runSimplyId);
    const read = await server.graphql<{ teamAgentRun: { status: string; assistantMessage: { content: string; messageSimplyId: string } }; teamAgentSession: { messages: { role: string }[] } }>(
      'query($id: String!, $session: String!) { teamAgentRun(runSimplyId: $id) { status assistantMessage { content messageSimplyId } } teamAgentSession(sessionSimplyId: $session) { messages { role } } }',
      { id: runSimplyId, session: run.sessionSimplyId },
      as,
    );
    expect(read.data!.teamAgentRun).toMatchObject({ status: 'COMPLETED', assistantMessage: { content: 'Hello from GraphQL.' } });
    expect(read.data!.teamAgentSession.messages.map((m) => m.role)).toEqual(['USER', 'ASSISTANT']);
    const rated = await server.graphql<{ rateTeamAgentMessage: { created: boolean } }>(
      'mutation($id: String!) { rateTeamAgentMessage(messageSimplyId: $id, input: { rating: "UP" }) { created } }',
      { id: read.data!.teamAgentRun.assistantMessage.messageSimplyId },
      as,
    );
    expect(rated.data!.rateTeamAgentMessage.created).toBe(true);

    const codeOf = (r: { errors?: { extensions?: { code?: string } }[] }) => r.errors?.[0]?.extensions?.code;
    expect(codeOf(await server.graphql('{ teamAgentSessions { nodes { sessionSimplyId } } }', {}, { token: team.apiKey }))).toBe('IDP_REQUIRED');
    expect(codeOf(await server.graphql('{ teamAgentSessions { nodes { sessionSimplyId } } }', {}, { token: outsider.token, teamId: team.teamSimplyId }))).toBe('TEAM_AGENT_PERMISSION_DENIED');
    expect(codeOf(await server.graphql('query($id: String!) { teamAgentRun(runSimplyId: $id) { status } }', { id: runSimplyId }, { token: team.userToken, teamId: team.teamSimplyId }))).toBe('TEAM_AGENT_RUN_NOT_FOUND');
    expect(codeOf(await server.graphql('query($id: String!) { teamAgentProposal(proposalSimplyId: $id) { status } }', { id: 'tap-AAAA-BBBB-CCCC' }, as))).toBe('TEAM_AGENT_PROPOSAL_NOT_FOUND');
    expect(codeOf(await server.graphql('{ teamAgentKnowledgeSources { mode } }', {}, as))).toBe('TEAM_AGENT_SETTINGS_DENIED');
  });
});

describe('runtime events over graphql-ws', () => {
  it('delivers every event in order, and a reconnect from a sequence number misses nothing', async () => {
    model.reset();
    model.reply({ toolCalls: [{ name: 'list_collections', arguments: {} }], delayMs: 300 }, { text: 'Two collections.', delayMs: 300 });
    const first = await send(viewer, { message: 'What collections are there?', idempotencyKey: randomUUID() });
    const runSimplyId = first.body.data.runSimplyId;
    const collect = (after: number) =>
      new Promise<{ sequence: number; eventType: string }[]>((resolve, reject) => {
        const events: { sequence: number; eventType: string }[] = [];
        const client = serverGraphqlWsClient(server, { connectionParams: { authorization: `Bearer ${viewer.token}`, 'X-Team-Id': team.teamSimplyId } });
        client.subscribe<{ teamAgentRunEvents: { sequence: number; eventType: string } }>(
          { query: 'subscription($id: String!, $after: Int) { teamAgentRunEvents(runSimplyId: $id, afterSequence: $after) { sequence eventType payload createdAt } }', variables: { id: runSimplyId, after } },
          {
            next: (result) => (result.errors ? reject(new Error(JSON.stringify(result.errors))) : events.push(result.data!.teamAgentRunEvents)),
            error: (error) => reject(error instanceof Error ? error : new Error(JSON.stringify(error))),
            complete: () => {
              void client.dispose();
              resolve(events);
            },
          },
        );
      });
    const all = await collect(0);
    expect(all.map((e) => e.sequence)).toEqual(all.map((_, i) => i + 1));
    expect(all.at(-1)!.eventType).toBe('RUN_COMPLETED');
    const rest = await collect(2);
    expect(rest.map((e) => e.sequence)).toEqual(all.slice(2).map((e) => e.sequence));
  });
});
