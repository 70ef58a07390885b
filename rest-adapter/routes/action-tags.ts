// Action tags → src/modules/action-tags/action-tags.schema.ts (docs/api/action-tags.md). Privileged
// tier with TEAM_ADMIN_SVC_TAGS; API keys only on the 500-action band or higher; capabilities for a
// signed-in Team Admin. Parts of the area (CSV, domains, webhooks) live in routes/action-tags/*.ts.
import { z } from 'zod';
import { operation } from '../../src/app/graphql/fragments.ts';
import { ACTION_TAG, ACTION_TAG_CAPABILITIES } from '../../src/modules/action-tags/action-tags.fragments.ts';
import { ACTION_TAG_EXAMPLE, bulkGenerateInput, createActionTagInput, listActionTagsQuery, scansQuery, updateActionTagInput } from '../../src/modules/action-tags/action-tags.input.ts';
import { analyticsQuery } from '../../src/modules/action-tags/action-tag-analytics.input.ts';
import { defineRoutes, respond, route, type Responder } from '../route.ts';
import { actOn, createOne, getOne, updateOne } from '../route-shapes.ts';
import { actionTagCsvRoutes } from './action-tags/csv.ts';
import { actionTagDomainExtensions, actionTagDomainRoutes } from './action-tags/domains.ts';
import { actionTagWebhookExtensions, actionTagWebhookRoutes } from './action-tags/webhooks.ts';

const TAGS = '/v1/action-tags';
const TAG = `${TAGS}/{simplyActionTagSimplyId}`;
const TIER = 'TEAM_ADMIN_SVC_TAGS; API keys need the 500-action band or higher';
const LIST_ARGS = Object.keys(listActionTagsQuery.shape);
const ARG_TYPES: Record<string, string> = { limit: 'Int', offset: 'Int' };
const ANALYTICS_ARGS = Object.keys(analyticsQuery.shape);
const ANALYTICS = 'from to trafficClasses totals sources traffic geography daily topTags recentActivity platformSignals';

/** `{ contentType, base64 }` → the bytes, sent as they are. */
const file = (disposition?: string): Responder => ({
  map: (value: { contentType: string; base64: string }) => ({
    data: null,
    raw: { contentType: value.contentType, body: Buffer.from(value.base64, 'base64'), headers: { 'cache-control': 'no-store', ...(disposition ? { 'content-disposition': disposition } : {}) } },
  }),
  schema: () => ({ data: { type: 'string', format: 'binary' } }),
});

const QR_EXTENSION = 'the image of a tag’s publicUrl?source=QR, ready to print: a tag reaches people as a printed code';

export const actionTagRoutes = defineRoutes(
  [
    route({
      method: 'GET',
      path: '/v1/action-tags/capabilities',
      summary: 'Get the action-tag plan',
      description: 'The team’s band, managed capacity, tags in use, retention, domain allowance and feature gates. A signed-in Team Admin only (API keys and session tokens: 403 IDP_REQUIRED)',
      operation: operation`query ActionTagCapabilities { actionTagCapabilities { ${ACTION_TAG_CAPABILITIES} } }`,
    }),
    route({
      method: 'GET',
      path: TAGS,
      summary: 'List action tags',
      description: `Newest first unless sort says otherwise (column:direction clauses, comma-separated). Filters: status, actionType (comma lists), dataRecordSimplyId, dataCollectionSimplyId, hasLinkedRecord, labelSimplyIds (any of), search, destinationDomain, createdFrom/createdTo, lastScannedFrom/lastScannedTo. limit default 100, max 500 (${TIER})`,
      operation: operation(
        [
          `query ActionTags(${LIST_ARGS.map((a) => `$${a}: ${ARG_TYPES[a] ?? 'String'}`).join(', ')}) { actionTags(${LIST_ARGS.map((a) => `${a}: $${a}`).join(', ')}) { nodes { `,
          ' } pagination { total limit offset hasMore } } }',
        ],
        ACTION_TAG,
      ),
      query: listActionTagsQuery,
      variables: ({ query }) => query as Record<string, unknown>,
      respond: respond.page,
    }),
    createOne({
      path: TAGS,
      summary: 'Create an action tag',
      description: `{ name, notes?, status? (DRAFT default, ACTIVE or INACTIVE), actionType? (URL default, LINK_PAGE; powered DATA_WIZARD, DATA_RECORD), actionUrl (http or https), linkPageSettings? { title, theme, callsToAction: 1-5 of { label, url } }, qrCodeSettings?, labelSimplyIds?, powered dataWizardSimplyId, dataRecordSimplyId, requireFreshScan (refused without an eligible paid plan) } (${TIER})`,
      name: 'CreateActionTag',
      inputType: 'JSON',
      body: createActionTagInput,
      example: ACTION_TAG_EXAMPLE,
      select: ACTION_TAG,
    }),
    getOne({ path: TAG, summary: 'Get an action tag', description: `The tag with its publicUrl, the URL printed in the code or chip (${TIER})`, name: 'ActionTag', select: ACTION_TAG }),
    updateOne({
      method: 'PUT',
      path: TAG,
      summary: 'Change an action tag',
      description: `Only the properties present change; null clears the optional ones. Status moves follow the transition table; only ACTIVE resolves (${TIER})`,
      name: 'UpdateActionTag',
      inputType: 'JSON',
      body: updateActionTagInput,
      example: { status: 'INACTIVE' },
      select: ACTION_TAG,
    }),
    route({
      method: 'GET',
      path: `${TAG}/scans`,
      summary: 'List a tag’s scans',
      description: `Newest first; limit default 100, max 500. Each: scannedAt, resolveStatus, resolvedDestination, interactionSource, trafficClass, countedAsInteraction, city, region, country, referrer (no query), userAgent (null after seven days); never an address (${TIER})`,
      operation: operation`query ActionTagScans($id: String!, $limit: Int, $offset: Int) { actionTagScans(simplyActionTagSimplyId: $id, limit: $limit, offset: $offset) { nodes { scannedAt resolveStatus resolvedDestination interactionSource trafficClass countedAsInteraction city region country referrer userAgent } pagination { total limit offset hasMore } } }`,
      query: scansQuery,
      variables: ({ params, query }) => ({ id: params.simplyActionTagSimplyId, ...(query as object) }),
      respond: respond.page,
    }),
    route({
      method: 'GET',
      path: '/v1/action-tags/analytics',
      summary: 'Get action-tag analytics',
      description: `Team-wide, from the daily aggregates: totals, sources { QR, NFC, LINK, UNKNOWN }, traffic, geography, daily series, top tags, recent activity, platform signals. from/to (days, default the last 30), status, actionType, labelSimplyIds, dataCollectionSimplyId, dataRecordSimplyId, trafficClass (HUMAN default; BOT, LINK_PREVIEW or ALL) (${TIER})`,
      operation: operation([
        `query ActionTagsAnalytics(${ANALYTICS_ARGS.map((a) => `$${a}: String`).join(', ')}) { actionTagsAnalytics(${ANALYTICS_ARGS.map((a) => `${a}: $${a}`).join(', ')}) { ${ANALYTICS} } }`,
      ]),
      query: analyticsQuery,
      variables: ({ query }) => query as Record<string, unknown>,
    }),
    route({
      method: 'GET',
      path: `${TAG}/analytics`,
      summary: 'Get one tag’s analytics',
      description: `The same summary for one tag, with the same filters (${TIER})`,
      operation: operation([
        `query ActionTagAnalytics($id: String!, ${ANALYTICS_ARGS.map((a) => `$${a}: String`).join(', ')}) { actionTagAnalytics(simplyActionTagSimplyId: $id, ${ANALYTICS_ARGS.map((a) => `${a}: $${a}`).join(', ')}) { ${ANALYTICS} } }`,
      ]),
      query: analyticsQuery,
      variables: ({ params, query }) => ({ id: params.simplyActionTagSimplyId, ...(query as object) }),
    }),
    route({
      method: 'GET',
      path: '/v1/action-tags/analytics/export.csv',
      summary: 'Export action-tag analytics',
      description: `A CSV (text/csv): the scan detail still within retention (record_type SCAN) and each tag’s lifetime aggregates (record_type TAG); no address, hash or user agent; formula-safe cells (${TIER})`,
      operation: operation`query ActionTagAnalyticsExport { actionTagAnalyticsExport { contentType base64 } }`,
      respond: file('attachment; filename="action-tag-analytics.csv"'),
    }),
    route({
      method: 'GET',
      path: `${TAG}/qr-code`,
      summary: 'Get a tag’s QR code image',
      description: `The image (SVG default, or PNG) of publicUrl?source=QR with the tag’s qrCodeSettings: colors, error correction, logo (then error correction H). format=svg|png, size=128-2048 pixels (PNG width; default 512) (${TIER})`,
      operation: operation`query ActionTagQrCode($id: String!, $format: String, $size: Int) { actionTagQrCode(simplyActionTagSimplyId: $id, format: $format, size: $size) { contentType base64 } }`,
      query: z.strictObject({
        format: z.enum(['svg', 'png'], { message: 'must be svg or png' }).optional(),
        size: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(128, 'at least 128').max(2048, 'at most 2048').optional(),
      }),
      variables: ({ params, query }) => ({ id: params.simplyActionTagSimplyId, ...(query as object) }),
      respond: file(),
    }),
    route({
      method: 'POST',
      path: '/v1/action-tags/bulk-generate',
      summary: 'Generate a tag per record',
      description:
        '{ dataCollectionSimplyId, actionUrl, actionType? (DATA_RECORD default, DATA_WIZARD with dataWizardSimplyId), status? (DRAFT default), namePrefix?, limit? (1-500, default 100) }: one tag for each record of the collection that has none yet, oldest first, within the plan’s capacity. Powered plans only; first-party: a signed-in member with TEAM_ADMIN_SVC_TAGS edit (API keys: 403 IDP_REQUIRED)',
      operation: operation([`mutation BulkGenerateActionTags($input: JSON!) { bulkGenerateActionTags(input: $input) { created { `, ' } skipped } }'], ACTION_TAG),
      body: bulkGenerateInput,
      example: { dataCollectionSimplyId: 'AB23-CD45-EF67', actionUrl: 'https://example.org/members', namePrefix: 'Member card' },
      variables: ({ body }) => ({ input: body }),
      status: 201,
    }),
    actOn({ method: 'DELETE', path: TAG, summary: 'Delete an action tag', description: `Deletes the tag and its scan detail; the team’s daily aggregates keep its counts (${TIER})`, name: 'DeleteActionTag' }),
    // CSV, domains and lifecycle webhooks: routes/action-tags/*.ts
    ...actionTagCsvRoutes,
    ...actionTagDomainRoutes,
    ...actionTagWebhookRoutes,
  ],
  { [`GET ${TAG}/qr-code`]: { reason: QR_EXTENSION }, ...actionTagDomainExtensions, ...actionTagWebhookExtensions },
);
