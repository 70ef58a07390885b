// The WEBSITE_IMPORT background task (docs/api/websites.md "Import"): reads each selected page
// through the guarded fetch, converts it to a sanitized design (import-convert.ts), brings its
// images in as team files (import-images.ts) and creates it as a draft page of the target site.
// A page that cannot be imported is an error entry (errorContext.pageUrl) and the others go on.
// Pages already made are noted on the task, so a worker taking over after a crash does not make
// them twice. The review suggestions are kept on the import row and answered in the result.
import type { RequestContext } from '../../app/context.ts';
import { runTransaction } from '../../app/transaction.ts';
import type { Website } from '../../generated/prisma/client.ts';
import { defineTaskType, type TaskRun, TaskFailedError } from '../background-tasks/index.ts';
import { checkDesign } from './design-document.ts';
import { convertPage } from './import-convert.ts';
import { FetchProblem, guardedGet, IMPORT_LIMITS, isHtml, robotsOf, type RobotsCheck } from './import-fetch.ts';
import { importImages, type ImageOutcome, placeImages } from './import-images.ts';
import { ruleKey } from './import-css.ts';
import { planOf, planPages, type PlannedPage } from './import-plan.ts';
import { type ImportMarkers, type Suggestion } from './import-suggestions.ts';
import { insertPage } from './page-insert.ts';
import { siteFor } from './website-access.ts';
import { createWebsite } from './websites.service.ts';

export interface ImportQueueData {
  sourceUrl: string;
  pages: string[];
  targetMode: 'NEW_WEBSITE' | 'EXISTING_WEBSITE';
  websiteSimplyId: string | null;
  websiteName: string | null;
  styleSource: 'EXTRACTED' | 'EXISTING_WEBSITE';
}

interface DonePage {
  sourceUrl: string;
  pageSimplyId: string;
  title: string;
}

const ERROR_TYPES: Record<FetchProblem['kind'], string> = {
  REFUSED: 'TARGET_REFUSED',
  UNREACHABLE: 'PAGE_UNREACHABLE',
  HTTP_STATUS: 'PAGE_NOT_AVAILABLE',
  TOO_LARGE: 'PAGE_TOO_LARGE',
  WRONG_TYPE: 'NOT_HTML',
  ROBOTS: 'ROBOTS_DISALLOWED',
};

async function targetSite(run: TaskRun<ImportQueueData>, actor: RequestContext): Promise<Website> {
  const db = actor.services.prisma;
  const row = await db.websiteImport.findUniqueOrThrow({ where: { teamId_backgroundTaskSimplyId: { teamId: run.task.teamId, backgroundTaskSimplyId: run.task.simplyId } } });
  const q = run.queueData;
  if (row.websiteId !== null) {
    const site = await db.website.findFirst({ where: { id: row.websiteId, teamId: run.task.teamId } });
    if (!site) throw new TaskFailedError('WEBSITE_NOT_FOUND', 'The website the import writes to was deleted');
    // the starter's role is checked again as it is now
    return (await siteFor(actor, db, site.simplyId, 'EDITOR')).site;
  }
  const created = await createWebsite(actor, { name: q.websiteName ?? 'Imported website' });
  await db.websiteImport.update({ where: { id: row.id }, data: { websiteId: created.site.id } });
  return created.site;
}

/** Suggestions from what the run found, each with a stable id (a second run finds the same). */
function suggestionsOf(done: readonly DonePage[], markers: ImportMarkers, conflicts: number, truncated: readonly DonePage[]): Suggestion[] {
  const out: Suggestion[] = [];
  for (const page of done) {
    const forms = markers.forms[page.pageSimplyId] ?? [];
    if (forms.length) out.push({ suggestionId: `form-${page.pageSimplyId}`, kind: 'FORM_TO_WIZARD', pageSimplyId: page.pageSimplyId, message: `Page “${page.title}” had ${forms.length === 1 ? 'a form' : `${forms.length} forms`}: replace it with a wizard`, status: 'OPEN' });
  }
  const missing = Object.values(markers.missingImages).reduce((n, ids) => n + ids.length, 0);
  if (missing > 0) out.push({ suggestionId: 'missing-images', kind: 'MISSING_IMAGES', pageSimplyId: null, message: `${missing} image${missing === 1 ? '' : 's'} could not be fetched: remove the placeholders, or keep them to add the images by hand`, status: 'OPEN' });
  if (conflicts > 0) out.push({ suggestionId: 'style-conflicts', kind: 'STYLE_CONFLICTS', pageSimplyId: null, message: `${conflicts} style rule${conflicts === 1 ? ' is' : 's are'} defined differently on different pages: keep each page's own styles, or drop the imported styles`, status: 'OPEN' });
  for (const page of truncated) out.push({ suggestionId: `truncated-${page.pageSimplyId}`, kind: 'PAGE_TRUNCATED', pageSimplyId: page.pageSimplyId, message: `Page “${page.title}” was larger than a design may be: its end was left out`, status: 'OPEN' });
  return out;
}

async function runImport(run: TaskRun<ImportQueueData>) {
  const actor = await run.actor();
  const services = run.services;
  const policy = { allowLoopback: services.config.WEBSITE_IMPORT_ALLOW_LOOPBACK };
  const q = run.queueData;
  const site = await targetSite(run, actor);
  const done = new Map(((run.task.internal.donePages as DonePage[] | undefined) ?? []).map((p) => [p.sourceUrl, p]));
  const markers: ImportMarkers = (run.task.internal.markers as ImportMarkers | undefined) ?? { forms: {}, missingImages: {}, styledPages: [] };
  // planned once: a worker taking over keeps the slugs (and links) the first one chose
  let planned = run.task.internal.plan as [string, PlannedPage][] | undefined;
  if (!planned) {
    planned = await planPages(services.prisma, site, q.pages);
    await run.setInternal({ plan: planned });
  }
  const plan = planOf(planned);
  let robots: RobotsCheck = () => true;
  try {
    robots = await robotsOf(new URL(q.sourceUrl), policy);
  } catch (error) {
    throw new TaskFailedError('TARGET_REFUSED', (error as Error).message, { sourceUrl: q.sourceUrl });
  }
  const images = new Map<string, ImageOutcome>();
  const rulesSeen = new Map<string, string>();
  const conflicting = new Set<string>();
  const truncated: DonePage[] = [];
  let failed = 0;
  let imagesImported = 0;
  for (const [index, source] of q.pages.entries()) {
    await run.progress({ processedCount: index, totalCount: q.pages.length, successCount: done.size, failureCount: failed });
    if (done.has(source)) continue;
    const url = new URL(source);
    const fail = async (errorType: string, message: string) => {
      failed++;
      await run.addErrors([{ errorType, errorMessage: message.slice(0, 1000), errorContext: { rowNumber: index + 1, pageUrl: source } }]);
    };
    if (!robots(url.pathname)) {
      await fail('ROBOTS_DISALLOWED', `The site's robots.txt does not allow reading ${url.pathname}`);
      continue;
    }
    let html: string;
    let pageUrl: URL;
    try {
      const fetched = await guardedGet(url, policy, { maxBytes: IMPORT_LIMITS.pageBytes, accept: isHtml, signal: run.signal });
      html = fetched.body.toString('utf8');
      pageUrl = fetched.url;
    } catch (error) {
      run.throwIfCancelled();
      if (error instanceof FetchProblem) await fail(ERROR_TYPES[error.kind], error.message);
      else await fail('PAGE_UNREACHABLE', 'The page could not be read');
      continue;
    }
    const converted = convertPage(html, { pageUrl, linkOf: plan.linkOf, extractStyles: q.styleSource === 'EXTRACTED' });
    await importImages(services, policy, { teamId: run.task.teamId, teamSimplyId: run.task.teamSimplyId, origin: `website-import:${run.task.simplyId}` }, converted.images.map((i) => i.sourceUrl), images, run.signal);
    const missing = placeImages(converted.images, images);
    imagesImported += converted.images.length - missing.length;
    const problems = checkDesign(converted.design, 'design');
    if (problems.length > 0) {
      // never stored: the converter should not make such a design, and a page is better missing than unsafe
      run.logger.warn({ problems: problems.slice(0, 5), pageUrl: source }, 'an imported page did not pass the design check');
      await fail('UNSAFE_CONTENT', `The page could not be made into a safe design (${problems[0]!.message})`);
      continue;
    }
    const slot = plan.pages.get(source)!;
    const title = (converted.title ?? slot.slug).slice(0, 200);
    const page = await runTransaction(services.prisma, async (tx) => {
      await tx.$queryRawUnsafe('SELECT 1 FROM "Website" WHERE "teamId" = $1 AND id = $2 FOR UPDATE', site.teamId, site.id);
      return insertPage(actor, tx, site, { title, slug: slot.slug, parentId: null, design: converted.design, metaTitle: converted.title, metaDescription: converted.metaDescription, field: `selectedPages.${index}` });
    }).catch(async (error: unknown) => {
      await fail('PAGE_NOT_CREATED', (error as Error).message);
      return null;
    });
    if (!page) continue;
    const entry = { sourceUrl: source, pageSimplyId: page.simplyId, title };
    done.set(source, entry);
    if (converted.truncated) truncated.push(entry);
    if (converted.formIds.length) markers.forms[page.simplyId] = converted.formIds;
    if (missing.length) markers.missingImages[page.simplyId] = missing;
    if (converted.design.styles.length) markers.styledPages.push(page.simplyId);
    for (const rule of converted.design.styles) {
      const key = ruleKey(rule);
      const style = JSON.stringify(rule.style);
      if (rulesSeen.has(key) && rulesSeen.get(key) !== style) conflicting.add(key);
      else rulesSeen.set(key, style);
    }
    await run.setInternal({ donePages: [...done.values()], markers });
  }
  const pages = [...done.values()];
  const suggestions = suggestionsOf(pages, markers, conflicting.size, truncated);
  await services.prisma.websiteImport.update({
    where: { teamId_backgroundTaskSimplyId: { teamId: run.task.teamId, backgroundTaskSimplyId: run.task.simplyId } },
    data: { suggestions: suggestions as never, markers: markers as never },
  });
  await run.progress({ processedCount: q.pages.length, totalCount: q.pages.length, successCount: pages.length, failureCount: failed }, { force: true });
  const imagesFailed = Object.values(markers.missingImages).reduce((n, ids) => n + ids.length, 0);
  return {
    status: pages.length === 0 ? ('FAILED' as const) : failed > 0 ? ('PARTIAL_SUCCESS' as const) : ('COMPLETED' as const),
    result: {
      websiteSimplyId: site.simplyId,
      sourceUrl: q.sourceUrl,
      pageCount: q.pages.length,
      successCount: pages.length,
      failureCount: failed,
      pages,
      imagesImported,
      imagesFailed,
      suggestions,
    },
  };
}

export const websiteImportTask = defineTaskType<ImportQueueData>({
  type: 'WEBSITE_IMPORT',
  // started with POST /v1/websites/import/start, which checks the site and the source
  creatableByApi: false,
  prepare: () => {
    throw new TaskFailedError('TASK_TYPE_NOT_SUPPORTED', 'Website imports are started with POST /v1/websites/import/start');
  },
  run: runImport,
});
