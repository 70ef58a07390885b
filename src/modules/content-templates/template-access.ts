// Who may do what with a content template (docs/api/content-templates.md "Permissions").
// Outgoing-message and canned-response templates, and the library list, need the feature
// TEAM_ADMIN_CONTENT_TEMPLATE_LIBRARY (view to read, edit to write). A document template needs the
// caller's data permission on its collection: read access is view (read, preview), edit access is
// edit (create, update, archive, copy into, assign). Roles grant data permissions per collection,
// not per feature, so the collection's data grant stands for the document-template permission of
// that collection. A PERSONAL template is its owner's: anyone else but a team admin gets 404.
import { hasDataAccess, hasFeature, type Principal } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, PermissionDeniedError } from '../../app/errors.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import { requestLoader } from '../../app/request-loader.ts';
import { requireTeam } from '../../app/require-team.ts';
import type { CollectionDefinition, TeamSchema } from '../../kernel/index.ts';

export const LIBRARY_FEATURE = 'TEAM_ADMIN_CONTENT_TEMPLATE_LIBRARY';
export type TemplateLevel = 'VIEW' | 'EDIT';

/** The columns the rules read. */
export interface Guarded {
  simplyId: string;
  kind: string;
  dataCollectionId: bigint | null;
  templateScope: string | null;
  ownerMembershipId: bigint | null;
}

export function isAdmin(p: Principal): boolean {
  return p.isTeamAdmin || p.isSystemAdmin;
}

type CallerMembership = { id: bigint; simplyId: string } | null;

/** The caller's active membership in the team (null for API keys and session tokens), once per request. */
export function callerMembership(ctx: RequestContext): Promise<CallerMembership> {
  const team = requireTeam(ctx);
  const userId = ctx.principal.userId;
  if (userId === null) return Promise.resolve(null);
  const load = requestLoader<true, CallerMembership>(ctx, 'content-templates.callerMembership', async (keys) => {
    const membership = await ctx.services.prisma.teamMembership.findFirst({ where: { teamId: team.id, userId, isActive: true }, select: { id: true, simplyId: true } });
    return keys.map(() => membership);
  });
  return load.load(true);
}

function dataLevel(level: TemplateLevel): 'READ' | 'EDIT' {
  return level === 'VIEW' ? 'READ' : 'EDIT';
}

export function requireLibrary(p: Principal, level: TemplateLevel): void {
  if (!hasFeature(p, LIBRARY_FEATURE, level)) {
    throw new PermissionDeniedError(`This needs the feature permission ${LIBRARY_FEATURE} at ${level === 'VIEW' ? 'view' : 'edit'} level`);
  }
}

export function canUseCollection(p: Principal, collection: CollectionDefinition, level: TemplateLevel): boolean {
  return hasDataAccess(p, collection.simplyId, dataLevel(level));
}

function requireCollection(p: Principal, collection: CollectionDefinition, level: TemplateLevel): void {
  if (!canUseCollection(p, collection, level)) {
    throw new PermissionDeniedError(
      `Document templates of collection ${collection.simplyId} need ${level === 'VIEW' ? 'read' : 'edit'} access to that collection`,
    );
  }
}

/** Whether the caller sees a PERSONAL template at all (its owner, or a team admin). */
export async function ownsOrAdministers(ctx: RequestContext, t: Guarded): Promise<boolean> {
  if (t.templateScope !== 'PERSONAL' || isAdmin(ctx.principal)) return true;
  const me = await callerMembership(ctx);
  return me !== null && t.ownerMembershipId === me.id;
}

/** Throws 404 for a template the caller may not see, 403 for one it sees but may not use at `level`. */
export async function assertTemplateAccess(ctx: RequestContext, t: Guarded, schema: TeamSchema, level: TemplateLevel): Promise<void> {
  const p = ctx.principal;
  if (t.kind !== 'DOCUMENT') return requireLibrary(p, level);
  if (!(await ownsOrAdministers(ctx, t))) throw new NotFoundError('Content template', t.simplyId);
  const collection = t.dataCollectionId === null ? undefined : schema.collectionsById.get(t.dataCollectionId);
  if (!collection) {
    // its collection is gone: only an admin may still reach it
    if (!isAdmin(p)) throw new PermissionDeniedError('The collection of this document template no longer exists');
    return;
  }
  requireCollection(p, collection, level);
}

/** A collection of the caller's team (404 otherwise) the caller may use at `level` (403 otherwise). */
export async function collectionAt(ctx: RequestContext, simplyId: string, level: TemplateLevel, field = 'dataCollectionSimplyId'): Promise<{ schema: TeamSchema; collection: CollectionDefinition }> {
  const team = requireTeam(ctx);
  assertDataSimplyId(simplyId, field, 'collection');
  const schema = await ctx.services.schemas.get(team.id);
  const collection = schema.collectionsBySimplyId.get(simplyId);
  if (!collection) throw new NotFoundError('Data collection', simplyId);
  requireCollection(ctx.principal, collection, level);
  return { schema, collection };
}

/** The collection and its ancestors, nearest first (a parent chain is short; a cycle ends it). */
export function lineageOf(schema: TeamSchema, collection: CollectionDefinition): CollectionDefinition[] {
  const chain = [collection];
  let current = collection;
  while (current.parentId !== null && chain.length <= 16) {
    const parent = schema.collectionsById.get(current.parentId);
    if (!parent || chain.includes(parent)) break;
    chain.push(parent);
    current = parent;
  }
  return chain;
}

/** Collections below `collection` (children, their children, …), nearest first. */
export function descendantsOf(schema: TeamSchema, collection: CollectionDefinition): CollectionDefinition[] {
  const out: CollectionDefinition[] = [];
  const seen = new Set<bigint>([collection.id]);
  let level = [collection];
  for (let depth = 0; level.length > 0 && depth < 16; depth++) {
    const next = schema.collections.filter((c) => c.parentId !== null && level.some((l) => l.id === c.parentId) && !seen.has(c.id));
    for (const c of next) seen.add(c.id);
    out.push(...next);
    level = next;
  }
  return out;
}
