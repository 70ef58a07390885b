// What else names a field, and what happens to it when the field is removed. Automations are
// behaviour: one that names the field is refused (409), as the display-name formula and SMART
// criteria are, so nothing silently stops working. Role grants, wizard task links and view
// configs only describe the field: they are cleaned up in the removal's transaction. (A cached
// principal may still hold the removed grant until its next load; it names a field that no
// longer exists, so it grants nothing.)
import { ConflictError } from '../../app/errors.ts';
import { type Tx } from '../../app/transaction.ts';

/** simplyIds of the team's automations whose trigger, filters or actions name the field. */
export async function automationsUsingField(tx: Tx, teamId: bigint, fieldSimplyId: string): Promise<string[]> {
  // field simplyIds are random tokens (fld-XXXX-XXXX-XXXX): a substring match on the JSON is exact
  const pattern = `%"${fieldSimplyId}"%`;
  const keyPattern = `%${fieldSimplyId}%`;
  const rows = await tx.$queryRaw<{ simplyId: string }[]>`
    SELECT DISTINCT a."simplyId" FROM "Automation" a
      LEFT JOIN "AutomationAction" x ON x."teamId" = a."teamId" AND x."automationId" = a.id
     WHERE a."teamId" = ${teamId}
       AND (a."triggerConfig"::text LIKE ${pattern} OR coalesce(a."filterConditions"::text, '') LIKE ${pattern}
            OR coalesce(x."actionConfig"::text, '') LIKE ${keyPattern} OR coalesce(x."onFailureActions"::text, '') LIKE ${keyPattern})
     ORDER BY 1`;
  return rows.map((r) => r.simplyId);
}

export async function refuseIfAutomationsUse(tx: Tx, teamId: bigint, fieldSimplyId: string): Promise<void> {
  const users = await automationsUsingField(tx, teamId, fieldSimplyId);
  if (users.length > 0) {
    throw new ConflictError(`Field ${fieldSimplyId} is used by automation(s) ${users.join(', ')}; change or delete them first`);
  }
}

interface ViewConfig {
  columns?: unknown[];
  filters?: { field?: unknown }[];
  sortOrder?: { field?: unknown }[];
  [key: string]: unknown;
}

/** Removes the field from role grants, wizard task links and the collection's view configs. */
export async function releaseFieldReferences(tx: Tx, teamId: bigint, field: { id: bigint; dataFieldSimplyId: string }, viewCollectionIds: readonly bigint[]): Promise<void> {
  const id = field.dataFieldSimplyId;
  await tx.teamRoleFieldPermission.deleteMany({ where: { teamId, dataFieldSimplyId: id } });
  await tx.dataWizardTaskField.deleteMany({ where: { teamId, fieldId: field.id } });
  const views = await tx.dataView.findMany({ where: { teamId, collectionId: { in: [...viewCollectionIds] } }, select: { id: true, config: true } });
  for (const view of views) {
    const config = (view.config ?? {}) as ViewConfig;
    const next: ViewConfig = { ...config };
    if (Array.isArray(config.columns)) next.columns = config.columns.filter((c) => c !== id);
    if (Array.isArray(config.filters)) next.filters = config.filters.filter((f) => f?.field !== id);
    if (Array.isArray(config.sortOrder)) next.sortOrder = config.sortOrder.filter((s) => s?.field !== id);
    if (JSON.stringify(next) !== JSON.stringify(config)) await tx.dataView.update({ where: { id: view.id }, data: { config: next as never } });
  }
}
