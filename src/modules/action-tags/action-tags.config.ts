// Action tags: the plan a new team gets and how scans are written. README.md "Configuration"
// explains each setting.
import { z } from 'zod';
import { defineConfigSlice } from '../../app/config.ts';

const settings = z.object({
  // the plan of a team no administrator has set one for: standalone-<band> or paid-<band> (action-tag-plan.ts)
  ACTION_TAGS_DEFAULT_PLAN: z
    .string()
    .regex(/^(standalone|paid)-(100|500|1000|5000|10000|50000)$/, 'standalone-<band> or paid-<band>, band one of 100, 500, 1000, 5000, 10000, 50000')
    .default('standalone-500'),
  // how often a server writes the scans it has buffered (the window a crash can lose, at most)
  ACTION_TAGS_SCAN_FLUSH_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
}

export const actionTagsConfig = defineConfigSlice({ settings });
