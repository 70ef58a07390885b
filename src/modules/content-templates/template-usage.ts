// Where a template is used: a document template's collection and the collections below it that
// inherit it, with how many active records (memberships) each holds; the wrappers an outgoing-message
// or canned-response template backs (its usage types). Signing profiles and document generation
// do not exist yet: their lists are empty until they do.
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { type CollectionDefinition, readCounts } from '../../kernel/index.ts';
import { findTemplate } from './content-templates.service.ts';
import { canUseCollection, descendantsOf } from './template-access.ts';

export interface UsageCollection {
  dataCollectionSimplyId: string;
  name: unknown;
  /** false: the template is assigned here; true: inherited from a parent collection */
  inherited: boolean;
  activeMembershipCount: number;
}

export interface TemplateUsage {
  contentTemplateSimplyId: string;
  assignedCollection: UsageCollection | null;
  /** collections below the assigned one (that the caller may read), which offer the template too */
  inheritingCollections: UsageCollection[];
  /** active records of the assigned collection and the inheriting ones together */
  membershipCount: number;
  wrappers: { usageType: string }[];
  signingProfiles: unknown[];
  recentGenerationEvents: unknown[];
}

export async function templateUsage(ctx: RequestContext, simplyId: string): Promise<TemplateUsage> {
  const team = requireTeam(ctx);
  const { row, schema } = await findTemplate(ctx, simplyId, 'VIEW');
  const assigned = row.dataCollectionId === null ? undefined : schema.collectionsById.get(row.dataCollectionId);
  const below = assigned ? descendantsOf(schema, assigned).filter((c) => canUseCollection(ctx.principal, c, 'VIEW')) : [];
  const all = assigned ? [assigned, ...below] : [];
  const counts = all.length > 0 ? await readCounts(ctx.services.pool, team.id, all.map((c) => c.id)) : new Map();
  const entry = (c: CollectionDefinition, inherited: boolean): UsageCollection => ({
    dataCollectionSimplyId: c.simplyId,
    name: c.name,
    inherited,
    activeMembershipCount: counts.get(String(c.id))?.active ?? 0,
  });
  const collections = all.map((c, i) => entry(c, i > 0));
  return {
    contentTemplateSimplyId: row.simplyId,
    assignedCollection: collections[0] ?? null,
    inheritingCollections: collections.slice(1),
    membershipCount: collections.reduce((sum, c) => sum + c.activeMembershipCount, 0),
    wrappers: row.usageTypes.map((usageType) => ({ usageType })),
    signingProfiles: [],
    recentGenerationEvents: [],
  };
}
