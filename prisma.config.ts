import { defineConfig } from 'prisma/config';

// `env()` throws when DATABASE_URL is unset, which would break `prisma generate` on a bare machine.
export default defineConfig({
  schema: 'schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? '' },
});
