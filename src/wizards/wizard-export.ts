// The wizards of a team in the portable team-schema document (references by simplyId only).
import type { Tx } from '../graphql/team-write.ts';

export async function exportWizards(_tx: Tx, _teamId: bigint, _collectionSimplyIds: ReadonlyMap<string, string>): Promise<unknown[]> {
  return []; // filled in by the wizards capability
}
