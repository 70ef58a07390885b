// /v1/data-records/{dataRecordSimplyId}/communications (and its deprecated alias
// /outgoing-messages, and /communications/protected) → src/modules/communications/communications.schema.ts
// (docs/api/communications.md). Keyset paged: data is the page's deliveries, meta the cursor and
// the facts of the record.
import { z } from 'zod';
import { operation } from '../../src/app/graphql/fragments.ts';
import { DELIVERY_CHANNELS, DELIVERY_STATES, HISTORY_LIMITS, NO_OFFSET } from '../../src/modules/communications/communications.input.ts';
import { COMMUNICATION_PAGE, PROTECTED_COMMUNICATION_PAGE } from '../../src/modules/communications/communications.fragments.ts';
import { defineRoutes, respond, route, type JsonSchema, type Responder } from '../route.ts';
import { queryInt } from '../schemas.ts';

const COMMUNICATIONS = '/v1/data-records/{dataRecordSimplyId}/communications';
const ALIAS = '/v1/data-records/{dataRecordSimplyId}/outgoing-messages';
const PROTECTED = `${COMMUNICATIONS}/protected`;
const NEEDS = 'records:read (scoped tokens), CONSTITUENT_MESSAGE_HISTORY_VIEW and read access to the record';

/** a text parameter; empty counts as absent (a client sending `cursor=` on its first page) */
const queryText = () => z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

const query = z.object({
  limit: queryInt().describe(`1-${HISTORY_LIMITS.maxLimit}, default ${HISTORY_LIMITS.defaultLimit}`),
  cursor: queryText().describe('meta.nextCursor of the previous page (opaque)'),
  channelId: queryText().describe(`only deliveries over this channel: ${DELIVERY_CHANNELS.join(', ')}`),
  currentStateId: queryText().describe(`only deliveries now in this state: ${DELIVERY_STATES.join(', ')}`),
  offset: z.never({ message: NO_OFFSET }).optional().describe('not accepted: this list pages by cursor'),
});

type Page = { nodes: Record<string, unknown>[] } & Record<string, unknown>;

/** data: the deliveries (completenessGapReason only where there is one); meta: the cursor and the record's facts. */
const historyPage: Responder<Page> = respond.custom(
  ({ nodes, ...meta }: Page) => ({
    data: nodes.map(({ completenessGapReason, ...node }) => (completenessGapReason == null ? node : { ...node, completenessGapReason })),
    meta,
  }),
  (field) => {
    const { nodes, ...meta } = (field.properties ?? {}) as Record<string, JsonSchema>;
    const items = (nodes?.items ?? {}) as JsonSchema;
    const required = ((items.required as string[] | undefined) ?? []).filter((name) => name !== 'completenessGapReason');
    return {
      data: { ...nodes, items: { ...items, required } },
      meta: { type: 'object', properties: meta, required: Object.keys(meta) },
    };
  },
);

function historyRoute(path: string, name: string, field: string, select: typeof COMMUNICATION_PAGE, summary: string, description: string) {
  return route({
    method: 'GET',
    path,
    summary,
    description,
    operation: operation(
      [`query ${name}($id: String!, $limit: Int, $cursor: String, $channelId: String, $currentStateId: String) { ${field}(dataRecordSimplyId: $id, limit: $limit, cursor: $cursor, channelId: $channelId, currentStateId: $currentStateId) { `, ' } }'],
      select,
    ),
    query,
    variables: ({ params, query: q }) => ({ id: params.dataRecordSimplyId, limit: q.limit, cursor: q.cursor, channelId: q.channelId, currentStateId: q.currentStateId }),
    respond: historyPage,
  });
}

export const communicationRoutes = defineRoutes([
  historyRoute(COMMUNICATIONS, 'DataRecordCommunications', 'dataRecordCommunications', COMMUNICATION_PAGE, "List a record's communications", `The constituent's communication history, newest first, integration-safe fields only (${NEEDS}): limit, cursor, channelId, currentStateId`),
  {
    ...historyRoute(ALIAS, 'DataRecordOutgoingMessages', 'dataRecordOutgoingMessages', COMMUNICATION_PAGE, "List a record's outgoing messages", `Deprecated alias of GET ${COMMUNICATIONS}: the same projection and parameters (Deprecation and Link headers)`),
    deprecation: { successor: COMMUNICATIONS },
  },
  historyRoute(PROTECTED, 'DataRecordProtectedCommunications', 'dataRecordProtectedCommunications', PROTECTED_COMMUNICATION_PAGE, "Get a record's protected history", `The history with exact addresses, masked content, lifecycle events and attachment manifests (signed-in team users only; API keys and session tokens: 403 PROTECTED_HISTORY_AUTH_REQUIRED; ${NEEDS})`),
]);
