// A team's data view on one of its websites (docs/api/websites.md "Data views on a site"): the
// render payload a site editor previews (GET …/dataview-render/{dataViewSimplyId}) and the table a
// `data-view` component becomes on a served page. Both read the view as its embed page does
// (src/modules/views: its display fields only, its saved filter and sort, the records as they are).
//
// A site shows a view only when the view could be shared by an embed token: it is published and
// has no configuration blocker (views' share readiness: fields it names still exist and suit, its
// saved filters are still accepted, its collection is not archived). Publishing a view is the
// team's statement that it is meant to be seen outside; a website is one more place it is seen.
// A view of another team is not found.
import type { RequestContext, Services } from '../../app/context.ts';
import { ApiError, type ErrorDetail, NotFoundError, ValidationError } from '../../app/errors.ts';
import { escapeHtml } from '../../app/html-escape.ts';
import { toDisplayText } from '../../kernel/index.ts';
import { dataViewId, embedRows, findViewOfTeam, loadSharedView, publishBlockers } from '../views/index.ts';
import { siteFor } from './website-access.ts';

export const DATA_VIEW_ROWS = { default: 25, max: 100, onPage: 50 } as const;
/** the longest text a cell shows */
const MAX_CELL = 1_000;

export interface DataViewColumn {
  dataFieldSimplyId: string;
  label: string;
  dataType: string;
}

export interface DataViewTable {
  dataViewSimplyId: string;
  title: string;
  columns: DataViewColumn[];
  /** one display text per column, per record */
  rows: string[][];
  total: number;
  limit: number;
  sortShortened: boolean;
}

export class DataViewNotShareableError extends ApiError {
  constructor(simplyId: string, details: ErrorDetail[]) {
    super(409, 'WEBSITE_DATA_VIEW_NOT_SHAREABLE', `The data view ${simplyId} cannot be shown on a website: it must be published and without configuration blockers`, { details });
  }
}

export type DataViewOutcome = { table: DataViewTable } | { problems: ErrorDetail[] } | null;

/** The view's table for a site of team `teamId`, the reasons it cannot be shown, or null when the team has no such view. */
export async function siteDataViewTable(services: Services, teamId: bigint, simplyId: string, limit: number): Promise<DataViewOutcome> {
  const view = await findViewOfTeam(services.pool, teamId, simplyId);
  if (!view) return null;
  if (!view.isPublished) return { problems: [{ field: 'isPublished', message: 'NOT_PUBLISHED: the view is not published' }] };
  const shared = await loadSharedView(services, { view, tokenId: null, frameAncestors: { kind: 'self' }, showsLink: () => true });
  if (!shared) return { problems: [{ field: 'config.filters', message: 'VIEW_NOT_READY: the view’s collection or saved filters are no longer valid' }] };
  const blockers = publishBlockers({ type: view.viewType, isPublished: view.isPublished, collection: shared.collection, fieldsById: shared.fieldsById, config: shared.config });
  if (blockers.length) return { problems: blockers.map((b) => ({ field: b.field ?? 'dataViewSimplyId', message: `${b.code}: ${b.message}` })) };
  const { rows, total, sortShortened } = await embedRows(services.pool, shared, { limit, offset: 0 });
  const cell = (text: string) => (text.length > MAX_CELL ? `${text.slice(0, MAX_CELL)}…` : text);
  return {
    table: {
      dataViewSimplyId: view.simplyId,
      title: shared.title,
      columns: shared.columns.map((c) => ({ dataFieldSimplyId: c.field.dataFieldSimplyId, label: c.label, dataType: c.field.dataType })),
      rows: rows.map((r) => shared.columns.map((c) => cell(toDisplayText(c.field, r.values[c.field.dataFieldSimplyId])))),
      total,
      limit,
      sortShortened,
    },
  };
}

/** GET /v1/websites/{id}/dataview-render/{dataViewSimplyId} (VIEWER) */
export async function dataViewRender(ctx: RequestContext, websiteSimplyId: string, viewSimplyId: string, limit: number | null | undefined): Promise<DataViewTable> {
  const { site } = await siteFor(ctx, ctx.services.prisma, websiteSimplyId, 'VIEWER');
  dataViewId.assert(viewSimplyId, 'dataViewSimplyId');
  const wanted = limit ?? DATA_VIEW_ROWS.default;
  if (!Number.isInteger(wanted) || wanted < 1 || wanted > DATA_VIEW_ROWS.max) throw new ValidationError('Invalid data view render', [{ field: 'limit', message: `must be a whole number from 1 to ${DATA_VIEW_ROWS.max}` }]);
  const outcome = await siteDataViewTable(ctx.services, site.teamId, viewSimplyId, wanted);
  if (!outcome) throw new NotFoundError('Data view', viewSimplyId);
  if ('problems' in outcome) throw new DataViewNotShareableError(viewSimplyId, outcome.problems);
  return outcome.table;
}

/** The table of a data-view component on a served page; an empty element when the view cannot be shown. */
export function dataViewTableHtml(outcome: DataViewOutcome, componentId: string | undefined): string {
  const id = componentId && /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(componentId) ? ` id="${componentId}"` : '';
  if (!outcome || !('table' in outcome)) return `<div${id} class="svc-data-view"></div>`;
  const t = outcome.table;
  const head = t.columns.map((c) => `<th scope="col">${escapeHtml(c.label)}</th>`).join('');
  const body = t.rows.map((r) => `<tr>${r.map((v) => `<td>${escapeHtml(v)}</td>`).join('')}</tr>`).join('');
  return `<div${id} class="svc-data-view"><table><caption>${escapeHtml(t.title)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}
