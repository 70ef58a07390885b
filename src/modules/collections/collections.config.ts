// Settings of the collections area. README.md "Configuration" explains each setting.
import { z } from 'zod';
import { defineConfigSlice } from '../../app/config.ts';

const settings = z.object({
  // records renamed inside the request after a schema change at most; a larger collection is renamed by a job
  RECORD_RENAME_INLINE_LIMIT: z.coerce.number().int().min(0).default(5000),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
}

export const collectionsConfig = defineConfigSlice({
  settings,
});
