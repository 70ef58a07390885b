import { defineConfig } from 'vitest/config';

export default defineConfig({
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
