// Pitfall 7: the engine never disposes the adapters it is given, so every pool must be ended by us.
// Each test tags its connections with its own application_name and counts what is left.
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { openSchemaEngine } from '../../src/db/schema-engine/engine.ts';
import { applyPendingMigrations, diffMigrationsToSchema, migrationStatus } from '../../src/db/schema-engine/migrations.ts';
import { connectionsOf, useThrowawayDatabase } from './helpers.ts';

const serverUrl = inject('databaseUrl');
const uniqueName = () => `svc-test-pools-${randomBytes(4).toString('hex')}`;
// a closed client's backend takes a moment to leave pg_stat_activity
const settled = { timeout: 5_000, interval: 50 };

describe('connection pools', () => {
  const db = useThrowawayDatabase(serverUrl, 'pools');

  it('are open while an engine is in use and all ended by dispose()', async () => {
    const applicationName = uniqueName();
    const engine = await openSchemaEngine({ databaseUrl: db.url, applicationName });
    await engine.version();
    expect(await connectionsOf(serverUrl, applicationName)).toBeGreaterThan(0);

    await engine.dispose();

    await expect.poll(() => connectionsOf(serverUrl, applicationName), settled).toBe(0);
  });

  it('are all ended after applying, diffing (with a shadow database) and reading the status', async () => {
    const applicationName = uniqueName();
    await applyPendingMigrations({ databaseUrl: db.url, applicationName });
    await migrationStatus({ databaseUrl: db.url, applicationName });
    await diffMigrationsToSchema({ databaseUrl: db.url, applicationName });

    await expect.poll(() => connectionsOf(serverUrl, applicationName), settled).toBe(0);
  });

  it('are ended even when the engine call fails', async () => {
    const applicationName = uniqueName();
    const engine = await openSchemaEngine({ databaseUrl: db.url, applicationName });
    await engine.call('dbExecute', { datasourceType: { tag: 'url', url: db.url }, script: 'SELECT nonsense FROM nowhere' }).catch(() => {});
    await engine.dispose();

    await expect.poll(() => connectionsOf(serverUrl, applicationName), settled).toBe(0);
  });
});
