import { defineConfig } from 'prisma/config';

// `env()` throws when DATABASE_URL is unset, which would break `prisma generate` on a bare machine.
export default defineConfig({
  // a schema folder: platform.prisma (generators, datasource, platform-wide tables) and one
  // <area>.prisma per area of src/modules that owns tables
  schema: 'prisma/schema',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? '' },
});
