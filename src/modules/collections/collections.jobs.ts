// Renaming a large collection's records after a schema change (docs/api/data-collections.md
// "Display-name formula"): a collection with more active records than RECORD_RENAME_INLINE_LIMIT
// is renamed by this queue instead of inside the request. One job per collection waits at most
// (policy `stately`: one queued and one running per collection); a job always renames against the
// schema as it is when it runs, so changes made while one waits are covered by it.
import type { Job } from 'pg-boss';
import type { RequestContext } from '../../app/context.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import { readCounts, recomputeRecordNames } from '../../kernel/index.ts';

export const RENAME_RECORDS_QUEUE = 'collections.rename-records';

interface RenameJobData {
  teamId: string;
  collectionId: string;
}

export const collectionJobs: JobDefinition<RenameJobData>[] = [
  {
    name: RENAME_RECORDS_QUEUE,
    policy: 'stately',
    retryLimit: 5,
    expireInSeconds: 60 * 60,
    async handler(jobs: Job<RenameJobData>[], { services, logger }) {
      for (const job of jobs) {
        const renamed = await recomputeRecordNames(services.pool, BigInt(job.data.teamId), BigInt(job.data.collectionId));
        logger.info({ teamId: job.data.teamId, collectionId: job.data.collectionId, renamed }, 'records renamed after a schema change');
      }
    },
  },
];

/**
 * Renames the collection's records after a schema change that can alter their names: inside the
 * request up to RECORD_RENAME_INLINE_LIMIT active records, else by a job (answered 'QUEUED').
 */
export async function renameRecordsAfterChange(ctx: RequestContext, teamId: bigint, collectionId: bigint): Promise<'DONE' | 'QUEUED'> {
  const { pool, config, jobs, logger } = ctx.services;
  const counts = await readCounts(pool, teamId, [collectionId]);
  const active = counts.get(String(collectionId))?.active ?? 0;
  if (active > config.RECORD_RENAME_INLINE_LIMIT) {
    try {
      const data: RenameJobData = { teamId: String(teamId), collectionId: String(collectionId) };
      await jobs.send(RENAME_RECORDS_QUEUE, data, { singletonKey: `${teamId}:${collectionId}` });
      return 'QUEUED';
    } catch (err) {
      logger.warn({ err, teamId: String(teamId), collectionId: String(collectionId) }, 'rename job not sent; renaming inside the request');
    }
  }
  await recomputeRecordNames(pool, teamId, collectionId);
  return 'DONE';
}
