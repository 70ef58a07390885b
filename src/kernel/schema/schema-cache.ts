// Keeps each team's TeamSchema in memory. A schema change sends `pg_notify('svc_schema', teamId)`
// inside its transaction, so every instance drops the entry when the change commits; a load that
// raced with an invalidation is not kept (generation check); a listener reconnect drops all.
import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import type { PgNotifier } from '../../app/pubsub/pg-notifier.ts';
import { loadTeamSchema, type TeamSchema } from './team-schema.ts';

export const SCHEMA_CHANNEL = 'svc_schema';

export class SchemaCache {
  private readonly entries = new LRUCache<string, Promise<TeamSchema>>({ max: 2_000 });
  private readonly generations = new Map<string, number>();
  /** schema loads from the database (tests and metrics read it) */
  loads = 0;

  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  async listen(notifier: PgNotifier): Promise<void> {
    await notifier.listen(SCHEMA_CHANNEL, (payload) => this.invalidate(payload));
    notifier.onReconnect(() => this.entries.clear());
  }

  get(teamId: bigint): Promise<TeamSchema> {
    const key = String(teamId);
    const cached = this.entries.get(key);
    if (cached) return cached;
    const generation = this.generations.get(key) ?? 0;
    this.loads++;
    const loading = loadTeamSchema(this.pool, teamId);
    this.entries.set(key, loading);
    loading.then(
      () => {
        if ((this.generations.get(key) ?? 0) !== generation && this.entries.get(key) === loading) this.entries.delete(key);
      },
      () => {
        if (this.entries.get(key) === loading) this.entries.delete(key);
      },
    );
    return loading;
  }

  invalidate(teamId: bigint | string): void {
    const key = String(teamId);
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
    this.entries.delete(key);
  }
}
