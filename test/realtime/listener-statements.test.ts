// The listening connection takes one statement at a time: modules that listen at the same moment
// (start, reconnect) and the event catch-up's reads on that connection wait their turn. node-postgres
// deprecates a statement given to a busy client with a warning on stderr (and will refuse it), so a
// process that listens to many channels at once prints nothing and every channel is heard.
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startChildProcess } from '../support/worker-process.ts';

const notifier = new URL('../../src/app/pubsub/pg-notifier.ts', import.meta.url).href;

describe('the listening connection', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('listens to many channels at once without a warning, and hears each of them', async () => {
    const script = `
      import pg from 'pg';
      import { PgNotifier } from ${JSON.stringify(notifier)};
      const url = process.env.DATABASE_URL;
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      const listener = new PgNotifier(url, pool);
      await listener.start();
      const heard = new Set();
      await Promise.all([
        ...Array.from({ length: 12 }, (_, i) => listener.listen('listener_test_' + i, (payload) => heard.add(payload))),
        listener.queryOnListener('SELECT 1 AS one'),
        listener.queryOnListener('SELECT 2 AS two'),
      ]);
      for (let i = 0; i < 12; i++) await listener.notify('listener_test_' + i, 'p' + i);
      while (heard.size < 12) await new Promise((resolve) => setTimeout(resolve, 20));
      await listener.stop();
      await pool.end();
      process.stdout.write('heard ' + heard.size + '\\n');
    `;
    const run = startChildProcess(['--input-type=module', '-e', script], { ...process.env, DATABASE_URL: inject('databaseUrl') }, cleanups);
    await run.exited;
    await run.outputRead;
    expect(run.stderr()).toBe('');
    expect(run.stdout()).toContain('heard 12');
  });
});
