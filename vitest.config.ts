import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // Libraries loaded by Node (Pothos, Yoga) get graphql's CommonJS entry; without this alias our
    // own modules would get its .mjs twin and graphql would refuse a schema "from another realm".
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Test files share one PostgreSQL; each isolates itself with its own teams (or database).
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ['default'],
  },
});
