// Starting an import (POST /v1/websites/import/start): the source must be a public http(s) address
// (checked now, and again on every read), the selected pages on the same site, the target site one
// the caller edits (EXISTING_WEBSITE, EDITOR) or one they may create (NEW_WEBSITE, the websites
// feature at edit level). Queues a WEBSITE_IMPORT task with its import row in one transaction.
import type { RequestContext } from '../../app/context.ts';
import { type ErrorDetail, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { queueTask } from '../background-tasks/index.ts';
import { resolveTarget, TargetRefused, TargetUnresolved } from '../webhooks/index.ts';
import { fetchPolicy, sameSitePage } from './import-discover.ts';
import { ImportSourceUnavailableError, ImportTargetRefusedError } from './import-errors.ts';
import { parseSourceUrl } from './import-fetch.ts';
import { startImportInput } from './import-input.ts';
import { pageKey } from './import-plan.ts';
import type { ImportQueueData } from './import-task.ts';
import { requireWebsitesFeature, siteFor } from './website-access.ts';

export interface ImportStarted {
  backgroundTaskSimplyId: string;
  status: 'QUEUED';
  websiteSimplyId: string | null;
  pageCount: number;
}

function selectedPages(source: URL, selected: readonly string[] | undefined): string[] {
  if (!selected) return [source.href];
  const details: ErrorDetail[] = [];
  const seen = new Map<string, string>();
  selected.forEach((value, i) => {
    const url = sameSitePage(value, source);
    if (!url) details.push({ field: `selectedPages.${i}`, message: 'must be a page of the site being imported (same host, http or https)' });
    else if (!seen.has(pageKey(url))) seen.set(pageKey(url), url.href);
  });
  if (details.length) throw new ValidationError('Invalid import', details);
  return [...seen.values()];
}

export async function startImport(ctx: RequestContext, raw: unknown): Promise<ImportStarted> {
  requireWebsitesFeature(ctx, 'EDIT');
  const team = requireTeam(ctx);
  const input = parseInput(startImportInput, raw, 'Invalid import');
  const source = parseSourceUrl(input.sourceUrl);
  const pages = selectedPages(source, input.selectedPages);
  const db = ctx.services.prisma;
  const site = input.targetMode === 'EXISTING_WEBSITE' ? (await siteFor(ctx, db, input.existingWebsiteSimplyId!, 'EDITOR')).site : null;
  try {
    await resolveTarget(source, { allowLoopback: fetchPolicy(ctx).allowLoopback });
  } catch (error) {
    if (error instanceof TargetUnresolved) throw new ImportSourceUnavailableError(error.message, 'UNREACHABLE');
    if (error instanceof TargetRefused) throw new ImportTargetRefusedError(error.message);
    throw error;
  }
  const queueData: ImportQueueData = {
    sourceUrl: source.href,
    pages,
    targetMode: input.targetMode,
    websiteSimplyId: site?.simplyId ?? null,
    websiteName: input.websiteName ?? source.hostname,
    styleSource: input.styleSource === 'EXISTING_WEBSITE' ? 'EXISTING_WEBSITE' : 'EXTRACTED',
  };
  const taskSimplyId = await runTransaction(db, async (tx) => {
    const simplyId = await queueTask(ctx, tx, 'WEBSITE_IMPORT', { queueData, totalCount: pages.length });
    await tx.websiteImport.create({
      data: { teamId: team.id, backgroundTaskSimplyId: simplyId, websiteId: site?.id ?? null, sourceUrl: source.href, createdByUserId: ctx.principal.userId },
    });
    return simplyId;
  });
  return { backgroundTaskSimplyId: taskSimplyId, status: 'QUEUED', websiteSimplyId: site?.simplyId ?? null, pageCount: pages.length };
}
