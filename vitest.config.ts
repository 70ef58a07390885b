import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/longest-first.ts';

const require = createRequire(import.meta.url);

/**
 * Test files that need a process of their own: they measure the process they run in (memory), or
 * use state that lives once per process (the schema engine's WebAssembly instance and its panic
 * registry). Every other file shares its worker with the files before it: loading the platform
 * once per worker rather than once per file is most of what makes the suite fast.
 */
const OWN_PROCESS = [
  'test/db/engine-errors.test.ts',
  'test/files/local-storage.test.ts',
  'test/app/release-after-load.test.ts',
];


export default defineConfig({
  resolve: {
    // Libraries loaded by Node (Pothos, Yoga) get graphql's CommonJS entry; without this alias our
    // own modules would get its .mjs twin and graphql would refuse a schema "from another realm".
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    // Test files share one PostgreSQL; each isolates itself with its own teams (or database).
    globalSetup: ['test/support/global-setup.ts'],
    // which file each worker runs, for the stall watchdog below
    setupFiles: ['test/support/worker-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    // a file stuck past TEST_STALL_MINUTES is reported and its worker stopped (scripts/test.ts runs it again)
    reporters: ['default', './test/support/stall-watchdog.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'shared worker', include: ['test/**/*.test.ts'], exclude: OWN_PROCESS, isolate: false },
      },
      {
        extends: true,
        test: { name: 'own process', include: OWN_PROCESS, isolate: true },
      },
    ],
  },
});
