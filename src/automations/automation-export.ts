// The automations of a team in the portable team-schema document (references by simplyId only).
import type { Tx } from '../graphql/team-write.ts';

export async function exportAutomations(_tx: Tx, _teamId: bigint, _collectionSimplyIds: ReadonlyMap<string, string>): Promise<unknown[]> {
  return []; // filled in by the automations capability
}
