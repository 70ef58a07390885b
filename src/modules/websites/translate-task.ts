// WEBSITE_TRANSLATION: a site's pages translated into further languages, as a background task people
// can follow (GET /v1/background-tasks/{id}). Queued only by POST …/translate/start
// (translate-service.ts), which checks the request, the EDITOR role and the model; registered with
// the background-tasks area when this area's module loads. progress: page and language pairs;
// result: the counts; a page and language the model failed on is an error entry (PARTIAL_SUCCESS;
// FAILED when nothing could be translated). A repeated run keeps what an earlier one translated.
import { ApiError } from '../../app/errors.ts';
import { defineTaskType, TaskFailedError } from '../background-tasks/index.ts';
import { runWebsiteTranslation, type WebsiteTranslationQueueData } from './translate-service.ts';

export const websiteTranslationTask = defineTaskType<WebsiteTranslationQueueData>({
  type: 'WEBSITE_TRANSLATION',
  creatableByApi: false,
  prepare() {
    // never reached: creatableByApi false refuses POST /v1/background-tasks before prepare
    throw new Error('WEBSITE_TRANSLATION tasks are queued by POST /v1/websites/{websiteSimplyId}/translate/start');
  },
  async run(run) {
    const actor = await run.actor();
    let summary;
    try {
      summary = await runWebsiteTranslation(actor, run.queueData, (processedCount, totalCount) => run.progress({ processedCount, totalCount }));
    } catch (error) {
      // the site is gone, or the starter lost their role on it: trying again cannot help
      if (error instanceof ApiError) throw new TaskFailedError(error.code, error.message, { websiteSimplyId: run.queueData.websiteSimplyId });
      throw error;
    }
    const total = run.queueData.pageSimplyIds.length * run.queueData.languageTagIds.length;
    await run.progress({ processedCount: total, totalCount: total }, { force: true });
    if (summary.failures.length > 0) {
      await run.addErrors(
        summary.failures.map((f) => ({ errorType: f.errorType, errorMessage: f.message, errorContext: { pageSimplyId: f.pageSimplyId, languageTagId: f.languageTagId }, dedupeKey: `${f.pageSimplyId}:${f.languageTagId}` })),
      );
    }
    const result = { successCount: summary.translated, failureCount: summary.failures.length, componentsTranslated: summary.componentsTranslated, componentsKept: summary.componentsKept };
    return { result, status: summary.translated === 0 && summary.failures.length > 0 ? 'FAILED' : undefined };
  },
});
