// /v1/team-agent → src/modules/team-assistant/team-assistant.schema.ts (docs/api/team-assistant.md).
// Signed-in members (and first-party OAuth clients allowed for the assistant); each sees only their own.
import { z } from 'zod';
import { operation, PAGINATION } from '../../src/app/graphql/fragments.ts';
import {
  TEAM_AGENT_FEEDBACK,
  TEAM_AGENT_KNOWLEDGE_SOURCES,
  TEAM_AGENT_MESSAGE,
  TEAM_AGENT_PROPOSAL,
  TEAM_AGENT_RUN,
  TEAM_AGENT_SEND_RESULT,
  TEAM_AGENT_SESSION,
  TEAM_AGENT_SUPPORT_HANDOFF,
  TEAM_AGENT_SUPPORT_SCOPE,
} from '../../src/modules/team-assistant/team-assistant.fragments.ts';
import { feedbackInput, handoffInput, knowledgeSourcesInput, sendMessageInput, supportScopeInput } from '../../src/modules/team-assistant/team-assistant.input.ts';
import { defineRoutes, respond, route } from '../route.ts';
import { pageQuery } from '../schemas.ts';

const SESSION = '/v1/team-agent/sessions/{sessionSimplyId}';
const RUN = '/v1/team-agent/runs/{runSimplyId}';
const PROPOSAL = '/v1/team-agent/proposals/{proposalSimplyId}';

/** 202 while the run works, 201 for a persisted reply: the status the field reports */
const sendAnswer = respond.custom(
  ({ httpStatus, ...data }: { httpStatus: number } & Record<string, unknown>) => ({ data, status: httpStatus }),
  (field) => {
    const { httpStatus: _omitted, ...properties } = (field.properties ?? {}) as Record<string, unknown>;
    return { data: { ...field, properties, required: Object.keys(properties) } };
  },
);

/** 201 when the call created it, 200 when it found it: `data.created` says which */
const createdOrFound = respond.custom(
  (result: { created: boolean }) => ({ data: result, status: result.created ? 201 : 200 }),
  (field) => ({ data: field }),
);

export const teamAssistantRoutes = defineRoutes(
  [
    route<Record<string, string>, z.output<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/team-agent/sessions',
      summary: 'List my assistant sessions',
      description: 'Your sessions with the team assistant, most recently active first: limit 1-100 (default 25), offset',
      operation: operation`query TeamAgentSessions($limit: Int, $offset: Int) { teamAgentSessions(limit: $limit, offset: $offset) { nodes { ${TEAM_AGENT_SESSION} } pagination { ${PAGINATION} } } }`,
      query: pageQuery,
      variables: ({ query }) => query,
      respond: respond.page,
    }),
    route({
      method: 'GET',
      path: SESSION,
      summary: 'Get an assistant session',
      description: 'One of your sessions and its messages, oldest first; each assistant reply carries your feedback',
      operation: operation`query TeamAgentSession($id: String!) { teamAgentSession(sessionSimplyId: $id) { session { ${TEAM_AGENT_SESSION} } messages { ${TEAM_AGENT_MESSAGE} } } }`,
      variables: ({ params }) => ({ id: params.sessionSimplyId }),
    }),
    route({
      method: 'PUT',
      path: `${SESSION}/archive`,
      summary: 'Archive an assistant session',
      description: 'ARCHIVED: kept and readable, but closed to new messages',
      operation: operation`mutation ArchiveTeamAgentSession($id: String!) { archiveTeamAgentSession(sessionSimplyId: $id) { ${TEAM_AGENT_SESSION} } }`,
      variables: ({ params }) => ({ id: params.sessionSimplyId }),
    }),
    route({
      method: 'POST',
      path: '/v1/team-agent/messages',
      summary: 'Send a message to the assistant',
      description:
        'A new idempotencyKey: 202 with status RUNNING and assistantMessage null; poll the run. The same key again: 202 while it runs, 201 with the persisted reply once COMPLETED or WAITING, 409 with the safe failure once FAILED or CANCELLED.',
      operation: operation`mutation SendTeamAgentMessage($input: JSON!) { sendTeamAgentMessage(input: $input) { ${TEAM_AGENT_SEND_RESULT} } }`,
      body: sendMessageInput,
      example: { message: 'How many members joined this month?', idempotencyKey: '0f8c6a52-3c1e-4d6b-9a57-2f1e8b7d4c90', contextSnapshot: { platform: 'WEB', dataCollectionSimplyId: '7Q2M-KD4X-9PHA' } },
      variables: ({ body }) => ({ input: body }),
      respond: sendAnswer,
    }),
    route<Record<string, string>, { idempotencyKey: string }>({
      method: 'GET',
      path: '/v1/team-agent/runs',
      summary: 'Discover a run by its key',
      description: 'The run you started with this idempotencyKey; 404 TEAM_AGENT_RUN_NOT_FOUND until it is visible',
      operation: operation`query TeamAgentRunByKey($key: String!) { teamAgentRunByKey(idempotencyKey: $key) { ${TEAM_AGENT_RUN} } }`,
      query: z.strictObject({ idempotencyKey: z.string().min(1).max(64) }),
      variables: ({ query }) => ({ key: query.idempotencyKey }),
    }),
    route({
      method: 'GET',
      path: RUN,
      summary: 'Get an assistant run',
      description: 'Status, ordered runtime events, the messages and control state of one of your runs',
      operation: operation`query TeamAgentRun($id: String!) { teamAgentRun(runSimplyId: $id) { ${TEAM_AGENT_RUN} } }`,
      variables: ({ params }) => ({ id: params.runSimplyId }),
    }),
    route({
      method: 'POST',
      path: `${RUN}/cancel`,
      summary: 'Cancel an assistant run',
      description: 'Asks a RUNNING run to stop before its next step (it ends CANCELLED); a run that already ended is answered as it is',
      operation: operation`mutation CancelTeamAgentRun($id: String!) { cancelTeamAgentRun(runSimplyId: $id) { ${TEAM_AGENT_RUN} } }`,
      variables: ({ params }) => ({ id: params.runSimplyId }),
    }),
    route({
      method: 'POST',
      path: '/v1/team-agent/messages/{messageSimplyId}/feedback',
      summary: 'Rate an assistant reply',
      description: '201 on your first rating of the reply, 200 when it replaces it (same feedbackSimplyId); omitted, null or blank comment clears it',
      operation: operation`mutation RateTeamAgentMessage($id: String!, $input: JSON!) { rateTeamAgentMessage(messageSimplyId: $id, input: $input) { created feedback { ${TEAM_AGENT_FEEDBACK} } } }`,
      body: feedbackInput,
      example: { rating: 'UP', comment: 'Exactly what I needed' },
      variables: ({ params, body }) => ({ id: params.messageSimplyId, input: body }),
      respond: createdOrFound,
    }),
    route({
      method: 'GET',
      path: PROPOSAL,
      summary: 'Get an assistant proposal',
      description: 'A change the assistant drafted: its diff, affected resources, risk level, summaries, expiry and status',
      operation: operation`query TeamAgentProposal($id: String!) { teamAgentProposal(proposalSimplyId: $id) { ${TEAM_AGENT_PROPOSAL} } }`,
      variables: ({ params }) => ({ id: params.proposalSimplyId }),
    }),
    route({
      method: 'POST',
      path: `${PROPOSAL}/approve`,
      summary: 'Approve an assistant proposal',
      description:
        'Executes exactly what was drafted, once (edit-level assistant permission). Approving again answers the proposal as it is. 409 TEAM_AGENT_PROPOSAL_STALE when the records changed since (nothing written), TEAM_AGENT_PROPOSAL_EXPIRED, TEAM_AGENT_PROPOSAL_NOT_PENDING.',
      operation: operation`mutation ApproveTeamAgentProposal($id: String!) { approveTeamAgentProposal(proposalSimplyId: $id) { ${TEAM_AGENT_PROPOSAL} } }`,
      variables: ({ params }) => ({ id: params.proposalSimplyId }),
    }),
    route({
      method: 'POST',
      path: `${PROPOSAL}/reject`,
      summary: 'Reject an assistant proposal',
      description: 'A DRAFT becomes REJECTED (rejecting again answers it as it is); nothing is written',
      operation: operation`mutation RejectTeamAgentProposal($id: String!) { rejectTeamAgentProposal(proposalSimplyId: $id) { ${TEAM_AGENT_PROPOSAL} } }`,
      variables: ({ params }) => ({ id: params.proposalSimplyId }),
    }),
    route({
      method: 'POST',
      path: '/v1/team-agent/prefills/{prefillNonce}/redeem',
      summary: 'Redeem a builder prefill',
      description:
        "The message fields behind a PREFILL_SUPPORTED_BUILDER intent (details, content, optional schedule; never recipients), once, within five minutes of the reply; afterwards 404 TEAM_AGENT_PREFILL_NOT_FOUND",
      operation: operation`mutation RedeemTeamAgentPrefill($nonce: String!) { redeemTeamAgentPrefill(nonce: $nonce) }`,
      variables: ({ params }) => ({ nonce: params.prefillNonce }),
    }),
    route({
      method: 'GET',
      path: '/v1/team-agent/support/availability',
      summary: 'Get support availability',
      description: "Whether a member may hand a session over to the team's responders now (the team admins), on which topics, and why not",
      operation: operation`query TeamAgentSupportAvailability { teamAgentSupportAvailability { available reason topics responders } }`,
    }),
    route({
      method: 'POST',
      path: '/v1/team-agent/support/handoffs',
      summary: 'Hand a session over to support',
      description:
        'Asks a person of the team to take over one of your sessions: 201 and the team admins are notified; 200 with the OPEN handoff when the session has one already; 409 TEAM_AGENT_SUPPORT_UNAVAILABLE when the team offers none',
      operation: operation`mutation RequestTeamAgentSupportHandoff($input: JSON!) { requestTeamAgentSupportHandoff(input: $input) { created handoff { ${TEAM_AGENT_SUPPORT_HANDOFF} } } }`,
      body: handoffInput,
      example: { sessionSimplyId: 'tas-7Q2M-KD4X-9PHA', topic: 'Billing', note: 'The invoice totals look wrong' },
      variables: ({ body }) => ({ input: body }),
      respond: createdOrFound,
    }),
    route({
      method: 'GET',
      path: `${SESSION}/support-handoffs`,
      summary: 'List support handoffs of a session',
      description: 'The handoffs asked for in one of your sessions, newest first',
      operation: operation`query TeamAgentSupportHandoffs($id: String!) { teamAgentSupportHandoffs(sessionSimplyId: $id) { ${TEAM_AGENT_SUPPORT_HANDOFF} } }`,
      variables: ({ params }) => ({ id: params.sessionSimplyId }),
    }),
    route({
      method: 'GET',
      path: '/v1/team-agent/settings/knowledge-sources',
      summary: 'Get assistant knowledge sources',
      description: 'Which collections and views the assistant may read for the team (never more than each member may read)',
      operation: operation`query TeamAgentKnowledgeSources { teamAgentKnowledgeSources { ${TEAM_AGENT_KNOWLEDGE_SOURCES} } }`,
    }),
    route({
      method: 'PUT',
      path: '/v1/team-agent/settings/knowledge-sources',
      summary: 'Set assistant knowledge sources',
      description: 'mode ALL_READABLE or SELECTED, collections, views; Team Admins or edit-level TEAM_ADMIN_AGENT_USE',
      operation: operation`mutation SetTeamAgentKnowledgeSources($input: JSON!) { setTeamAgentKnowledgeSources(input: $input) { ${TEAM_AGENT_KNOWLEDGE_SOURCES} } }`,
      body: knowledgeSourcesInput,
      example: { mode: 'SELECTED', collections: ['7Q2M-KD4X-9PHA'], views: [] },
      variables: ({ body }) => ({ input: body }),
    }),
    route({
      method: 'GET',
      path: '/v1/team-agent/settings/support-scope',
      summary: 'Get assistant support scope',
      description: 'Whether members may hand a session over to the team\'s responders, and on which topics',
      operation: operation`query TeamAgentSupportScope { teamAgentSupportScope { ${TEAM_AGENT_SUPPORT_SCOPE} } }`,
    }),
    route({
      method: 'PUT',
      path: '/v1/team-agent/settings/support-scope',
      summary: 'Set assistant support scope',
      description: 'enabled, topics (up to 20), instructions; Team Admins or edit-level TEAM_ADMIN_AGENT_USE',
      operation: operation`mutation SetTeamAgentSupportScope($input: JSON!) { setTeamAgentSupportScope(input: $input) { ${TEAM_AGENT_SUPPORT_SCOPE} } }`,
      body: supportScopeInput,
      example: { enabled: true, topics: ['Billing', 'Data imports'], instructions: null },
      variables: ({ body }) => ({ input: body }),
    }),
  ],
  {
    'POST /v1/team-agent/runs/{runSimplyId}/cancel': { reason: 'Stops a run the member no longer needs (CANCELLED is a documented run status, but no documented route leads there).' },
    'POST /v1/team-agent/prefills/{prefillNonce}/redeem': { reason: 'Hands the web app the builder prefill a PREFILL_SUPPORTED_BUILDER intent names by its single-use nonce (the documented intent names the single-use nonce, not the route that redeems it).' },
    'GET /v1/team-agent/proposals/{proposalSimplyId}': { reason: 'Shows a proposal\'s diff, risk and expiry before the member approves or rejects it (the documented proposal fields have no documented route that reads them).' },
  },
);
