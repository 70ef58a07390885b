// The automations of a team in the portable team-schema document (references by simplyId only).
// Run state (lastRunAt, executions) and who created them are not schema, so they are left out.

import { type Tx } from '../../app/transaction.ts';
export interface ExportedAutomation {
  automationSimplyId: string;
  name: string;
  description: string | null;
  isEnabled: boolean;
  dataCollectionSimplyId: string | null;
  triggerType: string;
  triggerConfig: unknown;
  filterConditions: unknown;
  maxRecordsPerExecution: number;
  actions: {
    automationActionSimplyId: string;
    actionType: string;
    actionConfig: unknown;
    executionRank: number;
    continueOnError: boolean;
    retryConfig: unknown;
    onFailureActions: unknown;
  }[];
}

export async function exportAutomations(tx: Tx, teamId: bigint, collectionSimplyIds: ReadonlyMap<string, string>): Promise<ExportedAutomation[]> {
  const [automations, actions] = await Promise.all([
    tx.automation.findMany({ where: { teamId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    tx.automationAction.findMany({ where: { teamId }, orderBy: [{ automationId: 'asc' }, { executionRank: 'asc' }, { id: 'asc' }] }),
  ]);
  const actionsOf = new Map<string, ExportedAutomation['actions']>();
  for (const a of actions) {
    const list = actionsOf.get(String(a.automationId)) ?? [];
    list.push({
      automationActionSimplyId: a.simplyId,
      actionType: a.actionType,
      actionConfig: a.actionConfig,
      executionRank: a.executionRank,
      continueOnError: a.continueOnError,
      retryConfig: a.retryConfig,
      onFailureActions: a.onFailureActions,
    });
    actionsOf.set(String(a.automationId), list);
  }
  return automations.map((a) => ({
    automationSimplyId: a.simplyId,
    name: a.name,
    description: a.description,
    isEnabled: a.isEnabled,
    dataCollectionSimplyId: a.collectionId === null ? null : (collectionSimplyIds.get(String(a.collectionId)) ?? null),
    triggerType: a.triggerType,
    triggerConfig: a.triggerConfig,
    filterConditions: a.filterConditions,
    maxRecordsPerExecution: a.maxRecordsPerExecution,
    actions: actionsOf.get(String(a.id)) ?? [],
  }));
}
