// View administration (docs/api/data-views.md "Administration"): the whole configuration of a
// view (admin detail), the admin list, picker summaries, internal names, eligible fields and share
// readiness. Privileged tier (views.admin.schema.ts): administering views needs no data
// permission. Every change is a schema change: it goes through schemaWrite, which serializes the
// team's schema writes (so concurrent edits of one view take turns) and records a version.
import type { RequestContext } from '../../app/context.ts';
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from '../../app/errors.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import { requireTeam } from '../../app/require-team.ts';
import type { Tx } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import type { DataView } from '../../generated/prisma/client.ts';
import { type CollectionDefinition, type FieldDefinition, loadSchemaTx, type TeamSchema } from '../../kernel/index.ts';
import { schemaWrite } from '../team-schema/index.ts';
import { dataViewAdminInput, validateAdminConfig } from './views.admin.input.ts';
import { AGGREGATED_TYPES, type DisplayFieldLink, readStoredConfig, type StoredViewConfig, toStored } from './views.config.ts';
import { adminListPage } from './views.admin-list.sql.ts';
import { ViewNotReadyError } from './views.errors.ts';
import { dataViewId, viewFieldLinkId } from './views.ids.ts';
import { INTERNAL_NAME_INPUT_MAX, INTERNAL_NAME_MAX, internalNameProblems, type ViewType } from './views.input.ts';
import { fieldUnsuitable, kindUnavailable, LINK_KINDS, LINK_RULES, type LinkKind } from './views.link-rules.ts';
import { publishBlockers, type ShareReadiness, shareReadiness } from './views.readiness.ts';
import { labelOf } from './views.service.ts';

/** A view as administration sees it: its row, its collection and fields, its whole configuration. */
export interface AdminView {
  row: DataView;
  collection: CollectionDefinition;
  /** the fields records of the collection carry (a SMART collection: its source's) */
  fields: FieldDefinition[];
  fieldsById: Map<string, FieldDefinition>;
  type: ViewType;
  config: StoredViewConfig;
}

export function adminView(schema: TeamSchema, row: DataView): AdminView | null {
  const collection = schema.collectionsById.get(row.collectionId);
  if (!collection) return null;
  const fields = schema.fieldsOf(collection);
  return { row, collection, fields, fieldsById: new Map(fields.map((f) => [f.dataFieldSimplyId, f])), type: row.viewType, config: readStoredConfig(row.simplyId, row.config) };
}

/** The view of the caller's team (404 otherwise), read outside a transaction. */
export async function loadAdminView(ctx: RequestContext, simplyId: string): Promise<AdminView> {
  const team = requireTeam(ctx);
  dataViewId.assert(simplyId, 'dataViewSimplyId');
  const [row, schema] = await Promise.all([
    ctx.services.prisma.dataView.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } }),
    ctx.services.schemas.get(team.id),
  ]);
  const view = row && adminView(schema, row);
  if (!view) throw new NotFoundError('Data view', simplyId);
  return view;
}

/**
 * Changes one view as a schema change: `work` sees the view, its collection and fields as they are
 * once the team's schema lock is held (so two changes of one view never interleave, and a field
 * removed a moment before is seen as removed) and saves through `saveView`.
 */
export async function writeView<T>(ctx: RequestContext, simplyId: string, summary: (view: AdminView, result: T) => string, work: (view: AdminView, tx: Tx) => Promise<T>): Promise<T> {
  const team = requireTeam(ctx);
  const done = await schemaWrite(
    ctx,
    (r: { view: AdminView; result: T }) => summary(r.view, r.result),
    async (tx) => {
      const row = await tx.dataView.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
      // the schema as of this transaction, on its own connection: under the team's schema lock it is
      // current, and a writer holding the lock never waits for a second connection from the pool
      const view = row && adminView(await loadSchemaTx(tx, team.id), row);
      if (!view) throw new NotFoundError('Data view', simplyId);
      return { view, result: await work(view, tx) };
    },
  );
  return done.result;
}

/** Stores a view's configuration (and other columns) and answers the view as saved. */
export async function saveView(tx: Tx, view: AdminView, config: StoredViewConfig, data: Partial<Pick<DataView, 'name' | 'description' | 'internalName' | 'viewType' | 'isPublished'>> = {}): Promise<AdminView> {
  const stored = toStored(config, (id) => view.fieldsById.has(id));
  const row = await tx.dataView.update({ where: { id: view.row.id }, data: { ...(data as object), config: stored as never } });
  return { ...view, row, type: row.viewType, config: readStoredConfig(row.simplyId, row.config) };
}

/** 409 when another view of the team has the internal name. */
export async function assertInternalNameFree(tx: Tx, teamId: bigint, internalName: string, exceptViewId: bigint | null): Promise<void> {
  const holder = await tx.dataView.findFirst({ where: { teamId, internalName, ...(exceptViewId === null ? {} : { NOT: { id: exceptViewId } }) }, select: { simplyId: true } });
  if (holder) throw new ConflictError(`The internal name ${internalName} is already used by view ${holder.simplyId}`);
}

// ---------------------------------------------------------------------------------------------
// The admin detail

export async function getAdminDetail(ctx: RequestContext, simplyId: string): Promise<AdminView> {
  return loadAdminView(ctx, simplyId);
}

/** The links a change of the view's type would leave invalid, as details naming enumDataViewTypeId. */
function typeChangeProblems(config: StoredViewConfig, type: ViewType): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const kind of LINK_KINDS) {
    const links = config[LINK_RULES[kind].key];
    const unavailable = links.length > 0 ? kindUnavailable(kind, type) : null;
    if (unavailable) details.push({ field: 'enumDataViewTypeId', message: `${unavailable}: delete its ${LINK_RULES[kind].noun} links first (${links.map((l) => l.id).join(', ')})` });
  }
  const aggregating = config.displayFieldLinks.filter((l) => l.aggregation !== null);
  if (!AGGREGATED_TYPES.includes(type) && aggregating.length > 0) {
    details.push({ field: 'enumDataViewTypeId', message: `${type} views do not summarize values: clear the aggregation of display links ${aggregating.map((l) => l.id).join(', ')} first` });
  }
  return details;
}

/** PUT …/admin-detail: replaces every editable setting; `config.columns`, when given, sets the display links. */
export async function updateAdminDetail(ctx: RequestContext, simplyId: string, raw: unknown): Promise<AdminView> {
  const team = requireTeam(ctx);
  dataViewId.assert(simplyId, 'dataViewSimplyId');
  const input = parseInput(dataViewAdminInput, raw, 'Invalid view configuration');
  return writeView(
    ctx,
    simplyId,
    (view) => `view updated: ${labelOf(input.name)} (${simplyId})${input.isPublished !== view.row.isPublished ? (input.isPublished ? ', published' : ', unpublished') : ''}`,
    async (view, tx) => {
      const type = input.enumDataViewTypeId;
      const admin = validateAdminConfig(view.fields, type, input.config);
      let displayFieldLinks: DisplayFieldLink[] = view.config.displayFieldLinks;
      if (admin.columnsGiven) {
        // a listed field keeps its link (id, label, aggregation); a new one gets a new link
        displayFieldLinks = admin.columns.map(
          (field) => displayFieldLinks.find((l) => l.dataFieldSimplyId === field) ?? { id: viewFieldLinkId.create(), dataFieldSimplyId: field, label: null, aggregation: null },
        );
      }
      const next: StoredViewConfig = {
        ...view.config,
        filters: admin.filters,
        sortOrder: admin.sortOrder,
        grouping: admin.grouping,
        calendar: admin.calendar,
        map: admin.map,
        displayFieldLinks,
      };
      if (type !== view.type) {
        const details = typeChangeProblems(next, type);
        if (details.length > 0) throw new ValidationError(`The view cannot become a ${type} view as it is configured`, details);
      }
      if (input.internalName !== null && input.internalName !== view.row.internalName) await assertInternalNameFree(tx, team.id, input.internalName, view.row.id);
      if (input.isPublished && !view.row.isPublished) {
        const blockers = publishBlockers({ type, isPublished: true, collection: view.collection, fieldsById: view.fieldsById, config: next });
        if (blockers.length > 0) throw new ViewNotReadyError(blockers);
      }
      return saveView(tx, view, next, {
        name: input.name as never,
        description: input.description,
        internalName: input.internalName,
        viewType: type,
        isPublished: input.isPublished,
      });
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Lists

export interface AdminListArgs {
  page?: number | null;
  pageSize?: number | null;
  dataCollectionSimplyId?: string | null;
}

export interface PagePagination {
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
  hasMore: boolean;
}

export const ADMIN_LIST_MAX_PAGE = 10_000;

function collectionOf(schema: TeamSchema, simplyId: string): CollectionDefinition {
  assertDataSimplyId(simplyId, 'dataCollectionSimplyId', 'collection');
  const collection = schema.collectionsBySimplyId.get(simplyId);
  if (!collection) throw new NotFoundError('Data collection', simplyId);
  return collection;
}

/** GET /v1/data-views/admin-list: every view of the team (or of one collection), newest first, paged by page and pageSize. */
export async function listAdminViews(ctx: RequestContext, args: AdminListArgs): Promise<{ nodes: AdminView[]; pagination: PagePagination }> {
  const team = requireTeam(ctx);
  const page = args.page ?? 1;
  const pageSize = args.pageSize ?? 25;
  const details: ErrorDetail[] = [];
  if (!Number.isInteger(page) || page < 1 || page > ADMIN_LIST_MAX_PAGE) details.push({ field: 'page', message: `must be a whole number from 1 to ${ADMIN_LIST_MAX_PAGE}` });
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) details.push({ field: 'pageSize', message: 'must be a whole number from 1 to 100' });
  if (args.dataCollectionSimplyId !== undefined && args.dataCollectionSimplyId !== null) {
    try {
      assertDataSimplyId(args.dataCollectionSimplyId, 'dataCollectionSimplyId', 'collection');
    } catch (error) {
      details.push(...((error as ValidationError).details ?? []));
    }
  }
  if (details.length > 0) throw new ValidationError('Invalid admin list parameters', details);
  const schema = await ctx.services.schemas.get(team.id);
  const collection = args.dataCollectionSimplyId ? collectionOf(schema, args.dataCollectionSimplyId) : null;
  const { rows, total } = await adminListPage(ctx.services.pool, team.id, collection?.id ?? null, pageSize, (page - 1) * pageSize);
  return {
    nodes: rows.flatMap((row) => adminView(schema, row) ?? []),
    pagination: { total, page, pageSize, totalPages: Math.max(1, Math.ceil(total / pageSize)), hasMore: page * pageSize < total },
  };
}

export interface ViewPickerItem {
  row: Pick<DataView, 'simplyId' | 'name' | 'internalName' | 'viewType' | 'isPublished'>;
}

/** GET /v1/data-views/by-collection/{id}: the views of one collection as picker entries, newest first. */
export async function viewsByCollection(ctx: RequestContext, collectionSimplyId: string): Promise<ViewPickerItem[]> {
  const team = requireTeam(ctx);
  assertDataSimplyId(collectionSimplyId, 'dataCollectionSimplyId', 'collection');
  const collection = collectionOf(await ctx.services.schemas.get(team.id), collectionSimplyId);
  const rows = await ctx.services.prisma.dataView.findMany({
    where: { teamId: team.id, collectionId: collection.id },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { simplyId: true, name: true, internalName: true, viewType: true, isPublished: true },
  });
  return rows.map((row) => ({ row }));
}

// ---------------------------------------------------------------------------------------------
// Internal names

export interface InternalNameCheck {
  internalName: string;
  isValid: boolean;
  isAvailable: boolean;
  problems: { code: string; message: string }[];
  suggestion: string | null;
}

/** A well-formed name close to what was typed ("Active members!" → "active-members"), or null. */
function normalizedName(value: string): string | null {
  let name = value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, INTERNAL_NAME_MAX)
    .replace(/[_-]+$/, '');
  if (internalNameProblems(name).length > 0) name = '';
  return name === '' ? null : name;
}

/** GET /v1/data-views/internal-name-validation: is the name well-formed, and free in the team (apart from the view being edited)? */
export async function validateInternalName(ctx: RequestContext, args: { internalName: string; dataViewSimplyId?: string | null }): Promise<InternalNameCheck> {
  const team = requireTeam(ctx);
  const { internalName } = args;
  if (internalName.length > INTERNAL_NAME_INPUT_MAX) throw new ValidationError(`internalName must be at most ${INTERNAL_NAME_INPUT_MAX} characters`, [{ field: 'internalName', message: `must be at most ${INTERNAL_NAME_INPUT_MAX} characters` }]);
  let except: bigint | null = null;
  if (args.dataViewSimplyId !== undefined && args.dataViewSimplyId !== null) {
    dataViewId.assert(args.dataViewSimplyId, 'dataViewSimplyId');
    const own = await ctx.services.prisma.dataView.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId: args.dataViewSimplyId } }, select: { id: true } });
    if (!own) throw new NotFoundError('Data view', args.dataViewSimplyId);
    except = own.id;
  }
  const problems: InternalNameCheck['problems'] = internalNameProblems(internalName);
  const isValid = problems.length === 0;
  const candidate = isValid ? internalName : normalizedName(internalName);
  // the names of the team's views starting like the candidate: enough to tell whether it, or a numbered variant, is free
  const taken = candidate
    ? new Set(
        (
          await ctx.services.prisma.dataView.findMany({
            where: { teamId: team.id, internalName: { startsWith: candidate }, ...(except === null ? {} : { NOT: { id: except } }) },
            select: { internalName: true },
            take: 1000,
          })
        ).map((r) => r.internalName),
      )
    : new Set<string | null>();
  if (isValid && taken.has(internalName)) problems.push({ code: 'TAKEN', message: `another view of the team is already called ${internalName}` });
  const isAvailable = problems.length === 0;
  let suggestion: string | null = null;
  if (!isAvailable && candidate) {
    for (let n = 1; n <= 1000 && suggestion === null; n++) {
      const suffix = n === 1 ? '' : `-${n}`;
      const name = candidate.slice(0, INTERNAL_NAME_MAX - suffix.length).replace(/[_-]+$/, '') + suffix;
      if (!taken.has(name) && internalNameProblems(name).length === 0) suggestion = name;
    }
  }
  return { internalName, isValid, isAvailable, problems, suggestion };
}

// ---------------------------------------------------------------------------------------------
// Eligible fields and share readiness

export interface FieldEligibility {
  field: FieldDefinition;
  isEligible: boolean;
  reason: { code: string; message: string } | null;
}

export interface KindEligibility {
  kind: LinkKind;
  isAvailable: boolean;
  unavailableReason: { code: string; message: string } | null;
  fields: FieldEligibility[];
}

export interface EligibleFields {
  view: AdminView;
  kinds: Record<LinkKind, KindEligibility>;
}

/** GET …/eligible-fields: for each kind of link, every field of the collection, whether it can be linked, and why not. */
export async function eligibleFields(ctx: RequestContext, simplyId: string): Promise<EligibleFields> {
  const view = await loadAdminView(ctx, simplyId);
  const kinds = Object.fromEntries(
    LINK_KINDS.map((kind) => {
      const rule = LINK_RULES[kind];
      const links = view.config[rule.key];
      const typeProblem = kindUnavailable(kind, view.type);
      const unavailableReason = typeProblem
        ? { code: 'VIEW_TYPE_NOT_SUPPORTED', message: typeProblem }
        : links.length >= rule.max
          ? { code: 'LIMIT_REACHED', message: `a view holds at most ${rule.max} ${rule.noun} links` }
          : null;
      const linked = new Set(links.map((l) => l.dataFieldSimplyId));
      const fields = view.fields.map((field): FieldEligibility => {
        const unsuitable = fieldUnsuitable(kind, field);
        const reason = typeProblem
          ? { code: 'VIEW_TYPE_NOT_SUPPORTED', message: typeProblem }
          : unsuitable
            ? { code: 'DATA_TYPE_NOT_SUPPORTED', message: unsuitable }
            : linked.has(field.dataFieldSimplyId)
              ? { code: 'ALREADY_LINKED', message: `${field.dataFieldSimplyId} is already a ${rule.noun} of this view` }
              : unavailableReason;
        return { field, isEligible: reason === null, reason };
      });
      return [kind, { kind, isAvailable: unavailableReason === null, unavailableReason, fields }];
    }),
  ) as Record<LinkKind, KindEligibility>;
  return { view, kinds };
}

/** GET …/share-readiness */
export async function getShareReadiness(ctx: RequestContext, simplyId: string): Promise<{ view: AdminView; readiness: ShareReadiness }> {
  const view = await loadAdminView(ctx, simplyId);
  // the public access tokens it has (views.public-tokens.service.ts), for each target's hasToken
  const rows = await ctx.services.prisma.dataViewPublicToken.findMany({ where: { teamId: view.row.teamId, viewId: view.row.id }, select: { tokenType: true } });
  const tokens = new Set<string>(rows.map((r) => r.tokenType));
  return { view, readiness: shareReadiness({ type: view.type, isPublished: view.row.isPublished, collection: view.collection, fieldsById: view.fieldsById, config: view.config }, tokens) };
}
