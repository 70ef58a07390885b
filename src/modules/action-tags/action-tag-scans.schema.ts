// GraphQL face of scans, analytics, the analytics export and the QR image (docs/api/action-tags.md).
// REST: rest-adapter/routes/action-tags.ts. The same tier as the tags.
import { builder } from '../../app/builder.ts';
import { PaginationRef } from '../../app/graphql/page.ts';
import type { ActionTagScan } from '../../generated/prisma/client.ts';
import { actionTagAnalytics, type ActionTagAnalytics } from './action-tag-analytics.service.ts';
import { exportActionTagAnalyticsCsv } from './action-tag-analytics-export.ts';
import { actionTagQrCode, type QrImage } from './action-tag-qr.ts';
import { listActionTagScans, type ScanPage } from './action-tag-scans.service.ts';
import { actionTagsRead } from './action-tags.schema.ts';

const ScanRef = builder.objectRef<ActionTagScan>('ActionTagScan').implement({
  description: 'One resolution of a tag; never the scanner’s address',
  fields: (t) => ({
    scannedAt: t.field({ type: 'DateTime', resolve: (s) => s.scannedAt }),
    resolveStatus: t.string({ description: 'RESOLVED, or DISABLED when the tag was not ACTIVE', resolve: (s) => s.resolveStatus }),
    resolvedDestination: t.string({ nullable: true, description: 'the URL it redirected to, LINK_PAGE, or null', resolve: (s) => s.resolvedDestination }),
    interactionSource: t.string({ description: 'QR, NFC, LINK or UNKNOWN, as the URL declared it', resolve: (s) => s.interactionSource }),
    trafficClass: t.string({ description: 'HUMAN, BOT or LINK_PREVIEW', resolve: (s) => s.trafficClass }),
    countedAsInteraction: t.boolean({ description: 'false for bots, previews, disabled scans and a visitor’s other projections within 30 minutes', resolve: (s) => s.countedAsInteraction }),
    city: t.string({ nullable: true, resolve: (s) => s.city }),
    region: t.string({ nullable: true, resolve: (s) => s.region }),
    country: t.string({ nullable: true, description: 'ISO 3166-1 alpha-2', resolve: (s) => s.country }),
    referrer: t.string({ nullable: true, description: 'without its query and fragment', resolve: (s) => s.referrer }),
    userAgent: t.string({ nullable: true, description: 'null after seven days', resolve: (s) => s.userAgent }),
  }),
});

const ScanPageRef = builder.objectRef<ScanPage>('ActionTagScanPage').implement({
  fields: (t) => ({ nodes: t.expose('nodes', { type: [ScanRef] }), pagination: t.expose('pagination', { type: PaginationRef }) }),
});

const AnalyticsRef = builder.objectRef<ActionTagAnalytics>('ActionTagAnalytics').implement({
  description: 'Counts from the daily aggregates: HUMAN traffic unless trafficClasses says otherwise',
  fields: (t) => ({
    from: t.exposeString('from'),
    to: t.exposeString('to'),
    trafficClasses: t.exposeStringList('trafficClasses'),
    totals: t.field({ type: 'JSON', description: '{ scans, interactions, disabledScans }', resolve: (a) => a.totals as never }),
    sources: t.field({ type: 'JSON', description: '{ QR, NFC, LINK, UNKNOWN }', resolve: (a) => a.sources as never }),
    traffic: t.field({ type: 'JSON', description: '{ HUMAN, BOT, LINK_PREVIEW }: every class, whatever the filter', resolve: (a) => a.traffic as never }),
    geography: t.field({ type: 'JSON', description: '[{ country, region, city, scans }], the 25 largest', resolve: (a) => a.geography as never }),
    daily: t.field({ type: 'JSON', description: '[{ day, scans, interactions }]', resolve: (a) => a.daily as never }),
    topTags: t.field({ type: 'JSON', description: '[{ simplyActionTagSimplyId, name, scans, interactions }], the 10 largest', resolve: (a) => a.topTags as never }),
    recentActivity: t.field({ type: 'JSON', description: '[{ simplyActionTagSimplyId, name, lastScannedAt }], the 10 latest', resolve: (a) => a.recentActivity as never }),
    platformSignals: t.field({ type: 'JSON', description: '{ wizardLaunches, recordVisits, linkPageViews }', resolve: (a) => a.platformSignals as never }),
  }),
});

const FileRef = builder.objectRef<{ contentType: string; base64: string }>('ActionTagFile').implement({
  description: 'A file the REST route sends as it is',
  fields: (t) => ({ contentType: t.exposeString('contentType'), base64: t.exposeString('base64') }),
});

const QrRef = builder.objectRef<QrImage>('ActionTagQrCode').implement({
  fields: (t) => ({ contentType: t.exposeString('contentType'), base64: t.exposeString('base64'), encodedUrl: t.exposeString('encodedUrl', { description: 'publicUrl?source=QR' }) }),
});

const analyticsArgs = (t: Parameters<Parameters<typeof builder.queryFields>[0]>[0]) => ({
  from: t.arg.string(),
  to: t.arg.string(),
  status: t.arg.string(),
  actionType: t.arg.string(),
  labelSimplyIds: t.arg.string(),
  dataCollectionSimplyId: t.arg.string(),
  dataRecordSimplyId: t.arg.string(),
  trafficClass: t.arg.string(),
});

builder.queryFields((t) => ({
  actionTagScans: t.field({
    type: ScanPageRef,
    description: 'A tag’s scans, newest first; limit default 100, max 500 (TEAM_ADMIN_SVC_TAGS)',
    authScopes: actionTagsRead,
    args: { simplyActionTagSimplyId: t.arg.string({ required: true }), limit: t.arg.int(), offset: t.arg.int() },
    resolve: (_r, a, ctx) => listActionTagScans(ctx, a.simplyActionTagSimplyId, { limit: a.limit, offset: a.offset }),
  }),
  actionTagsAnalytics: t.field({
    type: AnalyticsRef,
    description: 'Team-wide analytics from the daily aggregates (TEAM_ADMIN_SVC_TAGS)',
    authScopes: actionTagsRead,
    args: analyticsArgs(t),
    resolve: (_r, a, ctx) => actionTagAnalytics(ctx, a),
  }),
  actionTagAnalytics: t.field({
    type: AnalyticsRef,
    description: 'One tag’s analytics (TEAM_ADMIN_SVC_TAGS)',
    authScopes: actionTagsRead,
    args: { simplyActionTagSimplyId: t.arg.string({ required: true }), ...analyticsArgs(t) },
    resolve: (_r, { simplyActionTagSimplyId, ...a }, ctx) => actionTagAnalytics(ctx, a, simplyActionTagSimplyId),
  }),
  actionTagAnalyticsExport: t.field({
    type: FileRef,
    description: 'Scan detail within retention and lifetime aggregates as CSV (TEAM_ADMIN_SVC_TAGS)',
    authScopes: actionTagsRead,
    resolve: (_r, _a, ctx) => exportActionTagAnalyticsCsv(ctx),
  }),
  actionTagQrCode: t.field({
    type: QrRef,
    description: 'The image of publicUrl?source=QR with the tag’s qrCodeSettings (TEAM_ADMIN_SVC_TAGS)',
    authScopes: actionTagsRead,
    args: { simplyActionTagSimplyId: t.arg.string({ required: true }), format: t.arg.string(), size: t.arg.int() },
    resolve: (_r, a, ctx) => actionTagQrCode(ctx, a.simplyActionTagSimplyId, a.format, a.size),
  }),
}));
