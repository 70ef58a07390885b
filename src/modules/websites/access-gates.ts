// What an access area means, for the API (access-areas.service.ts) and the served site
// (served-access.ts) alike: which area applies to a page, and whether a constituent's record is let
// in.
//
// A page's area is the one attached to the page itself or, failing that, to its nearest ancestor:
// inherited down the page tree. Disabled areas are as if they were not there. Whether a record is
// let in is the records' own search filters, checked by the data kernel (findMatchingRecord)
// against the record, so a rule means what the same search of the collection would find.
import type { Services } from '../../app/context.ts';
import { findMatchingRecord, normalizeFilters, recordSimplyIds } from '../../kernel/index.ts';
import type { Admission } from './access-areas.input.ts';

export interface GateArea {
  simplyId: string;
  name: string;
  rootPageSimplyIds: string[];
  admits: unknown;
  signInMessage: string | null;
  enabled: boolean;
}

interface TreeNode {
  id: bigint;
  simplyId: string;
  parentId: bigint | null;
}

/** The area that applies to each page of the tree (pages in no area are left out). */
export function areasByPage<A extends GateArea>(pages: readonly TreeNode[], areas: readonly A[]): Map<bigint, A> {
  const byRoot = new Map<string, A>();
  for (const area of areas) if (area.enabled) for (const root of area.rootPageSimplyIds) if (!byRoot.has(root)) byRoot.set(root, area);
  const byId = new Map(pages.map((p) => [p.id, p]));
  const out = new Map<bigint, A>();
  for (const page of pages) {
    // the tree is at most 8 deep; the guard only bounds a damaged tree
    for (let at: TreeNode | undefined = page, guard = 0; at && guard < 64; at = at.parentId === null ? undefined : byId.get(at.parentId), guard++) {
      const area = byRoot.get(at.simplyId);
      if (area) {
        out.set(page.id, area);
        break;
      }
    }
  }
  return out;
}

const rulesOf = (admits: unknown): Admission[] => (Array.isArray(admits) ? (admits as Admission[]) : []);

/**
 * Whether the record `dataRecordId` of team `teamId` meets one of the area's rules now: a live
 * member of the rule's collection meeting its filters. A rule whose collection is gone or archived,
 * or whose filters no longer fit the collection's fields, lets nobody in.
 */
export async function admitsRecord(services: Services, teamId: bigint, area: Pick<GateArea, 'admits'>, dataRecordId: bigint): Promise<boolean> {
  const simplyId = (await recordSimplyIds(services.pool, teamId, [dataRecordId])).get(dataRecordId);
  if (!simplyId) return false;
  const schema = await services.schemas.get(teamId);
  for (const rule of rulesOf(area.admits)) {
    const collection = schema.collectionsBySimplyId.get(rule.dataCollectionSimplyId);
    if (!collection || collection.isArchived) continue;
    const fields = schema.fieldsOf(collection);
    const normalized = normalizeFilters(fields, rule.filters ?? []);
    if (!normalized.ok) continue;
    const row = await findMatchingRecord(services.pool, {
      teamId,
      collectionId: collection.id,
      recordSimplyId: simplyId,
      filters: normalized.filters,
      fieldsById: new Map(fields.map((f) => [f.dataFieldSimplyId, f])),
    });
    if (row) return true;
  }
  return false;
}
