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

export async function memberRole(db: Db, teamId: bigint, siteId: bigint, userId: bigint | null): Promise<WebsiteRole | null> {
  if (userId === null) return null;
  const row = await db.websiteMember.findUnique({ where: { teamId_websiteId_userId: { teamId, websiteId: siteId, userId } }, select: { role: true } });
  return (row?.role as WebsiteRole | undefined) ?? null;
}

/**
 * The site `simplyId` with the caller's role, which must reach `needed`. With `lock`, the site's
 * row is locked for the transaction: writes that check and change the page tree take it.
 */
export async function siteFor(ctx: RequestContext, db: Db, simplyId: string, needed: WebsiteRole, options: { lock?: boolean } = {}): Promise<SiteAccess> {
  requireWebsitesFeature(ctx, needed === 'VIEWER' || needed === 'REVIEWER' ? 'VIEW' : 'EDIT');
  websiteId.assert(simplyId, 'websiteSimplyId');
  const team = requireTeam(ctx);
  if (options.lock) await db.$queryRawUnsafe('SELECT 1 FROM "Website" WHERE "teamId" = $1 AND "simplyId" = $2 FOR UPDATE', team.id, simplyId);
  const site = await db.website.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!site) throw new NotFoundError('Website', simplyId);
  const role = effectiveRole(ctx.principal, site, await memberRole(db, team.id, site.id, ctx.principal.userId));
  if (role === null) throw new NotFoundError('Website', simplyId);
  if (!atLeast(role, needed)) throw new WebsiteRoleRequiredError(needed, role);
  return { site, role };
}

export interface PageAccess extends SiteAccess {
  page: WebsitePage;
}

/** The page `simplyId` and its site, with the caller's role on the site (as siteFor). */
export async function pageFor(ctx: RequestContext, db: Db, simplyId: string, needed: WebsiteRole, options: { lock?: boolean } = {}): Promise<PageAccess> {
  requireWebsitesFeature(ctx, needed === 'VIEWER' || needed === 'REVIEWER' ? 'VIEW' : 'EDIT');
  websitePageId.assert(simplyId, 'pageSimplyId');
  const team = requireTeam(ctx);
  const found = await db.websitePage.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } }, select: { website: { select: { simplyId: true } } } });
  if (!found) throw new NotFoundError('Website page', simplyId);
  let access: SiteAccess;
  try {
    access = await siteFor(ctx, db, found.website.simplyId, needed, options);
  } catch (error) {
    // the page of a site the caller cannot see does not exist for them either
    if (error instanceof NotFoundError) throw new NotFoundError('Website page', simplyId);
    throw error;
  }
  // read again after the site's lock, so a locked writer sees the page as it is now
  const page = await db.websitePage.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!page) throw new NotFoundError('Website page', simplyId);
  return { ...access, page };
}
