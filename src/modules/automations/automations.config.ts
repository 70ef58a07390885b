// Automations: how deep automation-caused writes may chain. README.md "Configuration" explains each setting.
import { z } from 'zod';
import { defineConfigSlice } from '../../app/config.ts';

const settings = z.object({
  // automation-caused record writes may trigger automations this many levels deep (loop guard)
  AUTOMATION_MAX_DEPTH: z.coerce.number().int().min(0).max(10).default(3),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
}

export const automationsConfig = defineConfigSlice({
  settings,
});
