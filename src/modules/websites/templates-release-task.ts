// WEBSITE_TEMPLATE_RELEASE: a template release applied to every AUTO site connected to the template
// when it was released (templates-apply.ts has the merge rule), one site per transaction, with
// progress and one outcome per site in the result. A site that failed is also an error entry
// (errorContext.websiteSimplyId) and the others go on (PARTIAL_SUCCESS). A site already at this
// release or a newer one, or no longer following the template in AUTO mode, is SKIPPED: a worker
// taking over after a crash skips what the first one applied.
import { ApiError } from '../../app/errors.ts';
import { runTransaction } from '../../app/transaction.ts';
import type { Website } from '../../generated/prisma/client.ts';
import { defineTaskType, TaskFailedError } from '../background-tasks/index.ts';
import { applyRelease, emptyOutcome, type SiteOutcome } from './templates-apply.ts';
import type { TemplateContent } from './templates-content.ts';

export interface TemplateReleaseQueueData {
  teamWebsiteTemplateSimplyId: string;
  releaseNumber: number;
  managedPublish: boolean;
  websiteSimplyIds: string[];
}

type Outcome = Omit<SiteOutcome, 'status'> & { status: SiteOutcome['status'] | 'SKIPPED' };

export const templateReleaseTask = defineTaskType<TemplateReleaseQueueData>({
  type: 'WEBSITE_TEMPLATE_RELEASE',
  creatableByApi: false,
  prepare() {
    // never reached: creatableByApi false refuses POST /v1/background-tasks before prepare
    throw new Error('WEBSITE_TEMPLATE_RELEASE tasks are queued by POST /v1/website-templates/{teamWebsiteTemplateSimplyId}/release');
  },
  async run(run) {
    const started = Date.now();
    const actor = await run.actor();
    const q = run.queueData;
    const db = run.services.prisma;
    const teamId = run.task.teamId;
    const template = await db.websiteTemplate.findUnique({ where: { teamId_simplyId: { teamId, simplyId: q.teamWebsiteTemplateSimplyId } } });
    const release = template && (await db.websiteTemplateRelease.findUnique({ where: { templateId_number: { templateId: template.id, number: q.releaseNumber } } }));
    if (!template || !release) throw new TaskFailedError('WEBSITE_TEMPLATE_NOT_FOUND', 'The template was deleted', { teamWebsiteTemplateSimplyId: q.teamWebsiteTemplateSimplyId });
    const content = release.content as unknown as TemplateContent;
    const outcomes: Outcome[] = [];
    const total = q.websiteSimplyIds.length;
    const count = (status: Outcome['status']) => outcomes.filter((o) => o.status === status).length;
    for (const [index, websiteSimplyId] of q.websiteSimplyIds.entries()) {
      await run.progress({ processedCount: index, totalCount: total, successCount: count('APPLIED'), failureCount: count('FAILED') });
      try {
        outcomes.push(
          await runTransaction(db, async (tx): Promise<Outcome> => {
            const [site] = await tx.$queryRawUnsafe<Website[]>('SELECT * FROM "Website" WHERE "teamId" = $1 AND "simplyId" = $2 FOR UPDATE', teamId, websiteSimplyId);
            const link = site && (await tx.websiteTemplateLink.findUnique({ where: { teamId_websiteId: { teamId, websiteId: site.id } } }));
            const skipped = (reason: string): Outcome => ({ ...emptyOutcome(websiteSimplyId, q.releaseNumber), status: 'SKIPPED', errorMessage: reason });
            if (!site) return skipped('the website was deleted');
            if (!link || link.templateId !== template.id || link.syncMode !== 'AUTO') return skipped('the website no longer follows the template automatically');
            if ((link.appliedReleaseNumber ?? 0) >= q.releaseNumber) return skipped(`the website is already at release ${link.appliedReleaseNumber}`);
            return applyRelease(actor, tx, site, link, { number: q.releaseNumber, content }, { publish: q.managedPublish, firstCopy: false });
          }),
        );
      } catch (error) {
        run.throwIfCancelled();
        const message = error instanceof ApiError ? error.message : 'The release could not be applied to this website';
        if (!(error instanceof ApiError)) run.logger.warn({ err: error, websiteSimplyId }, 'a template release failed on a website');
        outcomes.push({ ...emptyOutcome(websiteSimplyId, q.releaseNumber), status: 'FAILED', errorMessage: message });
        await run.addErrors([{ errorType: 'WEBSITE_NOT_UPDATED', errorMessage: message, errorContext: { websiteSimplyId }, dedupeKey: websiteSimplyId }]);
      }
    }
    await run.progress({ processedCount: total, totalCount: total, successCount: count('APPLIED'), failureCount: count('FAILED') }, { force: true });
    const keptLocal = outcomes.reduce((n, o) => n + o.keptLocal.length, 0);
    return {
      result: {
        teamWebsiteTemplateSimplyId: q.teamWebsiteTemplateSimplyId,
        releaseNumber: q.releaseNumber,
        successCount: count('APPLIED'),
        failureCount: count('FAILED'),
        skippedCount: count('SKIPPED'),
        pagesKeptLocal: keptLocal,
        durationMs: Date.now() - started,
        // the first 100 sites (a task's result keeps lists that long); failures are error entries too
        sites: outcomes.slice(0, 100),
      },
      status: total > 0 && count('FAILED') === total ? 'FAILED' : undefined,
    };
  },
});
