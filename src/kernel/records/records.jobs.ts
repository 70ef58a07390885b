// Queues of the records area: folding the record-count deltas (record-counts.sql.ts). A sweep
// every minute folds every collection with more than one delta row; between sweeps, a read that
// sums more than FOLD_THRESHOLD rows for a collection asks for a fold of that collection alone.
import type { Job } from 'pg-boss';
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import { FOLD_THRESHOLD, foldAllCounts, foldCounts } from './record-counts.sql.ts';

export const FOLD_RECORD_COUNTS = 'records.fold-counts';
export const SWEEP_RECORD_COUNTS = 'records.fold-counts-sweep';

interface FoldJobData {
  teamId: string;
  collectionId: string;
}

/** A collection asked for again within this time is not sent again by the same instance. */
const REQUEST_INTERVAL_MS = 10_000;
/** Remembered requests per instance before the memory is cleared (a bound, not a policy). */
const MAX_REMEMBERED = 10_000;

/**
 * The fold requests of each instance, found by its pool: record pages are read through the pool
 * alone (findRecordPage is shared by records, views and automations), so that is what a read
 * hands over. A pool no instance registered (a script) asks nothing; the sweep still folds.
 */
const requesters = new WeakMap<pg.Pool, (teamId: bigint, collectionId: bigint) => void>();

/**
 * Asks for a fold of the collection when a read summed more than FOLD_THRESHOLD delta rows. Never
 * waits and never fails the read: the queue keeps at most one job per collection (policy `short`,
 * singletonKey), and the instance sends a collection at most once per REQUEST_INTERVAL_MS.
 */
export function requestCountFold(pool: pg.Pool, teamId: bigint, collectionId: bigint, deltaRows: number): void {
  if (deltaRows > FOLD_THRESHOLD) requesters.get(pool)?.(teamId, collectionId);
}

function registerFoldRequests(services: Services): void {
  const sent = new Map<string, number>();
  requesters.set(services.pool, (teamId, collectionId) => {
    const key = `${teamId}:${collectionId}`;
    const now = Date.now();
    if (now - (sent.get(key) ?? 0) < REQUEST_INTERVAL_MS) return;
    if (sent.size >= MAX_REMEMBERED) sent.clear();
    sent.set(key, now);
    const data: FoldJobData = { teamId: String(teamId), collectionId: String(collectionId) };
    services.jobs.send(FOLD_RECORD_COUNTS, data, { singletonKey: key }).catch((err: unknown) => {
      sent.delete(key);
      services.logger.debug({ err, teamId: data.teamId, collectionId: data.collectionId }, 'record count fold request failed; the sweep folds');
    });
  });
}

export function recordJobs(services: Services): JobDefinition<never>[] {
  registerFoldRequests(services);
  return [
    {
      name: FOLD_RECORD_COUNTS,
      policy: 'short',
      retryLimit: 2,
      handler: async (jobs: Job<FoldJobData>[], { services: s }) => {
        await foldCounts(s.pool, jobs.map((job) => ({ teamId: BigInt(job.data.teamId), collectionId: BigInt(job.data.collectionId) })));
      },
    } as JobDefinition<never>,
    {
      name: SWEEP_RECORD_COUNTS,
      schedule: '* * * * *',
      // one queued sweep at a time; a missed one is the next minute's
      policy: 'short',
      retryLimit: 0,
      handler: async (_jobs, { services: s, logger }) => {
        const { collections, removed } = await foldAllCounts(s.pool);
        if (removed > 0) logger.debug({ collections, removed }, 'record count deltas folded');
      },
    },
  ];
}
