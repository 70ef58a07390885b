// A task as its type's worker code sees it while it runs: the starter acting now, progress,
// error entries and notes on the task (what a resumed run continues from). Progress is throttled (a change at most every
// PROGRESS_EVERY_MS unless forced); each saved change bumps lastUpdatedAt, publishes the task's
// realtime event and is where a cancel request is noticed.
import type pg from 'pg';
import type { Logger } from 'pino';
import type { RequestContext, Services } from '../../app/context.ts';
import { taskTopicId } from './background-tasks.events.ts';
import { eventOf, insertErrors, mergeInternal, saveProgress, type TaskErrorEntry, type TaskRow } from './tasks.sql.ts';
import { publicObject } from './task-public.ts';

const PROGRESS_EVERY_MS = 250;

/** Ends the task FAILED with one error entry, without a retry (bad input, lost permission). */
export class TaskFailedError extends Error {
  readonly errorType: string;
  readonly errorContext: Record<string, unknown>;
  constructor(errorType: string, message: string, errorContext: Record<string, unknown> = {}) {
    super(message);
    this.name = 'TaskFailedError';
    this.errorType = errorType;
    this.errorContext = errorContext;
  }
}

/** Someone cancelled the task while it was processing (noticed at a progress update). */
export class TaskCancelledError extends Error {
  constructor() {
    super('The task was cancelled');
    this.name = 'TaskCancelledError';
  }
}

export interface TaskProgress {
  processedCount: number;
  totalCount?: number | null;
  [key: string]: unknown;
}

export class TaskRun<Q = unknown> {
  readonly task: TaskRow;
  readonly queueData: Q;
  readonly services: Services;
  readonly logger: Logger;
  /** aborted once a cancel request was noticed */
  readonly signal: AbortSignal;
  private readonly abort = new AbortController();
  private lastSaved = 0;
  private pending: TaskProgress | null = null;
  private trailing: NodeJS.Timeout | null = null;
  private actorContext: RequestContext | null = null;
  private cancelled = false;

  constructor(services: Services, task: TaskRow, logger: Logger) {
    this.services = services;
    this.task = task;
    this.queueData = task.queueData as Q;
    this.logger = logger;
    this.signal = this.abort.signal;
  }

  /**
   * The starter acting now, with the role they hold now (a permission removed since the task was
   * created applies). Fails the task when they left the team or were deactivated.
   */
  async actor(): Promise<RequestContext> {
    if (this.actorContext) return this.actorContext;
    const userId = this.task.userId;
    const principal = userId === null ? null : await this.services.authenticator.memberPrincipal(userId, this.task.teamId);
    if (!principal) throw new TaskFailedError('STARTER_NOT_ACTIVE', 'The person who started this task is no longer an active member of the team');
    this.actorContext = { requestId: `task:${this.task.simplyId}`, principal, clientIp: '', services: this.services, logger: this.logger, source: 'JOB' };
    return this.actorContext;
  }

  /**
   * Saves progress (throttled unless `force`); throws TaskCancelledError once the task was
   * cancelled. A change inside the interval is saved at its end (trailing), so a step that then
   * takes long still shows how far the task got.
   */
  async progress(progress: TaskProgress, options: { force?: boolean } = {}): Promise<void> {
    if (this.cancelled) throw new TaskCancelledError();
    const wait = this.lastSaved + PROGRESS_EVERY_MS - Date.now();
    if (!options.force && wait > 0) {
      this.pending = progress;
      this.trailing ??= setTimeout(() => void this.flushPending(), wait);
      return;
    }
    this.stopTrailing();
    this.lastSaved = Date.now();
    await this.saveIn(this.services.pool, progress);
    this.throwIfCancelled();
  }

  /** Called once the type's run has returned or thrown: no progress is saved after it. */
  close(): void {
    this.stopTrailing();
  }

  private stopTrailing(): void {
    if (this.trailing) clearTimeout(this.trailing);
    this.trailing = null;
    this.pending = null;
  }

  private async flushPending(): Promise<void> {
    const progress = this.pending;
    this.trailing = null;
    this.pending = null;
    if (!progress || this.cancelled) return;
    this.lastSaved = Date.now();
    // a cancel found here is thrown by the next progress call
    await this.saveIn(this.services.pool, progress).catch((error: unknown) => this.logger.warn({ err: error }, 'saving task progress failed'));
  }

  /**
   * Progress in the caller's transaction, so a unit of work and the progress it makes commit
   * together. Never throws for a cancel (the unit may commit); the next progress call does.
   */
  async saveIn(db: pg.Pool | pg.PoolClient, progress: TaskProgress): Promise<void> {
    const row = await saveProgress(db, this.task.teamId, this.task.id, publicObject(progress));
    if (!row || row.cancelRequestedAt) {
      this.cancelled = true;
      this.abort.abort();
    }
    if (row) {
      const note = this.services.events.notification('backgroundTaskProgress', taskTopicId(this.task.teamSimplyId, this.task.simplyId), eventOf(row));
      await db.query('SELECT pg_notify($1, $2)', [note.channel, note.payload]);
    }
  }

  /** Error entries (with row, field or record in errorContext), in `db`'s transaction when given. */
  async addErrors(entries: readonly TaskErrorEntry[], db: pg.Pool | pg.PoolClient = this.services.pool): Promise<void> {
    await insertErrors(db, this.task.teamId, this.task.id, entries);
  }

  /** Keeps values on the task that are never answered (the storage key of a result, a fingerprint). */
  async setInternal(patch: Record<string, unknown>, db: pg.Pool | pg.PoolClient = this.services.pool): Promise<void> {
    await mergeInternal(db, this.task.teamId, this.task.id, patch);
    Object.assign(this.task.internal, patch);
  }

  /** For loops that save no progress for a while: throws when a cancel request has been noticed. */
  throwIfCancelled(): void {
    if (this.cancelled) throw new TaskCancelledError();
  }
}
