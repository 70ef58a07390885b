// A wizard's runs (DataWizardInstance, `wri-…`): the list, newest first, and one run
// (docs/api/data-wizards.md "Runs"). Privileged like the other wizard administration reads:
// TEAM_ADMIN_DATA_WIZARDS at view level or a team admin, never a scoped token (the fields' scope).
//
// A run keeps the formData it was sent, which may hold values of fields the caller's role hides.
// Those are left out of what the caller reads, as a record read leaves them out: a key of formData
// is shown only when the caller may read that field of the wizard's collection (team admins read
// every field), and an error detail naming a hidden field keeps its ids but not its message (a
// message may quote the value).
import type { DataWizardInstance } from '../../generated/prisma/client.ts';
import { fieldAccess, type Principal } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import { type PaginationShape, paginationOf, parsePaging, type PageInput } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { findRecords, recordSimplyIds } from '../../kernel/index.ts';
import type { WizardConfig } from './wizard-config.ts';
import type { RunErrorDetail } from './wizard-events.ts';
import { findAdminWizard } from './wizard-admin-lookup.ts';
import { dataWizardInstanceId } from './wizards.ids.ts';
import { INSTANCE_STATUSES, type InstanceStatus } from './wizard-instances.input.ts';
import { WizardInstanceNotFoundError } from './wizards.errors.ts';


/** What replaces the message of an error detail about a field the caller cannot read. */
export const HIDDEN_FIELD_MESSAGE = 'concerns a field your role cannot read';

export interface WizardInstanceView {
  row: DataWizardInstance;
  dataWizardSimplyId: string;
  /** null once the record row is gone (records are soft-deleted, so normally never) */
  dataRecordSimplyId: string | null;
  /** formData without the fields the caller cannot read */
  formData: Record<string, unknown>;
  errorDetails: RunErrorDetail[] | null;
}

export interface WizardInstancePage {
  nodes: WizardInstanceView[];
  pagination: PaginationShape;
}

export interface InstanceFilter extends PageInput {
  status?: string | null;
  dataRecordSimplyId?: string | null;
}

/** Whether the caller may read the field of the wizard's collection (a field no longer in it: no). */
function readable(p: Principal, config: WizardConfig, fieldSimplyId: string): boolean {
  if (p.isTeamAdmin || p.isSystemAdmin) return true;
  const collection = config.collection;
  if (!collection) return false;
  return fieldAccess(p, collection.simplyId, fieldSimplyId) !== 'NONE';
}

function visibleFormData(p: Principal, config: WizardConfig, formData: unknown): Record<string, unknown> {
  if (!formData || typeof formData !== 'object' || Array.isArray(formData)) return {};
  return Object.fromEntries(Object.entries(formData).filter(([id]) => readable(p, config, id)));
}

function visibleErrors(p: Principal, config: WizardConfig, errors: unknown): RunErrorDetail[] | null {
  if (!Array.isArray(errors)) return null;
  return (errors as RunErrorDetail[]).map((e) => (e.dataFieldSimplyId && !readable(p, config, e.dataFieldSimplyId) ? { ...e, message: HIDDEN_FIELD_MESSAGE } : e));
}

async function toViews(ctx: RequestContext, config: WizardConfig, rows: DataWizardInstance[]): Promise<WizardInstanceView[]> {
  const team = requireTeam(ctx);
  const recordIds = rows.flatMap((r) => (r.recordId === null ? [] : [r.recordId]));
  const simplyIds = await recordSimplyIds(ctx.services.pool, team.id, recordIds);
  return rows.map((row) => ({
    row,
    dataWizardSimplyId: config.row.simplyId,
    dataRecordSimplyId: row.recordId === null ? null : (simplyIds.get(row.recordId) ?? null),
    formData: visibleFormData(ctx.principal, config, row.formData),
    errorDetails: visibleErrors(ctx.principal, config, row.errorDetails),
  }));
}

function parseStatus(status: string | null | undefined): InstanceStatus | undefined {
  if (status === null || status === undefined) return undefined;
  if (!(INSTANCE_STATUSES as readonly string[]).includes(status)) {
    throw new ValidationError(`status must be one of ${INSTANCE_STATUSES.join(', ')}`, [{ field: 'status', message: `must be one of ${INSTANCE_STATUSES.join(', ')}` }]);
  }
  return status as InstanceStatus;
}

/** The wizard's runs, newest first; by status and by record when asked. */
export async function listWizardInstances(ctx: RequestContext, wizardSimplyId: string, filter: InstanceFilter): Promise<WizardInstancePage> {
  const team = requireTeam(ctx);
  const paging = parsePaging(filter);
  const status = parseStatus(filter.status);
  if (filter.dataRecordSimplyId !== null && filter.dataRecordSimplyId !== undefined) assertDataSimplyId(filter.dataRecordSimplyId, 'dataRecordSimplyId');
  const config = await findAdminWizard(ctx, wizardSimplyId);
  let recordId: bigint | undefined;
  if (filter.dataRecordSimplyId) {
    // a record that does not exist (or no longer does) has no runs to list
    const [record] = await findRecords(ctx.services.pool, team.id, [filter.dataRecordSimplyId]);
    if (!record) return { nodes: [], pagination: { total: 0, limit: paging.limit, offset: paging.offset, hasMore: false } };
    recordId = record.id;
  }
  const where = { teamId: team.id, wizardId: config.row.id, ...(status ? { status } : {}), ...(recordId !== undefined ? { recordId } : {}) };
  const rows = await ctx.services.prisma.dataWizardInstance.findMany({
    where,
    orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
    skip: paging.offset,
    take: paging.limit,
  });
  return {
    nodes: await toViews(ctx, config, rows),
    pagination: await paginationOf(rows.length, paging, () => ctx.services.prisma.dataWizardInstance.count({ where })),
  };
}

/** One run of the wizard, or 404 (another wizard's run, another team's, or none). */
export async function getWizardInstance(ctx: RequestContext, wizardSimplyId: string, instanceSimplyId: string): Promise<WizardInstanceView> {
  const team = requireTeam(ctx);
  dataWizardInstanceId.assert(instanceSimplyId, 'dataWizardInstanceSimplyId');
  const config = await findAdminWizard(ctx, wizardSimplyId);
  const row = await ctx.services.prisma.dataWizardInstance.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId: instanceSimplyId } } });
  if (!row || row.wizardId !== config.row.id) throw new WizardInstanceNotFoundError(instanceSimplyId);
  const [view] = await toViews(ctx, config, [row]);
  return view!;
}
