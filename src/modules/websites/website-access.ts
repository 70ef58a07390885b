// Finding a website for the caller, with their role on it (website-roles.ts). Every website route
// and every page route goes through here: a site the caller has no role on answers 404, exactly
// like one that does not exist or belongs to another team; a role that is too low answers 403
// WEBSITE_ROLE_REQUIRED.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, PermissionDeniedError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import type { Tx } from '../../app/transaction.ts';
import type { Website, WebsitePage } from '../../generated/prisma/client.ts';
import { WebsiteRoleRequiredError } from './websites.errors.ts';
import { websiteId, websitePageId } from './websites.ids.ts';
import { ADMIN_FEATURE, atLeast, effectiveRole, SITE_FEATURE, type WebsiteRole, websitesFeature } from './website-roles.ts';

export interface SiteAccess {
  site: Website;
  role: WebsiteRole;
}

/** what the access checks read: the client or a transaction */
export type WebsitesDb = Pick<Tx, 'website' | 'websiteMember' | 'websitePage' | '$queryRawUnsafe'>;
type Db = WebsitesDb;

/** 403 without either websites feature (at `level`), before anything is read. */
export function requireWebsitesFeature(ctx: RequestContext, level: 'VIEW' | 'EDIT'): void {
  const has = websitesFeature(ctx.principal);
  if (has === null || (level === 'EDIT' && has !== 'EDIT')) {
    throw new PermissionDeniedError(`Websites need the ${SITE_FEATURE} or ${ADMIN_FEATURE} feature permission${level === 'EDIT' ? ' at edit level' : ''}`);
  }
}

/** The site (by simplyId or id) with the caller's explicit role on it, in one statement; `lock` locks the site's row. */
async function siteWithMember(db: Db, teamId: bigint, by: { simplyId: string } | { id: bigint }, userId: bigint | null, lock: boolean): Promise<(Website & { memberRole: WebsiteRole | null }) | null> {
  const [key, value] = 'simplyId' in by ? ['"simplyId"', by.simplyId] : ['id', by.id];
  const rows = await db.$queryRawUnsafe<(Website & { memberRole: WebsiteRole | null })[]>(
    `SELECT w.*, m.role AS "memberRole" FROM "Website" w
       LEFT JOIN "WebsiteMember" m ON m."teamId" = w."teamId" AND m."websiteId" = w.id AND m."userId" = $3
      WHERE w."teamId" = $1 AND w.${key} = $2${lock ? ' FOR UPDATE OF w' : ''}`,
    teamId,
    value,
    userId ?? -1n,
  );
  return rows[0] ?? null;
}

/** The caller's role on `found`, which must reach `needed`: 404 (`notFound`) without one, 403 below it. */
function accessTo(ctx: RequestContext, found: (Website & { memberRole: WebsiteRole | null }) | null, needed: WebsiteRole, notFound: () => NotFoundError): SiteAccess {
  if (!found) throw notFound();
  const { memberRole: member, ...site } = found;
  const role = effectiveRole(ctx.principal, site, member);
  if (role === null) throw notFound();
  if (!atLeast(role, needed)) throw new WebsiteRoleRequiredError(needed, role);
  return { site, role };
}

const levelOf = (needed: WebsiteRole) => (needed === 'VIEWER' || needed === 'REVIEWER' ? 'VIEW' : 'EDIT');

/**
 * The site `simplyId` with the caller's role, which must reach `needed`. With `lock`, the site's
 * row is locked for the transaction: writes that check and change the page tree take it.
 */
export async function siteFor(ctx: RequestContext, db: Db, simplyId: string, needed: WebsiteRole, options: { lock?: boolean } = {}): Promise<SiteAccess> {
  requireWebsitesFeature(ctx, levelOf(needed));
  websiteId.assert(simplyId, 'websiteSimplyId');
  const team = requireTeam(ctx);
  const found = await siteWithMember(db, team.id, { simplyId }, ctx.principal.userId, options.lock ?? false);
  return accessTo(ctx, found, needed, () => new NotFoundError('Website', simplyId));
}

export interface PageAccess extends SiteAccess {
  page: WebsitePage;
}

/**
 * The page `simplyId` and its site, with the caller's role on the site (as siteFor). `lock` locks
 * the site's row (writes of the page tree); `lockPage` only the page's (writes of one page: its
 * design, publish and review state), so edits of different pages of a site never wait on each other.
 */
export async function pageFor(ctx: RequestContext, db: Db, simplyId: string, needed: WebsiteRole, options: { lock?: boolean; lockPage?: boolean } = {}): Promise<PageAccess> {
  requireWebsitesFeature(ctx, levelOf(needed));
  websitePageId.assert(simplyId, 'pageSimplyId');
  const team = requireTeam(ctx);
  const notFound = () => new NotFoundError('Website page', simplyId);
  const readPage = async (lockIt: boolean) =>
    (await db.$queryRawUnsafe<WebsitePage[]>(`SELECT * FROM "WebsitePage" WHERE "teamId" = $1 AND "simplyId" = $2${lockIt ? ' FOR UPDATE' : ''}`, team.id, simplyId))[0];
  if (!options.lock) {
    // the page first (locked when asked), then its site: two statements
    const page = await readPage(options.lockPage ?? false);
    if (!page) throw notFound();
    return { ...accessTo(ctx, await siteWithMember(db, team.id, { id: page.websiteId }, ctx.principal.userId, false), needed, notFound), page };
  }
  // the site's lock comes before the page is read, so a locked writer sees the page as it is now
  const found = await db.websitePage.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } }, select: { websiteId: true } });
  if (!found) throw notFound();
  const access = accessTo(ctx, await siteWithMember(db, team.id, { id: found.websiteId }, ctx.principal.userId, true), needed, notFound);
  const page = await readPage(options.lockPage ?? false);
  if (!page) throw notFound();
  return { ...access, page };
}
