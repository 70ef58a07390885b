// What an export may contain for the person who asked, with the permissions they hold now: the
// collection (directly or through a view), the fields they may read, and the records as the
// intersection of the view's saved filters, the request filter and the selected ids. Resolved at
// creation (where any problem is a 400/403/404), again in the worker and again before a download;
// the scope's fingerprint must come out the same each time, or the export is not handed out.
import { createHash } from 'node:crypto';
import { hasDataAccess, hasFeature } from '../../../app/auth/principal.ts';
import type { RequestContext } from '../../../app/context.ts';
import { ApiError, ConflictError, type ErrorDetail, NotFoundError, PermissionDeniedError, ValidationError } from '../../../app/errors.ts';
import { requireTeam } from '../../../app/require-team.ts';
import {
  type CollectionDefinition,
  collectionFor,
  type FieldDefinition,
  type NormalizedFilter,
  normalizeFilters,
  type TeamSchema,
} from '../../../kernel/index.ts';
import { readViewConfig } from '../../views/index.ts';
import type { ExportQueueData } from './export-input.ts';

/** The feature permission an export needs; VIEW level is enough (an export only reads). */
export const EXPORT_FEATURE = 'DATA_EXPORT';

export interface ExportScope {
  schema: TeamSchema;
  collection: CollectionDefinition;
  /** the selected fields, in the order asked for (all readable by the caller) */
  fields: FieldDefinition[];
  /** the view's saved filters and the request filter, AND-ed */
  filters: NormalizedFilter[];
  /** the view and the request ask for opposite archive states: nothing can match */
  contradictory: boolean;
  fingerprint: string;
}

interface ViewRef {
  simplyId: string;
  collectionId: bigint;
  config: unknown;
  updatedAt: Date;
}

async function findView(ctx: RequestContext, simplyId: string): Promise<ViewRef> {
  const team = requireTeam(ctx);
  const row = await ctx.services.prisma.dataView.findUnique({
    where: { teamId_simplyId: { teamId: team.id, simplyId } },
    select: { simplyId: true, collectionId: true, config: true, updatedAt: true },
  });
  if (!row) throw new NotFoundError('Data view', simplyId);
  return row;
}

const prefixed = (details: ErrorDetail[], path: string): ErrorDetail[] =>
  details.map((d) => ({ ...d, field: `queueData.${path}${(d.field ?? '').replace(/^filters/, '')}` }));

/**
 * The export's scope for `ctx.principal` now. Throws what a creation answers: 403 without the
 * DATA_EXPORT feature or read access, 404 for a collection or view not in the team, 400 for
 * fields or filters the caller cannot use.
 */
export async function resolveExportScope(ctx: RequestContext, q: ExportQueueData): Promise<ExportScope> {
  const p = ctx.principal;
  if (!hasFeature(p, EXPORT_FEATURE, 'VIEW')) throw new PermissionDeniedError('Exporting records needs the DATA_EXPORT feature permission');
  let view: ViewRef | null = null;
  let collectionSimplyId = q.dataCollectionSimplyId;
  if (q.dataViewSimplyId) {
    view = await findView(ctx, q.dataViewSimplyId);
    const schema = await ctx.services.schemas.get(requireTeam(ctx).id);
    const viewCollection = schema.collectionsById.get(view.collectionId);
    if (!viewCollection) throw new NotFoundError('Data view', q.dataViewSimplyId);
    collectionSimplyId = viewCollection.simplyId;
  }
  const access = await collectionFor(ctx, collectionSimplyId!, 'READ', q.dataViewSimplyId ? 'dataViewSimplyId' : 'dataCollectionSimplyId');
  const { collection, schema } = access;

  const allById = new Map(access.fields.map((f) => [f.dataFieldSimplyId, f]));
  const readable = new Set(access.readable.map((f) => f.dataFieldSimplyId));
  const details: ErrorDetail[] = [];
  const fields: FieldDefinition[] = [];
  q.dataFieldSimplyIds.forEach((fieldSimplyId, i) => {
    const field = allById.get(fieldSimplyId);
    const at = `queueData.dataFieldSimplyIds[${i}]`;
    if (!field) details.push({ field: at, message: `${fieldSimplyId} is not a field of collection ${collection.simplyId}` });
    else if (!readable.has(fieldSimplyId)) details.push({ field: at, message: `your team role cannot read field ${fieldSimplyId}, so it cannot be exported` });
    else fields.push(field);
  });

  const filters: NormalizedFilter[] = [];
  if (view) {
    // a saved filter on a field the caller cannot read would reveal that field's values through
    // which records come out: such a view cannot be exported by them
    const saved = normalizeFilters(access.fields, readViewConfig(view.config).filters);
    if (!saved.ok) throw new ConflictError(`The saved filters of view ${view.simplyId} no longer fit its collection's fields; fix the view or export the collection`);
    const hidden = saved.filters.filter((f) => f.dataType !== null && !readable.has(f.field));
    if (hidden.length > 0) {
      throw new PermissionDeniedError(`View ${view.simplyId} filters on a field your team role cannot read (${hidden.map((f) => f.field).join(', ')}), so you cannot export it`);
    }
    filters.push(...saved.filters);
  }
  const requested = normalizeFilters(access.readable, q.requestFilter);
  if (!requested.ok) details.push(...prefixed(requested.details, 'requestFilter'));
  else filters.push(...requested.filters);
  if (details.length > 0) throw new ValidationError('The export names fields or filters you cannot use', details);

  const archived = new Set(filters.filter((f) => f.field === 'isArchived').map((f) => f.value === true));
  const fingerprint = fingerprintOf({
    team: String(schema.teamId),
    collection: collection.simplyId,
    canRead: hasDataAccess(p, collection.simplyId, 'READ'),
    canExport: hasFeature(p, EXPORT_FEATURE, 'VIEW'),
    fields: fields.map((f) => [f.dataFieldSimplyId, f.dataType, readable.has(f.dataFieldSimplyId)]),
    systemColumns: q.systemColumns,
    filters,
    view: view ? { simplyId: view.simplyId, config: view.config, updatedAt: view.updatedAt.toISOString() } : null,
    records: q.dataRecordSimplyIds ? [...q.dataRecordSimplyIds].sort() : null,
  });
  return { schema, collection, fields, filters, contradictory: archived.size > 1, fingerprint };
}

/** sha256 of the scope's parts, in a fixed key order (JSON.stringify keeps insertion order). */
function fingerprintOf(material: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}

/** Why the scope no longer holds for `ctx.principal`, or null when it still does (same fingerprint). */
export async function scopeChange(ctx: RequestContext, q: ExportQueueData, fingerprint: unknown): Promise<{ reason: string; scope: null } | { reason: null; scope: ExportScope }> {
  try {
    const scope = await resolveExportScope(ctx, q);
    if (scope.fingerprint !== fingerprint) return { reason: 'the collection, view, fields or filters of the export changed since it was created', scope: null };
    return { reason: null, scope };
  } catch (error) {
    if (error instanceof ApiError) {
      const details = error.details?.map((d) => d.message).join('; ');
      return { reason: details ? `${error.message}: ${details}` : error.message, scope: null };
    }
    throw error;
  }
}
