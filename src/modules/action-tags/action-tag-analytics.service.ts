// Analytics of action tags (docs/api/action-tags.md "Analytics"), team-wide or for one tag, read
// from the daily aggregate rows (never the raw scans), so 90 days of a busy team is a few thousand
// rows. Counts are of HUMAN traffic unless `trafficClass` asks for others; `interactions` counts
// one visitor's QR, NFC and link projections of a tag within 30 minutes once.
import type { RequestContext } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { requireActionTagAccess } from './action-tag-plan.ts';
import { ACTION_TAG_STATUSES, ACTION_TYPES } from './action-tags.input.ts';
import { tagOf } from './action-tags.service.ts';
import { analyticsQuery } from './action-tag-analytics.input.ts';


export interface ActionTagAnalytics {
  from: string;
  to: string;
  trafficClasses: string[];
  totals: { scans: number; interactions: number; disabledScans: number };
  sources: { QR: number; NFC: number; LINK: number; UNKNOWN: number };
  traffic: { HUMAN: number; BOT: number; LINK_PREVIEW: number };
  geography: { country: string | null; region: string | null; city: string | null; scans: number }[];
  daily: { day: string; scans: number; interactions: number }[];
  topTags: { simplyActionTagSimplyId: string; name: string; scans: number; interactions: number }[];
  recentActivity: { simplyActionTagSimplyId: string; name: string; lastScannedAt: Date }[];
  platformSignals: { wizardLaunches: number; recordVisits: number; linkPageViews: number };
}

const MAX_DAYS = 731;
const TRAFFIC = ['HUMAN', 'BOT', 'LINK_PREVIEW'];

function csvValues(raw: string | undefined, allowed: readonly string[], field: string): string[] | null {
  if (!raw?.trim()) return null;
  const values = raw.split(',').map((v) => v.trim()).filter(Boolean);
  const wrong = values.find((v) => !allowed.includes(v));
  if (wrong) throw new ValidationError('Invalid filter', [{ field, message: `unknown value ${wrong}: one of ${allowed.join(', ')}` }]);
  return values;
}

export async function actionTagAnalytics(ctx: RequestContext, raw: Record<string, unknown>, simplyId?: string): Promise<ActionTagAnalytics> {
  const q = parseInput(analyticsQuery, Object.fromEntries(Object.entries(raw).filter(([, v]) => v != null)), 'Invalid filter');
  await requireActionTagAccess(ctx);
  const team = requireTeam(ctx);
  const to = q.to ?? new Date().toISOString().slice(0, 10);
  const from = q.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  const span = (Date.parse(to) - Date.parse(from)) / 86_400_000;
  if (span < 0) throw new ValidationError('Invalid filter', [{ field: 'from', message: 'must not be after `to`' }]);
  if (span >= MAX_DAYS) throw new ValidationError('Invalid filter', [{ field: 'from', message: `at most ${MAX_DAYS} days` }]);
  const classes = q.trafficClass?.trim() === 'ALL' ? TRAFFIC : (csvValues(q.trafficClass, TRAFFIC, 'trafficClass') ?? ['HUMAN']);

  const params: unknown[] = [String(team.id), from, to];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const tagFilters: string[] = [];
  if (simplyId) tagFilters.push(`d."actionTagId" = ${p(String((await tagOf(ctx, ctx.services.prisma, simplyId)).id))}`);
  const statuses = csvValues(q.status, ACTION_TAG_STATUSES, 'status');
  if (statuses) tagFilters.push(`t.status = ANY(${p(statuses)}::text[])`);
  const types = csvValues(q.actionType, ACTION_TYPES, 'actionType');
  if (types) tagFilters.push(`t."actionType" = ANY(${p(types)}::text[])`);
  const labels = q.labelSimplyIds?.split(',').map((l) => l.trim()).filter(Boolean);
  if (labels?.length) tagFilters.push(`t."labelSimplyIds" && ${p(labels)}::text[]`);
  if (q.dataCollectionSimplyId) tagFilters.push(`t."dataCollectionSimplyId" = ${p(q.dataCollectionSimplyId)}`);
  if (q.dataRecordSimplyId) tagFilters.push(`t."dataRecordSimplyId" = ${p(q.dataRecordSimplyId)}`);
  const base = `FROM "ActionTagDailyStat" d LEFT JOIN "ActionTag" t ON t.id = d."actionTagId" AND t."teamId" = d."teamId"
    WHERE d."teamId" = $1::bigint AND d.day BETWEEN $2::date AND $3::date ${tagFilters.map((f) => `AND ${f}`).join(' ')}`;
  const classParam = p(classes);
  const counted = `${base} AND d."trafficClass" = ANY(${classParam}::text[])`;
  const pool = ctx.services.pool;
  type N = string | number;
  const [byKind, byDay, byPlace, byTag, recent] = await Promise.all([
    pool.query<{ source: string; class: string; status: string; type: string | null; scans: N; interactions: N }>(
      `SELECT d."interactionSource" AS source, d."trafficClass" AS class, d."resolveStatus" AS status, t."actionType" AS type, SUM(d.scans) AS scans, SUM(d.interactions) AS interactions ${base} GROUP BY 1, 2, 3, 4`,
      // without the traffic classes: every class is counted here, and an unused parameter has no type
      params.slice(0, -1),
    ),
    pool.query<{ day: string; scans: N; interactions: N }>(`SELECT to_char(d.day, 'YYYY-MM-DD') AS day, SUM(d.scans) AS scans, SUM(d.interactions) AS interactions ${counted} GROUP BY d.day ORDER BY d.day`, params),
    pool.query<{ country: string; region: string; city: string; scans: N }>(
      `SELECT d.country, d.region, d.city, SUM(d.scans) AS scans ${counted} GROUP BY 1, 2, 3 ORDER BY 4 DESC, 1, 2, 3 LIMIT 25`,
      params,
    ),
    pool.query<{ simplyId: string; name: string; scans: N; interactions: N }>(
      `SELECT t."simplyId" AS "simplyId", t.name, SUM(d.scans) AS scans, SUM(d.interactions) AS interactions ${counted} AND t.id IS NOT NULL GROUP BY t.id ORDER BY 3 DESC, t.id LIMIT 10`,
      params,
    ),
    ctx.services.prisma.actionTag.findMany({
      where: { teamId: team.id, lastScannedAt: { not: null }, ...(simplyId ? { simplyId } : {}) },
      orderBy: { lastScannedAt: 'desc' },
      take: 10,
      select: { simplyId: true, name: true, lastScannedAt: true },
    }),
  ]);
  const out: ActionTagAnalytics = {
    from,
    to,
    trafficClasses: classes,
    totals: { scans: 0, interactions: 0, disabledScans: 0 },
    sources: { QR: 0, NFC: 0, LINK: 0, UNKNOWN: 0 },
    traffic: { HUMAN: 0, BOT: 0, LINK_PREVIEW: 0 },
    geography: byPlace.rows.map((r) => ({ country: r.country || null, region: r.region || null, city: r.city || null, scans: Number(r.scans) })),
    daily: byDay.rows.map((r) => ({ day: r.day, scans: Number(r.scans), interactions: Number(r.interactions) })),
    topTags: byTag.rows.map((r) => ({ simplyActionTagSimplyId: r.simplyId, name: r.name, scans: Number(r.scans), interactions: Number(r.interactions) })),
    recentActivity: recent.map((r) => ({ simplyActionTagSimplyId: r.simplyId, name: r.name, lastScannedAt: r.lastScannedAt! })),
    platformSignals: { wizardLaunches: 0, recordVisits: 0, linkPageViews: 0 },
  };
  for (const r of byKind.rows) {
    const scans = Number(r.scans);
    out.traffic[r.class as keyof typeof out.traffic] += scans;
    if (!classes.includes(r.class)) continue;
    out.sources[r.source as keyof typeof out.sources] += scans;
    out.totals.scans += scans;
    out.totals.interactions += Number(r.interactions);
    if (r.status === 'DISABLED') {
      out.totals.disabledScans += scans;
      continue;
    }
    if (r.type === 'DATA_WIZARD') out.platformSignals.wizardLaunches += scans;
    if (r.type === 'DATA_RECORD') out.platformSignals.recordVisits += scans;
    if (r.type === 'LINK_PAGE') out.platformSignals.linkPageViews += scans;
  }
  return out;
}
