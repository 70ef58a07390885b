// Publishing a whole site (docs/api/websites.md "Publishing a site"): the advisory readiness
// checklist, the activation token a first publish needs, taking the site live or offline (PUT
// isPublished), and publishing the header and footer and the campaign chrome, which are drafts of
// their own.
//
// Activation tokens are stateless: HMAC-SHA-256 over (team, site, user, expiry) under a key
// derived from the instance's secrets key, so every instance sharing the key accepts them and
// nothing is stored. They last ACTIVATION_TTL_SECONDS and only the user they were issued to may
// use them.
import { createHmac } from 'node:crypto';
import type { RequestContext, Services } from '../../app/context.ts';
import { constantTimeEqual } from '../../app/auth/tokens.ts';
import { ApiError, type ErrorDetail, ValidationError } from '../../app/errors.ts';
import { derivedSecretsKey } from '../../app/secrets-key.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import type { Website } from '../../generated/prisma/client.ts';
import { type CampaignChromeInput, campaignChromeInput } from './campaign-chrome.input.ts';
import { type DesignDocument, walkComponents } from './design-document.ts';
import { publishState } from './pages.service.ts';
import { navigationPageRefs, type NavigationInput } from './navigation.input.ts';
import { siteFor } from './website-access.ts';

export const ACTIVATION_TTL_SECONDS = 600;
const KEY_INFO = 'svc website activation v1';

export class WebsiteNotReadyError extends ApiError {
  constructor(message: string, blockers: ErrorDetail[]) {
    super(409, 'WEBSITE_NOT_READY', message, { details: blockers });
  }
}

export class ActivationRequiredError extends ApiError {
  constructor(why: string) {
    super(403, 'WEBSITE_ACTIVATION_REQUIRED', `Publishing a website for the first time needs an activation token from POST /v1/websites/{websiteSimplyId}/publish-activation: ${why}`, {
      details: [{ field: 'activationToken', message: why }],
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Activation

const sign = (services: Services, body: string) => createHmac('sha256', derivedSecretsKey(services.config.secretsKeyFile, KEY_INFO)).update(body).digest('base64url');

export interface Activation {
  websiteSimplyId: string;
  activationToken: string;
  expiresAt: Date;
}

export async function issueActivation(ctx: RequestContext, websiteSimplyId: string): Promise<Activation> {
  const { site } = await siteFor(ctx, ctx.services.prisma, websiteSimplyId, 'OWNER');
  const expires = Math.floor(Date.now() / 1000) + ACTIVATION_TTL_SECONDS;
  const body = Buffer.from(JSON.stringify({ t: String(site.teamId), w: site.simplyId, u: String(ctx.principal.userId), e: expires })).toString('base64url');
  return { websiteSimplyId: site.simplyId, activationToken: `wact_${body}.${sign(ctx.services, body)}`, expiresAt: new Date(expires * 1000) };
}

/** Why `token` does not activate `site` for the caller, or null when it does. */
function activationProblem(ctx: RequestContext, site: Website, token: string | undefined): string | null {
  if (!token) return 'none was given';
  const match = /^wact_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
  if (!match || !constantTimeEqual(match[2]!, sign(ctx.services, match[1]!))) return 'the token is not valid';
  let claims: { t: string; w: string; u: string; e: number };
  try {
    claims = JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8'));
  } catch {
    return 'the token is not valid';
  }
  if (claims.t !== String(site.teamId) || claims.w !== site.simplyId) return 'the token was issued for another website';
  if (claims.u !== String(ctx.principal.userId)) return 'the token was issued to another user';
  if (claims.e * 1000 < Date.now()) return 'the token has expired';
  return null;
}

/**
 * PUT isPublished (called by updateWebsite in its transaction, the site locked): true takes the
 * site live (its first time needs a valid activation token, and a published home page is a hard
 * requirement), false takes it offline. Answers the columns to write.
 */
export async function publishedStateChange(ctx: RequestContext, tx: Tx, site: Website, isPublished: boolean, activationToken: string | undefined): Promise<Partial<Website>> {
  if (!isPublished) return site.isPublished ? { isPublished: false } : {};
  if (site.isPublished) return {};
  if (site.firstPublishedAt === null) {
    const problem = activationProblem(ctx, site, activationToken);
    if (problem) throw new ActivationRequiredError(problem);
  }
  const home = await tx.websitePage.findFirst({ where: { teamId: site.teamId, websiteId: site.id, isHomePage: true }, select: { simplyId: true, publishedDesign: true } });
  if (!home || home.publishedDesign === null) {
    throw new WebsiteNotReadyError('A website goes live with a published home page: publish it first', [{ field: 'isPublished', message: home ? `the home page ${home.simplyId} is not published` : 'the website has no home page' }]);
  }
  return { isPublished: true, ...(site.firstPublishedAt === null ? { firstPublishedAt: new Date() } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Readiness

export type ReadinessSeverity = 'BLOCKER' | 'WARNING' | 'INFO';

export interface ReadinessItem {
  code: string;
  severity: ReadinessSeverity;
  message: string;
  pageSimplyId: string | null;
}

export interface Readiness {
  websiteSimplyId: string;
  /** no BLOCKER: PUT isPublished true will not be refused for the site's content */
  ready: boolean;
  isPublished: boolean;
  needsActivation: boolean;
  items: ReadinessItem[];
}

const item = (code: string, severity: ReadinessSeverity, message: string, pageSimplyId: string | null = null): ReadinessItem => ({ code, severity, message, pageSimplyId });

function imagesWithoutAlt(design: DesignDocument): number {
  let count = 0;
  walkComponents(design.components, (c) => {
    if ((c.type === 'image' || c.tagName === 'img') && !(typeof c.attributes?.alt === 'string' && c.attributes.alt.trim())) count++;
  });
  return count;
}

/** The advisory checklist (the publishing routes enforce only their own hard requirements). */
export async function publishReadiness(ctx: RequestContext, websiteSimplyId: string): Promise<Readiness> {
  const db = ctx.services.prisma;
  const { site } = await siteFor(ctx, db, websiteSimplyId, 'VIEWER');
  const pages = await db.websitePage.findMany({
    where: { teamId: site.teamId, websiteId: site.id },
    select: { simplyId: true, title: true, isHomePage: true, metaTitle: true, reviewState: true, draftDesign: true, draftRevision: true, publishedDesign: true, publishedRevision: true },
    orderBy: { id: 'asc' },
  });
  const items: ReadinessItem[] = [];
  const home = pages.find((p) => p.isHomePage);
  if (!home) items.push(item('NO_HOME_PAGE', 'BLOCKER', 'The website has no home page: create a page'));
  else if (home.publishedDesign === null) items.push(item('HOME_PAGE_NOT_PUBLISHED', 'BLOCKER', `The home page "${home.title}" is not published`, home.simplyId));
  for (const page of pages) {
    const state = publishState(page);
    const draft = page.draftDesign as unknown as DesignDocument;
    if (draft.components.length === 0) items.push(item('PAGE_EMPTY', 'WARNING', `The page "${page.title}" has no content`, page.simplyId));
    if (state === 'DRAFT' && !page.isHomePage) items.push(item('PAGE_NOT_PUBLISHED', 'INFO', `The page "${page.title}" is not published: visitors will not find it`, page.simplyId));
    if (state === 'MODIFIED') items.push(item('PAGE_HAS_UNPUBLISHED_CHANGES', 'INFO', `The page "${page.title}" has draft changes that are not published`, page.simplyId));
    if (page.reviewState === 'IN_REVIEW') items.push(item('PAGE_IN_REVIEW', 'WARNING', `The page "${page.title}" is waiting for review`, page.simplyId));
    if (page.reviewState === 'CHANGES_REQUESTED') items.push(item('PAGE_CHANGES_REQUESTED', 'WARNING', `Changes were requested on the page "${page.title}"`, page.simplyId));
    if (!page.metaTitle) items.push(item('PAGE_WITHOUT_META_TITLE', 'INFO', `The page "${page.title}" has no meta title: search engines show its title`, page.simplyId));
    const missingAlt = imagesWithoutAlt(draft);
    if (missingAlt) items.push(item('IMAGES_WITHOUT_ALT_TEXT', 'WARNING', `${missingAlt} image(s) on the page "${page.title}" have no alternative text`, page.simplyId));
  }
  if (site.navigationJson) {
    const published = new Set(pages.filter((p) => p.publishedDesign !== null).map((p) => p.simplyId));
    for (const ref of navigationPageRefs(site.navigationJson as unknown as NavigationInput)) {
      if (!published.has(ref.pageSimplyId)) items.push(item('NAVIGATION_TO_UNPUBLISHED_PAGE', 'WARNING', `The navigation links to a page that is not published (${ref.field})`, ref.pageSimplyId));
    }
  } else items.push(item('NO_NAVIGATION', 'INFO', 'The website has no navigation menus'));
  if (!site.metaTitle) items.push(item('NO_SITE_META_TITLE', 'INFO', 'The website has no meta title'));
  const changed = (a: unknown, b: unknown) => JSON.stringify(a ?? null) !== JSON.stringify(b ?? null);
  if (changed(site.headerDesignJson, site.publishedHeaderDesignJson) || changed(site.footerDesignJson, site.publishedFooterDesignJson)) {
    items.push(item('HEADER_FOOTER_UNPUBLISHED', 'INFO', 'The header or footer has changes that are not published'));
  }
  if (changed(site.campaignChromeConfig, site.publishedCampaignChromeConfig)) items.push(item('CAMPAIGN_CHROME_UNPUBLISHED', 'INFO', 'The banners and popups have changes that are not published'));
  return { websiteSimplyId: site.simplyId, ready: !items.some((i) => i.severity === 'BLOCKER'), isPublished: site.isPublished, needsActivation: site.firstPublishedAt === null, items };
}

// ---------------------------------------------------------------------------------------------
// Header and footer, campaign chrome

export async function publishHeaderFooter(ctx: RequestContext, websiteSimplyId: string): Promise<string> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site } = await siteFor(ctx, tx, websiteSimplyId, 'OWNER', { lock: true });
    await tx.website.update({
      where: { id: site.id, teamId: site.teamId },
      data: { publishedHeaderDesignJson: (site.headerDesignJson ?? undefined) as never, publishedFooterDesignJson: (site.footerDesignJson ?? undefined) as never, headerFooterPublishedAt: new Date() },
    });
    if (site.headerDesignJson === null || site.footerDesignJson === null) {
      // a cleared draft clears what is published (Prisma needs DbNull to write a JSON null)
      const { Prisma } = await import('../../generated/prisma/client.ts');
      await tx.website.update({
        where: { id: site.id, teamId: site.teamId },
        data: { ...(site.headerDesignJson === null ? { publishedHeaderDesignJson: Prisma.DbNull } : {}), ...(site.footerDesignJson === null ? { publishedFooterDesignJson: Prisma.DbNull } : {}) },
      });
    }
    return site.simplyId;
  });
}

/** The draft chrome's references checked against the site as it is: pages that exist, wizards of the team. */
async function chromeProblems(tx: Tx, site: Website, chrome: CampaignChromeInput): Promise<ErrorDetail[]> {
  const details: ErrorDetail[] = [];
  const wanted = [...new Set(chrome.popups.flatMap((p) => p.pageSimplyIds ?? []))];
  const pages = new Set((await tx.websitePage.findMany({ where: { teamId: site.teamId, websiteId: site.id, simplyId: { in: wanted } }, select: { simplyId: true } })).map((p) => p.simplyId));
  const wizards = chrome.popups.flatMap((p) => (p.connectedComponent?.kind === 'WIZARD' ? [p.connectedComponent.dataWizardSimplyId] : []));
  const knownWizards = new Set(
    wizards.length
      ? (await tx.$queryRawUnsafe<{ simplyId: string }[]>('SELECT "simplyId" FROM "DataWizard" WHERE "teamId" = $1 AND "simplyId" = ANY($2::text[])', site.teamId, wizards)).map((w) => w.simplyId)
      : [],
  );
  chrome.popups.forEach((popup, i) => {
    (popup.pageSimplyIds ?? []).forEach((id, j) => {
      if (!pages.has(id)) details.push({ field: `campaignChromeConfig.popups.${i}.pageSimplyIds.${j}`, message: `page ${id} is not a page of this website (deleted?)` });
    });
    if (popup.connectedComponent?.kind === 'WIZARD' && !knownWizards.has(popup.connectedComponent.dataWizardSimplyId)) {
      details.push({ field: `campaignChromeConfig.popups.${i}.connectedComponent.dataWizardSimplyId`, message: 'is not a wizard of the team' });
    }
  });
  return details;
}

/**
 * POST …/campaign-chrome/publish: checks the draft chrome against the site as it is now (deleted
 * pages and wizards block it), keeps a backup of the site, and publishes the chrome. The served
 * pages pick it up at once (their renderings are keyed by what they show); an unpublished site
 * stays unpublished.
 */
export async function publishCampaignChrome(ctx: RequestContext, websiteSimplyId: string, captureBackup: (tx: Tx, site: Website, summary: string) => Promise<unknown>): Promise<string> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site } = await siteFor(ctx, tx, websiteSimplyId, 'OWNER', { lock: true });
    if (site.campaignChromeConfig === null) throw new ValidationError('There is no campaign chrome draft to publish', [{ field: 'campaignChromeConfig', message: 'is not set' }]);
    const parsed = campaignChromeInput.safeParse(site.campaignChromeConfig);
    if (!parsed.success) {
      throw new ValidationError('The campaign chrome draft breaks a rule of version 2', parsed.error.issues.map((i) => ({ field: ['campaignChromeConfig', ...i.path.map(String)].join('.'), message: i.message })));
    }
    const problems = await chromeProblems(tx, site, parsed.data);
    if (problems.length) throw new ValidationError('The campaign chrome draft names pages or wizards that do not exist: fix the draft first', problems);
    await captureBackup(tx, site, 'Before publishing the campaign chrome');
    await tx.website.update({ where: { id: site.id, teamId: site.teamId }, data: { publishedCampaignChromeConfig: site.campaignChromeConfig as never, campaignChromePublishedAt: new Date() } });
    return site.simplyId;
  });
}
