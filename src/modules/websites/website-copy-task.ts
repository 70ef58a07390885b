// WEBSITE_COPY: a site made from a template (POST /v1/website-templates/{id}/websites) gets the
// template's newest release copied in: its pages (tree, titles, meta, designs), settings and
// navigation (pointed at the copies). One transaction, so a worker taking over after a crash finds
// either nothing copied or everything; result.stats counts what was copied.
import { ApiError } from '../../app/errors.ts';
import { runTransaction } from '../../app/transaction.ts';
import type { Website } from '../../generated/prisma/client.ts';
import { defineTaskType, TaskFailedError } from '../background-tasks/index.ts';
import { walkComponents } from './design-document.ts';
import { applyRelease } from './templates-apply.ts';
import type { TemplateContent } from './templates-content.ts';

export interface WebsiteCopyQueueData {
  websiteSimplyId: string;
  teamWebsiteTemplateSimplyId: string;
}

/** What a copy brought: the `stats` of the task's result. */
export function copyStats(content: TemplateContent, pagesCopied: number) {
  let componentsCopied = 0;
  let styleRulesCopied = 0;
  for (const page of content.pages) {
    walkComponents(page.design.components, () => componentsCopied++);
    styleRulesCopied += page.design.styles?.length ?? 0;
  }
  const settingsCopied = Object.values(content.settings).filter((v) => v !== null && !(Array.isArray(v) && v.length === 0)).length;
  const menus = (content.settings.navigationJson as { menus?: unknown[] } | null)?.menus?.length ?? 0;
  return { pagesCopied, componentsCopied, styleRulesCopied, settingsCopied, navigationMenusCopied: menus, bytesCopied: Buffer.byteLength(JSON.stringify(content)) };
}

export const websiteCopyTask = defineTaskType<WebsiteCopyQueueData>({
  type: 'WEBSITE_COPY',
  creatableByApi: false,
  prepare() {
    // never reached: creatableByApi false refuses POST /v1/background-tasks before prepare
    throw new Error('WEBSITE_COPY tasks are queued by POST /v1/website-templates/{teamWebsiteTemplateSimplyId}/websites');
  },
  async run(run) {
    const started = Date.now();
    const actor = await run.actor();
    const q = run.queueData;
    const teamId = run.task.teamId;
    await run.progress({ processedCount: 0 }, { force: true });
    const copied = await runTransaction(run.services.prisma, async (tx) => {
      const [site] = await tx.$queryRawUnsafe<Website[]>('SELECT * FROM "Website" WHERE "teamId" = $1 AND "simplyId" = $2 FOR UPDATE', teamId, q.websiteSimplyId);
      if (!site) throw new TaskFailedError('WEBSITE_NOT_FOUND', 'The website being made from the template was deleted', { websiteSimplyId: q.websiteSimplyId });
      const link = await tx.websiteTemplateLink.findUnique({ where: { teamId_websiteId: { teamId, websiteId: site.id } } });
      if (!link) throw new TaskFailedError('WEBSITE_NOT_FROM_TEMPLATE', 'The website was disconnected from its template before it was copied', { websiteSimplyId: q.websiteSimplyId });
      const template = await tx.websiteTemplate.findUniqueOrThrow({ where: { id: link.templateId } });
      // the newest release now: one made while the task waited is the one to copy
      const release = await tx.websiteTemplateRelease.findUniqueOrThrow({ where: { templateId_number: { templateId: template.id, number: template.latestReleaseNumber } } });
      const content = release.content as unknown as TemplateContent;
      if (link.appliedReleaseNumber !== null) return { content, releaseNumber: link.appliedReleaseNumber, pages: content.pages.length };
      const outcome = await applyRelease(actor, tx, site, link, { number: release.number, content }, { publish: false, firstCopy: true });
      return { content, releaseNumber: release.number, pages: outcome.pagesAdded.length };
    }).catch((error: unknown) => {
      // a refusal (the site's page limit) is the same on every try
      if (error instanceof ApiError) throw new TaskFailedError(error.code, error.message, { websiteSimplyId: q.websiteSimplyId });
      throw error;
    });
    const stats = copyStats(copied.content, copied.pages);
    await run.progress({ processedCount: copied.pages, totalCount: copied.pages }, { force: true });
    return {
      result: {
        websiteSimplyId: q.websiteSimplyId,
        teamWebsiteTemplateSimplyId: q.teamWebsiteTemplateSimplyId,
        releaseNumber: copied.releaseNumber,
        successCount: copied.pages,
        failureCount: 0,
        durationMs: Date.now() - started,
        stats,
      },
    };
  },
});
