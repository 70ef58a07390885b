// /v1/message-suppressions → src/modules/mail-feedback/suppressions.schema.ts (docs/api/mail-feedback.md
// "Suppression list"). The feedback itself comes in over SMTP and /unsubscribe, not /v1.
import { z } from 'zod';
import { createSuppressionInput, SUPPRESSION_REASONS } from '../../src/modules/mail-feedback/suppressions.input.ts';
import { MESSAGE_SUPPRESSION } from '../../src/modules/mail-feedback/suppressions.fragments.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, respond, route, type JsonSchema, type RouteExtension } from '../route.ts';
import { actOn, listPage } from '../route-shapes.ts';

const PATH = '/v1/message-suppressions';
const READ = 'privileged: OUTGOING_MESSAGES_SEND view';
const WRITE = 'privileged: OUTGOING_MESSAGES_SEND edit';

/** `{ created, suppression }` → the row with `created` as data; 201 when added now, 200 when it was already listed */
const addition = respond.custom(
  ({ created, suppression }: { created: boolean; suppression: Record<string, unknown> }) => ({ data: { ...suppression, created }, status: created ? 201 : 200 }),
  (field) => {
    const row = respond.property(field, 'suppression');
    const properties = { ...(row.properties as Record<string, JsonSchema>), created: respond.property(field, 'created') };
    return { data: { ...row, properties, required: [...((row.required as string[] | undefined) ?? []), 'created'] } };
  },
);

const SUPPRESSIONS = 'the team\'s suppression list (docs/api/mail-feedback.md "Suppression list"): the route checklist names suppressions privileged without routes';

/** Served routes the documents do not list, each with why it exists (OpenAPI `x-extension`). */
const EXTENSIONS: Record<string, RouteExtension> = {
  'GET /v1/message-suppressions': { reason: SUPPRESSIONS },
  'POST /v1/message-suppressions': { reason: SUPPRESSIONS },
  'DELETE /v1/message-suppressions/{address}': { reason: SUPPRESSIONS },
};

export const mailFeedbackRoutes = defineRoutes([
  listPage({
    path: PATH,
    summary: 'List suppressed addresses',
    description: `The team's suppressed addresses, newest first (${READ}): limit, offset, search, reason`,
    name: 'MessageSuppressions',
    select: MESSAGE_SUPPRESSION,
    filters: {
      search: { type: 'String', schema: z.string().optional().describe('text the address contains (case-insensitive)') },
      reason: { type: 'String', schema: z.string().optional().describe(`only this reason: ${SUPPRESSION_REASONS.join(', ')}`) },
    },
  }),
  route({
    method: 'POST',
    path: PATH,
    summary: 'Suppress an address',
    description: `Suppress an address (${WRITE}): { address }; reason MANUAL; 201 added, 200 with the existing row when it is already listed`,
    operation: operation`mutation CreateMessageSuppression($input: CreateMessageSuppressionInput!) { createMessageSuppression(input: $input) { created suppression { ${MESSAGE_SUPPRESSION} } } }`,
    body: createSuppressionInput,
    example: { address: 'no-more-mail@example.org' },
    variables: ({ body }) => ({ input: body }),
    respond: addition,
    status: 201,
  }),
  actOn({
    method: 'DELETE',
    path: `${PATH}/{address}`,
    summary: 'Remove a suppression',
    description: `Take an address (URL-encoded) off the list so it is mailed again (${WRITE}); not listed: 404`,
    name: 'DeleteMessageSuppression',
    field: 'deleteMessageSuppression',
  }),
], EXTENSIONS);
