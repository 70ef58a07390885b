// POST /v1/action-tags/bulk-generate (docs/api/action-tags.md "Bulk generation"): one DATA_RECORD
// (or DATA_WIZARD) tag per record of a collection that has none yet, oldest records first, up to
// `limit` and the plan's capacity, in one transaction. Powered, and first-party only: a signed-in
// member with TEAM_ADMIN_SVC_TAGS edit (the tier refuses API keys and tokens).
import type { RequestContext } from '../../app/context.ts';
import { hasFeature } from '../../app/auth/principal.ts';
import { PermissionDeniedError, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { scanRecords } from '../../kernel/index.ts';
import { requirePoweredPlan } from './action-tag-plan.ts';
import { ARCHIVED_STATUSES } from './action-tag-status.ts';
import { ActionTagCapacityError } from './action-tags.errors.ts';
import { actionTagId } from './action-tags.ids.ts';
import { bulkGenerateInput } from './action-tags.input.ts';
import { emitActionTagLifecycle } from './action-tag-lifecycle.ts';
import { publicUrlOf, type ActionTagView } from './action-tags.service.ts';

export interface BulkGenerateResult {
  created: ActionTagView[];
  /** records of the collection that already had a tag */
  skipped: number;
}

export async function bulkGenerateActionTags(ctx: RequestContext, raw: unknown): Promise<BulkGenerateResult> {
  if (!hasFeature(ctx.principal, 'TEAM_ADMIN_SVC_TAGS', 'EDIT')) throw new PermissionDeniedError('Bulk generation needs TEAM_ADMIN_SVC_TAGS at edit level');
  const input = parseInput(bulkGenerateInput, raw, 'Invalid bulk generation');
  if (input.actionType === 'DATA_WIZARD' && !input.dataWizardSimplyId) throw new ValidationError('Invalid bulk generation', [{ field: 'dataWizardSimplyId', message: 'is required for actionType DATA_WIZARD' }]);
  const team = requireTeam(ctx);
  return runTransaction(ctx.services.prisma, async (tx) => {
    const plan = await requirePoweredPlan(ctx, 'Bulk generation', tx);
    const collection = await tx.dataCollection.findFirst({ where: { teamId: team.id, simplyId: input.dataCollectionSimplyId }, select: { id: true, simplyId: true } });
    if (!collection) throw new ValidationError('Invalid bulk generation', [{ field: 'dataCollectionSimplyId', message: 'is not a data collection of this team' }]);
    if (input.dataWizardSimplyId && !(await tx.dataWizard.findFirst({ where: { teamId: team.id, simplyId: input.dataWizardSimplyId }, select: { id: true } }))) {
      throw new ValidationError('Invalid bulk generation', [{ field: 'dataWizardSimplyId', message: 'is not a data wizard of this team' }]);
    }
    await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(hashtext(\'action-tags\'), $1::int)', Number(team.id % 2147483647n));
    const tagged = new Set(
      (await tx.actionTag.findMany({ where: { teamId: team.id, dataCollectionSimplyId: collection.simplyId, dataRecordSimplyId: { not: null } }, select: { dataRecordSimplyId: true } })).map((t) => t.dataRecordSimplyId!),
    );
    // the collection's active records by id, a window at a time, until `limit` untagged ones are found
    const todo: { simplyId: string; calculatedName: string }[] = [];
    let skipped = 0;
    for (let after: bigint | undefined; todo.length < input.limit; ) {
      const window = await scanRecords(ctx.services.pool, { teamId: team.id, collectionId: collection.id, filters: [], fieldsById: new Map() }, { after, limit: 1000 });
      for (const r of window) {
        if (tagged.has(r.simplyId)) skipped++;
        else if (todo.length < input.limit) todo.push({ simplyId: r.simplyId, calculatedName: r.calculatedName });
      }
      if (window.length < 1000) break;
      after = window.at(-1)!.id;
    }
    const inUse = await tx.actionTag.count({ where: { teamId: team.id, status: { notIn: [...ARCHIVED_STATUSES] } } });
    if (todo.length > 0 && inUse + todo.length > plan.managedCapacity) throw new ActionTagCapacityError(plan.managedCapacity);
    const created: ActionTagView[] = [];
    for (const record of todo) {
      const tag = await tx.actionTag.create({
        data: {
          simplyId: actionTagId.create(),
          teamId: team.id,
          name: `${input.namePrefix ?? 'Tag'}: ${record.calculatedName || record.simplyId}`.slice(0, 200),
          status: input.status,
          actionType: input.actionType,
          actionUrl: input.actionUrl,
          destinationDomain: new URL(input.actionUrl).hostname.toLowerCase(),
          dataRecordSimplyId: record.simplyId,
          dataCollectionSimplyId: collection.simplyId,
          dataWizardSimplyId: input.dataWizardSimplyId ?? null,
          createdByUserId: ctx.principal.userId,
        },
      });
      await emitActionTagLifecycle(ctx, tx, { type: 'CREATED', tag });
      created.push({ tag, publicUrl: publicUrlOf(ctx, tag.simplyId, tag.teamId) });
    }
    return { created, skipped };
  });
}
