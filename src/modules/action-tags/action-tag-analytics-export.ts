// GET /v1/action-tags/analytics/export.csv (docs/api/action-tags.md "Analytics export"): the scan
// detail still within retention (record_type SCAN, newest first, at most 100,000 rows) and every
// tag's lifetime aggregates (record_type TAG). No address, no hash, no user agent. Cells that a
// spreadsheet would run as a formula are prefixed with an apostrophe.
import { stringify } from 'csv-stringify/sync';
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { requireActionTagAccess } from './action-tag-plan.ts';

const MAX_DETAIL = 100_000;
const COLUMNS = ['record_type', 'simplyActionTagSimplyId', 'name', 'scannedAt', 'interactionSource', 'trafficClass', 'resolveStatus', 'resolvedDestination', 'city', 'region', 'country', 'referrer', 'lifetimeScans', 'lastScannedAt'];

const formulaSafe = (v: unknown): string => {
  const s = v == null ? '' : v instanceof Date ? v.toISOString() : String(v);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
};

export async function exportActionTagAnalyticsCsv(ctx: RequestContext): Promise<{ contentType: string; base64: string }> {
  await requireActionTagAccess(ctx);
  const team = requireTeam(ctx);
  const db = ctx.services.prisma;
  const [tags, scans] = await Promise.all([
    db.actionTag.findMany({ where: { teamId: team.id }, orderBy: { id: 'asc' }, select: { id: true, simplyId: true, name: true, lifetimeScans: true, lastScannedAt: true } }),
    db.actionTagScan.findMany({
      where: { teamId: team.id },
      orderBy: [{ scannedAt: 'desc' }, { id: 'desc' }],
      take: MAX_DETAIL,
      select: { actionTagId: true, scannedAt: true, interactionSource: true, trafficClass: true, resolveStatus: true, resolvedDestination: true, city: true, region: true, country: true, referrer: true },
    }),
  ]);
  const byId = new Map(tags.map((t) => [t.id, t]));
  const rows: unknown[][] = [];
  for (const s of scans) {
    const t = byId.get(s.actionTagId);
    rows.push(['SCAN', t?.simplyId, t?.name, s.scannedAt, s.interactionSource, s.trafficClass, s.resolveStatus, s.resolvedDestination, s.city, s.region, s.country, s.referrer, '', '']);
  }
  for (const t of tags) rows.push(['TAG', t.simplyId, t.name, '', '', '', '', '', '', '', '', '', t.lifetimeScans, t.lastScannedAt]);
  const csv = stringify([COLUMNS, ...rows.map((r) => r.map(formulaSafe))], { record_delimiter: '\r\n' });
  return { contentType: 'text/csv; charset=utf-8', base64: Buffer.from(csv).toString('base64') };
}
