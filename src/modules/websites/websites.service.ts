// Websites: list, create, read, change settings and members, delete (docs/api/websites.md
// "Websites"). Settings are stored as given once checked; navigation page items must name pages of
// the site, and members must be active members of the team.
import type { RequestContext } from '../../app/context.ts';
import { type ErrorDetail, NotFoundError, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { Prisma, type Website } from '../../generated/prisma/client.ts';
import { type SiteAccess, requireWebsitesFeature, siteFor } from './website-access.ts';
import { effectiveRole, type WebsiteRole } from './website-roles.ts';
import { WebsiteDomainTakenError, WebsiteSlugTakenError } from './websites.errors.ts';
import { websiteId } from './websites.ids.ts';
import { createWebsiteInput, RESERVED_SLUGS, updateWebsiteInput, type UpdateWebsiteInput } from './websites.input.ts';
import { navigationPageRefs } from './navigation.input.ts';
import { parseDesign } from './design-document.ts';
import { publishedStateChange } from './site-publishing.service.ts';
import { slugFromTitle } from './pages.input.ts';
import { platformHost } from './serve-host.ts';

export interface WebsiteView extends SiteAccess {
  members: { userSimplyId: string; role: WebsiteRole }[];
  pageCount: number;
}

async function viewOf(tx: Pick<Tx, '$queryRawUnsafe' | 'websitePage'>, access: SiteAccess): Promise<WebsiteView> {
  const members = await tx.$queryRawUnsafe<{ userSimplyId: string; role: WebsiteRole }[]>(
    `SELECT u."simplyId" AS "userSimplyId", m.role FROM "WebsiteMember" m JOIN "User" u ON u.id = m."userId"
      WHERE m."teamId" = $1 AND m."websiteId" = $2 ORDER BY m.id`,
    access.site.teamId,
    access.site.id,
  );
  const pageCount = await tx.websitePage.count({ where: { teamId: access.site.teamId, websiteId: access.site.id } });
  return { ...access, members, pageCount };
}

/** The sites the caller has a role on, newest first. */
export async function listWebsites(ctx: RequestContext): Promise<WebsiteView[]> {
  requireWebsitesFeature(ctx, 'VIEW');
  const team = requireTeam(ctx);
  const db = ctx.services.prisma;
  const sites = await db.website.findMany({ where: { teamId: team.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 1000 });
  const userId = ctx.principal.userId;
  const memberships = userId === null ? [] : await db.websiteMember.findMany({ where: { teamId: team.id, userId }, select: { websiteId: true, role: true } });
  const roleAt = new Map(memberships.map((m) => [m.websiteId, m.role as WebsiteRole]));
  const counts = await db.websitePage.groupBy({ by: ['websiteId'], where: { teamId: team.id }, _count: { _all: true } });
  const countAt = new Map(counts.map((c) => [c.websiteId, c._count._all]));
  const views: WebsiteView[] = [];
  for (const site of sites) {
    const role = effectiveRole(ctx.principal, site, roleAt.get(site.id) ?? null);
    // members are read on a site's detail; the list names the caller's own role only
    if (role !== null) views.push({ site, role, members: [], pageCount: countAt.get(site.id) ?? 0 });
  }
  return views;
}

export async function getWebsite(ctx: RequestContext, simplyId: string): Promise<WebsiteView> {
  const db = ctx.services.prisma;
  return viewOf(db, await siteFor(ctx, db, simplyId, 'VIEWER'));
}

/** A free slug: `wanted` as it is (409 when taken), or one made from the name with -2, -3… until free. */
async function freeSlug(tx: Tx, wanted: string | undefined, name: string): Promise<string> {
  if (wanted !== undefined) {
    if (await tx.website.findUnique({ where: { slug: wanted }, select: { id: true } })) throw new WebsiteSlugTakenError(wanted);
    return wanted;
  }
  let base = slugFromTitle(name, 'site').slice(0, 56).replace(/-+$/, '');
  if (base.length < 3 || RESERVED_SLUGS.has(base)) base = `site-${base}`.replace(/-+$/, '');
  const taken = await tx.$queryRawUnsafe<{ slug: string }[]>(`SELECT slug FROM "Website" WHERE slug = $1 OR slug LIKE $2`, base, `${base}-%`);
  const used = new Set(taken.map((t) => t.slug));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

export async function createWebsite(ctx: RequestContext, raw: unknown): Promise<WebsiteView> {
  requireWebsitesFeature(ctx, 'EDIT');
  const input = parseInput(createWebsiteInput, raw, 'Invalid website');
  return runTransaction(ctx.services.prisma, (tx) => insertWebsite(ctx, tx, input));
}

/** A new site owned by the caller, in the caller's transaction (a site made from a template commits with its link). */
export async function insertWebsite(ctx: RequestContext, tx: Tx, input: { name: string; slug?: string; defaultLanguageTagId?: string | null }): Promise<WebsiteView> {
  const team = requireTeam(ctx);
  // slugs are unique across the platform: one transaction at a time picks one
  await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('website-slugs'))`);
  const slug = await freeSlug(tx, input.slug, input.name);
  const site = await tx.website.create({
    data: { simplyId: websiteId.create(), teamId: team.id, name: input.name, slug, defaultLanguageTagId: input.defaultLanguageTagId ?? null, createdByUserId: ctx.principal.userId },
  });
  // whoever creates a site owns it, whatever their permissions later become on other sites
  if (ctx.principal.userId !== null) await tx.websiteMember.create({ data: { teamId: team.id, websiteId: site.id, userId: ctx.principal.userId, role: 'OWNER' } });
  const role = effectiveRole(ctx.principal, site, 'OWNER') ?? 'OWNER';
  return viewOf(tx, { site, role });
}

/** The settings of `input` as columns, with references checked against the site. */
async function settingsData(tx: Tx, site: Website, input: UpdateWebsiteInput): Promise<Partial<Website>> {
  const details: ErrorDetail[] = [];
  const data: Record<string, unknown> = {};
  const plain = ['name', 'metaTitle', 'metaDescription', 'socialImageUrl', 'googleAnalyticsMeasurementId', 'defaultLanguageTagId', 'availableLanguageTagIds', 'restricted'] as const;
  for (const key of plain) if (input[key] !== undefined) data[key] = input[key];
  for (const key of ['themeSettings', 'redirectSettings', 'campaignChromeConfig'] as const) {
    if (input[key] !== undefined) data[key] = input[key] === null ? Prisma.DbNull : input[key];
  }
  // the header and footer are designs like a page's, checked the same way
  for (const key of ['headerDesignJson', 'footerDesignJson'] as const) {
    if (input[key] === undefined) continue;
    if (input[key] === null) {
      data[key] = Prisma.DbNull;
      continue;
    }
    const { design, details: problems } = parseDesign(input[key], key);
    details.push(...problems);
    data[key] = design;
  }
  const navigation = input.navigationJson ?? input.navigationSettings;
  if (navigation !== undefined) {
    const refs = navigationPageRefs(navigation);
    const known = new Set(
      (await tx.websitePage.findMany({ where: { teamId: site.teamId, websiteId: site.id, simplyId: { in: refs.map((r) => r.pageSimplyId) } }, select: { simplyId: true } })).map((p) => p.simplyId),
    );
    for (const ref of refs) if (!known.has(ref.pageSimplyId)) details.push({ field: ref.field, message: `page ${ref.pageSimplyId} is not a page of this website` });
    data.navigationJson = navigation;
  }
  if (input.faviconFileSimplyId !== undefined) data.faviconFileSimplyId = input.faviconFileSimplyId;
  if (input.customDomain !== undefined && input.customDomain !== site.customDomain) {
    const taken = input.customDomain !== null && (await tx.website.findFirst({ where: { customDomain: input.customDomain, id: { not: site.id } }, select: { id: true } }));
    if (taken) throw new WebsiteDomainTakenError(input.customDomain!);
    data.customDomain = input.customDomain;
  }
  if (details.length) throw new ValidationError('Invalid website settings', details);
  return data as Partial<Website>;
}

/** Replaces the site's explicit members: each must be an active member of the team. */
async function replaceMembers(tx: Tx, site: Website, members: NonNullable<UpdateWebsiteInput['members']>): Promise<void> {
  const wanted = new Map(members.map((m) => [m.userSimplyId, m.role]));
  if (wanted.size !== members.length) throw new ValidationError('Invalid website members', [{ field: 'members', message: 'each user may appear once' }]);
  const found = await tx.$queryRawUnsafe<{ id: bigint; simplyId: string }[]>(
    `SELECT u.id, u."simplyId" FROM "User" u JOIN "TeamMembership" tm ON tm."userId" = u.id AND tm."teamId" = $1 AND tm."isActive"
      WHERE u."simplyId" = ANY($2::text[]) AND u."isActive"`,
    site.teamId,
    [...wanted.keys()],
  );
  const idOf = new Map(found.map((u) => [u.simplyId, u.id]));
  const details = members.flatMap((m, i) => (idOf.has(m.userSimplyId) ? [] : [{ field: `members.${i}.userSimplyId`, message: 'is not an active member of the team' }]));
  if (details.length) throw new ValidationError('Invalid website members', details);
  await tx.websiteMember.deleteMany({ where: { teamId: site.teamId, websiteId: site.id } });
  await tx.websiteMember.createMany({ data: members.map((m) => ({ teamId: site.teamId, websiteId: site.id, userId: idOf.get(m.userSimplyId)!, role: m.role })) });
}

export async function updateWebsite(ctx: RequestContext, simplyId: string, raw: unknown): Promise<WebsiteView> {
  const input = parseInput(updateWebsiteInput, raw, 'Invalid website settings');
  return runTransaction(ctx.services.prisma, async (tx) => {
    const access = await siteFor(ctx, tx, simplyId, 'OWNER', { lock: true });
    if (input.customDomain && [platformHost(ctx.services), 'localhost'].includes(input.customDomain)) {
      throw new ValidationError('Invalid website settings', [{ field: 'customDomain', message: 'is the platform’s own address' }]);
    }
    const data = await settingsData(tx, access.site, input);
    if (input.slug !== undefined && input.slug !== access.site.slug) {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('website-slugs'))`);
      data.slug = await freeSlug(tx, input.slug, access.site.name);
    }
    if (input.members !== undefined) await replaceMembers(tx, access.site, input.members);
    if (input.isPublished !== undefined) Object.assign(data, await publishedStateChange(ctx, tx, access.site, input.isPublished, input.activationToken));
    const site = Object.keys(data).length ? await tx.website.update({ where: { id: access.site.id, teamId: access.site.teamId }, data: data as never }) : access.site;
    return viewOf(tx, await siteFor(ctx, tx, site.simplyId, 'VIEWER'));
  });
}

export async function deleteWebsite(ctx: RequestContext, simplyId: string): Promise<boolean> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site } = await siteFor(ctx, tx, simplyId, 'OWNER', { lock: true });
    const deleted = await tx.website.deleteMany({ where: { id: site.id, teamId: site.teamId } });
    if (deleted.count === 0) throw new NotFoundError('Website', simplyId);
    return true;
  });
}
