// Action tags (docs/api/action-tags.md "Tags"): create, read, list with filters and sorts, change
// and delete. Every route needs TEAM_ADMIN_SVC_TAGS (the schema's tier) and the plan's API-key rule
// (action-tag-plan.ts); powered types and fields are refused for a plan without them, never ignored.
// The tag's simplyId is what is printed, so it is minted once and never changes.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, ValidationError, type ErrorDetail } from '../../app/errors.ts';
import { publicBaseUrl } from '../../app/public-address.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import type { ActionTag, Prisma } from '../../generated/prisma/client.ts';
import type { PaginationShape } from '../../app/paging.ts';
import { pagination } from '../../app/paging.ts';
import { type ActionTagPlan, planFeatures, requireActionTagAccess } from './action-tag-plan.ts';
import { ARCHIVED_STATUSES, canMove, INITIAL_STATUSES } from './action-tag-status.ts';
import { ActionTagCapacityError, ActionTagPoweredFieldsError, ActionTagTransitionError } from './action-tags.errors.ts';
import { actionTagId } from './action-tags.ids.ts';
import {
  ACTION_TAG_STATUSES,
  ACTION_TYPES,
  type ActionTagStatus,
  type ActionType,
  createActionTagInput,
  type CreateActionTagInput,
  listActionTagsQuery,
  POWERED_FIELDS,
  POWERED_TYPES,
  SORT_COLUMNS,
  updateActionTagInput,
  type UpdateActionTagInput,
} from './action-tags.input.ts';
import { liveRecordIds, recordCollectionIds } from '../../kernel/index.ts';
import { emitActionTagLifecycle } from './action-tag-lifecycle.ts';
import { forgetResolvableTag } from './resolve-cache.ts';
import { checkLogo } from './qr-logo.ts';
import { actionTagHosts } from './action-tag-domains.hosts.ts';

export const PUBLIC_TAG_PREFIX = '/a/';

export interface ActionTagView {
  tag: ActionTag;
  publicUrl: string;
}

/**
 * The URL to print: under the team's verified resolver domain when it has one, else the platform's
 * address. A code printed earlier keeps resolving on the platform's address.
 */
export function publicUrlOf(ctx: Pick<RequestContext, 'services'>, simplyId: string, teamId?: bigint): string {
  const domain = teamId === undefined ? undefined : actionTagHosts(ctx.services).hostOfTeam(teamId);
  return `${domain ? `https://${domain}` : publicBaseUrl(ctx.services)}${PUBLIC_TAG_PREFIX}${simplyId}`;
}

const view = (ctx: Pick<RequestContext, 'services'>, tag: ActionTag): ActionTagView => ({ tag, publicUrl: publicUrlOf(ctx, tag.simplyId, tag.teamId) });

/** The team's tag, or 404 (another team's id too). */
export async function tagOf(ctx: RequestContext, db: Pick<Tx, 'actionTag'>, simplyId: string): Promise<ActionTag> {
  actionTagId.assert(simplyId, 'simplyActionTagSimplyId');
  const team = requireTeam(ctx);
  const tag = await db.actionTag.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!tag) throw new NotFoundError('Action tag', simplyId);
  return tag;
}

/** Serializes the capacity check and the writes that change it, per team. */
export async function lockTeamTags(tx: Tx, teamId: bigint): Promise<void> {
  await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(hashtext(\'action-tags\'), $1::int)', Number(teamId % 2147483647n));
}

export async function checkCapacity(tx: Tx, teamId: bigint, plan: ActionTagPlan): Promise<void> {
  const inUse = await tx.actionTag.count({ where: { teamId, status: { notIn: [...ARCHIVED_STATUSES] } } });
  if (inUse >= plan.managedCapacity) throw new ActionTagCapacityError(plan.managedCapacity);
}

export function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  return new URL(url).hostname.toLowerCase();
}

/** The fields a tag of this type and plan may carry, each mistake named. */
export async function checkShape(
  ctx: RequestContext,
  tx: Tx,
  plan: ActionTagPlan,
  sent: Partial<CreateActionTagInput>,
  result: { actionType: ActionType; actionUrl: string | null; linkPageSettings: unknown; dataWizardSimplyId: string | null; dataRecordSimplyId: string | null },
): Promise<{ dataCollectionSimplyId: string | null | undefined }> {
  const powered = planFeatures(plan).poweredActions;
  if (!powered) {
    const refused: string[] = POWERED_FIELDS.filter((f) => sent[f] !== undefined && sent[f] !== null && sent[f] !== false);
    if (sent.actionType && POWERED_TYPES.includes(sent.actionType)) refused.unshift('actionType');
    if (refused.length) throw new ActionTagPoweredFieldsError(refused);
  }
  const details: ErrorDetail[] = [];
  const t = result.actionType;
  if ((t === 'URL' || t === 'DATA_WIZARD' || t === 'DATA_RECORD') && !result.actionUrl) details.push({ field: 'actionUrl', message: `is required for actionType ${t}` });
  if (t === 'LINK_PAGE' && !result.linkPageSettings) details.push({ field: 'linkPageSettings', message: 'is required for actionType LINK_PAGE' });
  if (t === 'DATA_WIZARD' && !result.dataWizardSimplyId) details.push({ field: 'dataWizardSimplyId', message: 'is required for actionType DATA_WIZARD' });
  if (t === 'DATA_RECORD' && !result.dataRecordSimplyId) details.push({ field: 'dataRecordSimplyId', message: 'is required for actionType DATA_RECORD' });
  if (details.length) throw new ValidationError('Invalid action tag', details);
  const team = requireTeam(ctx);
  if (sent.dataWizardSimplyId) {
    const wizard = await tx.dataWizard.findFirst({ where: { teamId: team.id, simplyId: sent.dataWizardSimplyId }, select: { id: true } });
    // a wizard of another team is as unknown as one that does not exist
    if (!wizard) throw new ValidationError('Invalid action tag', [{ field: 'dataWizardSimplyId', message: 'is not a data wizard of this team' }]);
  }
  if (sent.dataRecordSimplyId === null) return { dataCollectionSimplyId: null };
  if (sent.dataRecordSimplyId) {
    const pool = ctx.services.pool;
    const live = await liveRecordIds(pool, team.id, [sent.dataRecordSimplyId]);
    const collectionId = live.length ? (await recordCollectionIds(pool, team.id, [sent.dataRecordSimplyId])).get(sent.dataRecordSimplyId) : undefined;
    const collection = collectionId === undefined ? null : await tx.dataCollection.findFirst({ where: { teamId: team.id, id: collectionId }, select: { simplyId: true } });
    if (!collection) throw new ValidationError('Invalid action tag', [{ field: 'dataRecordSimplyId', message: 'is not a data record of this team' }]);
    return { dataCollectionSimplyId: collection.simplyId };
  }
  return { dataCollectionSimplyId: undefined };
}

export async function createActionTag(ctx: RequestContext, raw: unknown): Promise<ActionTagView> {
  const input = parseInput(createActionTagInput, raw, 'Invalid action tag');
  if (input.qrCodeSettings?.logoImageBase64) await checkLogo(input.qrCodeSettings.logoImageBase64);
  const status = input.status ?? 'DRAFT';
  if (!INITIAL_STATUSES.includes(status)) throw new ValidationError('Invalid action tag', [{ field: 'status', message: 'a new tag starts as DRAFT, ACTIVE or INACTIVE' }]);
  const team = requireTeam(ctx);
  return runTransaction(ctx.services.prisma, async (tx) => {
    const plan = await requireActionTagAccess(ctx, tx);
    const actionType = input.actionType ?? (input.linkPageSettings ? 'LINK_PAGE' : 'URL');
    const shape = await checkShape(ctx, tx, plan, input, {
      actionType,
      actionUrl: input.actionUrl ?? null,
      linkPageSettings: input.linkPageSettings ?? null,
      dataWizardSimplyId: input.dataWizardSimplyId ?? null,
      dataRecordSimplyId: input.dataRecordSimplyId ?? null,
    });
    await lockTeamTags(tx, team.id);
    await checkCapacity(tx, team.id, plan);
    const tag = await tx.actionTag.create({ data: createdColumns(ctx, team.id, actionTagId.create(), input, { status, actionType }, shape) });
    await emitActionTagLifecycle(ctx, tx, { type: 'CREATED', tag });
    return view(ctx, tag);
  });
}

export async function getActionTag(ctx: RequestContext, simplyId: string): Promise<ActionTagView> {
  await requireActionTagAccess(ctx);
  return view(ctx, await tagOf(ctx, ctx.services.prisma, simplyId));
}

/** PUT: only the properties present change; null clears the optional ones. */
/** A new tag's columns (the API's POST and a CSV import's row). */
export function createdColumns(
  ctx: RequestContext,
  teamId: bigint,
  simplyId: string,
  input: CreateActionTagInput,
  settled: { status: string; actionType: string },
  shape: { dataCollectionSimplyId: string | null | undefined },
): Prisma.ActionTagCreateManyInput {
  return {
    simplyId,
    teamId,
    name: input.name,
    notes: input.notes ?? null,
    status: settled.status,
    actionType: settled.actionType,
    actionUrl: input.actionUrl ?? null,
    destinationDomain: hostOf(input.actionUrl),
    linkPageSettings: (input.linkPageSettings ?? undefined) as never,
    qrCodeSettings: (input.qrCodeSettings ?? undefined) as never,
    labelSimplyIds: [...new Set(input.labelSimplyIds ?? [])],
    dataWizardSimplyId: input.dataWizardSimplyId ?? null,
    dataRecordSimplyId: input.dataRecordSimplyId ?? null,
    dataCollectionSimplyId: shape.dataCollectionSimplyId ?? null,
    requireFreshScan: input.requireFreshScan ?? false,
    createdByUserId: ctx.principal.userId,
  };
}

/** The columns an update changes: only the properties sent (the API's PUT and a CSV import's row). */
export function updatedColumns(input: UpdateActionTagInput, shape: { dataCollectionSimplyId: string | null | undefined }): Prisma.ActionTagUpdateInput {
  const data: Prisma.ActionTagUpdateInput = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.notes !== undefined) data.notes = input.notes;
  if (input.status !== undefined) data.status = input.status;
  if (input.actionType !== undefined) data.actionType = input.actionType;
  if (input.actionUrl !== undefined) {
    data.actionUrl = input.actionUrl;
    data.destinationDomain = hostOf(input.actionUrl);
  }
  if (input.linkPageSettings !== undefined) data.linkPageSettings = (input.linkPageSettings ?? null) as never;
  if (input.qrCodeSettings !== undefined) data.qrCodeSettings = (input.qrCodeSettings ?? null) as never;
  if (input.labelSimplyIds !== undefined) data.labelSimplyIds = [...new Set(input.labelSimplyIds)];
  if (input.dataWizardSimplyId !== undefined) data.dataWizardSimplyId = input.dataWizardSimplyId;
  if (input.dataRecordSimplyId !== undefined) data.dataRecordSimplyId = input.dataRecordSimplyId;
  if (shape.dataCollectionSimplyId !== undefined) data.dataCollectionSimplyId = shape.dataCollectionSimplyId;
  if (input.requireFreshScan !== undefined) data.requireFreshScan = input.requireFreshScan;
  return data;
}

export async function updateActionTag(ctx: RequestContext, simplyId: string, raw: unknown): Promise<ActionTagView> {
  const input: UpdateActionTagInput = parseInput(updateActionTagInput, raw, 'Invalid action tag');
  if (input.qrCodeSettings?.logoImageBase64) await checkLogo(input.qrCodeSettings.logoImageBase64);
  const team = requireTeam(ctx);
  return runTransaction(ctx.services.prisma, async (tx) => {
    const plan = await requireActionTagAccess(ctx, tx);
    await tagOf(ctx, tx, simplyId);
    await lockTeamTags(tx, team.id);
    // read again under the lock: a concurrent change of the status is seen
    const tag = await tx.actionTag.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
    const actionType = (input.actionType ?? tag.actionType) as ActionType;
    const next = {
      actionType,
      actionUrl: input.actionUrl === undefined ? tag.actionUrl : input.actionUrl,
      linkPageSettings: input.linkPageSettings === undefined ? tag.linkPageSettings : input.linkPageSettings,
      dataWizardSimplyId: input.dataWizardSimplyId === undefined ? tag.dataWizardSimplyId : input.dataWizardSimplyId,
      dataRecordSimplyId: input.dataRecordSimplyId === undefined ? tag.dataRecordSimplyId : input.dataRecordSimplyId,
    };
    const shape = await checkShape(ctx, tx, plan, input, next);
    const from = tag.status as ActionTagStatus;
    const to = input.status ?? from;
    if (to === 'ARCHIVED_BY_DOWNGRADE' && from !== to) throw new ValidationError('Invalid action tag', [{ field: 'status', message: 'ARCHIVED_BY_DOWNGRADE is set by a plan change, not by a request' }]);
    if (!canMove(from, to)) throw new ActionTagTransitionError(from, to);
    if (ARCHIVED_STATUSES.includes(from) && !ARCHIVED_STATUSES.includes(to)) await checkCapacity(tx, team.id, plan);
    const data = updatedColumns(input, shape);
    if (Object.keys(data).length === 0) return view(ctx, tag);
    const updated = await tx.actionTag.update({ where: { id: tag.id, teamId: team.id }, data });
    forgetResolvableTag(tag.simplyId);
    await emitActionTagLifecycle(ctx, tx, { type: 'UPDATED', tag: updated, previous: tag });
    if (from !== to) await emitActionTagLifecycle(ctx, tx, { type: 'STATUS_CHANGED', tag: updated, previous: tag });
    return view(ctx, updated);
  });
}

/** DELETE removes the tag and its scan detail; the team's daily aggregates keep its counts. */
export async function deleteActionTag(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const team = requireTeam(ctx);
  return runTransaction(ctx.services.prisma, async (tx) => {
    await requireActionTagAccess(ctx, tx);
    const tag = await tagOf(ctx, tx, simplyId);
    const removed = await tx.actionTag.deleteMany({ where: { id: tag.id, teamId: team.id } });
    // a concurrent delete removed it first
    if (removed.count === 0) throw new NotFoundError('Action tag', simplyId);
    forgetResolvableTag(tag.simplyId);
    await emitActionTagLifecycle(ctx, tx, { type: 'DELETED', tag });
    return true;
  });
}

export interface ActionTagPage {
  nodes: ActionTagView[];
  pagination: PaginationShape;
}

const listOf = (raw: string | undefined, allowed: readonly string[], field: string): string[] | undefined => {
  if (raw === undefined || raw.trim() === '') return undefined;
  const values = raw.split(',').map((v) => v.trim()).filter(Boolean);
  const wrong = values.filter((v) => !allowed.includes(v));
  if (wrong.length) throw new ValidationError('Invalid filter', [{ field, message: `unknown value ${wrong[0]}: one of ${allowed.join(', ')}` }]);
  return values;
};

/** `column:direction` clauses → Prisma orderBy, ties broken by id. */
export function parseSort(raw: string | undefined): Prisma.ActionTagOrderByWithRelationInput[] {
  const clauses = (raw ?? 'createdAt:desc').split(',').map((c) => c.trim()).filter(Boolean);
  const order: Prisma.ActionTagOrderByWithRelationInput[] = [];
  for (const clause of clauses) {
    const [column, direction = 'asc', extra] = clause.split(':');
    if (extra !== undefined || !(SORT_COLUMNS as readonly string[]).includes(column!) || (direction !== 'asc' && direction !== 'desc')) {
      throw new ValidationError('Invalid sort', [{ field: 'sort', message: `"${clause}" is not column:direction (columns ${SORT_COLUMNS.join(', ')}; asc or desc)` }]);
    }
    order.push(column === 'lastScannedAt' ? { lastScannedAt: { sort: direction, nulls: 'last' } } : { [column!]: direction });
  }
  if (order.length > 5) throw new ValidationError('Invalid sort', [{ field: 'sort', message: 'at most 5 clauses' }]);
  order.push({ id: 'desc' });
  return order;
}

function range(from: string | undefined, to: string | undefined): { gte?: Date; lte?: Date } | undefined {
  if (!from && !to) return undefined;
  return { ...(from ? { gte: new Date(from) } : {}), ...(to ? { lte: endOf(to) } : {}) };
}

/** A date alone (2026-05-01) means the whole day. */
const endOf = (value: string): Date => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T23:59:59.999Z`) : new Date(value));

export async function listActionTags(ctx: RequestContext, raw: Record<string, unknown>): Promise<ActionTagPage> {
  const q = parseInput(listActionTagsQuery, Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== null)), 'Invalid filter');
  await requireActionTagAccess(ctx);
  const team = requireTeam(ctx);
  const statuses = listOf(q.status, ACTION_TAG_STATUSES, 'status');
  const types = listOf(q.actionType, ACTION_TYPES, 'actionType');
  const labels = q.labelSimplyIds?.split(',').map((l) => l.trim()).filter(Boolean);
  const where: Prisma.ActionTagWhereInput = {
    teamId: team.id,
    ...(statuses ? { status: { in: statuses } } : {}),
    ...(types ? { actionType: { in: types } } : {}),
    ...(q.dataRecordSimplyId ? { dataRecordSimplyId: q.dataRecordSimplyId } : {}),
    ...(q.dataCollectionSimplyId ? { dataCollectionSimplyId: q.dataCollectionSimplyId } : {}),
    ...(q.hasLinkedRecord === 'true' ? { dataRecordSimplyId: { not: null } } : q.hasLinkedRecord === 'false' ? { dataRecordSimplyId: null } : {}),
    ...(labels?.length ? { labelSimplyIds: { hasSome: labels } } : {}),
    ...(q.destinationDomain ? { destinationDomain: q.destinationDomain.trim().toLowerCase() } : {}),
    ...(q.search?.trim()
      ? { OR: ['name', 'notes', 'actionUrl'].map((f) => ({ [f]: { contains: q.search!.trim(), mode: 'insensitive' } })) }
      : {}),
  };
  const created = range(q.createdFrom, q.createdTo);
  if (created) where.createdAt = created;
  const scanned = range(q.lastScannedFrom, q.lastScannedTo);
  if (scanned) where.lastScannedAt = scanned;
  const orderBy = parseSort(q.sort);
  const paging = { limit: q.limit ?? 100, offset: q.offset ?? 0 };
  const db = ctx.services.prisma;
  const [rows, total] = await Promise.all([db.actionTag.findMany({ where, orderBy, skip: paging.offset, take: paging.limit }), db.actionTag.count({ where })]);
  return { nodes: rows.map((r) => view(ctx, r)), pagination: pagination(total, paging) };
}
